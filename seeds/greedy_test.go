package seeds

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// With d ≥ h the depth-d weight is the marginal gain of h-hop coverage, so
// maxweight (and maxout at h = 1) is the greedy algorithm for maximum
// k-coverage and must reach (1 − 1/e) of the optimum (Nemhauser, Wolsey &
// Fisher 1978). The optimum is found by brute force over all k-subsets.
func TestGreedyWithinOneMinusOneOverEOfOptimum(t *testing.T) {
	cases := []struct {
		name       string
		n, m, k, h int
		algo       string
		depth      int
		graphs     int
	}{
		{"maxout h1 k2", 14, 22, 2, 1, AlgoMaxOut, 0, 30},
		{"maxout h1 k3", 12, 20, 3, 1, AlgoMaxOut, 0, 30},
		{"maxweight h2 k2", 14, 18, 2, 2, AlgoMaxWeight, 2, 30},
		{"maxweight h2 k3", 12, 15, 3, 2, AlgoMaxWeight, 2, 30},
		{"maxweight h3 k2", 15, 17, 2, 3, AlgoMaxWeight, 3, 30},
		{"maxweight h3 k4 sparse", 12, 11, 4, 3, AlgoMaxWeight, 3, 20},
	}
	bound := 1 - 1/math.E
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.n*100+c.m), uint64(c.k)))
			worst := math.Inf(1)
			for i := 0; i < c.graphs; i++ {
				g := randomGraph(rng, c.n, c.m)
				fetched := make([]bool, c.n)
				for v := range fetched {
					fetched[v] = rng.IntN(3) > 0
				}
				in := Input{G: g, Fetched: fetched}
				val, err := Values(in)
				if err != nil {
					t.Fatal(err)
				}
				r := mustSelect(t, in, Options{Algo: c.algo, K: c.k, Hops: c.h, Depth: c.depth})
				got := coverValue(g, val, r.Nodes(), c.h)
				if math.Abs(got-r.Value) > 1e-9 {
					t.Fatalf("graph %d: Result.Value = %g, BFS says %g", i, r.Value, got)
				}
				opt := bruteForceOpt(g, val, c.k, c.h)
				if got < bound*opt-1e-9 {
					t.Fatalf("graph %d: greedy covers %g < (1-1/e)·%g; seeds %v", i, got, opt, r.Nodes())
				}
				worst = min(worst, got/opt)
			}
			t.Logf("worst greedy/optimum ratio over %d graphs: %.3f (bound %.3f)", c.graphs, worst, bound)
		})
	}
}

// The lazy (CELF) greedy must pick exactly what the eager greedy picks,
// including with negative user values, which raise weights when covered.
func TestLazyGreedyEqualsEager(t *testing.T) {
	cases := []struct {
		name        string
		n, m, k     int
		d, h        int
		negatives   int
		overrideMax float64
	}{
		{"d1 h1", 60, 150, 6, 1, 1, 0, 0},
		{"d2 h3", 80, 160, 8, 2, 3, 0, 0},
		{"d2 h2 negatives", 80, 200, 8, 2, 2, 12, 10},
		{"d3 h4 negatives", 70, 120, 7, 3, 4, 10, 10},
		{"d2 h1 d>h negatives", 60, 140, 6, 2, 1, 8, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.m)))
			for i := 0; i < 10; i++ {
				g := randomGraph(rng, c.n, c.m)
				over := make(map[uint32]float64)
				for j := 0; j < c.negatives; j++ {
					over[uint32(rng.IntN(c.n))] = -rng.Float64() * c.overrideMax
				}
				for j := 0; j < c.negatives/2; j++ {
					over[uint32(rng.IntN(c.n))] = rng.Float64() * c.overrideMax
				}
				in := Input{G: g, Weights: over}
				val, _ := Values(in)
				want := eagerGreedy(g, val, c.k, c.d, c.h)
				r := mustSelect(t, in, Options{Algo: AlgoMaxWeight, K: c.k, Depth: c.d, Hops: c.h})
				if !slices.Equal(r.Nodes(), want) {
					t.Fatalf("graph %d: lazy %v, eager %v", i, r.Nodes(), want)
				}
			}
		})
	}
}

func TestGreedyExplainsEachSeed(t *testing.T) {
	// 0 → 1 → 2 → 3 and 4 → 5; 6 isolated.
	g := fromArcs(7, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {4, 5}})
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoMaxWeight, K: 3, Hops: 2, Depth: 2})
	type want struct {
		node  uint32
		score float64
		pages int
	}
	wants := []want{{0, 3, 3}, {4, 2, 2}, {1, 1, 1}}
	// Seed 3: page 3 is the only uncovered page; 1 and 2 both reach it within
	// 2 hops with weight 1, the lower id wins.
	if len(r.Seeds) != len(wants) {
		t.Fatalf("got %d seeds, want %d: %+v", len(r.Seeds), len(wants), r.Seeds)
	}
	for i, w := range wants {
		s := r.Seeds[i]
		if s.Node != w.node || s.Score != w.score || s.Pages != w.pages || s.Rank != i+1 {
			t.Errorf("seed %d = node %d score %g pages %d rank %d; want node %d score %g pages %d",
				i+1, s.Node, s.Score, s.Pages, s.Rank, w.node, w.score, w.pages)
		}
	}
	if r.Pages != 6 || r.TotalPages != 7 || r.Reachable != 6 {
		t.Errorf("Pages, TotalPages, Reachable = %d, %d, %d; want 6, 7, 6", r.Pages, r.TotalPages, r.Reachable)
	}
}

func TestGreedyStopsWhenNothingAddsValue(t *testing.T) {
	g := fromArcs(3, [][2]uint32{{0, 1}, {1, 2}})
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoMaxOut, K: 5, Hops: 3})
	if len(r.Seeds) != 1 || r.Seeds[0].Node != 0 || r.Note == "" {
		t.Fatalf("seeds %v note %q; want [0] and a note", r.Nodes(), r.Note)
	}
}

func TestGreedyHonoursCancellation(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(1, 1)), 5000, 20000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, a := range []string{AlgoMaxWeight, AlgoMaxSCC, AlgoHITSCore} {
		if _, err := Select(ctx, Input{G: g}, Options{Algo: a, K: 10}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", a, err)
		}
	}
}
