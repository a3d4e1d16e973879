package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// TestRunSitemapBeforeBudget runs two cycles of `run` with a budget of
// three requests per cycle over a site whose home page links to more
// pages than that: the site's /sitemap.xml, queued once the home page is
// recorded, is read in each cycle before the budget goes to the pages the
// home page links to (in cycle 2 those are known pages queued at the start
// of the cycle, ahead of the sitemap in order of discovery), so the page
// only the sitemap lists is found and the cycle gets the lastmod values.
func TestRunSitemapBeforeBudget(t *testing.T) {
	var mu sync.Mutex
	var log []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, r.URL.Path)
		mu.Unlock()
		switch p := r.URL.Path; {
		case p == "/":
			w.Header().Set("Content-Type", "text/html")
			for i := range 8 {
				fmt.Fprintf(w, `<a href="/p%d">p%d</a> `, i, i)
			}
		case p == "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<url><loc>http://%s/only</loc><lastmod>2024-01-01</lastmod></url></urlset>`, r.Host)
		case p == "/only" || len(p) == 3:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<p>page %s", p)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "sitemapfirst.db")
	for c := 1; c <= 2; c++ {
		mu.Lock()
		log = nil
		mu.Unlock()
		runCmd(t, []string{"--db", db, "--allow-private", "--delay", "100ms", "--delay-factor", "0", "--workers", "4",
			"--progress", "0", "--commit-interval", "50ms", "--pages-per-cycle", "3", "--seed-algo", "given",
			"--cycles", strconv.Itoa(c), srv.URL + "/"})
		mu.Lock()
		got := append([]string(nil), log...)
		mu.Unlock()
		read := false
		for _, p := range got {
			read = read || p == "/sitemap.xml"
		}
		if !read {
			t.Errorf("cycle %d: requests %v; want /sitemap.xml read within the budget of 3", c, got)
		}
	}
	st := runReadDB(t, db)
	if _, ok := st.pages[srv.URL+"/only"]; !ok {
		t.Errorf("%s/only, listed only by the sitemap, not discovered", srv.URL)
	}
}
