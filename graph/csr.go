package graph

import (
	"fmt"
	"slices"
)

// CSR is a directed graph in compressed sparse row form.
//
// The zero value is the empty graph. Offsets has N+1 entries; the out-arcs of
// node v are Targets[Offsets[v]:Offsets[v+1]], in the order they were added
// (sorted for graphs read from the shared data format, document order for
// crawled graphs). Self-loops and parallel arcs are kept as given.
//
// URLs, Hosts and HostNames are optional: URLs[v] is node v's URL, Hosts[v]
// indexes HostNames. A graph without URLs has nil URLs and Hosts.
//
// Labels is optional too: Labels[v] is node v's id in the file it was read
// from when that file used its own, sparse ids (SNAP edge lists), so results
// can be reported in the file's ids. nil means node ids are the file's ids.
type CSR struct {
	Offsets   []uint64
	Targets   []uint32
	URLs      []string
	Hosts     []uint32
	HostNames []string
	Labels    []uint64
}

// N returns the number of nodes.
func (g *CSR) N() int {
	if len(g.Offsets) == 0 {
		return 0
	}
	return len(g.Offsets) - 1
}

// M returns the number of arcs.
func (g *CSR) M() int { return len(g.Targets) }

// Out returns the out-neighbours of v. The slice aliases the graph's storage.
func (g *CSR) Out(v uint32) []uint32 {
	return g.Targets[g.Offsets[v]:g.Offsets[v+1]]
}

// OutDegree returns the number of out-arcs of v.
func (g *CSR) OutDegree(v uint32) int { return int(g.Offsets[v+1] - g.Offsets[v]) }

// HasHosts reports whether every node has a host.
func (g *CSR) HasHosts() bool { return g.Hosts != nil && len(g.Hosts) == g.N() }

// Transpose returns the reverse graph (arc u→v becomes v→u). In-arcs of each
// node appear in increasing source order. URLs, hosts and labels are shared,
// not copied.
func (g *CSR) Transpose() *CSR {
	n := g.N()
	off := make([]uint64, n+1)
	for _, t := range g.Targets {
		off[t+1]++
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	tg := make([]uint32, len(g.Targets))
	pos := make([]uint64, n)
	copy(pos, off[:n])
	for u := 0; u < n; u++ {
		for _, v := range g.Out(uint32(u)) {
			tg[pos[v]] = uint32(u)
			pos[v]++
		}
	}
	return &CSR{Offsets: off, Targets: tg, URLs: g.URLs, Hosts: g.Hosts, HostNames: g.HostNames, Labels: g.Labels}
}

// Validate checks the structural invariants: monotone offsets, offsets ending
// at M, every target below N, and host arrays of matching length.
func (g *CSR) Validate() error {
	n := g.N()
	if n == 0 {
		if len(g.Targets) != 0 {
			return fmt.Errorf("graph: %d arcs but no nodes", len(g.Targets))
		}
		return nil
	}
	if g.Offsets[0] != 0 {
		return fmt.Errorf("graph: offsets[0] = %d, want 0", g.Offsets[0])
	}
	for v := 0; v < n; v++ {
		if g.Offsets[v+1] < g.Offsets[v] {
			return fmt.Errorf("graph: offsets decrease at node %d", v)
		}
	}
	if g.Offsets[n] != uint64(len(g.Targets)) {
		return fmt.Errorf("graph: offsets end at %d, but there are %d arcs", g.Offsets[n], len(g.Targets))
	}
	for i, t := range g.Targets {
		if int(t) >= n {
			return fmt.Errorf("graph: arc %d targets node %d, out of range 0..%d", i, t, n-1)
		}
	}
	if g.URLs != nil && len(g.URLs) != n {
		return fmt.Errorf("graph: %d URLs for %d nodes", len(g.URLs), n)
	}
	if g.Labels != nil && len(g.Labels) != n {
		return fmt.Errorf("graph: %d labels for %d nodes", len(g.Labels), n)
	}
	if g.Hosts != nil {
		if len(g.Hosts) != n {
			return fmt.Errorf("graph: %d hosts for %d nodes", len(g.Hosts), n)
		}
		for v, h := range g.Hosts {
			if int(h) >= len(g.HostNames) {
				return fmt.Errorf("graph: node %d has host index %d, but there are %d host names", v, h, len(g.HostNames))
			}
		}
	}
	return nil
}

// Builder accumulates arcs and produces a CSR with Build. Arcs of one source
// keep the order they were added in. It holds two uint32 per arc until Build.
type Builder struct {
	n    int
	src  []uint32
	dst  []uint32
	sort bool
}

// NewBuilder returns a builder for a graph of n nodes. Pass sorted=true to
// sort each node's targets (as the shared data format does).
func NewBuilder(n int, sorted bool) *Builder { return &Builder{n: n, sort: sorted} }

// Add appends the arc src→dst. Nodes beyond the declared count grow the graph.
func (b *Builder) Add(src, dst uint32) {
	if int(src) >= b.n {
		b.n = int(src) + 1
	}
	if int(dst) >= b.n {
		b.n = int(dst) + 1
	}
	b.src = append(b.src, src)
	b.dst = append(b.dst, dst)
}

// Build returns the CSR graph. The builder must not be used afterwards.
func (b *Builder) Build() *CSR {
	g := buildCSR(b.n, b.src, b.dst)
	b.src, b.dst = nil, nil
	if b.sort {
		for v := 0; v < b.n; v++ {
			slices.Sort(g.Targets[g.Offsets[v]:g.Offsets[v+1]])
		}
	}
	return g
}
