package seeds

import (
	"fmt"
	"testing"
)

func TestTrapLike(t *testing.T) {
	var urls []string
	for m := 1; m <= 12; m++ { // one calendar: a shared template, 12 pages
		urls = append(urls, fmt.Sprintf("http://t.test/calendar/2025/%02d/", m))
	}
	for d := 1; d <= 12; d++ { // blog posts: dated, each its own template
		urls = append(urls, fmt.Sprintf("http://b.test/2025/05/%02d/post-%d/", d, d))
	}
	urls = append(urls, "http://b.test/about", "")
	got := TrapLike(urls)
	for v, u := range urls {
		want := v < 12
		if got[v] != want {
			t.Errorf("TrapLike(%q) = %v, want %v", u, got[v], want)
		}
	}
}
