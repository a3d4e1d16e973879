package main

import (
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunSeedNotDueRefetched: cycle 2 starts before any known page is due
// again (--revisit-initial 24h), on a web that evolved: the given seeds
// are refetched anyway, and the epoch's new pages linked from them are
// found on their fresh copies and fetched, as the server's log of the
// cycle shows. Traversed from storage, a seed hands on only the links of
// its stored copy, and those new pages stay unseen.
func TestRunSeedNotDueRefetched(t *testing.T) {
	for _, pace := range []string{"even", "front"} {
		t.Run(pace, func(t *testing.T) {
			w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 2000, Hosts: 8, Preset: testweb.Clean,
				Evolution: testweb.Evolution{Model: testweb.EvolveWeb, Change: 0.2, New: 0.3}}, testweb.Options{})
			db := filepath.Join(t.TempDir(), "run.db")
			cycle := func(n string) {
				args := runArgs(t, w, db, "--cycles", n, "--seed-algo", "given", "--pages-per-cycle", "400",
					"--refresh-share", "0.5", "--refresh-policy", "pagerank", "--refresh-pace", pace, "--scheduler", "fpr",
					"--revisit-initial", "24h")
				runCmd(t, append(args, w.site.Seeds()...))
			}
			cycle("1")
			w.toEpoch(t, 1)
			truth, err := w.site.Truth(1)
			if err != nil {
				t.Fatal(err)
			}
			isNew := map[uint32]bool{}
			for _, v := range truth.New() {
				isNew[v] = true
			}
			var seedNew []string
			for _, s := range w.site.Seeds() {
				v, ok := truth.ID(s)
				if !ok {
					t.Fatalf("seed %s not in the truth", s)
				}
				for _, x := range truth.Graph.Out(v) {
					if isNew[x] {
						seedNew = append(seedNew, truth.URL(x))
					}
				}
			}
			if len(seedNew) == 0 {
				t.Fatal("the evolved web links no new page from a seed: the test needs one")
			}
			w.log.Reset()
			cycle("2")
			asked := map[string]int{}
			for _, e := range w.log.Entries() {
				asked[e.URL()]++
			}
			for _, s := range w.site.Seeds() {
				if asked[s] == 0 {
					t.Errorf("seed %s not requested in cycle 2: traversed from storage because it was not due", s)
				}
			}
			for _, u := range seedNew {
				if asked[u] == 0 {
					t.Errorf("new page %s linked from a seed not requested in cycle 2", u)
				}
			}
			t.Logf("%d seeds, %d new pages linked from them, %d requests in cycle 2", len(w.site.Seeds()), len(seedNew), len(w.log.Entries()))
		})
	}
}
