package seeds

import (
	"cmp"
	"context"
	"slices"

	"github.com/seedcrawl/seedcrawl/graph"
)

// selector runs one algorithm, possibly several times (once per host), and
// caches what every run shares: PageRank, components, the HITS graph.
type selector struct {
	g   *graph.CSR
	val []float64
	o   Options

	pr     []float64
	comp   []uint32
	ncomp  int
	rootOf []bool // rootOf[c]: component c is a root of the condensation
	rev    *graph.CSR
	hits   *graph.CSR // hits-core input: inter-host arcs, no self-loops
}

func newSelector(g *graph.CSR, val []float64, o Options) *selector {
	return &selector{g: g, val: val, o: o}
}

// run selects up to k seeds among cands (nil = all pages). The returned note
// explains a short result.
func (s *selector) run(ctx context.Context, cands []bool, k int) ([]Seed, string, error) {
	switch s.o.Algo {
	case AlgoRandom:
		return s.random(cands, k), "", nil
	case AlgoInDegree0:
		return s.inDegree0(cands, k), "", nil
	case AlgoOutDegree:
		return topK(cands, s.g.N(), k, func(v uint32) float64 { return float64(s.g.OutDegree(v)) }), "", nil
	case AlgoPageRank:
		if s.pr == nil {
			s.pr, _ = graph.PageRank(s.g, s.o.PageRank)
		}
		return topK(cands, s.g.N(), k, func(v uint32) float64 { return s.pr[v] }), "", nil
	case AlgoMaxOut:
		return s.greedy(ctx, cands, k, 1, nil)
	case AlgoMaxWeight:
		return s.greedy(ctx, cands, k, s.o.Depth, nil)
	case AlgoRootSCC:
		return s.rootSCC(ctx, cands, k)
	case AlgoMaxSCC:
		return s.maxSCC(ctx, cands, k)
	case AlgoHITSCore:
		return s.hitsCore(ctx, cands, k)
	}
	return nil, "", ErrUnknownAlgo
}

// random draws k distinct candidates uniformly (a partial Fisher–Yates
// shuffle of the candidate list), the baseline of all three papers.
func (s *selector) random(cands []bool, k int) []Seed {
	pool := candidateList(cands, s.g.N())
	if k > len(pool) {
		k = len(pool)
	}
	out := make([]Seed, 0, k)
	for i := 0; i < k; i++ {
		j := i + s.o.Rand.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
		out = append(out, Seed{Node: pool[i]})
	}
	return out
}

// inDegree0 is Sharma & Bhagat's in-degree-0 selector: pages without in-links
// (a crawler can only reach them as seeds) by descending out-degree, then, if
// fewer than k exist, the highest out-degree pages among the rest. A
// self-loop does not count as an in-link: it cannot lead a crawler to the page.
func (s *selector) inDegree0(cands []bool, k int) []Seed {
	n := s.g.N()
	indeg := s.g.InDegrees()
	for v := 0; v < n; v++ {
		for _, t := range s.g.Out(uint32(v)) {
			if t == uint32(v) {
				indeg[v]--
			}
		}
	}
	outdeg := func(v uint32) float64 { return float64(s.g.OutDegree(v)) }
	zero := make([]bool, n)
	rest := make([]bool, n)
	for v := 0; v < n; v++ {
		if cands != nil && !cands[v] {
			continue
		}
		if indeg[v] == 0 {
			zero[v] = true
		} else {
			rest[v] = true
		}
	}
	out := topK(zero, n, k, outdeg)
	if len(out) < k {
		for _, f := range topK(rest, n, k-len(out), outdeg) {
			f.Filled = true
			out = append(out, f)
		}
	}
	return out
}

// topK returns the k candidates with the highest score, ties by lower id.
func topK(cands []bool, n, k int, score func(v uint32) float64) []Seed {
	type sv struct {
		v uint32
		s float64
	}
	all := make([]sv, 0, n)
	for v := 0; v < n; v++ {
		if cands == nil || cands[v] {
			all = append(all, sv{uint32(v), score(uint32(v))})
		}
	}
	slices.SortFunc(all, func(a, b sv) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.v, b.v)
	})
	if k > len(all) {
		k = len(all)
	}
	out := make([]Seed, k)
	for i := range out {
		out[i] = Seed{Node: all[i].v, Score: all[i].s}
	}
	return out
}

func candidateList(cands []bool, n int) []uint32 {
	pool := make([]uint32, 0, n)
	for v := 0; v < n; v++ {
		if cands == nil || cands[v] {
			pool = append(pool, uint32(v))
		}
	}
	return pool
}
