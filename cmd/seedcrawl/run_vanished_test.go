package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRunVanishedNotReplaced runs two cycles of `run` on a loopback site
// with three given seeds: /gone answers 404 from the start and links
// nowhere, so nothing can replace it; /p0 answers 404 from cycle 2 on and
// is replaced by a live page near it. Each cycle's report counts the
// vanished seeds and, apart, those that got a replacement, in the text
// and JSON forms of run and in stats.
func TestRunVanishedNotReplaced(t *testing.T) {
	var p0Gone atomic.Bool
	site := newLinkSite(t, 3, map[string]http.HandlerFunc{
		"/p0": func(w http.ResponseWriter, r *http.Request) {
			if p0Gone.Load() {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<p>p0 <a href="/">home</a>`))
		},
	})
	db := filepath.Join(t.TempDir(), "vanished.db")
	args := func(cycles string, extra ...string) []string {
		return append(append([]string{"run", "--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0",
			"--progress", "0", "--sitemaps=false", "--seed-algo", "given", "--cycles", cycles}, extra...),
			site.srv.URL+"/", site.srv.URL+"/p0", site.srv.URL+"/gone")
	}

	out := cmdOK(t, args("1")...)
	checkContains(t, "cycle 1 report", out, "1 vanished, 0 replaced;", "/gone vanished (404): no replacement found")

	p0Gone.Store(true)
	out = cmdOK(t, args("2", "--json")...)
	var c2 runCycleOut
	if err := json.Unmarshal([]byte(out), &c2); err != nil {
		t.Fatalf("cycle 2 report %q: %v", out, err)
	}
	replaced := 0
	for _, r := range c2.Replaced {
		if r.New != nil {
			replaced++
		}
	}
	if c2.SeedsVanished != len(c2.Replaced) || c2.SeedsReplaced != replaced {
		t.Errorf("cycle 2: seeds_vanished %d, seeds_replaced %d; want %d, %d (the entries of replaced, those with a new seed): %s",
			c2.SeedsVanished, c2.SeedsReplaced, len(c2.Replaced), replaced, out)
	}
	if c2.SeedsReplaced != 1 || c2.SeedsVanished != 2 {
		t.Errorf("cycle 2: %d vanished, %d replaced; want 2 (/gone, /p0), 1 (/p0): %s", c2.SeedsVanished, c2.SeedsReplaced, out)
	}

	var st statsJSONOut
	if err := json.Unmarshal([]byte(cmdOK(t, "stats", "--db", db, "--json")), &st); err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for _, c := range st.Cycles {
		got = append(got, [2]int{c.SeedsVanished, c.SeedsReplaced})
	}
	if want := [][2]int{{1, 0}, {2, 1}}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("stats --json cycles (vanished, replaced) %v, want %v", got, want)
	}
	table := cmdOK(t, "stats", "--db", db, "--cycles")
	checkContains(t, "stats --cycles", table, " vanished ")
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 11 && f[0] == "1" && (f[9] != "1" || f[10] != "0") {
			t.Errorf("stats --cycles row of cycle 1 has vanished %s, replaced %s; want 1, 0:\n%s", f[9], f[10], table)
		}
	}
}
