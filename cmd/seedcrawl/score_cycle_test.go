package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestScoreCycleOmniscientBound scores cycle 2 of a run db over loopback,
// a cycle that refetches only part of what it walks through from storage:
// the omniscient crawl of the cycle's graph, with the same seeds and
// budget, must score at least as much as the real fetch order at every
// point, and no more than U(k).
func TestScoreCycleOmniscientBound(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 5, Pages: 400, Hosts: 5, Preset: testweb.Clean}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "cycles.db")
	runCmd(t, append(runArgs(t, w, db, "--cycles", "1", "--seed-algo", "given"), w.site.Seeds()...))
	runCmd(t, runArgs(t, w, db, "--cycles", "2", "--seed-algo", "given", "--pages-per-cycle", "40", "--refresh-share", "0.5"))
	var stdout, stderr bytes.Buffer
	if err := runScore(context.Background(), []string{"--db", db, "--cycle", "2", "--json"}, &stdout, &stderr); err != nil {
		t.Fatalf("score: %v\n%s", err, stderr.String())
	}
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
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Curves) != 1 {
		t.Fatalf("report (%v):\n%s", err, stdout.String())
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
