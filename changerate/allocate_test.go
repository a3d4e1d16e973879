package changerate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestFreshness(t *testing.T) {
	tests := []struct {
		rate, freq, want float64
	}{
		{1, 1, 1 - math.Exp(-1)},            // 0.632120558829
		{2, 1, (1 - math.Exp(-2)) / 2},      // 0.432332358382
		{0.5, 2, 4 * (1 - math.Exp(-0.25))}, // r = 1/4
		{0, 0, 1},                           // never changes: always fresh
		{1, 0, 0},                           // never refreshed
		{math.Inf(1), 5, 0},                 // changes all the time
		{1e-9, 1, 1 - 0.5e-9},               // F ≈ 1 − r/2 for small r
	}
	for _, tc := range tests {
		if got := Freshness(tc.rate, tc.freq); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Freshness(%v, %v) = %.15g, want %.15g", tc.rate, tc.freq, got, tc.want)
		}
	}
}

func TestByScore(t *testing.T) {
	tests := []struct {
		name         string
		scores       []float64
		budget, maxF float64
		want         []float64
	}{
		{"proportional", []float64{1, 2, 3, 0}, 6, 0, []float64{1, 2, 3, 0}},
		// 3 would get 3 > 2.5: capped; 3.5 left split 1:2.
		{"capped, water-filled", []float64{1, 2, 3, 0}, 6, 2.5, []float64{3.5 / 3, 7.0 / 3, 2.5, 0}},
		// 8 is capped first (1.6 > 0.5), then both 1s (0.75 each); the
		// last 0.5 goes to the zero score, the only page left.
		{"all capped", []float64{8, 1, 1, 0}, 2, 0.5, []float64{0.5, 0.5, 0.5, 0.5}},
		{"all zero: uniform", []float64{0, 0}, 1, 0, []float64{0.5, 0.5}},
		{"infinite score takes the cap", []float64{math.Inf(1), 1, 3}, 2, 1, []float64{1, 0.25, 0.75}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ByScore(tc.scores, tc.budget, tc.maxF)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Fatalf("ByScore = %v, want %v", got, tc.want)
				}
			}
		})
	}
	for _, bad := range []struct {
		s    []float64
		b, m float64
	}{{nil, 1, 0}, {[]float64{1}, 0, 0}, {[]float64{-1}, 1, 0}, {[]float64{math.NaN()}, 1, 0}, {[]float64{1, 1}, 3, 1}, {[]float64{1}, 1, -1}} {
		if _, err := ByScore(bad.s, bad.b, bad.m); !errors.Is(err, ErrInput) {
			t.Errorf("ByScore(%v, %v, %v) = %v, want ErrInput", bad.s, bad.b, bad.m, err)
		}
	}
}

// checkGridBest checks optimal's split of budget between the two pages pp
// against a grid search of 100,001 splits: the weighted freshness of the
// split is within 1e-9 of the grid's best and the split spends budget.
func checkGridBest(t *testing.T, pp [2]Page, budget float64,
	optimal func(pages []Page, budget, maxFreq float64) ([]float64, error), fresh func(rate, freq float64) float64) {
	t.Helper()
	f, err := optimal(pp[:], budget, 0)
	if err != nil {
		t.Fatal(err)
	}
	obj := func(a float64) float64 {
		return pp[0].Weight*fresh(pp[0].Rate, a) + pp[1].Weight*fresh(pp[1].Rate, budget-a)
	}
	best := 0.0
	for k := 0; k <= 100000; k++ {
		best = max(best, obj(budget*float64(k)/100000))
	}
	if got := obj(f[0]); got < best-1e-9 || math.Abs(sum(f)-budget) > 1e-9 {
		t.Errorf("%v: objective %.12f at %v, grid best %.12f", pp, got, f, best)
	}
}

func sum(f []float64) float64 {
	var s float64
	for _, v := range f {
		s += v
	}
	return s
}

