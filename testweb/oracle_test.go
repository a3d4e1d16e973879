package testweb

import (
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/testclock"
)

// TestOracleCrawlMatchesTruth crawls the web with an independent polite
// crawler and checks that its graph equals Truth.Reachable exactly: same
// URLs, same arcs. This is what the crawler's integration tests rely on.
func TestOracleCrawlMatchesTruth(t *testing.T) {
	cases := []struct {
		name   string
		opts   GenOptions
		token  string
		epoch  int
		traps  bool
		minURL int
	}{
		{"clean", GenOptions{Seed: 1, Pages: 400, Hosts: 8, Preset: Clean}, "seedcrawl", 0, false, 300},
		{"clean epoch 2", GenOptions{Seed: 1, Pages: 400, Hosts: 8, Preset: Clean}, "seedcrawl", 2, false, 300},
		{"hostile", GenOptions{Seed: 2, Pages: 400, Hosts: 8}, "seedcrawl", 0, true, 300},
		{"hostile epoch 1", GenOptions{Seed: 2, Pages: 400, Hosts: 8}, "seedcrawl", 1, true, 300},
		{"hostile other token", GenOptions{Seed: 3, Pages: 300, Hosts: 5}, "examplebot", 0, true, 200},
		{"hostile star group", GenOptions{Seed: 3, Pages: 300, Hosts: 5}, "somebot", 0, true, 200},
		{"clean docs profile", GenOptions{Seed: 4, Pages: 600, Hosts: 6, Preset: Clean, Profile: ProfileDocs}, "seedcrawl", 0, false, 450},
		{"hostile docs profile epoch 1", GenOptions{Seed: 4, Pages: 600, Hosts: 6, Profile: ProfileDocs}, "seedcrawl", 1, true, 450},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			site := mustGenerate(t, c.opts)
			clk := testclock.New()
			o := testOptions()
			o.Epoch = c.epoch
			o.Now = clk.Now
			w, srv := startWeb(t, site, o)
			truth := w.Truth()
			reach, err := truth.Reachable(site.Seeds(), c.token)
			if err != nil {
				t.Fatal(err)
			}
			crawled := crawlOracle(t, srv, clk, site.Seeds(), c.token, 400)
			d := reach.Compare(crawled)
			if !d.Empty() {
				t.Fatalf("oracle crawl differs from the truth: %s", d)
			}
			if (d.TrapURLs > 0) != c.traps {
				t.Errorf("trap URLs crawled = %d, want traps %v", d.TrapURLs, c.traps)
			}
			if len(reach.Order) < c.minURL {
				t.Errorf("only %d URLs reachable, want at least %d", len(reach.Order), c.minURL)
			}
		})
	}
}

// TestOracleCrawlGraphDataset serves the real hollins graph (clean) and
// checks the oracle crawl finds exactly the part of it reachable from the
// seeds, arcs included.
func TestOracleCrawlGraphDataset(t *testing.T) {
	base := sharedData(t, "hollins")
	g, err := readDataset(base)
	if err != nil {
		t.Fatal(err)
	}
	site, err := FromGraph(g, GraphOptions{Seed: 5, Name: "hollins", Preset: Clean})
	if err != nil {
		t.Fatal(err)
	}
	clk := testclock.New()
	o := testOptions()
	o.Now = clk.Now
	w, srv := startWeb(t, site, o)
	reach, err := w.Truth().Reachable(site.Seeds(), "seedcrawl")
	if err != nil {
		t.Fatal(err)
	}
	crawled := crawlOracle(t, srv, clk, site.Seeds(), "seedcrawl", 10000)
	if d := reach.Compare(crawled); !d.Empty() {
		t.Fatalf("oracle crawl of hollins differs from the truth: %s", d)
	}
	if len(reach.Order) < 1000 {
		t.Fatalf("only %d hollins pages reachable from %v", len(reach.Order), site.Seeds())
	}
}
