package compare

import (
	"math"

	"github.com/seedcrawl/seedcrawl/graph"
)

// pageRank returns the PageRank of g, where page[v] says whether node v
// is a fetched page (its arcs are its links; a page without arcs is
// dangling) or a discovered-only URL (its links are unknown), g.Hosts
// indexes nHosts hosts, and m says how the rank of a discovered-only node
// moves on.
//
// With UnfetchedDangling it is graph.PageRank's normalised form: uniform
// teleport, and the rank of every node without arcs spread uniformly:
//
//	x'(v) = (1−d)/N + d·D/N + d·Σ_{u→v} x(u)/out(u),   D = Σ_{out(u)=0} x(u).
//
// With UnfetchedHost a discovered-only node u of host h links like the
// average fetched page of h: with L_h the fetched pages of h that have
// arcs, its rank goes to them in equal shares and on along their arcs (row
// u of the transition matrix is the mean of the rows of L_h), so
//
//	x'(v) = (1−d)/N + d·D/N + d·Σ_{w→v, w∈L} (x(w) + P(h(w))/|L_h(w)|)/out(w),
//	P(h) = Σ x(u) over the discovered-only nodes u of h,
//
// where D now holds only the dangling pages and the discovered-only nodes
// of hosts with no page in L. Both forms are stochastic, so x sums to 1.
// The mean-row estimate is the "average page of the site" model of link
// prediction for unvisited pages: it keeps the rank the crawls cannot see
// (the votes of pages nobody fetched) on the site that holds it instead of
// spreading it over the whole graph.
//
// Stop rule: the first iteration whose L1 change is below 1e-10, or 200
// iterations, as graph.PageRank; the result is rescaled by its sum to
// remove rounding drift.
func pageRank(g *graph.CSR, page []bool, nHosts int, d float64, m Unfetched) []float64 {
	const (
		tol     = 1e-10
		maxIter = 200
	)
	n := g.N()
	if n == 0 {
		return nil
	}
	var hostPages []float64 // |L_h| by host
	if m == UnfetchedHost {
		hostPages = make([]float64, nHosts)
		for v := range n {
			if page[v] && g.OutDegree(uint32(v)) > 0 {
				hostPages[g.Hosts[v]]++
			}
		}
	}
	pool := make([]float64, nHosts)
	x := make([]float64, n)
	next := make([]float64, n)
	for v := range x {
		x[v] = 1 / float64(n)
	}
	for range maxIter {
		var dangling float64
		clear(pool)
		for v := range n {
			if page[v] && g.OutDegree(uint32(v)) > 0 {
				continue
			}
			if !page[v] && hostPages != nil && hostPages[g.Hosts[v]] > 0 {
				pool[g.Hosts[v]] += x[v]
				continue
			}
			dangling += x[v]
		}
		base := (1-d)/float64(n) + d*dangling/float64(n)
		for v := range next {
			next[v] = base
		}
		for v := range n {
			out := g.Out(uint32(v))
			if len(out) == 0 || !page[v] {
				continue
			}
			mass := x[v]
			if hostPages != nil {
				h := g.Hosts[v]
				mass += pool[h] / hostPages[h]
			}
			share := d * mass / float64(len(out))
			for _, w := range out {
				next[w] += share
			}
		}
		var delta float64
		for v := range n {
			delta += math.Abs(next[v] - x[v])
		}
		x, next = next, x
		if delta < tol {
			break
		}
	}
	var sum float64
	for _, v := range x {
		sum += v
	}
	for v := range x {
		x[v] /= sum
	}
	return x
}