// TestOptimal checks Optimal on cases with a known answer, against a grid
// search on two pages, and its optimality conditions on many pages.
func TestOptimal(t *testing.T) {
	t.Run("symmetric pages split evenly", func(t *testing.T) {
		f, err := Optimal([]Page{{1, 1}, {1, 1}, {1, 1}}, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range f {
			if math.Abs(v-1) > 1e-9 {
				t.Fatalf("got %v, want 1 each", f)
			}
		}
	})
	t.Run("a page changing too fast gets nothing", func(t *testing.T) {
		// With budget 1 the slow page's marginal gain at f = 1 is
		// g(0.1)/0.1 ≈ 0.0467, while the fast page's gain is below
		// w/λ = 0.01 at any frequency.
		f, err := Optimal([]Page{{1, 0.1}, {1, 100}}, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if f[1] != 0 || math.Abs(f[0]-1) > 1e-9 {
			t.Fatalf("got %v, want [1 0]", f)
		}
	})
	t.Run("never-changing and weightless pages get nothing", func(t *testing.T) {
		f, err := Optimal([]Page{{1, 0}, {0, 1}, {2, 1}}, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f[:2], []float64{0, 0}) || math.Abs(f[2]-1) > 1e-9 {
			t.Fatalf("got %v", f)
		}
	})
	t.Run("two pages against a grid search", func(t *testing.T) {
		for _, pp := range [][2]Page{{{1, 1}, {1, 3}}, {{3, 0.2}, {1, 2}}, {{1, 0.05}, {5, 0.5}}} {
			checkGridBest(t, pp, 1, Optimal, Freshness)
		}
	})
	t.Run("optimality conditions with a cap", func(t *testing.T) {
		var pages []Page
		for i := range 200 {
			pages = append(pages, Page{Weight: 1 + float64(i%7), Rate: 0.01 * math.Pow(1.04, float64(i))})
		}
		const budget, maxF = 40.0, 0.5
		f, err := Optimal(pages, budget, maxF)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(sum(f)-budget) > 1e-9*budget {
			t.Fatalf("spends %v of %v", sum(f), budget)
		}
		// Marginal gain w·∂F/∂f: equal (= μ) on interior pages, ≥ μ on
		// capped ones, ≤ μ on pages with none.
		gain := func(i int) float64 {
			p := pages[i]
			if f[i] == 0 {
				return p.Weight / p.Rate // the limit at f → 0 is w/λ·g(∞)
			}
			return p.Weight / p.Rate * g(p.Rate/f[i])
		}
		mu := math.NaN()
		for i := range pages {
			if f[i] > 0 && f[i] < maxF*(1-1e-9) {
				mu = gain(i)
				break
			}
		}
		if math.IsNaN(mu) {
			t.Fatal("no interior page")
		}
		for i := range pages {
			switch gi := gain(i); {
			case f[i] == 0 && gi > mu*(1+1e-6):
				t.Errorf("page %d gets nothing but its gain %v > μ %v", i, gi, mu)
			case f[i] >= maxF*(1-1e-9) && gi < mu*(1-1e-6):
				t.Errorf("page %d is capped but its gain %v < μ %v", i, gi, mu)
			case f[i] > 0 && f[i] < maxF*(1-1e-9) && math.Abs(gi-mu) > 1e-6*mu:
				t.Errorf("page %d: gain %v, μ %v", i, gi, mu)
			}
		}
	})
	for _, bad := range []struct {
		p []Page
		b float64
	}{{nil, 1}, {[]Page{{1, 1}}, 0}, {[]Page{{-1, 1}}, 1}, {[]Page{{1, math.NaN()}}, 1}} {
		if _, err := Optimal(bad.p, bad.b, 0); !errors.Is(err, ErrInput) {
			t.Errorf("Optimal(%v, %v) = %v, want ErrInput", bad.p, bad.b, err)
		}
	}
}

func TestGInv(t *testing.T) {
	// Beyond r ≈ 10, g(r) = 1 − (1+r)e^(−r) is within 1e-3 of 1 and r is
	// only as precise as 1 − g; the values tested stay below.
	for _, r := range []float64{1e-6, 1e-3, 0.01, 0.5, 1, 3, 10} {
		if got := gInv(g(r)); math.Abs(got-r) > 1e-8*r {
			t.Errorf("gInv(g(%v)) = %v", r, got)
		}
		// From a start 30% off either way, and from a far one.
		for _, r0 := range []float64{0.7 * r, 1.3 * r, 1e3 * r} {
			if got := gInvNear(g(r), r0); math.Abs(got-r) > 1e-8*r {
				t.Errorf("gInvNear(g(%v), %v) = %v", r, r0, got)
			}
		}
	}
}

// BenchmarkOptimal allocates a budget of n/4 over n pages with spread
// weights and rates, the size of a recrawl cycle's refresh pool.
func BenchmarkOptimal(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			pages := make([]Page, n)
			for i := range pages {
				pages[i] = Page{Weight: 1 / float64(i+1), Rate: 0.01 + float64(i%97)/20}
			}
			for b.Loop() {
				if _, err := Optimal(pages, float64(n)/4, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
