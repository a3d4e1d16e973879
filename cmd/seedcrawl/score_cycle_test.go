package main

import (
	"encoding/json"
	"testing"
)

// TestScoreCycleOmniscientBound scores cycle 2 of a run db over loopback,
// a cycle that refetches only part of what it walks through from storage:
// the omniscient crawl of the cycle's graph, with the same seeds and
// budget, must score at least as much as the real fetch order at every
// point, and no more than U(k).
func TestScoreCycleOmniscientBound(t *testing.T) {
	db, _ := runBudgetCycles(t)
	out := cmdOK(t, "score", "--db", db, "--cycle", "2", "--json")
	var rep struct {
		Pages      []int      `json:"pages"`
		Upper      []*float64 `json:"upper_bound"`
		Omniscient struct {
			Cumulative []*float64 `json:"cumulative_pagerank"`
		} `json:"omniscient"`
		Curves []struct {
			Cumulative []*float64 `json:"cumulative_pagerank"`
		} `json:"curves"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Curves) != 1 {
		t.Fatalf("report (%v):\n%s", err, out)
	}
	real, omni := rep.Curves[0].Cumulative, rep.Omniscient.Cumulative
	const tol = 1e-9
	for i := range real {
		if real[i] == nil || omni[i] == nil || rep.Upper[i] == nil {
			continue
		}
		if *omni[i] < *real[i]-tol || *omni[i] > *rep.Upper[i]+tol {
			t.Errorf("k=%d: omniscient %.4f, the real cycle %.4f, U(k) %.4f: want real ≤ omniscient ≤ U",
				rep.Pages[i], *omni[i], *real[i], *rep.Upper[i])
		}
	}
	last := len(real) - 1
	t.Logf("k=%d: real %.4f, omniscient %.4f, U %.4f", rep.Pages[last], *real[last], *omni[last], *rep.Upper[last])
}
