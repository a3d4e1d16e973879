package graph

import "math"

// HITSOptions configures HITS. The zero value runs 60 iterations, the
// setting of Daneshpajouh, Mohammadi Nasiri & Ghodsi.
type HITSOptions struct {
	// Iterations is the maximum number of iterations K; 0 means 60.
	Iterations int
	// Tol, when positive, stops early once the L1 changes of both the hub
	// and the authority vector are below it.
	Tol float64
	// NoSelfLoops drops the arcs v→v before ranking.
	NoSelfLoops bool
}

// HITS computes Kleinberg's hub and authority scores ("Authoritative sources
// in a hyperlinked environment", JACM 1999) by K rounds of
//
//	a = Aᵀ·h,  a = a/‖a‖₂
//	h = A·a,   h = h/‖h‖₂
//
// where A is the adjacency matrix (A[u][v] = number of arcs u→v) and the hub
// update uses the authority vector of the same round. a and h start at all
// ones. Dangling nodes (out-degree 0) get hub score 0 and nodes without
// in-arcs get authority score 0; if a vector is all zero (a graph without
// arcs) it stays zero instead of being normalised.
//
// Stop rule: after o.Iterations rounds (default 60), or earlier when o.Tol > 0
// and the L1 changes of both normalised vectors in one round are below
// o.Tol. st.Delta is the larger of the two changes in the last round.
func HITS(g *CSR, o HITSOptions) (hub, auth []float64, st IterStats) {
	if o.Iterations == 0 {
		o.Iterations = 60
	}
	if g.N() == 0 {
		return []float64{}, []float64{}, IterStats{Converged: true}
	}
	h := newHITSRunner(g, o.NoSelfLoops)
	for st.Iterations < o.Iterations {
		st.Delta = h.step()
		st.Iterations++
		if o.Tol > 0 && st.Delta < o.Tol {
			st.Converged = true
			break
		}
	}
	return h.h, h.a, st
}

// hitsRunner holds the state of one HITS iteration: the graph for h = A·a
// and its transpose for a = Aᵀ·h, both pulled so writes stay sequential.
type hitsRunner struct {
	n       int
	out, in *CSR
	h, a    []float64
	tmp     []float64
}

func newHITSRunner(g *CSR, noSelfLoops bool) *hitsRunner {
	if noSelfLoops {
		g = g.WithoutSelfLoops()
	}
	n := g.N()
	r := &hitsRunner{n: n, out: g, in: g.Transpose(), h: make([]float64, n), a: make([]float64, n), tmp: make([]float64, n)}
	// Starting at all ones; as every update is normalised, the normalised
	// ones vector is equivalent and gives a meaningful first-round change.
	s := 1 / math.Sqrt(float64(n))
	for i := range r.h {
		r.h[i] = s
		r.a[i] = s
	}
	return r
}

// step performs one round and returns max(L1 change of a, L1 change of h).
func (r *hitsRunner) step() float64 {
	da := pullNormalise(r.in, r.h, r.a, r.tmp)
	dh := pullNormalise(r.out, r.a, r.h, r.tmp)
	return max(da, dh)
}

// pullNormalise sets dst[v] = Σ_{w ∈ g.Out(v)} src[w], L2-normalises it and
// returns the L1 change against its old value. tmp is scratch of length N.
func pullNormalise(g *CSR, src, dst, tmp []float64) float64 {
	tmp = tmp[:len(dst)]
	ss := pullSum(g, src, tmp)
	scale := 0.0
	if ss > 0 {
		scale = 1 / math.Sqrt(ss)
	}
	var delta float64
	for v, s := range tmp {
		nv := s * scale
		delta += math.Abs(nv - dst[v])
		dst[v] = nv
	}
	return delta
}
