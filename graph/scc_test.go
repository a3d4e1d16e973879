package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// closure returns the reflexive transitive closure of g (Warshall), a second
// method for strong connectivity independent of Tarjan and of BFS.
func closure(g *CSR) [][]bool {
	n := g.N()
	r := make([][]bool, n)
	for u := range r {
		r[u] = make([]bool, n)
		r[u][u] = true
		for _, v := range g.Out(uint32(u)) {
			r[u][v] = true
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if !r[i][k] {
				continue
			}
			for j := 0; j < n; j++ {
				if r[k][j] {
					r[i][j] = true
				}
			}
		}
	}
	return r
}

// checkSCC verifies comp against forward/backward reachability: u and v
// share a component iff each reaches the other; ids cover 0..count-1 and are
// in reverse topological order.
func checkSCC(t *testing.T, g *CSR, comp []uint32, count int) {
	t.Helper()
	r := closure(g)
	n := g.N()
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			same := comp[u] == comp[v]
			if mutual := r[u][v] && r[v][u]; same != mutual {
				t.Fatalf("nodes %d, %d: same component = %v, mutually reachable = %v", u, v, same, mutual)
			}
		}
	}
	seen := make([]bool, count)
	for _, c := range comp {
		if int(c) >= count {
			t.Fatalf("component id %d ≥ count %d", c, count)
		}
		seen[c] = true
	}
	if slices.Contains(seen, false) {
		t.Fatalf("some component id below %d is unused", count)
	}
	checkReverseTopological(t, g, comp)
}

func checkReverseTopological(t *testing.T, g *CSR, comp []uint32) {
	t.Helper()
	for u := 0; u < g.N(); u++ {
		for _, v := range g.Out(uint32(u)) {
			if comp[u] < comp[v] {
				t.Fatalf("arc %d→%d goes from component %d to %d: not reverse topological", u, v, comp[u], comp[v])
			}
		}
	}
}

func TestSCCSmall(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		arcs  [][2]uint32
		count int
	}{
		{"empty", 0, nil, 0},
		{"isolated", 3, nil, 3},
		{"self-loop", 2, [][2]uint32{{0, 0}}, 2},
		{"two-cycle", 2, [][2]uint32{{0, 1}, {1, 0}}, 1},
		{"path", 4, [][2]uint32{{0, 1}, {1, 2}, {2, 3}}, 4},
		{"two cycles joined", 6, [][2]uint32{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}, {5, 3}}, 2},
		{"figure eight", 5, [][2]uint32{{0, 1}, {1, 0}, {1, 2}, {2, 1}, {3, 4}}, 3},
		{"budg toy", 5, [][2]uint32{{0, 1}, {0, 3}, {4, 1}, {4, 2}, {4, 3}}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := fromArcs(c.n, c.arcs)
			comp, count := SCC(g)
			if count != c.count {
				t.Fatalf("count = %d, want %d (comp %v)", count, c.count, comp)
			}
			checkSCC(t, g, comp, count)
		})
	}
}

func TestSCCRandomAgainstReachability(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name    string
		n, m    int
		repeats int
	}{
		{"tiny", 5, 6, 50},
		{"sparse", 60, 60, 20},
		{"near threshold", 80, 100, 20},
		{"dense", 60, 300, 10},
		{"very dense", 30, 600, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i < c.repeats; i++ {
				g := randomGraph(rng, c.n, c.m)
				comp, count := SCC(g)
				checkSCC(t, g, comp, count)
			}
		})
	}
}

