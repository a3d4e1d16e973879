package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/monitor"
)

// TestCrawlMissingSitemapNotAnError crawls a site with one broken link
// and no /sitemap.xml: the crawl's errors are the site's, the broken link
// alone, and the /sitemap.xml it asked for on its own (404) is counted
// with the sitemaps; both requests still count as fetch outcomes.
func TestCrawlMissingSitemapNotAnError(t *testing.T) {
	s := newLinkSite(t, 1, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<a href="/p0">p0</a> <a href="/gone">gone</a>`)
	}})
	db := filepath.Join(t.TempDir(), "sitemaperrors.db")
	out := cmdOK(t, "crawl", "--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--progress", "0",
		"--json", s.srv.URL+"/")
	var sum monitor.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if want := map[string]uint64{"http-404": 1}; !maps.Equal(sum.Errors, want) {
		t.Errorf("errors %v, want %v (/gone only)", sum.Errors, want)
	}
	if n := sum.Sitemaps["error/http-404"]; n != 1 {
		t.Errorf("sitemaps %v, want error/http-404 1 (/sitemap.xml)", sum.Sitemaps)
	}
	if n := sum.ByStatus["http-error"]; n != 2 {
		t.Errorf("fetch outcomes %v, want http-error 2 (/gone, /sitemap.xml)", sum.ByStatus)
	}
}

// TestCycleErrorsLeaveOutSitemaps runs one cycle of `run` on a site with
// one broken link and no /sitemap.xml: the cycle's errors, in run's
// cycle line and in stats (JSON and --cycles), are the broken link alone,
// as in the crawl summary; the /sitemap.xml the crawl asked for on its
// own is a fetch but not an error.
func TestCycleErrorsLeaveOutSitemaps(t *testing.T) {
	site := newLinkSite(t, 1, map[string]http.HandlerFunc{
		"/": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/p0">p0</a> <a href="/gone">gone</a>`)
		},
	})
	db := filepath.Join(t.TempDir(), "cycleerrors.db")
	out := cmdOK(t, "run", "--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--progress", "0",
		"--cycles", "1", site.srv.URL+"/")
	checkContains(t, "cycle line", out, "4 fetches (URLs requested): 2 new, 0 changed, 0 unchanged, 0 gone, 1 errors;")
	var st statsJSONOut
	if err := json.Unmarshal([]byte(cmdOK(t, "stats", "--db", db, "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Cycles) != 1 || st.Cycles[0].Stats.Errors != 1 || st.Cycles[0].Stats.Fetches != 4 {
		t.Errorf("stats cycles %+v, want one with 4 fetches (/, /p0, /gone, /sitemap.xml) and 1 error (/gone)", st.Cycles)
	}
	checkContains(t, "stats --cycles", cmdOK(t, "stats", "--db", db, "--cycles"), "errors: failed fetches of pages, not of sitemaps")
}
