package main

import (
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunRefreshPace: cycle 2 of a budget-limited crawl with half its
// budget for refetches, on an evolved test web. Paced (the default), the
// refetches in the server's log of the cycle's first fifth stay near the
// share's even rate (half, plus the burst and the seeds, which are
// refetched first) and pages never fetched take the rest; front-loaded,
// refetches take most of it. Either way the cycle spends its refresh
// share.
func TestRunRefreshPace(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 2000, Hosts: 8, Preset: testweb.Clean,
		Evolution: testweb.Evolution{Model: testweb.EvolveWeb, Change: 0.2, New: 0.08}}, testweb.Options{})
	dir := t.TempDir()
	first := filepath.Join(dir, "cycle1.db")
	const budget = 400
	cycle := func(db string, n string, extra ...string) {
		args := runArgs(t, w, db, append([]string{"--cycles", n, "--seed-algo", "given", "--pages-per-cycle", "400",
			"--refresh-share", "0.5", "--refresh-policy", "pagerank", "--scheduler", "fpr"}, extra...)...)
		runCmd(t, append(args, w.site.Seeds()...))
	}
	cycle(first, "1")
	fetched1 := map[string]bool{}
	for _, e := range w.log.Entries() {
		fetched1[e.URL()] = true
	}
	w.toEpoch(t, 1)
	type result struct{ early, refetches, requests int }
	run := func(pace string) result {
		db := filepath.Join(dir, pace+".db")
		runCopyFile(t, first, db)
		w.log.Reset()
		cycle(db, "2", "--refresh-pace", pace)
		var r result
		for _, e := range w.log.Entries() {
			if e.Target == "/robots.txt" {
				continue
			}
			known := fetched1[e.URL()]
			if known {
				r.refetches++
				if r.requests < budget/5 {
					r.early++
				}
			}
			r.requests++
		}
		return r
	}
	even, front := run("even"), run("front")
	seeds := len(w.site.Seeds())
	// Even rate over the first fifth: half of it, plus the burst (1 +
	// 200/100) and the seeds; a few more for refetches granted while the
	// fetches they wait for were in flight.
	limit := budget/5/2 + 3 + seeds + 8
	if even.early > limit {
		t.Errorf("paced: %d refetches among the first %d requests, want at most %d", even.early, budget/5, limit)
	}
	if front.early <= even.early {
		t.Errorf("front-loaded: %d refetches among the first %d requests, want more than paced (%d)", front.early, budget/5, even.early)
	}
	if even.refetches < front.refetches*9/10 || even.requests < budget*9/10 {
		t.Errorf("paced cycle: %d refetches in %d requests; front-loaded %d in %d: the refresh share must still be spent",
			even.refetches, even.requests, front.refetches, front.requests)
	}
	t.Logf("first %d requests: %d refetches paced, %d front-loaded; whole cycle: %d / %d refetches in %d / %d requests",
		budget/5, even.early, front.early, even.refetches, front.refetches, even.requests, front.requests)
}
