package changerate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// simPage is a page of the refresh simulation: its true rate, importance
// and the rate estimated from an observation phase.
type simPage struct {
	rate, weight, est float64
}

// paretoMean1 draws a Pareto value of shape alpha and mean 1.
func paretoMean1(r *rand.Rand, alpha float64) float64 {
	return (alpha - 1) / alpha / math.Pow(1-r.Float64(), 1/alpha)
}

// simulateFreshness refreshes page p at frequency f (fixed order: every
// 1/f time units, at a random phase) while it changes as a Poisson
// process of its true rate, drawn event by event, and returns the share
// of [0, horizon) during which the stored copy equals the live page. The
// last refresh before 0 is at −phase/f, so the page starts in its steady
// state.
func simulateFreshness(r *rand.Rand, rate, f, horizon float64) float64 {
	if f == 0 {
		if rate == 0 {
			return 1
		}
		// Never refreshed since some time long ago: stale unless no change
		// ever happened, which a positive rate rules out.
		return 0
	}
	period := 1 / f
	next := -r.Float64() * period // last refresh before time 0
	change := next + r.ExpFloat64()/rate
	var fresh float64
	for refresh := next; refresh < horizon; refresh += period {
		end := min(refresh+period, horizon)
		// Skip the changes before this refresh: the Poisson stream goes on.
		for change < refresh {
			change += r.ExpFloat64() / rate
		}
		lo, hi := max(refresh, 0), min(change, end)
		if hi > lo {
			fresh += hi - lo
		}
	}
	return fresh / horizon
}

