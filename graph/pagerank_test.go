package graph

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// budgToy is the example graph of Sharma & Bhagat (BUDG): nodes A..E = 0..4,
// arcs A→B, A→D, E→B, E→C, E→D.
func budgToy() *CSR {
	const a, b, c, d, e = 0, 1, 2, 3, 4
	return fromArcs(5, [][2]uint32{{a, b}, {a, d}, {e, b}, {e, c}, {e, d}})
}

func l1(x, y []float64) float64 {
	var s float64
	for i := range x {
		s += math.Abs(x[i] - y[i])
	}
	return s
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

func TestPageRankBUDGToy(t *testing.T) {
	// Values of the paper's formula PR(p) = (1−d) + d·Σ PR(q)/out(q) with
	// d = 0.85: A and E have no in-links, B = 0.15 + 0.85·(0.15/2 + 0.15/3).
	oneMinusD := []float64{0.15, 0.25625, 0.1925, 0.25625, 0.15}
	s := sum(oneMinusD)
	normalised := make([]float64, len(oneMinusD))
	for i, v := range oneMinusD {
		normalised[i] = v / s
	}
	cases := []struct {
		name string
		o    PageRankOptions
		want []float64
	}{
		{"one-minus-d", PageRankOptions{OneMinusD: true}, oneMinusD},
		{"normalised", PageRankOptions{Tol: 1e-15}, normalised},
		{"normalised no-self-loops", PageRankOptions{NoSelfLoops: true, Tol: 1e-15}, normalised},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, st := PageRank(budgToy(), c.o)
			if !st.Converged {
				t.Fatalf("not converged: %+v", st)
			}
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 1e-12 {
					t.Errorf("PR(%c) = %.15g, want %.15g", 'A'+i, got[i], c.want[i])
				}
			}
		})
	}
}

// densePageRank solves the networkx convention directly: x = (1−d)/N·1 +
// d·Gᵀx, where G is P with dangling rows replaced by 1/N, by Gaussian
// elimination of (I − d·Gᵀ)x = (1−d)/N·1. It is an independent check of the
// power iteration on small graphs.
func densePageRank(g *CSR, d float64) []float64 {
	n := g.N()
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
		a[i][i] = 1
		a[i][n] = (1 - d) / float64(n)
	}
	for u := 0; u < n; u++ {
		out := g.Out(uint32(u))
		if len(out) == 0 {
			for v := 0; v < n; v++ {
				a[v][u] -= d / float64(n)
			}
			continue
		}
		for _, v := range out {
			a[v][u] -= d / float64(len(out))
		}
	}
	for col := 0; col < n; col++ {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		a[col], a[p] = a[p], a[col]
		for r := 0; r < n; r++ {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for k := col; k <= n; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = a[i][n] / a[i][i]
	}
	return x
}

func TestPageRankMatchesLinearSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name string
		g    *CSR
		d    float64
	}{
		{"single node", fromArcs(1, nil), 0.85},
		{"single self-loop", fromArcs(1, [][2]uint32{{0, 0}}), 0.85},
		{"no arcs", fromArcs(4, nil), 0.85},
		{"cycle", fromArcs(3, [][2]uint32{{0, 1}, {1, 2}, {2, 0}}), 0.85},
		{"parallel arcs", fromArcs(3, [][2]uint32{{0, 1}, {0, 1}, {0, 2}, {1, 0}}), 0.85},
		{"budg toy", budgToy(), 0.85},
		{"budg toy d=0.5", budgToy(), 0.5},
		{"random sparse", randomGraph(rng, 40, 50), 0.85},
		{"random dense", randomGraph(rng, 30, 300), 0.85},
		{"random d=0.99", randomGraph(rng, 25, 60), 0.99},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, st := PageRank(c.g, PageRankOptions{Damping: c.d, Tol: 1e-13, MaxIter: 10000})
			if !st.Converged {
				t.Fatalf("not converged: %+v", st)
			}
			want := densePageRank(c.g, c.d)
			if e := l1(got, want); e > 1e-10 {
				t.Fatalf("L1 distance to the linear solution = %g, want ≤ 1e-10\ngot  %v\nwant %v", e, got, want)
			}
		})
	}
}

