package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestCrawlMemoryLimitFollowsURLs checks that a crawl raises the Go soft
// memory limit by crawlHeapPerURL for every URL its db learned (the
// frontier grows with them; a fixed limit made the collector run ever more
// often as a long crawl's live heap neared it), and leaves a limit set by
// GOMEMLIMIT alone.
func TestCrawlMemoryLimitFollowsURLs(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	w := cleanWeb(t, 3, 200, 4)
	const untouched = 7 << 30 // a limit no crawl of this web computes
	for _, tc := range []struct {
		name      string
		gomemlim  string
		wantSetBy string // "crawl" or "env"
	}{
		{name: "no GOMEMLIMIT", gomemlim: "", wantSetBy: "crawl"},
		{name: "GOMEMLIMIT set", gomemlim: "7GiB", wantSetBy: "env"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tc.gomemlim)
			debug.SetMemoryLimit(untouched)
			db := filepath.Join(t.TempDir(), "mem.db")
			cfg := demoConfig(db, w.site.Seeds(), w.srv, 0, 4)
			cfg.DelayFactor = 0
			crawlRun(t, cfg, crawlExtras{})
			got := debug.SetMemoryLimit(-1)
			if tc.wantSetBy == "env" {
				if got != untouched {
					t.Fatalf("memory limit %d after the crawl, want %d as set (GOMEMLIMIT wins)", got, int64(untouched))
				}
				return
			}
			var urls uint64
			d := openDB(t, db)
			err := d.EachPage(func(*storage.Page) error { urls++; return nil })
			d.Close()
			if err != nil {
				t.Fatal(err)
			}
			if urls < 100 {
				t.Fatalf("crawl stored %d URLs, want most of the web's 200 pages", urls)
			}
			base := crawlMemoryLimit(cfg, 0)
			if want := base + crawlHeapPerURL*int64(urls); got != want {
				t.Fatalf("memory limit %d after a crawl that stored %d URLs, want %d (%d + %d per URL)", got, urls, want, base, crawlHeapPerURL)
			}
		})
	}
}

// TestCrawlGCPercent checks that a crawl session runs the collector at
// crawlGCPercent while it is open and restores the setting when it
// closes, and that GOGC, when set, is left alone (like GOMEMLIMIT).
func TestCrawlGCPercent(t *testing.T) {
	prev, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(prev)
		debug.SetMemoryLimit(prevLimit)
	})
	t.Setenv("GOMEMLIMIT", "") // the session sets them only when it sets the limit
	w := cleanWeb(t, 3, 20, 2)
	for _, tc := range []struct {
		name, gogc string
		want       int // GC percent while the session is open
	}{
		{"no GOGC", "", crawlGCPercent},
		{"GOGC set", "150", 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			before := 100
			if tc.gogc != "" {
				before = 150 // what the runtime would have read from GOGC
			}
			debug.SetGCPercent(before)
			cfg := demoConfig(filepath.Join(t.TempDir(), "gc.db"), w.site.Seeds(), w.srv, 0, 2)
			s, err := openCrawl(cfg, crawlExtras{})
			if err != nil {
				t.Fatal(err)
			}
			during := debug.SetGCPercent(-1)
			debug.SetGCPercent(during)
			if err := s.close(); err != nil {
				t.Fatal(err)
			}
			after := debug.SetGCPercent(100)
			if during != tc.want || after != before {
				t.Fatalf("GC percent %d during the session and %d after it, want %d and %d", during, after, tc.want, before)
			}
		})
	}
	// The session sets them before it opens the db; a db that cannot be
	// opened leaves both as they were.
	t.Setenv("GOGC", "")
	debug.SetGCPercent(100)
	const limit = 1 << 40
	debug.SetMemoryLimit(limit)
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := openCrawl(demoConfig(filepath.Join(notDir, "gc.db"), w.site.Seeds(), w.srv, 0, 2), crawlExtras{}); err == nil {
		t.Fatal("a db under a regular file opened")
	}
	if after, lim := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); after != 100 || lim != limit {
		t.Errorf("GC percent %d and memory limit %d after a session that failed to open, want 100 and %d as before", after, lim, int64(limit))
	}
}

// TestCrawlMemoryLimitWhileSeeding checks that the memory limit allows
// crawlSeedBytes per seed until the seeds are stored (their transaction
// holds them all; a limit without it kept the collector running through a
// long list), and drops the allowance once they are.
func TestCrawlMemoryLimitWhileSeeding(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	t.Setenv("GOMEMLIMIT", "")
	w := cleanWeb(t, 3, 20, 2)
	cfg := demoConfig(filepath.Join(t.TempDir(), "seed.db"), w.site.Seeds(), w.srv, 0, 2)
	s, err := openCrawl(cfg, crawlExtras{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	const seeds = 100_000
	s.seeding = seeds
	s.setMemoryLimit()
	if got, want := debug.SetMemoryLimit(-1), crawlMemoryLimit(cfg, s.db.NextID())+crawlSeedBytes*seeds; got != want {
		t.Fatalf("memory limit %d before the seeds are stored, want %d (the allowance for %d seeds)", got, want, seeds)
	}
	if _, err := s.crawl(context.Background(), w.site.Seeds(), 0, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), crawlMemoryLimit(cfg, s.db.NextID()); got != want {
		t.Fatalf("memory limit %d after the crawl, want %d (no allowance once the seeds are stored)", got, want)
	}
}
