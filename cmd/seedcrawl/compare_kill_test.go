package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestCompareBinaryResume runs the seedcrawl binary's compare against a
// clean test web and stops it mid-way: SIGKILL at several points (one
// during start-up) and SIGINT once. Rerunning the same command must finish
// every scheduler with exactly sim's order, and the access log must show
// no URL fetched twice except one whose fetch was not committed when the
// run that requested it was killed (in flight at the kill).
func TestCompareBinaryResume(t *testing.T) {
	dir := t.TempDir()
	bin := seedcrawlBinary(t)
	w := cleanWeb(t, 8, 500, 5)
	const budget = 200
	names := strings.Split(compareExactSchedulers, ",")
	db := filepath.Join(dir, "cmp.db")
	args := append(append([]string{"compare"}, w.flags("--db", db, "--delay", "15ms", "--delay-factor", "0", "--workers", "4", "--progress", "0",
		"--schedulers", compareExactSchedulers, "--budget", fmt.Sprint(budget))...), w.site.Seeds()...)

	// Each stop comes after a further number of requests; 0 is during
	// start-up.
	stops := []struct {
		after int
		sig   syscall.Signal
	}{{60, syscall.SIGKILL}, {0, syscall.SIGKILL}, {80, syscall.SIGINT}, {70, syscall.SIGKILL}}
	requestedIn := map[string][]int{}  // URL -> runs that requested it
	committedAfter := map[string]int{} // URL -> first stopped run after which its fetch was stored
	// record notes the pages run requested since the access log held
	// before entries.
	record := func(before, run int) {
		for _, e := range w.log.Entries()[before:] {
			if e.Target != "/robots.txt" {
				requestedIn[e.URL()] = append(requestedIn[e.URL()], run)
			}
		}
	}
	for i, st := range stops {
		before := len(w.log.Entries())
		a, at := args, stopPoint{requests: before + st.after}
		if st.after == 0 {
			a, at = withStatus(args), crawlStartup
		}
		stderr, err := crawlStop(t, w, exec.Command(bin, a...), at, st.sig)
		if err != nil && st.sig != syscall.SIGKILL {
			t.Fatalf("run %d after SIGINT: %v; stderr:\n%s", i, err, stderr)
		}
		if st.sig == syscall.SIGINT && (!strings.Contains(stderr, "seedcrawl compare: interrupted (") || strings.Contains(stderr, "context canceled")) {
			t.Errorf("run %d: stderr does not say it was interrupted in the user's words:\n%s", i, stderr)
		}
		record(before, i)
		if _, err := os.Stat(db); err == nil {
			for u, p := range crawlPages(t, db) {
				if _, ok := committedAfter[u]; !ok && p.Fetches > 0 {
					committedAfter[u] = i
				}
			}
		}
		t.Logf("run %d stopped by %v after %d requests", i, st.sig, len(w.log.Entries())-before)
	}
	before := len(w.log.Entries())
	compareOut, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("final run: %v", err)
	}
	final := len(stops)
	record(before, final)

	want := compareSimOrders(t, w, w.site.Seeds(), names)
	for _, s := range compareSequences(t, db) {
		if w := want[s.Name][:min(budget, len(want[s.Name]))]; !slices.Equal(s.URLs, w) || !s.Done {
			t.Errorf("%s after the stops: %d downloads (done %v), differs from sim's %d", s.Name, len(s.URLs), s.Done, len(w))
		}
	}
	again := 0
	for u, runs := range requestedIn {
		for k := 1; k < len(runs); k++ {
			again++
			prev := runs[k-1]
			if stops[prev].sig != syscall.SIGKILL {
				t.Errorf("%s fetched again in run %d after run %d ended by SIGINT", u, runs[k], prev)
				continue
			}
			if c, ok := committedAfter[u]; ok && c <= prev {
				t.Errorf("%s fetched again in run %d though its fetch was stored by run %d", u, runs[k], c)
			}
		}
	}
	t.Logf("%d URLs requested, %d requests repeated (in flight at a kill)", len(requestedIn), again)
	if !strings.Contains(string(compareOut), "cumulative union PageRank") {
		t.Errorf("final run printed no report:\n%s", compareOut)
	}
}