// TestSCCDeepPath checks the explicit stack: a million-node path would
// overflow a recursive DFS of naive depth.
func TestSCCDeepPath(t *testing.T) {
	const n = 1 << 20
	cases := []struct {
		name  string
		back  bool
		count int
	}{
		{"path", false, n},
		{"cycle", true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := make([]uint64, n+1)
			tg := make([]uint32, 0, n)
			for v := 0; v < n; v++ {
				if v+1 < n {
					tg = append(tg, uint32(v+1))
				} else if c.back {
					tg = append(tg, 0)
				}
				off[v+1] = uint64(len(tg))
			}
			g := &CSR{Offsets: off, Targets: tg}
			comp, count := SCC(g)
			if count != c.count {
				t.Fatalf("count = %d, want %d", count, c.count)
			}
			checkReverseTopological(t, g, comp)
		})
	}
}

// checkCondensation verifies that dag is the condensation of g: acyclic (a
// topological order exists), no self-loops or parallel arcs, and an arc c→d
// exactly when some arc of g joins component c to component d ≠ c.
func checkCondensation(t *testing.T, g *CSR, comp []uint32, count int, dag *CSR) {
	t.Helper()
	if dag.N() != count {
		t.Fatalf("condensation has %d nodes, want %d", dag.N(), count)
	}
	if err := dag.Validate(); err != nil {
		t.Fatal(err)
	}
	want := make(map[[2]uint32]bool)
	for u := 0; u < g.N(); u++ {
		for _, v := range g.Out(uint32(u)) {
			if comp[u] != comp[v] {
				want[[2]uint32{comp[u], comp[v]}] = true
			}
		}
	}
	got := make(map[[2]uint32]bool)
	for c := 0; c < count; c++ {
		for _, d := range dag.Out(uint32(c)) {
			arc := [2]uint32{uint32(c), d}
			if d == uint32(c) {
				t.Fatalf("self-loop at component %d", c)
			}
			if got[arc] {
				t.Fatalf("parallel arc %d→%d", c, d)
			}
			if !want[arc] {
				t.Fatalf("arc %d→%d joins no nodes of g", c, d)
			}
			got[arc] = true
		}
	}
	if len(got) != len(want) {
		t.Fatalf("condensation has %d arcs, want %d", len(got), len(want))
	}
	// Kahn: every node gets removed iff the graph is acyclic.
	in := dag.InDegrees()
	queue := RootComponents(dag)
	for _, r := range queue {
		if in[r] != 0 {
			t.Fatalf("root component %d has in-degree %d", r, in[r])
		}
	}
	roots := 0
	for _, k := range in {
		if k == 0 {
			roots++
		}
	}
	if roots != len(queue) {
		t.Fatalf("RootComponents found %d, want %d", len(queue), roots)
	}
	for i := 0; i < len(queue); i++ {
		for _, d := range dag.Out(queue[i]) {
			if in[d]--; in[d] == 0 {
				queue = append(queue, d)
			}
		}
	}
	if len(queue) != count {
		t.Fatalf("condensation has a cycle: topological order covers %d of %d", len(queue), count)
	}
}

func TestCondenseRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, m := range []int{0, 30, 80, 150, 400} {
		g := randomGraph(rng, 100, m)
		comp, count := SCC(g)
		checkCondensation(t, g, comp, count, Condense(g, comp, count))
	}
}

// TestSCCDatasets checks the figures of ../shared/data/README.md (which match
// SuiteSparse and networkx) and the condensation of each dataset.
func TestSCCDatasets(t *testing.T) {
	cases := []struct {
		name           string
		load           func(testing.TB) *CSR
		count, largest int
	}{
		{"epa", datasetLoader("epa"), 4711, 11},
		{"hollins", datasetLoader("hollins"), 3634, 1426},
		{"cnr-2000", loadCNR, 100977, 112023},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.load(t)
			comp, count := SCC(g)
			largest := slices.Max(ComponentSizes(comp, count))
			if count != c.count || largest != c.largest {
				t.Fatalf("%d SCCs, largest %d; want %d, largest %d", count, largest, c.count, c.largest)
			}
			checkReverseTopological(t, g, comp)
			dag := Condense(g, comp, count)
			checkCondensation(t, g, comp, count, dag)
		})
	}
}
