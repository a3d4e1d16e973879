package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestRelease: a released body's buffer is reused by the next Fetch of
// the same Fetcher when it is large enough, and a body that was not
// released is never written to again. Steps run in order on one Fetcher.
func TestRelease(t *testing.T) {
	pages := map[string][]byte{
		"/a":     pageOf('a', 3000),
		"/b":     pageOf('b', 2000),
		"/c":     pageOf('c', 2500),
		"/large": pageOf('L', 9000),
		"/huge":  pageOf('H', bodySpareMax+10),
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(len(pages[r.URL.Path])))
		w.Write(pages[r.URL.Path])
	}))
	t.Cleanup(s.Close)
	f := newFetcher(t, Options{MaxBody: 4 << 20})
	kept := map[string][]byte{} // path -> a body that was not released
	var last []byte             // the body of the previous step
	var lastPath string
	for _, step := range []struct {
		path        string
		releaseLast bool // Release the previous step's body before fetching
		reused      bool // the body must sit in the previous step's buffer
	}{
		{path: "/a"},
		{path: "/b", releaseLast: true, reused: true},  // 2000 bytes fit a's buffer
		{path: "/large", releaseLast: true},            // too large: a fresh buffer
		{path: "/c", releaseLast: false},               // large's body is not released
		{path: "/a", releaseLast: true, reused: true},  // c's buffer back again
		{path: "/huge", releaseLast: true},             // above bodySpareMax
		{path: "/b", releaseLast: true, reused: false}, // the huge buffer was not kept
	} {
		if step.releaseLast {
			f.Release(last)
		} else if last != nil {
			kept[lastPath] = last
		}
		r := f.Fetch(context.Background(), Request{URL: s.URL + step.path})
		if r.Err != nil || !bytes.Equal(r.Body, pages[step.path]) {
			t.Fatalf("%s: err %v, body of %d bytes differs from the page", step.path, r.Err, len(r.Body))
		}
		if got := last != nil && &r.Body[0] == &last[:1][0]; got != step.reused {
			t.Errorf("%s: reuses the last body's buffer: %v, want %v", step.path, got, step.reused)
		}
		for p, b := range kept {
			if !bytes.Equal(b, pages[p]) {
				t.Fatalf("%s: the unreleased body of %s was overwritten", step.path, p)
			}
		}
		last, lastPath = r.Body, step.path
	}
}

// pageOf is an HTML page of n bytes: a tag, then fill.
func pageOf(fill byte, n int) []byte {
	b := bytes.Repeat([]byte{fill}, n)
	copy(b, "<p>")
	return b
}
