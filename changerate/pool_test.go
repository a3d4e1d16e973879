package changerate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPriorZeroIsBiasReduced checks that without a prior Rate is
// BiasReduced.
func TestPriorZeroIsBiasReduced(t *testing.T) {
	for _, c := range []Counts{{0, 1, 1}, {1, 1, 1}, {2, 3, 2}, {5, 5, 0.5}} {
		got, err := Prior{}.Rate(c.X, c.N, c.Interval)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := BiasReduced(c.X, c.N, c.Interval)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("zero prior Rate%v = %v, BiasReduced %v", c, got, want)
		}
	}
	if _, err := (Prior{A: 1, B: 1}).Rate(0, 0, 1); err == nil {
		t.Error("Rate with no access: want an error")
	}
}

// TestPooledRatesBeatOwnCounts draws pages of one host with rates spread
// log-uniformly over a factor of 10 around the host's, observes each two
// or three times a cycle apart, and checks that the pooled estimates are
// closer to the truth than each page's own BiasReduced, and that the
// fitted prior's mean is the pooled share of changes. The error is taken
// on the chance of a change within a cycle, 1 − e^(−λ): what two or three
// accesses can tell apart (rates of 2 and 5 per cycle both read as "changed
// every time").
func TestPooledRatesBeatOwnCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hostλ float64
	}{
		{"slow host", 0.1},
		{"medium host", 0.4},
		{"fast host", 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(tc.hostλ*1000)))
			const pages = 400
			truth := make([]float64, pages)
			cs := make([]Counts, pages)
			var sx, sn int
			for i := range cs {
				truth[i] = tc.hostλ * math.Pow(10, rng.Float64()-0.5)
				n := 2 + rng.IntN(2)
				x := 0
				for range n {
					if rng.Float64() < 1-math.Exp(-truth[i]) {
						x++
					}
				}
				cs[i] = Counts{X: x, N: n, Interval: 1}
				sx += x
				sn += n
			}
			p, err := FitPrior(cs)
			if err != nil {
				t.Fatal(err)
			}
			if m := float64(sx) / float64(sn); math.Abs(p.Mean()-m) > 1e-9 || p.Weight() < minPriorWeight || p.Weight() > maxPriorWeight {
				t.Fatalf("prior %+v: mean %v weight %v, want the pooled %v and a weight in [%d, %d]", p, p.Mean(), p.Weight(), m, minPriorWeight, maxPriorWeight)
			}
			var own, pooled float64
			for i, c := range cs {
				a, _ := BiasReduced(c.X, c.N, c.Interval)
				b, err := p.Rate(c.X, c.N, c.Interval)
				if err != nil {
					t.Fatal(err)
				}
				q := -math.Expm1(-truth[i])
				da, db := -math.Expm1(-a)-q, -math.Expm1(-b)-q
				own += da * da
				pooled += db * db
			}
			if pooled >= own {
				t.Errorf("squared error pooled %.3f, own counts %.3f: want pooling to help", pooled/pages, own/pages)
			}
			t.Logf("prior weight %.1f; mean squared error own %.4f, pooled %.4f", p.Weight(), own/pages, pooled/pages)
		})
	}
}
