package graph

// pullSum sets y[v] = Σ x[u] over u in g.Out(v) for every node v and
// returns Σ y[v]²: one sparse matrix–vector product, pulled so that y is
// written sequentially, with the squared norm HITS needs for free.
// Four independent accumulators break the floating-point add dependency
// chain, which otherwise bounds the loop at one add latency per arc; on
// cnr-2000 this is about 20 % faster than a single accumulator.
func pullSum(g *CSR, x, y []float64) float64 {
	off, tg := g.Offsets, g.Targets
	var ss float64
	lo := off[0]
	for v := range y {
		hi := off[v+1]
		idx := tg[lo:hi]
		lo = hi
		var s0, s1, s2, s3 float64
		for len(idx) >= 4 {
			q := idx[:4:4]
			s0 += x[q[0]]
			s1 += x[q[1]]
			s2 += x[q[2]]
			s3 += x[q[3]]
			idx = idx[4:]
		}
		for _, u := range idx {
			s0 += x[u]
		}
		s := (s0 + s1) + (s2 + s3)
		y[v] = s
		ss += s * s
	}
	return ss
}
