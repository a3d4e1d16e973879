package main

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunSitemapGone runs three cycles of `run` over a test web whose
// sitemap host serves its sitemaps and whose other hosts answer 404 for
// /sitemap.xml, and reads the server's log: a sitemap that answered 404 is
// asked for again only --revisit-gone cycles later, like any 404, while a
// sitemap that exists is read in every cycle.
func TestRunSitemapGone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra []string
		gone  int // requests of a 404 sitemap over cycles 1..3
	}{
		{"default revisit-gone 4", nil, 1},
		{"revisit-gone 2", []string{"--revisit-gone", "2"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 60, Hosts: 3, Preset: testweb.Clean, Sitemaps: true}, testweb.Options{})
			db := filepath.Join(t.TempDir(), "r.db")
			for c := 1; c <= 3; c++ {
				runCmd(t, append(runArgs(t, w, db, append(tc.extra, "--cycles", strconv.Itoa(c))...), w.site.Seeds()...))
			}
			asked := map[string]int{}
			status := map[string]int{}
			for _, e := range w.log.Entries() {
				if e.Target == "/sitemap.xml" {
					asked[e.URL()]++
					status[e.URL()] = e.Status
				}
			}
			missing, present := 0, 0
			for u, n := range asked {
				switch {
				case status[u] == 404 || status[u] == 410:
					missing++
					if n != tc.gone {
						t.Errorf("%s answered %d and was asked for %d times in 3 cycles; want %d", u, status[u], n, tc.gone)
					}
				case status[u] == 200 || status[u] == 304:
					present++
					if n != 3 {
						t.Errorf("%s exists and was asked for %d times in 3 cycles; want once per cycle", u, n)
					}
				}
			}
			if missing == 0 || present == 0 {
				t.Fatalf("the test web has %d missing and %d present /sitemap.xml files; want both: %v", missing, present, status)
			}
			st := runReadDB(t, db)
			if len(st.cycles) != 3 || st.cycles[2].End.IsZero() {
				t.Fatalf("cycles: %+v, want 3 complete", st.cycles)
			}
			for u := range asked {
				if p := st.pages[u]; status[u] == 404 && (p.Code != 404 || p.Fetches != uint32(tc.gone)) {
					t.Errorf("%s: stored code %d after %d fetches; want 404 after %d", u, p.Code, p.Fetches, tc.gone)
				}
			}
		})
	}
}
