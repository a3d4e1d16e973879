package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
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
	page := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>only in the sitemap")
	}
	sitemap := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
			`<url><loc>http://%s/only</loc><lastmod>2024-01-01</lastmod></url></urlset>`, r.Host)
	}
	s := newLinkSite(t, 8, map[string]http.HandlerFunc{"/only": page, "/sitemap.xml": sitemap})
	db := filepath.Join(t.TempDir(), "sitemapfirst.db")
	for c := 1; c <= 2; c++ {
		runCmd(t, []string{"--db", db, "--allow-private", "--delay", "100ms", "--delay-factor", "0", "--workers", "4",
			"--progress", "0", "--commit-interval", "50ms", "--pages-per-cycle", "3", "--seed-algo", "given",
			"--cycles", strconv.Itoa(c), s.srv.URL + "/"})
		if paths, _ := s.requests(); !slices.Contains(paths, "/sitemap.xml") {
			t.Errorf("cycle %d: requests %v; want /sitemap.xml read within the budget of 3", c, paths)
		}
	}
	st := runReadDB(t, db)
	if _, ok := st.pages[s.srv.URL+"/only"]; !ok {
		t.Errorf("%s/only, listed only by the sitemap, not discovered", s.srv.URL)
	}
}
