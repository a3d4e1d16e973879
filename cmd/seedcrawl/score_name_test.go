package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/compare"
)

// TestScoreNamesTheCycleScheduler crawls a test web with the default bfs,
// then runs a cycle with fpr@100. score named every cycle after the db's
// first run (cycle 2 came out as "bfs"), and took its gap closure against
// the crawl named bfs: the crawl itself (0 everywhere), or none at all for
// a crawl that ran another scheduler. Each cycle's row must carry the
// scheduler of its own run, and the gap closure must be measured against
// the BFS crawl simulated on the same graph (bfs_reference).
func TestScoreNamesTheCycleScheduler(t *testing.T) {
	w := cleanWeb(t, 2, 120, 3)
	db := filepath.Join(t.TempDir(), "s.db")
	seed := w.site.Seeds()[:1]
	cmdOK(t, append(append([]string{"crawl"}, runArgs(t, w, db, "--sitemaps=false")...), seed...)...)
	runCmd(t, append(runArgs(t, w, db, "--scheduler", "fpr@100", "--cycles", "2", "--sitemaps=false"), seed...))
	type curve struct {
		Scheduler  string     `json:"scheduler"`
		Cumulative []*float64 `json:"cumulative_pagerank"`
		GapClosure []*float64 `json:"gap_closure"`
	}
	for _, tc := range []struct {
		cycle, want string
	}{
		{"1", "bfs"},
		{"2", "fpr@100"},
	} {
		t.Run("cycle "+tc.cycle, func(t *testing.T) {
			out := cmdOK(t, "score", "--db", db, "--cycle", tc.cycle, "--json")
			var rep struct {
				Checkpoint []float64 `json:"checkpoint"`
				Curves     []curve   `json:"curves"`
				Omniscient curve     `json:"omniscient"`
				BFS        *curve    `json:"bfs_reference"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Curves) != 1 {
				t.Fatalf("report (%v):\n%s", err, out)
			}
			c := rep.Curves[0]
			if c.Scheduler != tc.want {
				t.Errorf("row named %q, want the cycle's scheduler %q", c.Scheduler, tc.want)
			}
			if rep.BFS == nil || rep.BFS.Scheduler != compare.BFSReferenceName {
				t.Fatalf("no simulated BFS reference in the report:\n%s", out)
			}
			checked := 0
			for i, f := range rep.Checkpoint {
				s, b, o := c.Cumulative[i], rep.BFS.Cumulative[i], rep.Omniscient.Cumulative[i]
				if f == 0 || f == 1 || s == nil || b == nil || o == nil || math.Abs(*o-*b) < 1e-6 {
					continue
				}
				want := (*s - *b) / (*o - *b)
				if g := c.GapClosure[i]; g == nil || math.Abs(*g-want) > 1e-9 {
					t.Errorf("at %g: gap closure %v, want (S - bfs_reference)/(omniscient - bfs_reference) = %.4f", f, g, want)
				}
				checked++
			}
			if checked == 0 {
				t.Errorf("no checkpoint where omniscient and the BFS reference differ:\n%s", out)
			}
		})
	}
}
