package main

import (
	"testing"

	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRunPlanNote checks the line run prints as a cycle starts or
// resumes, in the order a cycle meets the cases: the first cycle, which
// has nothing to revisit, a new cycle with a share, a resume whose share
// left exceeds its budget left (the refetches are capped by the budget
// too), a resume whose budget retries took part of, and a cycle with no
// refetches.
func TestRunPlanNote(t *testing.T) {
	resumed := storage.Cycle{SeedAlgo: "maxweight", Seeds: make([]storage.Seed, 6)}
	resumed.Stats.Fetches = 188
	withRetries := resumed
	withRetries.Stats.Retries = 4
	for _, c := range []struct {
		name string
		plan recrawl.Plan
		want string
	}{
		{"first cycle", recrawl.Plan{Start: true, Lazy: true, Cycle: storage.Cycle{N: 1, SeedAlgo: "given"}, Seeds: make([]recrawl.Pick, 3),
			MaxPages: 200, MaxRefresh: 100},
			"3 seeds by given, first cycle: nothing to revisit, budget 200 pages"},
		{"new cycle", recrawl.Plan{Start: true, Lazy: true, Cycle: storage.Cycle{SeedAlgo: "given"}, Seeds: make([]recrawl.Pick, 2),
			Refresh: make([]uint64, 40), Due: 3, MaxPages: 300, MaxRefresh: 150},
			"2 seeds by given, 3 of the 40 known pages queued at the start are due to revisit (other known pages are queued when a link reaches them), budget 300 pages, at most 150 refetches"},
		{"new cycle without a budget", recrawl.Plan{Start: true, Cycle: storage.Cycle{SeedAlgo: "given"}, Seeds: make([]recrawl.Pick, 2),
			Refresh: make([]uint64, 674), Due: 3},
			"2 seeds by given, 3 of 674 known pages due to revisit"},
		{"resume, share above budget", recrawl.Plan{Cycle: resumed, MaxPages: 112, MaxRefresh: 121},
			"6 seeds by maxweight, 188 fetches done, budget 112 pages, at most 112 refetches"},
		{"resume, share below budget", recrawl.Plan{Cycle: resumed, MaxPages: 112, MaxRefresh: 40},
			"6 seeds by maxweight, 188 fetches done, budget 112 pages, at most 40 refetches"},
		{"resume after retries", recrawl.Plan{Cycle: withRetries, MaxPages: 108, MaxRefresh: 40},
			"6 seeds by maxweight, 188 fetches and 4 retries done, budget 108 pages, at most 40 refetches"},
		{"no refetches", recrawl.Plan{Cycle: resumed, MaxPages: 112, MaxRefresh: -1},
			"6 seeds by maxweight, 188 fetches done, budget 112 pages, no refetches"},
	} {
		if got := runPlanNote(&c.plan); got != c.want {
			t.Errorf("%s: runPlanNote = %q, want %q", c.name, got, c.want)
		}
	}
}
