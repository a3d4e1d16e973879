package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunStartLineCountsDuePages: the line run prints as a cycle starts
// counts the known pages due now, not every known page. Cycle 1 stores a
// revisit interval of 1ms with every page, cycle 2 (epoch 1: new pages)
// runs with --revisit-initial 24h, so its refetches keep intervals of
// milliseconds while the pages it finds first get 24h. In cycle 3 (no
// budget, no refresh cap: every due page is refetched) the line's
// figures must be the known pages in the db (seeds left out: they are
// refetched whatever their interval) and the refetches the cycle makes,
// and those must be pages of cycle 1, not the ones cycle 2 found.
func TestRunStartLineCountsDuePages(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 4, Pages: 120, Hosts: 3, Preset: testweb.Clean,
		Evolution: testweb.Evolution{New: 0.4}}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "due.db")
	cycle := func(n int, initial string, extra ...string) string {
		t.Helper()
		args := append(runArgs(t, w, db, append([]string{"--cycles", fmt.Sprint(n), "--seed-algo", "given", "--revisit-initial", initial},
			extra...)...), w.site.Seeds()...)
		code, _, stderr := cmdRun(append([]string{"run"}, args...)...)
		if code != 0 {
			t.Fatalf("cycle %d: exit %d\n%s", n, code, stderr)
		}
		return stderr
	}
	requested := func() map[string]bool {
		set := map[string]bool{}
		for _, e := range w.log.Entries() {
			if runPageRequest(e) {
				set[e.URL()] = true
			}
		}
		w.log.Reset()
		return set
	}
	cycle(1, "1ms")
	first := requested()
	w.toEpoch(t, 1)
	cycle(2, "24h")
	second := requested()
	seeds := map[string]bool{}
	for _, s := range w.site.Seeds() {
		seeds[s] = true
	}
	known := 0
	for u, p := range runReadDB(t, db).pages {
		if p.Fetches > 0 && !seeds[u] {
			known++
		}
	}
	newIn2 := 0
	for u := range second {
		if !first[u] {
			newIn2++
		}
	}

	// Cycle 3 twice from copies of the db: without a budget, and with
	// one larger than the site (a lazy cycle: the line counts the known
	// pages it queues first, here all of them). Cycle 1's pages have
	// millisecond intervals, passed by the time cycle 3 is planned
	// (closing cycle 2 ranks its graph first).
	lazy := filepath.Join(t.TempDir(), "lazy.db")
	runCopyFile(t, db, lazy)
	for _, tc := range []struct {
		name string
		db   string
		line *regexp.Regexp
		args []string
	}{
		{"no budget", db, regexp.MustCompile(`starting cycle 3 \(.*?(\d+) of (\d+) known pages due to revisit[,)]`), nil},
		{"budget", lazy, regexp.MustCompile(`starting cycle 3 \(.*?(\d+) of the (\d+) known pages queued at the start are due to revisit`),
			[]string{"--pages-per-cycle", "1000"}},
	} {
		db = tc.db
		stderr := cycle(3, "24h", tc.args...)
		m := tc.line.FindStringSubmatch(stderr)
		if m == nil {
			t.Errorf("%s: no start line with due pages for cycle 3:\n%s", tc.name, stderr)
			continue
		}
		gotDue, _ := strconv.Atoi(m[1])
		gotKnown, _ := strconv.Atoi(m[2])
		refetched, notDue := 0, 0
		for u := range requested() {
			switch {
			case seeds[u]:
			case first[u]:
				refetched++
			default:
				notDue++
			}
		}
		t.Logf("%s: cycle 3: %d of %d known pages due (printed); %d refetched; %d pages first fetched in cycle 2",
			tc.name, gotDue, gotKnown, refetched, newIn2)
		if gotKnown != known {
			t.Errorf("%s: cycle 3 start line counts %d known pages, the db holds %d (seeds left out)", tc.name, gotKnown, known)
		}
		if gotDue != refetched || notDue > 0 {
			t.Errorf("%s: cycle 3 start line counts %d due pages; the cycle refetched %d of cycle 1's pages and %d others",
				tc.name, gotDue, refetched, notDue)
		}
		if gotDue == 0 || gotDue+newIn2 > gotKnown {
			t.Errorf("%s: %d due of %d known with %d pages first fetched in cycle 2 (24h): want some due, none of those",
				tc.name, gotDue, gotKnown, newIn2)
		}
	}
}
