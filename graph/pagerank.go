package graph

import (
	"fmt"
	"math"
)

// PageRankOptions configures PageRank. The zero value gives the normalised
// PageRank of Page, Brin, Motwani and Winograd with d = 0.85, stopped at an L1
// change below 1e-10 or after 200 iterations.
type PageRankOptions struct {
	// Damping is the probability d of following a link; 0 means 0.85. It must
	// lie in (0, 1).
	Damping float64
	// Tol stops the iteration once the L1 norm of the change between two
	// successive vectors is below it; 0 means 1e-10.
	Tol float64
	// MaxIter caps the number of iterations; 0 means 200.
	MaxIter int
	// OneMinusD selects the Brin–Page form used by the BUDG paper (Sharma &
	// Bhagat): PR(p) = (1−d) + d·Σ_{q→p} PR(q)/out(q), started at all ones and
	// not normalised; the rank held by dangling nodes leaks out of the graph.
	OneMinusD bool
	// NoSelfLoops drops the arcs v→v before ranking, so they count neither
	// in out-degrees nor as votes.
	NoSelfLoops bool
}

func (o PageRankOptions) withDefaults() PageRankOptions {
	if o.Damping == 0 {
		o.Damping = 0.85
	}
	if o.Tol == 0 {
		o.Tol = 1e-10
	}
	if o.MaxIter == 0 {
		o.MaxIter = 200
	}
	return o
}

// IterStats reports how an iterative algorithm stopped: the number of
// iterations run, the L1 change of the last iteration (for HITS, the larger
// of the hub and authority changes) and whether that change fell below the
// tolerance.
type IterStats struct {
	Iterations int
	Delta      float64
	Converged  bool
}

// PageRank computes the PageRank vector of g by power iteration.
//
// Default (normalised) form, as in networkx.pagerank with its defaults
// (Page, Brin, Motwani & Winograd 1999; Langville & Meyer, "Deeper inside
// PageRank", 2004):
//
//	x'(v) = (1−d)/N + d·D/N + d·Σ_{u→v} x(u)/out(u),   D = Σ_{out(u)=0} x(u)
//
// starting from x = 1/N: uniform teleport, and the rank of dangling nodes
// (out-degree 0) is spread uniformly over all nodes, so x sums to 1 (the
// result is rescaled by its sum at the end to remove rounding drift). Parallel
// arcs count once per arc; self-loops are ordinary arcs unless
// o.NoSelfLoops.
//
// With o.OneMinusD, the Brin–Page form of the BUDG paper (Sharma & Bhagat):
//
//	x'(v) = (1−d) + d·Σ_{u→v} x(u)/out(u)
//
// starting from x = 1; dangling rank is not redistributed. Both forms solve
// x = c·(I − d·Pᵀ)⁻¹·1 for the same sub-stochastic P and differ only in the
// scalar c, so they rank nodes identically and the normalised vector is the
// (1−d) vector divided by its sum.
//
// Stop rule: after the first iteration whose L1 change Σ|x'−x| is below
// o.Tol (default 1e-10), or after o.MaxIter iterations (default 200). The
// error shrinks by a factor d per iteration, so the default stops after
// 110–120 iterations on the shared datasets (116 on cnr-2000). It panics if
// o.Damping is outside (0, 1).
func PageRank(g *CSR, o PageRankOptions) ([]float64, IterStats) {
	o = o.withDefaults()
	if !(o.Damping > 0 && o.Damping < 1) {
		panic(fmt.Sprintf("graph: PageRank damping %v outside (0, 1)", o.Damping))
	}
	if g.N() == 0 {
		return []float64{}, IterStats{Converged: true}
	}
	p := newPageRanker(g, o)
	var st IterStats
	for st.Iterations < o.MaxIter {
		st.Delta = p.step()
		st.Iterations++
		if st.Delta < o.Tol {
			st.Converged = true
			break
		}
	}
	x := p.x
	if !o.OneMinusD {
		var sum float64
		for _, v := range x {
			sum += v
		}
		if sum > 0 {
			for i := range x {
				x[i] /= sum
			}
		}
	}
	return x, st
}

// pageRanker holds the state of one PageRank power iteration; it pulls rank
// along the in-arcs of the transposed graph, which reads the contribution
// array at random but writes the result sequentially.
type pageRanker struct {
	n        int
	d        float64
	oneMinus bool
	in       *CSR      // transpose of the (possibly loop-free) graph
	inv      []float64 // 1/out(u), or 0 for dangling u
	dangling []uint32
	x, y, c  []float64
}

// newPageRanker prepares the iteration for a graph with at least one node;
// o must have its defaults applied.
func newPageRanker(g *CSR, o PageRankOptions) *pageRanker {
	if o.NoSelfLoops {
		g = g.WithoutSelfLoops()
	}
	n := g.N()
	p := &pageRanker{
		n:        n,
		d:        o.Damping,
		oneMinus: o.OneMinusD,
		in:       g.Transpose(),
		inv:      make([]float64, n),
		x:        make([]float64, n),
		y:        make([]float64, n),
		c:        make([]float64, n),
	}
	for u := 0; u < n; u++ {
		if k := g.Offsets[u+1] - g.Offsets[u]; k > 0 {
			p.inv[u] = 1 / float64(k)
		} else {
			p.dangling = append(p.dangling, uint32(u))
		}
	}
	start := 1.0
	if !o.OneMinusD {
		start = 1 / float64(n)
	}
	for i := range p.x {
		p.x[i] = start
		p.c[i] = start * p.inv[i]
	}
	return p
}

// step performs one iteration, replacing x, and returns the L1 change.
func (p *pageRanker) step() float64 {
	n := p.n
	x, y, c, inv := p.x, p.y[:n], p.c[:n], p.inv[:n]
	var dang float64
	for _, u := range p.dangling {
		dang += x[u]
	}
	var base float64
	if p.oneMinus {
		base = 1 - p.d
	} else {
		base = (1 - p.d + p.d*dang) / float64(n)
	}
	pullSum(p.in, c, y)
	d := p.d
	var delta float64
	for v, s := range y {
		nv := base + d*s
		delta += math.Abs(nv - x[v])
		y[v] = nv
		c[v] = nv * inv[v] // contribution for the next step
	}
	p.x, p.y = y, x
	return delta
}
