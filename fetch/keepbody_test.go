package fetch

import (
	"bytes"
	"context"
	"testing"
)

// TestKeepBody: a sitemap is fetched with KeepBody, which keeps a non-HTML
// body under the same MaxBody bound; 404 bodies are still dropped.
func TestKeepBody(t *testing.T) {
	s := newTestServer(t, 64<<10)
	f := newFetcher(t, Options{MaxBody: 16 << 10})
	for _, c := range []struct {
		name, path string
		want       int // body bytes kept
		truncated  bool
	}{
		{"small", "/pdf", 4000, false},
		{"over max-body", "/big-pdf", 16 << 10, true},
		{"404", "/missing", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := f.Fetch(context.Background(), Request{URL: s.URL + c.path, KeepBody: true})
			if r.Err != nil || len(r.Body) != c.want || r.Truncated != c.truncated {
				t.Fatalf("code %d err %v: %d body bytes, truncated %v; want %d, %v", r.Code, r.Err, len(r.Body), r.Truncated, c.want, c.truncated)
			}
			if c.path == "/pdf" && !bytes.Equal(r.Body, bytes.Repeat([]byte("%PDF"), 1000)) {
				t.Error("body differs from what the server sent")
			}
		})
	}
}