// TestPageRankNetworkx compares with networkx 3.6.1 (pagerank with alpha
// 0.85, computed by its pure-Python power iteration _pagerank_python to tol
// 1e-18 for epa and hollins and 1e-17 for cnr-2000, i.e. an L1 change below
// N·tol): the five highest-ranked pages of each dataset and their scores.
// (Over whole vectors the L1 distance is 3.1e-10, 2.1e-10 and 1.4e-10 with
// the default stop rule, and 7.6e-14, 2.4e-14 and 4.1e-12 at Tol 1e-15.)
// cnr-2000 has self-loops, which networkx counts as ordinary out-links too.
func TestPageRankNetworkx(t *testing.T) {
	type ranked struct {
		v  uint32
		pr float64
	}
	cases := []struct {
		name     string
		load     func(testing.TB) *CSR
		top      []ranked
		tightErr float64 // allowed error when run to Tol 1e-14
	}{
		{"epa", datasetLoader("epa"), []ranked{{1247, 0.01911627100326646}, {2838, 0.01893201371976489}, {967, 0.006301564841007613}, {708, 0.005560953798759167}, {287, 0.0051231051279850715}}, 1e-13},
		{"hollins", datasetLoader("hollins"), []ranked{{1, 0.019878750637883313}, {36, 0.00928762027978916}, {37, 0.008610392961888404}, {60, 0.008065030706611256}, {51, 0.008026564887809572}}, 1e-13},
		// 60595 and 60597 tie in networkx.
		{"cnr-2000", loadCNR, []ranked{{60595, 0.017771884173628853}, {60597, 0.017771884173628853}, {285152, 0.007504872533183343}, {318525, 0.006803402077836791}, {247028, 0.005618585391802965}}, 1e-11},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.load(t)
			for _, tc := range []struct {
				tol, maxErr float64
			}{{0, 1e-9}, {1e-14, c.tightErr}} { // default stop rule, and run to tolerance
				pr, st := PageRank(g, PageRankOptions{Tol: tc.tol, MaxIter: 1000})
				if !st.Converged {
					t.Fatalf("not converged: %+v", st)
				}
				top := rankOrder(pr)[:len(c.top)]
				for _, want := range c.top {
					if !slices.Contains(top, want.v) {
						t.Errorf("tol %g: node %d not in the top %d %v", tc.tol, want.v, len(c.top), top)
					}
					if math.Abs(pr[want.v]-want.pr) > tc.maxErr {
						t.Errorf("tol %g: PR(%d) = %.17g, networkx %.17g", tc.tol, want.v, pr[want.v], want.pr)
					}
				}
			}
		})
	}
}

// rankOrder returns node ids by descending score, ties by id.
func rankOrder(x []float64) []uint32 {
	order := make([]uint32, len(x))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int {
		switch {
		case x[a] > x[b]:
			return -1
		case x[a] < x[b]:
			return 1
		}
		return 0
	})
	return order
}

func TestPageRankFormsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name string
		g    *CSR
	}{
		{"budg toy", budgToy()},
		{"random 200/400", randomGraph(rng, 200, 400)},
		{"random 1000/5000", randomGraph(rng, 1000, 5000)},
		{"random 500/300 mostly dangling", randomGraph(rng, 500, 300)},
		{"epa", datasetLoader("epa")(t)},
		{"hollins", datasetLoader("hollins")(t)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			norm, st1 := PageRank(c.g, PageRankOptions{Tol: 1e-13, MaxIter: 1000})
			bp, st2 := PageRank(c.g, PageRankOptions{OneMinusD: true, Tol: 1e-13, MaxIter: 1000})
			if !st1.Converged || !st2.Converged {
				t.Fatalf("not converged: %+v %+v", st1, st2)
			}
			// Same fixed point up to scale: normalised = (1−d) form / its sum.
			s := sum(bp)
			scaled := make([]float64, len(bp))
			for i, v := range bp {
				scaled[i] = v / s
			}
			if e := l1(norm, scaled); e > 1e-10 {
				t.Fatalf("L1(normalised, (1−d)/sum) = %g", e)
			}
			// Same ranking: walking the normalised order, the (1−d) scores
			// never increase by more than rounding.
			order := rankOrder(norm)
			for i := 1; i < len(order); i++ {
				a, b := bp[order[i-1]], bp[order[i]]
				if b > a+1e-12*s {
					t.Fatalf("ranks %d and %d swap: normalised %g ≥ %g but (1−d) %g < %g",
						i, i+1, norm[order[i-1]], norm[order[i]], a, b)
				}
			}
		})
	}
}

func TestPageRankSumsToOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		name string
		g    *CSR
		o    PageRankOptions
	}{
		{"no arcs", fromArcs(7, nil), PageRankOptions{}},
		{"self-loops only", fromArcs(3, [][2]uint32{{0, 0}, {1, 1}}), PageRankOptions{}},
		{"self-loops dropped", fromArcs(3, [][2]uint32{{0, 0}, {1, 1}, {0, 2}}), PageRankOptions{NoSelfLoops: true}},
		{"random", randomGraph(rng, 300, 900), PageRankOptions{}},
		{"random d=0.5", randomGraph(rng, 300, 900), PageRankOptions{Damping: 0.5}},
		{"random capped at 5 iterations", randomGraph(rng, 300, 900), PageRankOptions{MaxIter: 5}},
		{"epa", datasetLoader("epa")(t), PageRankOptions{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pr, _ := PageRank(c.g, c.o)
			if s := sum(pr); math.Abs(s-1) > 1e-12 {
				t.Fatalf("sum = %.17g, want 1", s)
			}
			for v, x := range pr {
				if !(x > 0) {
					t.Fatalf("PR(%d) = %g, want > 0", v, x)
				}
			}
		})
	}
}

func TestPageRankStopRule(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(8, 9)), 200, 1000)
	cases := []struct {
		name      string
		o         PageRankOptions
		iters     int // exact count, or 0 to check only the range
		converged bool
	}{
		{"max 3 iterations", PageRankOptions{MaxIter: 3}, 3, false},
		{"loose tolerance", PageRankOptions{Tol: 10}, 1, true},
		{"default", PageRankOptions{}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, st := PageRank(g, c.o)
			if st.Converged != c.converged {
				t.Fatalf("converged = %v, want %v (%+v)", st.Converged, c.converged, st)
			}
			if c.iters > 0 && st.Iterations != c.iters {
				t.Fatalf("iterations = %d, want %d", st.Iterations, c.iters)
			}
			tol := c.o.Tol
			if tol == 0 {
				tol = 1e-10
			}
			if c.converged != (st.Delta < tol) {
				t.Fatalf("delta %g vs tolerance %g disagrees with converged = %v", st.Delta, tol, st.Converged)
			}
			if c.iters == 0 && (st.Iterations < 2 || st.Iterations > 200) {
				t.Fatalf("iterations = %d, want 2..200", st.Iterations)
			}
		})
	}
}

func TestPageRankNoSelfLoops(t *testing.T) {
	g := fromArcs(4, [][2]uint32{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 0}, {3, 3}})
	got, _ := PageRank(g, PageRankOptions{NoSelfLoops: true})
	want, _ := PageRank(g.WithoutSelfLoops(), PageRankOptions{})
	if e := l1(got, want); e > 1e-15 {
		t.Fatalf("NoSelfLoops differs from ranking WithoutSelfLoops by %g", e)
	}
	with, _ := PageRank(g, PageRankOptions{})
	if l1(with, want) < 1e-3 {
		t.Fatal("self-loops made no difference; the option is not tested")
	}
}

func TestPageRankEmptyAndBadDamping(t *testing.T) {
	pr, st := PageRank(&CSR{}, PageRankOptions{})
	if len(pr) != 0 || !st.Converged {
		t.Fatalf("empty graph: %v %+v", pr, st)
	}
	for _, d := range []float64{-0.1, 1, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("damping %v: no panic", d)
				}
			}()
			PageRank(budgToy(), PageRankOptions{Damping: d})
		}()
	}
}
