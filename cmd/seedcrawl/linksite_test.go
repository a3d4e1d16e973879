package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// linkSite is a site on loopback whose home page links to pages /p0 ...
// /p(n-1), each a short HTML page; extra answers other paths (robots.txt,
// a sitemap), and anything else is 404. It records the path and arrival
// time of every request.
type linkSite struct {
	srv *httptest.Server

	mu    sync.Mutex
	paths []string
	times []time.Time
}

func newLinkSite(t *testing.T, n int, extra map[string]http.HandlerFunc) *linkSite {
	s := &linkSite{}
	pages := map[string]bool{}
	for i := range n {
		pages[fmt.Sprintf("/p%d", i)] = true
	}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.times = append(s.times, time.Now())
		s.mu.Unlock()
		switch p := r.URL.Path; {
		case extra[p] != nil:
			extra[p](w, r)
		case p == "/":
			w.Header().Set("Content-Type", "text/html")
			for i := range n {
				fmt.Fprintf(w, `<a href="/p%d">p%d</a> `, i, i)
			}
		case pages[p]:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<p>page %s", p)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// requests returns the paths and arrival times of the requests since the
// last call, and forgets them.
func (s *linkSite) requests() ([]string, []time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	paths, times := slices.Clone(s.paths), slices.Clone(s.times)
	s.paths, s.times = nil, nil
	return paths, times
}
