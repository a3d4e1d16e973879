package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/sim"
)

// diffSchedulers are the schedulers the differential test runs: every one
// but omniscient, with parameters that exercise host weights and batches.
var diffSchedulers = []string{"bfs", "fpr", "fpr@2", "fpr@100", "opic", "backlink", "random@7", "rankmass-window@5", "rankmass-window@40"}

// randomGraph returns a graph of n nodes on a few hosts (host names in
// mixed case: hosts compare lower-cased) with self-loops, parallel arcs,
// dangling nodes and nodes nothing links to.
func randomGraph(rng *rand.Rand, n int) *graph.CSR {
	b := graph.NewBuilder(n, false)
	hosts := 1 + rng.IntN(4)
	for v := range n {
		if rng.IntN(8) == 0 {
			continue // dangling
		}
		deg := rng.IntN(7)
		for range deg {
			t := uint32(rng.IntN(n))
			if rng.IntN(3) == 0 {
				t = uint32(rng.IntN(1 + n/5)) // popular targets: ties and updates
			}
			b.Add(uint32(v), t)
			if rng.IntN(10) == 0 {
				b.Add(uint32(v), t) // parallel arc
			}
		}
		if rng.IntN(10) == 0 {
			b.Add(uint32(v), uint32(v))
		}
	}
	g := b.Build()
	urls := make([]string, n)
	for v := range urls {
		h := rng.IntN(hosts)
		host := fmt.Sprintf("h%d.example", h)
		if rng.IntN(4) == 0 {
			host = fmt.Sprintf("H%d.Example", h)
		}
		urls[v] = fmt.Sprintf("http://%s/p%d", host, v)
	}
	g.SetURLs(urls)
	return g
}

// simOrder is sim's download order of name on g from seeds.
func simOrder(t *testing.T, g *graph.CSR, seeds []uint32, name string) []uint32 {
	t.Helper()
	// A uniform PageRank: sim normalises the ones to 1/n.
	s, err := sim.New(g, sim.Options{Seeds: seeds, PageRank: slices.Repeat([]float64{1}, g.N())})
	if err != nil {
		t.Fatal(err)
	}
	order, err := s.OrderOf(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return order
}

// renumber returns g with node ids in the order first (the other nodes
// after, in id order), and the map from new ids to old.
func renumber(g *graph.CSR, first []uint32) (*graph.CSR, []uint32) {
	n := g.N()
	newID := make([]int, n)
	for i := range newID {
		newID[i] = -1
	}
	var old []uint32
	for _, v := range first {
		newID[v] = len(old)
		old = append(old, v)
	}
	for v := range n {
		if newID[v] < 0 {
			newID[v] = len(old)
			old = append(old, uint32(v))
		}
	}
	b := graph.NewBuilder(n, false)
	urls := make([]string, n)
	for nv, v := range old {
		urls[nv] = g.URLs[v]
		for _, t := range g.Out(v) {
			b.Add(uint32(nv), uint32(newID[t]))
		}
	}
	h := b.Build()
	h.SetURLs(urls)
	return h, old
}

// TestDifferential checks that every logical crawl downloads exactly what
// sim downloads on the same graph from the same seeds (W = 1), on random
// graphs with hosts, failing pages and budgets below the reachable count,
// with every scheduler crawling at once through a web that answers out of
// order; and that the web is asked for each URL once.
func TestDifferential(t *testing.T) {
	for trial := range 40 {
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(trial), 99))
			n := 1 + rng.IntN(150)
			g := randomGraph(rng, n)
			var seeds []uint32
			var seedURLs []string
			for range 1 + rng.IntN(5) {
				v := uint32(rng.IntN(n))
				seedURLs = append(seedURLs, g.URLs[v]) // repeats count once, as in sim
				if !slices.Contains(seeds, v) {
					seeds = append(seeds, v)
				}
			}
			fail := map[uint32]int{}
			if trial%2 == 1 {
				for range n / 10 {
					fail[uint32(rng.IntN(n))] = 404
				}
			}
			// sim sees a failed page as a page without out-arcs.
			sg := g.Filter(func(src, _ uint32) bool { _, bad := fail[src]; return !bad })
			sg.SetURLs(g.URLs)
			budget := n + 5
			if trial%3 == 2 {
				budget = 1 + rng.IntN(n)
			}
			web := newFakeWeb(g, fail)
			web.twice = trial%4 == 3 // a duplicate answer must change nothing
			c, err := New(&MemStore{}, Options{Schedulers: slices.Clone(diffSchedulers), Seeds: seedURLs, Budget: budget, RandomSeed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if err := runFake(context.Background(), c, web, uint64(trial)); err != nil {
				t.Fatal(err)
			}
			union := map[string]bool{}
			for i, s := range c.Sequences() {
				got := make([]uint32, len(s.URLs))
				for k, u := range s.URLs {
					got[k] = web.id[u]
					union[u] = true
				}
				want := simOrder(t, sg, seeds, s.Name)
				if s.Name == "random@7" {
					// random hashes ids: compare with sim on the graph
					// numbered in this crawl's discovery order.
					var first []uint32
					for _, gid := range c.crawls[i].c.l2g {
						first = append(first, web.id[c.t.urls[gid]])
					}
					rg, old := renumber(sg, first)
					var rs []uint32
					for _, v := range seeds {
						rs = append(rs, uint32(slices.Index(first, v)))
					}
					want = nil
					for _, v := range simOrder(t, rg, rs, s.Name) {
						want = append(want, old[v])
					}
				}
				if len(want) > budget {
					want = want[:budget]
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: compare downloads %v, sim %v", s.Name, got, want)
				}
				if !s.Done {
					t.Errorf("%s: not done after Run", s.Name)
				}
			}
			for u, k := range web.requests {
				if k != 1 {
					t.Errorf("%s requested %d times", u, k)
				}
			}
			if len(web.requests) != len(union) || c.Requests() != len(union) {
				t.Errorf("%d URLs requested (%d counted), %d downloaded by some crawl", len(web.requests), c.Requests(), len(union))
			}
		})
	}
}
