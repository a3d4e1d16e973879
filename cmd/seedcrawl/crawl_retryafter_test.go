package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestCrawlRetryAfterYearEnds crawls a host that answers 429 with a
// Retry-After of a year: the crawl honours it by not coming back, gives the
// host up with the reason recorded and ends, where it waited the year out
// with nothing in flight and a progress line that never changed.
func TestCrawlRetryAfterYearEnds(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<a href="/limited">l</a><a href="/after">a</a>`))
		case "/limited":
			w.Header().Set("Retry-After", "31536000")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/after":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<p>after`))
		default:
			http.NotFound(w, r)
		}
	})
	// The crawl ends by itself in well under a second.
	start := time.Now()
	db, stdout, stderr := crawlServer(t, srv, "--json")
	var sum struct {
		Stopped string `json:"stopped"`
		Pending int    `json:"pending"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("summary %q: %v", stdout, err)
	}
	if sum.Stopped != "exhausted" || sum.Pending != 0 {
		t.Errorf("stopped %q with %d pending, want exhausted with 0", sum.Stopped, sum.Pending)
	}
	st := readDB(t, db, (*storage.DB).Stats)
	if n := st.Reasons["deferred/retry-after 8760h0m0s exceeds 1h0m0s"]; n != 1 {
		t.Errorf("pages deferred for the Retry-After: %d, want 1 (/after); reasons %v", n, st.Reasons)
	}
	if st.Frontier != 0 {
		t.Errorf("frontier holds %d URLs, want 0", st.Frontier)
	}
	// The drop lasts a day: the warning dates its end, a time of day
	// alone read as minutes from now.
	checkContains(t, "stderr", stderr, `msg="host given up"`)
	if !strings.Contains(stderr, `until="`+start.Add(24*time.Hour).Format(time.DateOnly)) &&
		!strings.Contains(stderr, `until="`+time.Now().Add(24*time.Hour).Format(time.DateOnly)) {
		t.Errorf("the warning does not date the drop's end, a day from now:\n%s", stderr)
	}
}
