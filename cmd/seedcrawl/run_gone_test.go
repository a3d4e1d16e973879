package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// goneSite is a site on loopback with live pages, broken links (404),
// directory links that redirect (/dN to /dN/), as documentation sites
// have, and links to pages it forbids (403). It counts the requests per path in the current cycle and serves
// Last-Modified, so an unchanged page answers 304.
type goneSite struct {
	srv   *httptest.Server
	mu    sync.Mutex
	asked map[string]int
	mod   time.Time
}

const (
	goneSiteLive    = 8  // /pN
	goneSiteMissing = 12 // /missingN: 404
	goneSiteDirs    = 4  // /dN: 301 to /dN/
	goneSiteDenied  = 4  // /forbiddenN: 403
)

func newGoneSite(t *testing.T) *goneSite {
	s := &goneSite{asked: map[string]int{}, mod: time.Now().Add(-time.Hour).UTC().Truncate(time.Second)}
	s.srv = serve(t, s.serve)
	return s
}

// cycle returns the requests per path since the last call.
func (s *goneSite) cycle() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.asked
	s.asked = map[string]int{}
	return out
}

func (s *goneSite) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.asked[r.URL.Path]++
	s.mu.Unlock()
	p := r.URL.Path
	var body strings.Builder
	switch {
	case p == "/":
		for i := range goneSiteLive {
			fmt.Fprintf(&body, `<a href="/p%d">p</a> `, i)
		}
		for i := range goneSiteMissing {
			fmt.Fprintf(&body, `<a href="/missing%d">m</a> `, i)
		}
		for i := range goneSiteDirs {
			fmt.Fprintf(&body, `<a href="/d%d">d</a> `, i)
		}
		for i := range goneSiteDenied {
			fmt.Fprintf(&body, `<a href="/forbidden%d">f</a> `, i)
		}
	case strings.HasPrefix(p, "/forbidden"):
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	case strings.HasPrefix(p, "/p") || strings.HasPrefix(p, "/d") && strings.HasSuffix(p, "/"):
		fmt.Fprintf(&body, `<p>page %s <a href="/">home</a>`, p)
	case strings.HasPrefix(p, "/d"):
		http.Redirect(w, r, p+"/", http.StatusMovedPermanently)
		return
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	http.ServeContent(w, r, "", s.mod, bytes.NewReader([]byte(body.String())))
}

// TestRunGoneSpread runs nine back-to-back cycles of `run` with every
// known page due (no --revisit-initial, no --interval) over a site whose
// crawl finds broken links, directory redirects and forbidden pages, and
// reads the server's side: every live page is requested in every cycle;
// the 404s, redirects and 403s are not requested in cycles 2..4 and then
// come due in equal shares over cycles 5..8 (--revisit-gone 4), not all
// in cycle 5, which would then send as many requests as the first crawl;
// and each is requested again four cycles after its previous request.
func TestRunGoneSpread(t *testing.T) {
	s := newGoneSite(t)
	db := filepath.Join(t.TempDir(), "gone.db")
	gone := map[string]bool{}
	for i := range goneSiteMissing {
		gone[fmt.Sprintf("/missing%d", i)] = true
	}
	for i := range goneSiteDirs {
		gone[fmt.Sprintf("/d%d", i)] = true
	}
	for i := range goneSiteDenied {
		gone[fmt.Sprintf("/forbidden%d", i)] = true
	}
	const cycles = 9
	asked := make([]map[string]int, cycles+1)
	for c := 1; c <= cycles; c++ {
		runCmd(t, []string{"--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--workers", "2",
			"--progress", "0", "--commit-interval", "50ms", "--seed-algo", "given", "--sitemaps=false",
			"--cycles", strconv.Itoa(c), s.srv.URL + "/"})
		asked[c] = s.cycle()
	}
	when := map[string][]int{} // per gone-like path, the cycles it was requested in after cycle 1
	for c := 1; c <= cycles; c++ {
		n := 0
		for p, k := range asked[c] {
			if k != 1 && p != "/robots.txt" {
				t.Errorf("cycle %d: %s requested %d times", c, p, k)
			}
			if gone[p] {
				n++
				if c > 1 {
					when[p] = append(when[p], c)
				}
			}
		}
		for i := range goneSiteLive {
			if p := fmt.Sprintf("/p%d", i); asked[c][p] != 1 {
				t.Errorf("cycle %d: live page %s requested %d times, want once (every page is due)", c, p, asked[c][p])
			}
		}
		switch {
		case c == 1 && n != len(gone):
			t.Errorf("cycle 1 requested %d of the %d broken links, redirects and 403s, want all", n, len(gone))
		case c >= 2 && c <= 4 && n != 0:
			t.Errorf("cycle %d requested %d broken links, redirects and 403s, want none before cycle 5", c, n)
		case c >= 5 && n > len(gone)/4+1:
			t.Errorf("cycle %d requested %d of the %d broken links, redirects and 403s, want about a quarter", c, n, len(gone))
		}
		t.Logf("cycle %d: %d requests, %d of them broken links, redirects and 403s", c, len(asked[c]), n)
	}
	for p := range gone {
		cs := when[p]
		switch {
		case len(cs) == 0 || cs[0] < 5 || cs[0] > 8:
			t.Errorf("%s requested again in cycles %v, want once in cycles 5..8", p, cs)
		case len(cs) == 2 && cs[1] != cs[0]+4, len(cs) > 2, len(cs) == 1 && cs[0] == 5:
			t.Errorf("%s requested again in cycles %v, want every 4th cycle", p, cs)
		}
	}
}
