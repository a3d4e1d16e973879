package seeds

import (
	"context"
	"fmt"
	"slices"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/pq"
)

// greedyState is the coverage state greedy runs share: current values
// (covered pages at 0), the coverage tracker and the pages already chosen.
type greedyState struct {
	val    []float64
	cov    *coverage
	chosen []bool
}

func (s *selector) newGreedyState() *greedyState {
	return &greedyState{val: slices.Clone(s.val), cov: newCoverage(s.g, s.o.Hops), chosen: make([]bool, s.g.N())}
}

// greedy is the lazy greedy k-coverage of Zheng, Dmitriev & Giles: pick the
// candidate with the largest depth-d weight W_d(v) = Σ val(u) over the pages
// u within d hops of v (v included), make it a seed, set the value of every
// page within Hops hops of it to 0, repeat. maxout is d = 1, maxweight d =
// Options.Depth, rootscc the same on root-component candidates.
//
// Lazy evaluation (Minoux's accelerated greedy; CELF in Leskovec et al., KDD
// 2007): values only fall to 0, so a weight computed before the last
// selection is an upper bound of the current one. The heap keeps those
// bounds; the top is recomputed and selected only if it is still on top with
// a weight computed after the last selection. Negative values (user weights)
// rise to 0 when covered; the weight of every candidate within d reverse hops
// of such a page is raised by the same amount right away, over the transposed
// graph, so the keys stay upper bounds and the result equals the eager greedy
// (ties go to the lower node id).
//
// Selection stops early when the best weight is ≤ 0: no candidate adds value
// within d hops. st carries the coverage of earlier runs (nil: a fresh one).
func (s *selector) greedy(ctx context.Context, cands []bool, k, d int, st *greedyState) ([]Seed, string, error) {
	if st == nil {
		st = s.newGreedyState()
	}
	n := s.g.N()
	val := st.val
	b := newBaller(s.g)
	h := pq.NewDense(n)
	fresh := make([]uint32, n) // selection epoch in which the key was computed
	epoch := uint32(1)
	negative := false
	for v := 0; v < n; v++ {
		negative = negative || val[v] < 0
		if st.chosen[v] || (cands != nil && !cands[v]) {
			continue
		}
		if v&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, "", err
			}
		}
		h.Push(pq.Item{ID: uint64(v), Prio: b.weight(uint32(v), d, val), Seq: uint64(v)})
		fresh[v] = epoch
	}
	var rb *baller
	if negative {
		if s.rev == nil {
			s.rev = s.g.Transpose()
		}
		rb = newBaller(s.rev)
	}
	var out []Seed
	recomputed := 0
	for len(out) < k {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		var top pq.Item
		for {
			it, ok := h.Peek()
			if !ok {
				return out, "no candidates left", nil
			}
			v := uint32(it.ID)
			if fresh[v] == epoch {
				top = it
				break
			}
			if recomputed++; recomputed&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, "", err
				}
			}
			fresh[v] = epoch
			h.Update(it.ID, b.weight(v, d, val))
		}
		if top.Prio <= 0 {
			return out, fmt.Sprintf("no remaining candidate adds value within %d hops", d), nil
		}
		h.Remove(top.ID)
		v := uint32(top.ID)
		st.chosen[v] = true
		out = append(out, Seed{Node: v, Score: top.Prio})
		st.cov.add(v, func(u uint32) {
			old := val[u]
			val[u] = 0
			if old < 0 {
				for _, x := range rb.ball(u, d) {
					if it, ok := h.Get(uint64(x)); ok {
						h.Update(uint64(x), it.Prio-old)
					}
				}
			}
		})
		epoch++
	}
	return out, "", nil
}

// components computes (once) the strongly connected components of the graph.
func (s *selector) components() {
	if s.comp == nil {
		s.comp, s.ncomp = graph.SCC(s.g)
	}
}

func (s *selector) compSizes() []int {
	s.components()
	return graph.ComponentSizes(s.comp, s.ncomp)
}

