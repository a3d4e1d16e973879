package graph

// BFS is reusable scratch space for breadth-first searches on one graph.
// Visited marks are generation stamps: each Run bumps the generation instead
// of clearing the marks, so a run costs O(nodes reached + their out-arcs),
// not O(N). A BFS is not safe for concurrent use; give each goroutine its own.
type BFS struct {
	g     *CSR
	mark  []uint32 // mark[v] == gen: v reached in the current run
	gen   uint32
	queue []uint32 // nodes of the last run in BFS order
}

// NewBFS returns a BFS over g.
func NewBFS(g *CSR) *BFS {
	return &BFS{g: g, mark: make([]uint32, g.N())}
}

// Run performs a breadth-first search along out-arcs from seeds, which are at
// depth 0 (duplicates count once), up to maxHops arcs away (maxHops < 0: no
// limit; 0: the seeds only). visit, if not nil, is called once for every
// node reached, in BFS order (nondecreasing depth) with its depth; when it
// returns false the node counts as reached but its out-arcs are not
// followed. Run returns the number of nodes reached. Seeds must be below N.
func (b *BFS) Run(seeds []uint32, maxHops int, visit func(v uint32, depth int) bool) int {
	b.gen++
	if b.gen == 0 { // wrapped: stale stamps could collide, so clear once
		clear(b.mark)
		b.gen = 1
	}
	gen, mark := b.gen, b.mark
	off, tg := b.g.Offsets, b.g.Targets
	q := b.queue[:0]
	for _, s := range seeds {
		if mark[s] != gen {
			mark[s] = gen
			q = append(q, s)
		}
	}
	head := 0
	for depth := 0; head < len(q); depth++ {
		levelEnd := len(q)
		expand := maxHops < 0 || depth < maxHops
		for ; head < levelEnd; head++ {
			v := q[head]
			if visit != nil && !visit(v, depth) || !expand {
				continue
			}
			for _, w := range tg[off[v]:off[v+1]] {
				if mark[w] != gen {
					mark[w] = gen
					q = append(q, w)
				}
			}
		}
	}
	b.queue = q
	return len(q)
}

// Reached returns the nodes reached by the last Run, in BFS order. The slice
// aliases the scratch space and is overwritten by the next Run.
func (b *BFS) Reached() []uint32 { return b.queue }

// Seen reports whether v was reached by the last Run.
func (b *BFS) Seen(v uint32) bool { return b.gen != 0 && b.mark[v] == b.gen }

// Reachable reports, for every node of g, whether it is within maxHops arcs
// of some seed (maxHops < 0: any distance). It is the BUDG coverage measure
// (Sharma & Bhagat) when maxHops < 0.
func Reachable(g *CSR, seeds []uint32, maxHops int) []bool {
	b := NewBFS(g)
	b.Run(seeds, maxHops, nil)
	r := make([]bool, g.N())
	for _, v := range b.queue {
		r[v] = true
	}
	return r
}
