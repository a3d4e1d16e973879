package graph

// SCC returns the strongly connected components of g: comp[v] is the
// component of node v, in 0..count-1.
//
// Algorithm: Tarjan, "Depth-first search and linear graph algorithms", SIAM J.
// Comput. 1(2), 1972, run with an explicit DFS stack (one frame of node and
// next-arc position per active node) instead of recursion, so that the
// million-deep DFS paths of web graphs cannot overflow the goroutine stack
// (as vigna/webgraph-rs algo/src/sccs/tarjan.rs does). Time O(N+M); memory
// four uint32 per node plus the DFS frames.
//
// Tarjan emits a component only after every component reachable from it, so
// ids are in reverse topological order of the condensation: for every arc
// u→v, comp[u] ≥ comp[v]; sink components get the smallest ids and the
// component with id count−1 is a root (no arc enters it from outside).
// Self-loops and parallel arcs do not matter.
func SCC(g *CSR) (comp []uint32, count int) {
	n := g.N()
	const unassigned = ^uint32(0)
	off, tg := g.Offsets, g.Targets
	comp = make([]uint32, n)
	for i := range comp {
		comp[i] = unassigned
	}
	// index[v] is v's DFS preorder number plus 1 (0: not visited yet). A
	// visited node is on Tarjan's stack exactly while comp[v] is unassigned.
	index := make([]uint32, n)
	low := make([]uint32, n)
	var stack []uint32
	type frame struct {
		v   uint32
		pos uint64 // next arc of v to explore
	}
	var call []frame
	next := uint32(1)
	for r := 0; r < n; r++ {
		if index[r] != 0 {
			continue
		}
		index[r], low[r] = next, next
		next++
		stack = append(stack, uint32(r))
		call = append(call, frame{uint32(r), off[r]})
		for len(call) > 0 {
			top := len(call) - 1
			v := call[top].v
			pos, end := call[top].pos, off[v+1]
			lv := low[v]
			descended := false
			for pos < end {
				w := tg[pos]
				pos++
				if index[w] == 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					call[top].pos = pos
					low[v] = lv
					call = append(call, frame{w, off[w]})
					descended = true
					break
				}
				if comp[w] == unassigned && index[w] < lv {
					lv = index[w]
				}
			}
			if descended {
				continue
			}
			low[v] = lv
			call = call[:top]
			if lv == index[v] {
				// v is the root of a component: pop it off Tarjan's stack.
				c := uint32(count)
				count++
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = c
					if w == v {
						break
					}
				}
			}
			if top > 0 {
				p := call[top-1].v
				if lv < low[p] {
					low[p] = lv
				}
			}
		}
	}
	return comp, count
}

// ComponentSizes returns the number of nodes in each component of comp.
func ComponentSizes(comp []uint32, count int) []int {
	sizes := make([]int, count)
	for _, c := range comp {
		sizes[c]++
	}
	return sizes
}

// Condense returns the condensation of g under the component assignment
// comp (as returned by SCC): node c of the result is component c, and there
// is one arc c→d for each pair of distinct components joined by at least one
// arc of g. It has no self-loops and no parallel arcs; arcs of each node are
// in order of first appearance when scanning the component's nodes in
// increasing id order. For SCC's components the result is acyclic. The result
// has no URLs or hosts.
func Condense(g *CSR, comp []uint32, count int) *CSR {
	n := g.N()
	// Nodes grouped by component (counting sort), so each component's arcs
	// are emitted contiguously and the CSR is filled in one pass.
	start := make([]uint32, count+1)
	for _, c := range comp[:n] {
		start[c+1]++
	}
	for c := 1; c <= count; c++ {
		start[c] += start[c-1]
	}
	members := make([]uint32, n)
	pos := make([]uint32, count)
	copy(pos, start[:count])
	for v := 0; v < n; v++ {
		c := comp[v]
		members[pos[c]] = uint32(v)
		pos[c]++
	}
	// pos is reused as the duplicate filter: pos[d] == c+1 once c→d is out.
	clear(pos)
	off := make([]uint64, count+1)
	var tg []uint32
	for c := 0; c < count; c++ {
		for _, v := range members[start[c]:start[c+1]] {
			for _, w := range g.Out(v) {
				d := comp[w]
				if d != uint32(c) && pos[d] != uint32(c)+1 {
					pos[d] = uint32(c) + 1
					tg = append(tg, d)
				}
			}
		}
		off[c+1] = uint64(len(tg))
	}
	if tg == nil {
		tg = []uint32{}
	}
	return &CSR{Offsets: off, Targets: shrink(tg)}
}

// RootComponents returns, in increasing order, the nodes of dag with
// in-degree 0. Applied to a condensation, these are the root components:
// those no arc enters from another component (Zheng, Dmitriev & Giles,
// "Graph-based seed selection for web-scale crawlers", CIKM 2009, rootscc).
func RootComponents(dag *CSR) []uint32 {
	in := dag.InDegrees()
	var roots []uint32
	for c, k := range in {
		if k == 0 {
			roots = append(roots, uint32(c))
		}
	}
	return roots
}
