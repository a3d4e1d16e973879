package main

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunSitemapGone runs four cycles of `run` over a test web whose
// sitemap host serves its sitemaps and whose other hosts answer 404 for
// /sitemap.xml, and reads the server's log: a sitemap that answered 404 is
// asked for again only --revisit-gone (g) cycles later, like any 404, in a
// cycle of its phase, so g to 2g−1 cycles later the first time (with g 2:
// in cycle 3 or 4), while a sitemap that exists is read in every cycle.
func TestRunSitemapGone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra []string
		gone  int // requests of a 404 sitemap over cycles 1..4
	}{
		{"default revisit-gone 4", nil, 1},
		{"revisit-gone 2", []string{"--revisit-gone", "2"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 60, Hosts: 3, Preset: testweb.Clean, Sitemaps: true}, testweb.Options{})
			db := filepath.Join(t.TempDir(), "r.db")
			const cycles = 4
			for c := 1; c <= cycles; c++ {
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
						t.Errorf("%s answered %d and was asked for %d times in %d cycles; want %d", u, status[u], n, cycles, tc.gone)
					}
				case status[u] == 200 || status[u] == 304:
					present++
					if n != cycles {
						t.Errorf("%s exists and was asked for %d times in %d cycles; want once per cycle", u, n, cycles)
					}
				}
			}
			if missing == 0 || present == 0 {
				t.Fatalf("the test web has %d missing and %d present /sitemap.xml files; want both: %v", missing, present, status)
			}
			st := runReadDB(t, db)
			if len(st.cycles) != cycles || st.cycles[cycles-1].End.IsZero() {
				t.Fatalf("cycles: %+v, want %d complete", st.cycles, cycles)
			}
			for u := range asked {
				if p := st.pages[u]; status[u] == 404 && (p.Code != 404 || p.Fetches != uint32(tc.gone)) {
					t.Errorf("%s: stored code %d after %d fetches; want 404 after %d", u, p.Code, p.Fetches, tc.gone)
				}
			}
		})
	}
}

// clockSite is a site on loopback whose clock is off from the crawler's
// by skew: every answer's Date, and the lastmod values its /sitemap.xml
// lists for its pages, are on that clock. It counts the requests per
// path.
type clockSite struct {
	srv *httptest.Server

	mu      sync.Mutex
	skew    time.Duration
	lastmod map[string]time.Time // path → lastmod listed, on the site's clock
	asked   map[string]int
	date    map[string]string // path → a Date header sent instead of the site's clock
}

func newClockSite(t *testing.T, skew time.Duration) *clockSite {
	s := &clockSite{skew: skew, lastmod: map[string]time.Time{}, asked: map[string]int{}, date: map[string]string{}}
	s.srv = serve(t, s.serve)
	return s
}

// now is the site's clock.
func (s *clockSite) now() time.Time { return time.Now().Add(s.skew) }

func (s *clockSite) setLastMod(path string, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastmod[path] = t
}

func (s *clockSite) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[path]
}

