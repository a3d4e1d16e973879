package seeds

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

func TestInDegree0FillRule(t *testing.T) {
	// In-degree 0: 0 (out 3), 1 (out 1), 2 (out 3 with a self-loop, which is
	// not an in-link), 7 (isolated, out 0). Others have in-links; 3 has out 4.
	g := fromArcs(9, [][2]uint32{
		{0, 3}, {0, 4}, {0, 5},
		{1, 3},
		{2, 2}, {2, 4}, {2, 6},
		{3, 4}, {3, 5}, {3, 6}, {3, 8},
		{4, 5}, {4, 6},
		{5, 6},
	})
	cases := []struct {
		k      int
		want   []uint32
		filled []bool
	}{
		{1, []uint32{0}, []bool{false}},
		{2, []uint32{0, 2}, []bool{false, false}}, // out-degree 3 each, lower id first
		{4, []uint32{0, 2, 1, 7}, []bool{false, false, false, false}},
		{5, []uint32{0, 2, 1, 7, 3}, []bool{false, false, false, false, true}}, // filled by out-degree
		{7, []uint32{0, 2, 1, 7, 3, 4, 5}, []bool{false, false, false, false, true, true, true}},
	}
	for _, c := range cases {
		r := mustSelect(t, Input{G: g}, Options{Algo: AlgoInDegree0, K: c.k})
		var filled []bool
		for _, s := range r.Seeds {
			filled = append(filled, s.Filled)
		}
		if !slices.Equal(r.Nodes(), c.want) || !slices.Equal(filled, c.filled) {
			t.Errorf("k=%d: seeds %v filled %v; want %v filled %v", c.k, r.Nodes(), filled, c.want, c.filled)
		}
	}
}

func TestOutDegreeAndPageRankRankings(t *testing.T) {
	g := fromArcs(5, [][2]uint32{{0, 1}, {0, 2}, {1, 2}, {3, 2}, {3, 4}, {3, 0}, {4, 2}})
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoOutDegree, K: 3})
	if want := []uint32{3, 0, 1}; !slices.Equal(r.Nodes(), want) {
		t.Errorf("outdegree = %v, want %v", r.Nodes(), want)
	}
	if r.Seeds[0].Score != 3 {
		t.Errorf("outdegree score = %g, want 3", r.Seeds[0].Score)
	}
	pr, _ := graph.PageRank(g, graph.PageRankOptions{})
	r = mustSelect(t, Input{G: g}, Options{Algo: AlgoPageRank, K: 5})
	for i := 1; i < len(r.Seeds); i++ {
		if pr[r.Seeds[i-1].Node] < pr[r.Seeds[i].Node] {
			t.Fatalf("pagerank seeds not in descending PageRank: %v", r.Nodes())
		}
	}
	if r.Seeds[0].Node != 2 || r.Seeds[0].Score != pr[2] {
		t.Errorf("top PageRank seed = %d (%g), want 2 (%g)", r.Seeds[0].Node, r.Seeds[0].Score, pr[2])
	}
}

func TestRandomDrawsDistinctCandidates(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(3, 3)), 200, 600)
	cands := make([]bool, 200)
	for v := 0; v < 200; v += 3 {
		cands[v] = true
	}
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoRandom, K: 30, Candidates: cands, Rand: rand.New(rand.NewPCG(5, 0))})
	seen := map[uint32]bool{}
	for _, v := range r.Nodes() {
		if !cands[v] || seen[v] {
			t.Fatalf("seed %d: candidate %v, repeated %v", v, cands[v], seen[v])
		}
		seen[v] = true
	}
	if len(seen) != 30 {
		t.Fatalf("%d seeds, want 30", len(seen))
	}
	// Fewer candidates than K: all of them.
	r = mustSelect(t, Input{G: g}, Options{Algo: AlgoRandom, K: 500, Candidates: cands})
	if len(r.Seeds) != 67 {
		t.Fatalf("%d seeds from 67 candidates, want 67", len(r.Seeds))
	}
}

// Every selector is deterministic for a fixed random seed, and the random
// ones change with it.
func TestDeterministicForFixedSeed(t *testing.T) {
	g := withHosts(randomGraph(rand.New(rand.NewPCG(9, 9)), 400, 1600), func(v int) int { return v % 7 })
	in := Input{G: g, Fetched: FetchedByOutDegree(g)}
	for _, a := range Algos() {
		for _, perHost := range []bool{false, true} {
			o := Options{Algo: a, K: 8, PerHost: perHost, CoverDensity: 60}
			o.Rand = rand.New(rand.NewPCG(42, 0))
			r1 := mustSelect(t, in, o)
			o.Rand = rand.New(rand.NewPCG(42, 0))
			r2 := mustSelect(t, in, o)
			r1.Elapsed, r2.Elapsed = 0, 0
			if !reflect.DeepEqual(r1, r2) {
				t.Errorf("%s per-host=%v: two runs with seed 42 differ: %v vs %v", a, perHost, r1.Nodes(), r2.Nodes())
			}
		}
	}
	o := Options{Algo: AlgoRandom, K: 8, Rand: rand.New(rand.NewPCG(1, 0))}
	a := mustSelect(t, in, o).Nodes()
	o.Rand = rand.New(rand.NewPCG(2, 0))
	if b := mustSelect(t, in, o).Nodes(); slices.Equal(a, b) {
		t.Errorf("random with seeds 1 and 2 both gave %v", a)
	}
}

func TestOptionsValidation(t *testing.T) {
	g := fromArcs(3, [][2]uint32{{0, 1}})
	cases := []struct {
		name string
		in   Input
		o    Options
		want error
	}{
		{"unknown algo", Input{G: g}, Options{Algo: "best", K: 1}, ErrUnknownAlgo},
		{"k zero", Input{G: g}, Options{Algo: AlgoRandom}, ErrOptions},
		{"negative hops", Input{G: g}, Options{Algo: AlgoMaxOut, K: 1, Hops: -1}, ErrOptions},
		{"density over 100", Input{G: g}, Options{Algo: AlgoHITSCore, K: 1, CoverDensity: 120}, ErrOptions},
		{"density NaN", Input{G: g}, Options{Algo: AlgoHITSCore, K: 1, CoverDensity: math.NaN()}, ErrOptions},
		{"density negative", Input{G: g}, Options{Algo: AlgoHITSCore, K: 1, CoverDensity: -5}, ErrOptions},
		{"core size 1", Input{G: g}, Options{Algo: AlgoHITSCore, K: 1, CoreSize: 1}, ErrOptions},
		{"candidates length", Input{G: g}, Options{Algo: AlgoRandom, K: 1, Candidates: []bool{true}}, ErrOptions},
		{"fetched length", Input{G: g, Fetched: []bool{true}}, Options{Algo: AlgoRandom, K: 1}, ErrOptions},
		{"override range", Input{G: g, Weights: map[uint32]float64{7: 1}}, Options{Algo: AlgoRandom, K: 1}, ErrOptions},
		{"nil graph", Input{}, Options{Algo: AlgoRandom, K: 1}, ErrOptions},
		{"per host without hosts", Input{G: g}, Options{Algo: AlgoRandom, K: 1, PerHost: true}, ErrNoHosts},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Select(context.Background(), c.in, c.o); !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}
