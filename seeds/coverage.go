package seeds

import (
	"math"

	"github.com/seedcrawl/seedcrawl/graph"
)

// unreached is the distance of a page no seed reaches.
const unreached = math.MaxInt32

// coverage tracks, for a growing seed set, each page's BFS distance to the
// nearest seed, and reports the pages that come within h hops as seeds are
// added. Adding a seed runs a BFS pruned at every page already as close to an
// earlier seed: whatever lies beyond such a page is no closer through it, so
// each page is expanded at most once per improvement of its distance.
type coverage struct {
	g    *graph.CSR
	h    int32
	dist []int32
	cur  []uint32
	next []uint32
}

func newCoverage(g *graph.CSR, hops int) *coverage {
	d := make([]int32, g.N())
	for i := range d {
		d[i] = unreached
	}
	h := int32(unreached - 1)
	if hops < int(h) {
		h = int32(hops)
	}
	return &coverage{g: g, h: h, dist: d}
}

// add makes s a seed and calls fn once for every page that it brings within h
// hops for the first time (s itself included). It returns how many there were.
func (c *coverage) add(s uint32, fn func(v uint32)) int {
	if c.dist[s] == 0 {
		return 0
	}
	n := 0
	if c.dist[s] > c.h {
		n++
		if fn != nil {
			fn(s)
		}
	}
	c.dist[s] = 0
	c.cur = append(c.cur[:0], s)
	for t := int32(0); t < c.h && len(c.cur) > 0; t++ {
		c.next = c.next[:0]
		for _, v := range c.cur {
			for _, u := range c.g.Out(v) {
				if c.dist[u] <= t+1 {
					continue
				}
				if c.dist[u] > c.h {
					n++
					if fn != nil {
						fn(u)
					}
				}
				c.dist[u] = t + 1
				c.next = append(c.next, u)
			}
		}
		c.cur, c.next = c.next, c.cur
	}
	return n
}

// baller enumerates d-hop balls B_d(v) = pages at distance 0..d from v, each
// page once, for the depth-d weight (Σ current value over the ball) and for
// raising the bounds of the pages around a covered negative page. A
// generation stamp per page replaces clearing a visited set between calls.
type baller struct {
	g       *graph.CSR
	stamp   []uint32
	gen     uint32
	members []uint32 // the last ball, in BFS order
}

func newBaller(g *graph.CSR) *baller {
	return &baller{g: g, stamp: make([]uint32, g.N())}
}

func (b *baller) bump() uint32 {
	b.gen++
	if b.gen == 0 { // wrapped: clear once every 2^32 calls
		clear(b.stamp)
		b.gen = 1
	}
	return b.gen
}

// ball returns B_d(v), v first, then the pages at distance 1, 2, ... d in
// BFS order. The slice is reused by the next call.
func (b *baller) ball(v uint32, d int) []uint32 {
	gen := b.bump()
	st := b.stamp
	st[v] = gen
	m := append(b.members[:0], v)
	lo := 0
	for level := 1; level <= d && lo < len(m); level++ {
		hi := len(m)
		for i := lo; i < hi; i++ {
			for _, u := range b.g.Out(m[i]) {
				if st[u] != gen {
					st[u] = gen
					m = append(m, u)
				}
			}
		}
		lo = hi
	}
	b.members = m
	return m
}

// weight returns Σ val(u) over u ∈ B_d(v).
func (b *baller) weight(v uint32, d int, val []float64) float64 {
	if d == 1 {
		// maxout and maxscc's member choice: no ball to keep.
		gen := b.bump()
		st := b.stamp
		st[v] = gen
		sum := val[v]
		for _, u := range b.g.Out(v) {
			if st[u] != gen {
				st[u] = gen
				sum += val[u]
			}
		}
		return sum
	}
	var sum float64
	for _, u := range b.ball(v, d) {
		sum += val[u]
	}
	return sum
}
