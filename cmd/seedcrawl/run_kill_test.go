package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunBinaryResumesCycle crawls cycle 1 at epoch 0, then cycle 2 at
// epoch 1 twice from copies of the same db: once uninterrupted, once killed
// with SIGKILL twice mid-cycle and rerun. The resumed cycle 2 must complete
// with the same result: same pages (status, content hash, revisit
// interval), same links, same seeds and replacements, same cycle figures;
// and no URL whose cycle-2 fetch was committed before a kill is requested
// again.
func TestRunBinaryResumesCycle(t *testing.T) {
	dir := t.TempDir()
	bin := seedcrawlBinary(t)
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 11, Pages: 260, Hosts: 6, Preset: testweb.Clean,
		Evolution: testweb.Evolution{Change: 0.15, Gone: 0.05, Move: 0.05, New: 0.08}}, testweb.Options{})
	gone, moved := runVanishingSeeds(t, w)
	args := func(db, cycles string) []string {
		return append(runKillArgs(w, db, cycles, 12*time.Millisecond, 4), append(w.site.Seeds(), gone, moved)...)
	}
	ref, kill := filepath.Join(dir, "ref.db"), filepath.Join(dir, "kill.db")
	runCycle1Copies(t, w, bin, dir, func(db string) []string { return args(db, "1") }, ref, kill)
	w.log.Reset()
	binOK(t, "reference cycle 2", bin, args(ref, "2")...)
	total := len(w.log.Entries())
	w.log.Reset()

	committed := map[string]int{} // URL -> kill after which its cycle-2 fetch was stored
	var kills []time.Duration     // time of the last request of each killed run
	var ends []int                // log length after each killed run
	for i, share := range []float64{0.25, 0.6} {
		want := len(w.log.Entries()) + int(share*float64(total)) - total/4*i
		crawlStop(t, w, exec.Command(bin, args(kill, "2")...), stopPoint{requests: want}, syscall.SIGKILL)
		last := lastRequest(w.log.Entries())
		kills = append(kills, last)
		ends = append(ends, len(w.log.Entries()))
		st := runReadDB(t, kill)
		if len(st.cycles) != 2 || !st.cycles[1].End.IsZero() {
			t.Fatalf("after kill %d: cycles %+v, want cycle 2 unfinished", i+1, st.cycles)
		}
		for u := range st.fetch[2] {
			if _, ok := committed[u]; !ok {
				committed[u] = i
			}
		}
		t.Logf("kill %d after %d of %d requests; %d cycle-2 fetches committed", i+1, len(w.log.Entries()), total, len(st.fetch[2]))
	}
	binOK(t, "resumed cycle 2", bin, args(kill, "2")...)

	a, b := runReadDB(t, ref), runReadDB(t, kill)
	if len(a.pages) != len(b.pages) {
		t.Errorf("%d pages after the kills, %d in the reference", len(b.pages), len(a.pages))
	}
	for u, p := range a.pages {
		q, ok := b.pages[u]
		if !ok || q.Status != p.Status || q.Hash != p.Hash || q.Interval != p.Interval || q.Cycle != p.Cycle {
			t.Errorf("%s: reference %v/%v/cycle %d, resumed %v/%v/cycle %d (present %v)", u, p.Status, p.Hash, p.Cycle, q.Status, q.Hash, q.Cycle, ok)
		}
	}
	if x, y := crawlArcSet(a.graph), crawlArcSet(b.graph); !crawlEqualSets(x, y) {
		t.Errorf("link sets differ: missing %s; extra %s", crawlDiffSample(x, y, 5), crawlDiffSample(y, x, 5))
	}
	ca, cb := a.cycles[1], b.cycles[1]
	if cb.End.IsZero() {
		t.Errorf("resumed cycle 2 not closed")
	}
	sa, sb := ca.Stats, cb.Stats
	if sa.Fetches != sb.Fetches || sa.New != sb.New || sa.Changed != sb.Changed || sa.Unchanged != sb.Unchanged ||
		sa.Gone != sb.Gone || sa.Errors != sb.Errors || sa.Found != sb.Found || sa.Bytes != sb.Bytes {
		t.Errorf("cycle 2 figures: reference %+v, resumed %+v", sa, sb)
	}
	if x, y := runSeedSummary(a, ca), runSeedSummary(b, cb); fmt.Sprint(x) != fmt.Sprint(y) {
		t.Errorf("cycle 2 seeds and replacements:\nreference %v\nresumed   %v", x, y)
	}
	if len(ca.Replaced) != 2 {
		t.Errorf("reference cycle 2 replaced %+v, want the gone and the moved seed", ca.Replaced)
	}

	// Audit: a URL whose cycle-2 fetch was committed before a kill is not
	// requested again; repeats are the fetches in flight at a kill.
	urls, dups := auditKillRepeats(t, w.log.Entries(), ends, kills, committed)
	t.Logf("%d URLs requested in the killed cycle 2, %d again after a kill", urls, dups)
}

// runSeedSummary lists a cycle's seeds and replacements by URL.
func runSeedSummary(st *runDBState, c storage.Cycle) []string {
	var out []string
	for _, s := range c.Seeds {
		out = append(out, "seed "+st.byID[s.ID])
	}
	for _, r := range c.Replaced {
		out = append(out, "replaced "+st.byID[r.Old]+" "+r.Reason+" by "+st.byID[r.New])
	}
	sort.Strings(out)
	return out
}
