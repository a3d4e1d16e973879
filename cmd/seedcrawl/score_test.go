package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestStoredSeedsLeaveSitemapsOut crawls a test web with sitemaps on (the
// default): the /sitemap.xml planned for a seed's site is stored at depth
// 0 like the seed, but it is not a seed. score used to count it as one
// ("2 seeds" for a crawl from one URL), and a resumed crawl took it for a
// seed of its scope.
func TestStoredSeedsLeaveSitemapsOut(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 30, Hosts: 2, Preset: testweb.Clean, Sitemaps: true}, testweb.Options{})
	path := filepath.Join(t.TempDir(), "seeds.db")
	seeds := w.site.Seeds()[:1]
	cfg := demoConfig(path, seeds, w.srv, 5*time.Millisecond, 4)
	cfg.DelayFactor = 0
	crawlRun(t, cfg, crawlExtras{})

	db := openDB(t, path)
	sitemaps := 0
	if err := db.EachSitemap(func(uint64, storage.SitemapFile) error { sitemaps++; return nil }); err != nil {
		t.Fatal(err)
	}
	got, err := crawlStoredSeeds(db)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if sitemaps == 0 {
		t.Fatal("the crawl read no sitemap; the test needs one")
	}
	if !slices.Equal(got, seeds) {
		t.Errorf("stored seeds = %q, want %q", got, seeds)
	}

	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"score", "--db", path, "--json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr.String())
	}
	var rep struct{ Seeds int }
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Seeds != len(seeds) {
		t.Errorf("score counts %d seeds, want %d", rep.Seeds, len(seeds))
	}
}

// TestScoreCycleSeeds scores cycle 2 of seedcrawl run: its crawl started
// from the seeds the selector chose for it, so the score's omniscient
// crawl starts from those, not from cycle 1's.
func TestScoreCycleSeeds(t *testing.T) {
	w := cleanWeb(t, 11, 80, 3)
	path := filepath.Join(t.TempDir(), "cycles.db")
	runCmd(t, runArgs(t, w, path, append([]string{"--cycles", "2", "--seed-algo", "maxweight", "--k", "3",
		"--revisit-initial", "0", "--sitemaps=false"}, w.site.Seeds()[:1]...)...))
	st := runReadDB(t, path)
	var want []string
	for _, c := range st.cycles {
		if c.N == 2 {
			for _, sd := range c.Seeds {
				want = append(want, st.byID[sd.ID])
			}
		}
	}
	if len(want) < 2 {
		t.Fatalf("cycle 2 has seeds %q; the test needs more than cycle 1's one", want)
	}
	db := openDB(t, path)
	defer db.Close()
	got, err := scoreSeeds(db, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("score seeds of cycle 2 = %q, want the cycle's seeds %q", got, want)
	}
	if got, err := scoreSeeds(db, 1); err != nil || !slices.Equal(got, w.site.Seeds()[:1]) {
		t.Errorf("score seeds of cycle 1 = %q, %v; want %q", got, err, w.site.Seeds()[:1])
	}
}
