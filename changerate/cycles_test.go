package changerate

import (
	"errors"
	"math"
	"testing"
)

// TestFreshnessCycles checks F₁ against its definition: refreshed every T
// cycles, the copy is fresh k cycle ends after a refetch with chance
// e^(−λk), averaged over k = 0..T−1.
func TestFreshnessCycles(t *testing.T) {
	for _, rate := range []float64{1e-6, 0.05, 0.3, 1, 4, 30} {
		for _, period := range []int{1, 2, 3, 5, 10} {
			var want float64
			for k := range period {
				want += math.Exp(-rate * float64(k))
			}
			want /= float64(period)
			if got := FreshnessCycles(rate, 1/float64(period)); math.Abs(got-want) > 1e-12 {
				t.Errorf("FreshnessCycles(%v, 1/%d) = %.15g, want %.15g", rate, period, got, want)
			}
		}
	}
	for _, tc := range []struct{ rate, freq, want float64 }{
		{0, 0, 1},           // never changes: always fresh
		{1, 0, 0},           // never refreshed
		{math.Inf(1), 1, 1}, // refetched in every cycle: fresh at every end
		{math.Inf(1), 0.25, 0.25},
	} {
		if got := FreshnessCycles(tc.rate, tc.freq); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("FreshnessCycles(%v, %v) = %v, want %v", tc.rate, tc.freq, got, tc.want)
		}
	}
}

// TestOptimalCycles checks OptimalCycles where it departs from Optimal,
// against a grid search on two pages, and that it keeps more pages fresh
// at the cycle ends than uniform, proportional and myopic refreshing on a
// heavy-tailed population with known rates.
func TestOptimalCycles(t *testing.T) {
	t.Run("a page changing every cycle is worth a refetch", func(t *testing.T) {
		// Optimal gives the fast page nothing (TestOptimal); judged at
		// cycle ends, each refetch makes it fresh at the end of its cycle
		// (marginal gain 1). The slow page's marginal gain
		// g(0.1/f)/(1 − e^(−0.1)) falls from about 10 (a rare refetch keeps
		// it fresh for ten cycle ends) to 1 at f ≈ 0.162: the fast page
		// gets the remaining 0.838.
		f, err := OptimalCycles([]Page{{1, 0.1}, {1, 100}}, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f[0]-0.1623) > 1e-3 || math.Abs(f[0]+f[1]-1) > 1e-9 {
			t.Fatalf("got %v, want [0.162 0.838]", f)
		}
	})
	t.Run("two pages against a grid search", func(t *testing.T) {
		for _, pp := range [][2]Page{{{1, 0.1}, {1, 5}}, {{3, 0.2}, {1, 2}}, {{1, 0.05}, {5, 0.5}}, {{1, 0.02}, {1, 0.3}}} {
			checkGridBest(t, pp, 0.4, OptimalCycles, FreshnessCycles)
		}
	})
	t.Run("beats uniform, proportional and myopic on known rates", func(t *testing.T) {
		// Rates spread like the test web's: Pareto of shape 1.5 over two
		// orders of magnitude, a budget of a quarter refetch per page.
		var pages []Page
		for i := range 400 {
			u := (float64(i) + 0.5) / 400
			pages = append(pages, Page{Weight: 1, Rate: 0.05 / math.Pow(u, 1/1.5)})
		}
		const budget = 100.0
		score := func(f []float64) float64 {
			var s float64
			for i, p := range pages {
				s += FreshnessCycles(p.Rate, f[i])
			}
			return s / float64(len(pages))
		}
		opt, err := OptimalCycles(pages, budget, 1)
		if err != nil {
			t.Fatal(err)
		}
		uni, _ := Uniform(len(pages), budget, 1)
		prop, _ := Proportional(pages, budget, 1)
		// Myopic: refetch, every cycle, the pages most likely to have
		// changed since their last fetch; in steady state that is the
		// fastest pages every cycle and the others never.
		myo := make([]float64, len(pages))
		for i := len(pages) - int(budget); i < len(pages); i++ {
			myo[i] = 1
		}
		got := score(opt)
		for name, f := range map[string][]float64{"uniform": uni, "proportional": prop, "myopic": myo} {
			if s := score(f); !(got > s+0.01) {
				t.Errorf("OptimalCycles keeps %.4f fresh, %s %.4f: want more by 0.01", got, name, s)
			}
		}
	})
	for _, bad := range []struct {
		p []Page
		b float64
	}{{nil, 1}, {[]Page{{1, 1}}, 0}, {[]Page{{-1, 1}}, 1}, {[]Page{{1, math.NaN()}}, 1}, {[]Page{{math.Inf(1), 1}}, 1}} {
		if _, err := OptimalCycles(bad.p, bad.b, 0); !errors.Is(err, ErrInput) {
			t.Errorf("OptimalCycles(%v, %v) = %v, want ErrInput", bad.p, bad.b, err)
		}
	}
}
