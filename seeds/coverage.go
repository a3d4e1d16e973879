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

// baller sums current values over d-hop balls B_d(v) = pages at distance
// 0..d from v, each page once. A generation stamp per page replaces clearing a
// visited set between calls.
type baller struct {
	g     *graph.CSR
	stamp []uint32
	gen   uint32
	cur   []uint32
	next  []uint32
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

// weight returns Σ val(u) over u ∈ B_d(v).
func (b *baller) weight(v uint32, d int, val []float64) float64 {
	gen := b.bump()
	st := b.stamp
	st[v] = gen
	sum := val[v]
	if d == 1 {
		for _, u := range b.g.Out(v) {
			if st[u] != gen {
				st[u] = gen
				sum += val[u]
			}
		}
		return sum
	}
	b.cur = append(b.cur[:0], v)
	for level := 1; level <= d && len(b.cur) > 0; level++ {
		last := level == d
		b.next = b.next[:0]
		for _, x := range b.cur {
			for _, u := range b.g.Out(x) {
				if st[u] == gen {
					continue
				}
				st[u] = gen
				sum += val[u]
				if !last {
					b.next = append(b.next, u)
				}
			}
		}
		b.cur, b.next = b.next, b.cur
	}
	return sum
}

// each calls fn for every u ∈ B_d(v).
func (b *baller) each(v uint32, d int, fn func(u uint32)) {
	gen := b.bump()
	st := b.stamp
	st[v] = gen
	fn(v)
	b.cur = append(b.cur[:0], v)
	for level := 1; level <= d && len(b.cur) > 0; level++ {
		b.next = b.next[:0]
		for _, x := range b.cur {
			for _, u := range b.g.Out(x) {
				if st[u] == gen {
					continue
				}
				st[u] = gen
				fn(u)
				b.next = append(b.next, u)
			}
		}
		b.cur, b.next = b.next, b.cur
	}
}
