package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// TestHostBudgetAcrossRestarts stops a crawl every few pages and resumes
// it until it is exhausted: --host-max-pages must hold over the whole crawl
// as it does in one run, counting every URL admitted (robots-denied ones
// too), not the fetch attempts of the hosts.
func TestHostBudgetAcrossRestarts(t *testing.T) {
	const budget = 25
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 9, Pages: 600, Hosts: 4}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "budget.db")
	cfg := demoConfig(db, w.site.Seeds(), w.srv, time.Millisecond, 4)
	cfg.HostMaxPages = budget
	cfg.MaxPages = 30
	cfg.Sitemaps = false
	runs := 0
	for ; runs < 60; runs++ {
		if s := crawlRun(t, cfg, crawlExtras{}); s.Stopped == monitor.StopExhausted {
			break
		}
		cfg.Seeds = nil // resume from the db
	}
	if runs < 3 {
		t.Fatalf("the crawl ended after %d runs; the test needs several restarts", runs+1)
	}
	admitted := map[string]int{}
	for _, p := range crawlPages(t, db) {
		switch p.Status {
		case storage.StatusDiscovered, storage.StatusOutOfScope, storage.StatusRejected:
		default:
			admitted[urlnorm.Authority(p.URL)]++
		}
	}
	capped := 0
	for h, n := range admitted {
		if n > budget {
			t.Errorf("%s: %d URLs admitted over %d runs, above --host-max-pages %d", h, n, runs+1, budget)
		}
		if n == budget {
			capped++
		}
	}
	if capped == 0 {
		t.Errorf("no host reached the budget %d (admitted %v): the test proves nothing", budget, admitted)
	}
}