func (s *clockSite) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked[r.URL.Path]++
	w.Header().Set("Date", s.now().UTC().Format(http.TimeFormat))
	if d, ok := s.date[r.URL.Path]; ok {
		w.Header().Set("Date", d)
	}
	switch p := r.URL.Path; {
	case p == "/":
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<p><a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a> <a href="/d">d</a> <a href="/e">e</a> <a href="/f">f</a>`)
	case p == "/sitemap.xml":
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, path := range slices.Sorted(maps.Keys(s.lastmod)) {
			fmt.Fprintf(w, "<url><loc>%s%s</loc><lastmod>%s</lastmod></url>", s.srv.URL, path, s.lastmod[path].UTC().Format(time.RFC3339))
		}
		fmt.Fprint(w, `</urlset>`)
	case len(p) == 2:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<p>page %s", p)
	default:
		http.NotFound(w, r)
	}
}

// runClockSite runs cycles 1..3 of `run` on s, calling between(c, db)
// before cycle c, with revisit intervals of a day, so that in cycles 2 and
// 3 a known page is refetched only when the sitemap says it changed.
func runClockSite(t *testing.T, s *clockSite, between func(cycle int, db string)) {
	db := filepath.Join(t.TempDir(), "clock.db")
	for c := 1; c <= 3; c++ {
		between(c, db)
		runCmd(t, []string{"--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--workers", "2",
			"--progress", "0", "--commit-interval", "50ms", "--revisit-initial", "24h", "--cycles", strconv.Itoa(c), s.srv.URL + "/"})
	}
	if n := s.count("/sitemap.xml"); n != 3 {
		t.Fatalf("/sitemap.xml asked for %d times in 3 cycles, want 3", n)
	}
}

// TestRunSitemapFutureLastMod lists pages with a lastmod in the years
// 2999 (past what a time in nanoseconds holds) and 2200, and one a day
// ahead of the site's clock: none is a change the crawl can catch up
// with, so each page is fetched once, not in every cycle.
func TestRunSitemapFutureLastMod(t *testing.T) {
	s := newClockSite(t, 0)
	s.setLastMod("/a", time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC))
	s.setLastMod("/b", time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC))
	s.setLastMod("/c", s.now().Add(-time.Hour))
	s.setLastMod("/d", s.now().Add(24*time.Hour))
	s.setLastMod("/f", time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)) // stored as nanoseconds since 1970, it would read back as 2169
	s.setLastMod("/e", time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC))
	runClockSite(t, s, func(c int, path string) {
		if c != 2 {
			return
		}
		// What an older build stored for /e from the same sitemap: the
		// next read of the sitemap forgets it.
		db, err := storage.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		p, err := db.PageByURL(s.srv.URL + "/e")
		if err != nil {
			t.Fatal(err)
		}
		b := &storage.Batch{}
		b.SetLastMod(p.ID, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC))
		if err := db.Commit(b); err != nil {
			t.Fatal(err)
		}
	})
	for _, p := range []string{"/a", "/b", "/c", "/d", "/f"} {
		if n := s.count(p); n != 1 {
			t.Errorf("%s (lastmod %v) fetched %d times in 3 cycles; want once", p, s.lastmod[p], n)
		}
	}
	// /e is due in cycle 2 by the stored value if the crawl reaches it
	// before it reads the sitemap, and no more.
	if n := s.count("/e"); n > 2 {
		t.Errorf("/e fetched %d times in 3 cycles; want at most twice", n)
	}
}

// TestRunSitemapServerClock runs against sites whose clocks are six hours
// ahead of the crawler's and six hours behind. On the site's clock /c
// last changed an hour before the crawl began, so it is fetched once;
// /d changes between cycles 1 and 2 (the site's clock moves on a minute,
// more than the second its Date and lastmod resolve, and /d's lastmod
// becomes its time), so it is fetched again once, in cycle 2 or, if the
// sitemap is read after /d in cycle 2, in cycle 3.
func TestRunSitemapServerClock(t *testing.T) {
	for _, skew := range []time.Duration{6 * time.Hour, -6 * time.Hour} {
		t.Run(skew.String(), func(t *testing.T) {
			s := newClockSite(t, skew)
			s.setLastMod("/c", s.now().Add(-time.Hour))
			s.setLastMod("/d", s.now().Add(-time.Hour))
			runClockSite(t, s, func(c int, _ string) {
				if c == 2 {
					s.mu.Lock()
					s.skew += time.Minute
					s.mu.Unlock()
					s.setLastMod("/d", s.now())
				}
			})
			if c, d := s.count("/c"), s.count("/d"); c != 1 || d != 2 {
				t.Errorf("fetches in 3 cycles: /c %d, want 1 (unchanged); /d %d, want 2 (changed once)", c, d)
			}
		})
	}
}

// TestRunSitemapLyingDate runs against a site whose Date headers lie by
// years: its sitemap says it is the year 9000, so a lastmod a day ahead of
// the crawler's clock would pass as past; /c says it is 1999, so any
// lastmod would look later than its fetch. A Date more than 30 days off
// the crawler's clock is not taken as the site's clock: each page is
// fetched once.
func TestRunSitemapLyingDate(t *testing.T) {
	s := newClockSite(t, 0)
	s.date["/sitemap.xml"] = "Mon, 01 Jan 9000 00:00:00 GMT"
	s.date["/c"] = "Fri, 01 Jan 1999 00:00:00 GMT"
	s.setLastMod("/a", s.now().Add(24*time.Hour))
	s.setLastMod("/c", s.now().Add(-time.Hour))
	runClockSite(t, s, func(int, string) {})
	for _, p := range []string{"/a", "/c"} {
		if n := s.count(p); n != 1 {
			t.Errorf("%s fetched %d times in 3 cycles; want once", p, n)
		}
	}
}
