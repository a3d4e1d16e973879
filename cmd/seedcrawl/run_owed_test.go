package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunBinaryResumesOwedRefetches: cycle 2 of a budget-limited crawl
// with a paced refresh share large enough for every known page (all due:
// no revisit interval), run by the binary from copies of the same db:
// once uninterrupted, then stopped while refetches are owed (SIGKILL,
// SIGINT) and rerun. The paced cycle traverses known pages ahead of the
// rate and owes their refetches; the resumed cycle must make the
// refetches the stopped run owed, so it refetches the same set of known
// pages as the uninterrupted one (all of them), audited from the server's
// access log; and no URL is requested twice in the cycle, except after
// kill -9 those in flight at the kill.
func TestRunBinaryResumesOwedRefetches(t *testing.T) {
	dir := t.TempDir()
	bin := seedcrawlBinary(t)
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 7, Pages: 1500, Hosts: 5, Preset: testweb.Clean,
		Evolution: testweb.Evolution{Change: 0.2, New: 0.3}}, testweb.Options{})
	args := func(db, cycles, pages string, extra ...string) []string {
		a := runKillArgs(w, db, cycles, 4*time.Millisecond, 2, append([]string{"--pages-per-cycle", pages}, extra...)...)
		return append(a, w.site.Seeds()...)
	}
	ref := filepath.Join(dir, "ref.db")
	base := runCycle1Copies(t, w, bin, dir, func(db string) []string { return args(db, "1", "150") }, ref)
	fetched1 := map[string]bool{}
	for _, e := range w.log.Entries() {
		if runPageRequest(e) {
			fetched1[e.URL()] = true
		}
	}
	known := len(fetched1)
	if known < 140 {
		t.Fatalf("cycle 1 requested %d pages, want about its budget of 150 (less its sitemaps)", known)
	}
	// A refresh share of 0.5 allows 225 refetches, more than the known
	// pages: an uninterrupted cycle refetches every one it reaches.
	cycle2 := func(db string) []string { return args(db, "2", "450", "--refresh-share", "0.5") }
	refetches := func(es []testweb.Entry) (set map[string]int, requests int) {
		set = map[string]int{}
		for _, e := range es {
			if !runPageRequest(e) {
				continue
			}
			requests++
			if fetched1[e.URL()] {
				set[e.URL()]++
			}
		}
		return set, requests
	}

	w.log.Reset()
	binOK(t, "reference cycle 2", bin, cycle2(ref)...)
	want, total := refetches(w.log.Entries())

	keys := func(m map[string]int) []string {
		out := make([]string, 0, len(m))
		for u := range m {
			out = append(out, u)
		}
		sort.Strings(out)
		return out
	}
	t.Logf("reference cycle 2: %d refetches of %d known pages in %d requests", len(want), known, total)
	if len(want) != known {
		t.Errorf("reference cycle 2 refetched %d of the %d known pages, want all (the share allows them)", len(want), known)
	}
	// Stopped a third of the way in: the pace has released about a third
	// of the refetches and owes most of the rest.
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		db := filepath.Join(dir, sig.String()+".db")
		runCopyFile(t, base, db)
		w.log.Reset()
		crawlStop(t, w, exec.Command(bin, cycle2(db)...), stopPoint{requests: total / 3}, sig)
		stoppedAt := len(w.log.Entries())
		lastStopped := lastRequest(w.log.Entries())
		binOK(t, fmt.Sprintf("cycle 2 resumed after %v", sig), bin, cycle2(db)...)
		es := w.log.Entries()
		got, requests := refetches(es)
		st := openDB(t, db)
		runs, err := st.Runs()
		left, oerr := st.Owed(2)
		st.Close()
		if err != nil || oerr != nil {
			t.Fatal(err, oerr)
		}
		if len(left) > 0 {
			t.Errorf("%v: %d owed refetches stored after cycle 2 closed, want none", sig, len(left))
		}
		resumed := runs[len(runs)-1].Counters["refresh/owed-resumed"]
		if resumed == 0 {
			t.Errorf("%v: the resumed run owed no refetch from the stopped one (counters %v): the stop came too late to test",
				sig, runs[len(runs)-1].Counters)
		}
		var missing, extra []string
		for _, u := range keys(want) {
			if got[u] == 0 {
				missing = append(missing, u)
			}
		}
		for _, u := range keys(got) {
			if want[u] == 0 {
				extra = append(extra, u)
			}
		}
		if len(missing) > 0 || len(extra) > 0 {
			t.Errorf("%v: resumed cycle 2 refetched %d known pages, the reference %d: %d missing (%v), %d extra (%v)", sig,
				len(got), len(want), len(missing), missing[:min(len(missing), 5)], len(extra), extra[:min(len(extra), 5)])
		}
		// No URL twice in the cycle; after kill -9, but those in flight
		// at the kill: asked by the killed run within the commit window
		// before it died.
		first := map[string]time.Duration{}
		again := 0
		for i, e := range es {
			if !runPageRequest(e) {
				continue
			}
			u := e.URL()
			at, ok := first[u]
			if !ok {
				first[u] = e.Time
				continue
			}
			again++
			if sig != syscall.SIGKILL || i < stoppedAt || lastStopped-at > crawlKillWindow {
				t.Errorf("%v: %s requested twice in cycle 2 (first %v before the stop)", sig, u, lastStopped-at)
			}
		}
		t.Logf("%v after %d requests, resumed owing %d: %d known pages refetched in %d requests, %d URLs requested again",
			sig, stoppedAt, resumed, len(got), requests, again)
	}
}

// runPageRequest reports whether a test web request is a page's, not
// robots.txt or a sitemap (read once per cycle, not refetched by the
// refresh share).
func runPageRequest(e testweb.Entry) bool {
	return e.Target != "/robots.txt" && e.Target != "/sitemap.xml"
}
