package changerate

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestExposure(t *testing.T) {
	tests := []struct {
		name string
		acc  []Dated
		x    int
		t    float64
	}{
		// One access: the age of the copy, an Exp(λ) draw.
		{"first access", []Dated{{Date: 10, LastModified: 7}}, 1, 3},
		// Unchanged for 5, then changed 2 before the third access (the
		// time between the second access and that change says nothing).
		{"unchanged then changed", []Dated{{10, 7}, {15, 7}, {20, 18}}, 2, 3 + 5 + 2},
		// A Last-Modified after its Date counts as age 0.
		{"future last-modified", []Dated{{10, 12}, {20, 11}}, 2, 0 + 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, tt, err := Exposure(tc.acc)
			if err != nil || x != tc.x || math.Abs(tt-tc.t) > 1e-12 {
				t.Fatalf("Exposure = %d, %g, %v; want %d, %g", x, tt, err, tc.x, tc.t)
			}
			var e Exposed
			for _, a := range tc.acc {
				if err := e.Add(a); err != nil {
					t.Fatal(err)
				}
			}
			if e.X != x || e.T != tt || e.Accesses != len(tc.acc) || e.Last() != tc.acc[len(tc.acc)-1].Date {
				t.Fatalf("Exposed = %+v, last %g; want Exposure's", e, e.Last())
			}
		})
	}
	for name, acc := range map[string][]Dated{
		"none":         nil,
		"out of order": {{10, 1}, {10, 2}},
		"NaN":          {{math.NaN(), 1}},
		"infinite":     {{1, math.Inf(-1)}},
	} {
		if _, _, err := Exposure(acc); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err %v, want ErrInput", name, err)
		}
	}
	var e Exposed
	_ = e.Add(Dated{10, 1})
	if err := e.Add(Dated{5, 1}); err == nil || e.Accesses != 1 || e.Last() != 10 {
		t.Errorf("an access before the last one: err %v, %+v; want refused and nothing changed", err, e)
	}
}

// TestExposureRecoversRates simulates pages changing as Poisson processes
// of known rates, accessed at regular intervals by a crawler that reads
// Last-Modified against Date, and checks that the posterior mean with a
// pooled Gamma prior ranks and scales the rates well: pooled X/T is the
// true mean rate, and the estimates of the fast half exceed the slow
// half's on average several times over, from only three accesses a page.
func TestExposureRecoversRates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const pages, accesses, interval = 4000, 3, 1.0
	rates := make([]float64, pages)
	xs, ts := make([]int, pages), make([]float64, pages)
	for i := range rates {
		rates[i] = 0.05
		if i%2 == 1 {
			rates[i] = 1
		}
		// The last change before time 0 (a stationary process), then
		// the process forward.
		last := -r.ExpFloat64() / rates[i]
		next := r.ExpFloat64() / rates[i]
		var acc []Dated
		for k := range accesses {
			now := float64(k) * interval
			for next <= now {
				last = next
				next += r.ExpFloat64() / rates[i]
			}
			acc = append(acc, Dated{Date: now, LastModified: last})
		}
		var err error
		if xs[i], ts[i], err = Exposure(acc); err != nil {
			t.Fatal(err)
		}
	}
	var sx, st float64
	for i := range xs {
		sx += float64(xs[i])
		st += ts[i]
	}
	g, ok, err := FitGamma(0.5, xs, ts)
	if err != nil || !ok || math.Abs(g.Mean()-sx/st) > 1e-12 {
		t.Fatalf("FitGamma = %+v, %v, %v; want mean %g", g, ok, err, sx/st)
	}
	var slow, fast float64
	for i := range xs {
		est, err := g.Estimate(xs[i], ts[i])
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			fast += est / (pages / 2)
		} else {
			slow += est / (pages / 2)
		}
	}
	if !(fast > 4*slow) || fast < 0.5 || fast > 2 {
		t.Errorf("mean estimate of rate-1 pages %.3f, of rate-0.05 pages %.3f; want the fast near 1 and 4× the slow", fast, slow)
	}
}

func TestGamma(t *testing.T) {
	if g, ok, err := FitGamma(0.5, []int{0, 0}, []float64{3, 4}); ok || err != nil || g != (Gamma{}) {
		t.Errorf("no change seen: %+v, %v, %v; want no prior", g, ok, err)
	}
	if _, _, err := FitGamma(0, []int{1}, []float64{1}); !errors.Is(err, ErrInput) {
		t.Errorf("shape 0: %v, want ErrInput", err)
	}
	if _, _, err := FitGamma(1, []int{1}, []float64{1, 2}); !errors.Is(err, ErrInput) {
		t.Errorf("lengths differ: %v, want ErrInput", err)
	}
	g, ok, err := FitGamma(2, []int{1, 3}, []float64{10, 10})
	if !ok || err != nil || g.Shape != 2 || math.Abs(g.Rate-10) > 1e-12 {
		t.Fatalf("FitGamma = %+v; want shape 2, rate 2·20/4 = 10", g)
	}
	for _, tc := range []struct {
		g    Gamma
		x    int
		t    float64
		want float64
	}{
		{g, 1, 10, 3.0 / 20},
		{g, 0, 0, 2.0 / 10},
		{Gamma{}, 2, 4, 0.5},
		{Gamma{}, 0, 0, 0},
		{Gamma{}, 1, 0, math.Inf(1)},
	} {
		if got, err := tc.g.Estimate(tc.x, tc.t); err != nil || got != tc.want {
			t.Errorf("%+v.Estimate(%d, %g) = %g, %v; want %g", tc.g, tc.x, tc.t, got, err, tc.want)
		}
	}
	if _, err := g.Estimate(-1, 1); !errors.Is(err, ErrInput) {
		t.Errorf("negative count: %v, want ErrInput", err)
	}
}

func TestStaleChance(t *testing.T) {
	for _, tc := range []struct{ rate, elapsed, want float64 }{
		{0, 5, 0},
		{1, 0, 0},
		{math.Inf(1), 1, 1},
		{0.5, 2, 1 - math.Exp(-1)},
		{1e-12, 1, 1e-12},
	} {
		if got := StaleChance(tc.rate, tc.elapsed); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("StaleChance(%g, %g) = %g, want %g", tc.rate, tc.elapsed, got, tc.want)
		}
	}
}