// TestRefreshSimulation compares refresh policies for the same budget on
// pages whose change rates are heavy-tailed (Pareto, shape 1.2) and whose
// importance is heavy-tailed too (Pareto, shape 1.5, independent of the
// rate). Each policy sees only rates estimated by BiasReduced from 20
// earlier accesses, one per cycle (Unseen for pages never seen to change); then every page is refreshed at the
// frequency the policy gives it (at most once per cycle) for 400 cycles of
// simulated Poisson changes. The change-aware policy (Optimal) keeps more
// pages fresh than uniform refresh and than importance-only refresh, and
// Optimal with importance weights keeps more importance fresh than both.
func TestRefreshSimulation(t *testing.T) {
	const (
		n        = 4000
		budget   = 0.1 * n // refreshes per cycle
		maxFreq  = 1       // a page is fetched at most once per cycle
		observed = 20      // accesses of the observation phase
		horizon  = 400.0   // cycles simulated
	)
	r := rand.New(rand.NewPCG(2003, 9))
	pages := make([]simPage, n)
	for i := range pages {
		p := &pages[i]
		p.rate = 0.1 * paretoMean1(r, 1.2)
		p.weight = paretoMean1(r, 1.5)
		// Observation phase: did the page change between access k−1 and k?
		x := 0
		for range observed {
			if r.ExpFloat64()/p.rate < 1 {
				x++
			}
		}
		est, err := BiasReduced(x, observed, 1)
		if err != nil {
			t.Fatal(err)
		}
		floor, _ := Unseen(observed, 1)
		p.est = max(est, floor)
	}
	est := make([]Page, n)       // estimated rates, importance weights
	estFlat := make([]Page, n)   // estimated rates, equal weights
	truth := make([]Page, n)     // true rates, importance weights
	truthFlat := make([]Page, n) // true rates, equal weights
	imp, impRate, rates := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range pages {
		est[i], estFlat[i] = Page{p.weight, p.est}, Page{1, p.est}
		truth[i], truthFlat[i] = Page{p.weight, p.rate}, Page{1, p.rate}
		imp[i], impRate[i], rates[i] = p.weight, p.weight*p.est, p.est
	}
	type policy struct {
		name string
		f    []float64
	}
	must := func(f []float64, err error) []float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	policies := []policy{
		{"uniform", must(Uniform(n, budget, maxFreq))},
		{"importance-only (∝ w)", must(ByScore(imp, budget, maxFreq))},
		{"proportional (∝ λ̂)", must(ByScore(rates, budget, maxFreq))},
		{"importance × rate (∝ w·λ̂)", must(ByScore(impRate, budget, maxFreq))},
		{"optimal, equal weights (λ̂)", must(Optimal(estFlat, budget, maxFreq))},
		{"optimal, weights w (λ̂)", must(Optimal(est, budget, maxFreq))},
		{"optimal, equal weights (true λ)", must(Optimal(truthFlat, budget, maxFreq))},
		{"optimal, weights w (true λ)", must(Optimal(truth, budget, maxFreq))},
	}
	type result struct{ fresh, weighted, expFresh, expWeighted float64 }
	res := map[string]result{}
	var b strings.Builder
	fmt.Fprintf(&b, "%d pages, budget %.0f refreshes/cycle (cap 1/page), rates 0.1·Pareto(1.2) estimated from %d accesses, %g cycles\n",
		n, budget, observed, horizon)
	fmt.Fprintf(&b, "%-34s %12s %12s %12s %12s\n", "policy", "fresh pages", "fresh w", "F expected", "F_w expected")
	var totalW float64
	for _, p := range pages {
		totalW += p.weight
	}
	for _, pol := range policies {
		var fresh, weighted float64
		sr := rand.New(rand.NewPCG(77, 78)) // the same change streams for every policy
		for i, p := range pages {
			s := simulateFreshness(sr, p.rate, pol.f[i], horizon)
			fresh += s / n
			weighted += p.weight * s / totalW
		}
		ef, _ := ExpectedFreshness(truthFlat, pol.f)
		ew, _ := ExpectedFreshness(truth, pol.f)
		res[pol.name] = result{fresh, weighted, ef, ew}
		fmt.Fprintf(&b, "%-34s %12.4f %12.4f %12.4f %12.4f\n", pol.name, fresh, weighted, ef, ew)
	}
	t.Logf("refresh policies, simulated (fresh) and from F(λ, f) with the true rates (expected):\n%s", b.String())

	uni, impOnly := res["uniform"], res["importance-only (∝ w)"]
	flat, weightedOpt := res["optimal, equal weights (λ̂)"], res["optimal, weights w (λ̂)"]
	for _, c := range []struct {
		what      string
		got, than float64
	}{
		{"optimal (λ̂) fresh pages vs uniform", flat.fresh, uni.fresh},
		{"optimal (λ̂) fresh pages vs importance-only", flat.fresh, impOnly.fresh},
		{"optimal w (λ̂) fresh importance vs uniform", weightedOpt.weighted, uni.weighted},
		{"optimal w (λ̂) fresh importance vs importance-only", weightedOpt.weighted, impOnly.weighted},
		// and the same by F(λ, f), free of simulation noise
		{"expected: optimal (λ̂) vs uniform", flat.expFresh, uni.expFresh},
		{"expected: optimal (λ̂) vs importance-only", flat.expFresh, impOnly.expFresh},
		{"expected: optimal w (λ̂) vs uniform", weightedOpt.expWeighted, uni.expWeighted},
		{"expected: optimal w (λ̂) vs importance-only", weightedOpt.expWeighted, impOnly.expWeighted},
	} {
		if !(c.got > c.than) {
			t.Errorf("%s: %.4f, not more than %.4f", c.what, c.got, c.than)
		}
	}
	// The simulation agrees with the formula it is meant to check.
	for name, v := range res {
		if math.Abs(v.fresh-v.expFresh) > 0.01 || math.Abs(v.weighted-v.expWeighted) > 0.02 {
			t.Errorf("%s: simulated %.4f/%.4f, F(λ, f) gives %.4f/%.4f", name, v.fresh, v.weighted, v.expFresh, v.expWeighted)
		}
	}
}