// rootSCC is Zheng et al.'s Root SCC First: every page is reachable from some
// root component of the condensation DAG (a component no arc enters), and no
// crawl reaches a root component unless it is seeded there. The candidates
// are the members of root components; among them seeds are picked greedily
// by depth-d weight, as maxweight picks them. When the root components are
// used up (hollins has two) before k seeds, the rest is filled by maxweight
// over all candidates on the same coverage state, marked Filled.
func (s *selector) rootSCC(ctx context.Context, cands []bool, k int) ([]Seed, string, error) {
	s.components()
	if s.rootOf == nil {
		dag := graph.Condense(s.g, s.comp, s.ncomp)
		s.rootOf = make([]bool, s.ncomp)
		for _, c := range graph.RootComponents(dag) {
			s.rootOf[c] = true
		}
	}
	n := s.g.N()
	rc := make([]bool, n)
	for v := 0; v < n; v++ {
		rc[v] = s.rootOf[s.comp[v]] && (cands == nil || cands[v])
	}
	st := s.newGreedyState()
	out, _, err := s.greedy(ctx, rc, k, s.o.Depth, st)
	if err != nil {
		return nil, "", err
	}
	size := s.compSizes()
	for i := range out {
		out[i].ComponentSize = size[s.comp[out[i].Node]]
	}
	if len(out) == k {
		return out, "", nil
	}
	fill, note, err := s.greedy(ctx, cands, k-len(out), s.o.Depth, st)
	if err != nil {
		return nil, "", err
	}
	for _, f := range fill {
		f.Filled = true
		f.ComponentSize = size[s.comp[f.Node]]
		out = append(out, f)
	}
	return out, note, nil
}

// maxSCC is Zheng et al.'s Maximal Weighted SCC First: the component with the
// largest uncovered value supplies the next seed. Any member reaches the whole
// component, so the member is chosen for its immediate reach: the largest
// depth-1 weight, ties to the lower id. Covering then zeroes values and
// lowers component weights as in the other greedy algorithms; a component
// whose pages are all covered or valueless weighs exactly 0.
func (s *selector) maxSCC(ctx context.Context, cands []bool, k int) ([]Seed, string, error) {
	s.components()
	n, nc := s.g.N(), s.ncomp
	val := slices.Clone(s.val)
	off, members := groupBy(s.comp, nc)
	weight := make([]float64, nc)
	nonzero := make([]int, nc) // members with a nonzero current value
	avail := make([]int, nc)   // candidate members not chosen yet
	for v := 0; v < n; v++ {
		c := s.comp[v]
		weight[c] += val[v]
		if val[v] != 0 {
			nonzero[c]++
		}
		if cands == nil || cands[v] {
			avail[c]++
		}
	}
	chosen := make([]bool, n)
	b := newBaller(s.g)
	cov := newCoverage(s.g, s.o.Hops)
	var out []Seed
	for len(out) < k {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		best := -1
		for c := 0; c < nc; c++ {
			if avail[c] > 0 && (best < 0 || weight[c] > weight[best]) {
				best = c
			}
		}
		if best < 0 {
			return out, "no candidates left", nil
		}
		if weight[best] <= 0 {
			return out, "no component has uncovered value left", nil
		}
		bv, bw := -1, 0.0
		for _, v := range members[off[best]:off[best+1]] {
			if chosen[v] || (cands != nil && !cands[v]) {
				continue
			}
			if w := b.weight(v, 1, val); bv < 0 || w > bw {
				bv, bw = int(v), w
			}
		}
		v := uint32(bv)
		chosen[v] = true
		avail[best]--
		out = append(out, Seed{Node: v, Score: weight[best], ComponentSize: off[best+1] - off[best]})
		cov.add(v, func(u uint32) {
			c := s.comp[u]
			if val[u] != 0 {
				weight[c] -= val[u]
				val[u] = 0
				if nonzero[c]--; nonzero[c] == 0 {
					weight[c] = 0 // no rounding residue
				}
			}
		})
	}
	return out, "", nil
}

// groupBy lists the nodes grouped by key (a counting sort): the nodes v
// with key[v] = c are members[off[c]:off[c+1]], ascending. key values are
// below groups.
func groupBy(key []uint32, groups int) (off []int, members []uint32) {
	off = make([]int, groups+1)
	for _, c := range key {
		off[c+1]++
	}
	for c := range groups {
		off[c+1] += off[c]
	}
	members = make([]uint32, len(key))
	pos := slices.Clone(off[:groups])
	for v, c := range key {
		members[pos[c]] = uint32(v)
		pos[c]++
	}
	return off, members
}
