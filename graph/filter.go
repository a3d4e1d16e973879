package graph

// Filter returns a new graph with the arcs src→dst for which keep returns
// true, in their original order. The node set is unchanged, and URLs, Hosts,
// HostNames and Labels are shared with g, not copied. keep is called once per arc,
// in source order.
func (g *CSR) Filter(keep func(src, dst uint32) bool) *CSR {
	n := g.N()
	off := make([]uint64, n+1)
	tg := make([]uint32, 0, len(g.Targets))
	for v := 0; v < n; v++ {
		for _, t := range g.Targets[g.Offsets[v]:g.Offsets[v+1]] {
			if keep(uint32(v), t) {
				tg = append(tg, t)
			}
		}
		off[v+1] = uint64(len(tg))
	}
	return &CSR{Offsets: off, Targets: shrink(tg), URLs: g.URLs, Hosts: g.Hosts, HostNames: g.HostNames, Labels: g.Labels}
}

// WithoutSelfLoops returns a new graph without the arcs v→v. URLs, hosts and
// labels are shared with g.
func (g *CSR) WithoutSelfLoops() *CSR {
	n := g.N()
	off := make([]uint64, n+1)
	tg := make([]uint32, 0, len(g.Targets))
	for v := 0; v < n; v++ {
		for _, t := range g.Targets[g.Offsets[v]:g.Offsets[v+1]] {
			if t != uint32(v) {
				tg = append(tg, t)
			}
		}
		off[v+1] = uint64(len(tg))
	}
	return &CSR{Offsets: off, Targets: shrink(tg), URLs: g.URLs, Hosts: g.Hosts, HostNames: g.HostNames, Labels: g.Labels}
}

// SelfLoops returns the number of arcs v→v.
func (g *CSR) SelfLoops() int {
	k := 0
	for v := 0; v < g.N(); v++ {
		for _, t := range g.Out(uint32(v)) {
			if t == uint32(v) {
				k++
			}
		}
	}
	return k
}

// InDegrees returns the in-degree of every node.
func (g *CSR) InDegrees() []uint32 {
	in := make([]uint32, g.N())
	for _, t := range g.Targets {
		in[t]++
	}
	return in
}

// shrink returns a with its capacity trimmed to its length when more than an
// eighth of the backing array would otherwise be wasted, so that filtered
// graphs stay within the CSR memory budget.
func shrink(a []uint32) []uint32 {
	if cap(a)-len(a) <= cap(a)/8 {
		return a
	}
	b := make([]uint32, len(a))
	copy(b, a)
	return b
}
