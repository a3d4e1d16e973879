package graph

import (
	"math"
	"math/rand/v2"
	"testing"
)

// denseHITS runs the HITS recurrence with a dense adjacency matrix, as an
// independent check of the CSR implementation.
func denseHITS(g *CSR, k int) (hub, auth []float64) {
	n := g.N()
	a := make([][]float64, n)
	for u := range a {
		a[u] = make([]float64, n)
		for _, v := range g.Out(uint32(u)) {
			a[u][v]++
		}
	}
	hub, auth = make([]float64, n), make([]float64, n)
	for i := range hub {
		hub[i] = 1
	}
	normalise := func(x []float64) {
		var ss float64
		for _, v := range x {
			ss += v * v
		}
		if ss == 0 {
			return
		}
		for i := range x {
			x[i] /= math.Sqrt(ss)
		}
	}
	for it := 0; it < k; it++ {
		for v := 0; v < n; v++ {
			auth[v] = 0
			for u := 0; u < n; u++ {
				auth[v] += a[u][v] * hub[u]
			}
		}
		normalise(auth)
		for u := 0; u < n; u++ {
			hub[u] = 0
			for v := 0; v < n; v++ {
				hub[u] += a[u][v] * auth[v]
			}
		}
		normalise(hub)
	}
	return hub, auth
}

func unit(x ...float64) []float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v / math.Sqrt(ss)
	}
	return out
}

func TestHITSHandComputed(t *testing.T) {
	// 0→2, 1→2, 1→3. By hand, round k gives a ∝ (0, 0, F(2k+1), F(2k)) and
	// h ∝ (F(2k+1), F(2k+2), 0, 0) with Fibonacci numbers F: a = (2, 1),
	// h = (2, 3) after one round, a = (5, 3), h = (5, 8) after two; the limit
	// is a ∝ (φ, 1), h ∝ (1, φ).
	g := fromArcs(4, [][2]uint32{{0, 2}, {1, 2}, {1, 3}})
	phi := (1 + math.Sqrt(5)) / 2
	cases := []struct {
		name      string
		k         int
		hub, auth []float64
	}{
		{"1 round", 1, unit(2, 3, 0, 0), unit(0, 0, 2, 1)},
		{"2 rounds", 2, unit(5, 8, 0, 0), unit(0, 0, 5, 3)},
		{"3 rounds", 3, unit(13, 21, 0, 0), unit(0, 0, 13, 8)},
		{"default 60 rounds", 0, unit(1, phi, 0, 0), unit(0, 0, phi, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, a, st := HITS(g, HITSOptions{Iterations: c.k})
			wantIters := c.k
			if wantIters == 0 {
				wantIters = 60
			}
			if st.Iterations != wantIters {
				t.Fatalf("iterations = %d, want %d", st.Iterations, wantIters)
			}
			if e := l1(h, c.hub) + l1(a, c.auth); e > 1e-12 {
				t.Fatalf("hub %v auth %v\nwant hub %v auth %v", h, a, c.hub, c.auth)
			}
		})
	}
}

func TestHITSMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		name string
		g    *CSR
		k    int
	}{
		{"budg toy", budgToy(), 60},
		{"parallel arcs and self-loops", fromArcs(3, [][2]uint32{{0, 1}, {0, 1}, {1, 1}, {2, 0}}), 10},
		{"random sparse", randomGraph(rng, 50, 80), 60},
		{"random dense", randomGraph(rng, 40, 400), 7},
		{"random 1 round", randomGraph(rng, 40, 100), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, a, _ := HITS(c.g, HITSOptions{Iterations: c.k})
			wh, wa := denseHITS(c.g, c.k)
			if e := l1(h, wh) + l1(a, wa); e > 1e-12 {
				t.Fatalf("L1 distance to the dense computation = %g", e)
			}
			for name, x := range map[string][]float64{"hub": h, "authority": a} {
				var ss float64
				for _, v := range x {
					ss += v * v
				}
				if math.Abs(ss-1) > 1e-12 {
					t.Errorf("%s: ‖x‖² = %g, want 1", name, ss)
				}
			}
		})
	}
}

func TestHITSStopRuleAndEdgeCases(t *testing.T) {
	g := fromArcs(4, [][2]uint32{{0, 2}, {1, 2}, {1, 3}})
	h, a, st := HITS(g, HITSOptions{Iterations: 1000, Tol: 1e-9})
	if !st.Converged || st.Iterations >= 1000 || st.Delta >= 1e-9 {
		t.Fatalf("tolerance did not stop early: %+v", st)
	}
	hw, aw, _ := HITS(g, HITSOptions{Iterations: 200})
	if e := l1(h, hw) + l1(a, aw); e > 1e-8 {
		t.Fatalf("early stop is %g away from 200 rounds", e)
	}
	_, _, st = HITS(g, HITSOptions{Iterations: 5})
	if st.Converged || st.Iterations != 5 {
		t.Fatalf("without Tol: %+v, want 5 rounds, not converged", st)
	}

	h, a, st = HITS(fromArcs(3, nil), HITSOptions{})
	if sum(h) != 0 || sum(a) != 0 || st.Iterations != 60 {
		t.Fatalf("no arcs: hub %v auth %v %+v, want zeros", h, a, st)
	}
	h, a, st = HITS(&CSR{}, HITSOptions{})
	if len(h) != 0 || len(a) != 0 || !st.Converged {
		t.Fatalf("empty graph: %v %v %+v", h, a, st)
	}

	loops := fromArcs(3, [][2]uint32{{0, 0}, {0, 1}, {1, 1}, {2, 1}})
	h, a, _ = HITS(loops, HITSOptions{NoSelfLoops: true})
	hw, aw, _ = HITS(loops.WithoutSelfLoops(), HITSOptions{})
	if l1(h, hw)+l1(a, aw) > 1e-15 {
		t.Fatal("NoSelfLoops differs from HITS of WithoutSelfLoops")
	}
}
