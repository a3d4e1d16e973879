package changerate

import (
	"fmt"
	"math"
)

// Page is what the allocators know of a page: its importance (any
// non-negative weight, e.g. PageRank) and its change rate λ (changes per
// unit time, e.g. from BiasReduced; +Inf for a page that changed at every
// access).
type Page struct {
	Weight float64
	Rate   float64
}

// Freshness returns F(λ, f) = (f/λ)·(1 − e^(−λ/f)), the expected share of
// time a page of change rate λ refreshed f times per unit time at regular
// intervals is up to date (Cho and Garcia-Molina 2003, TODS, Section 4).
// A page that never changes (λ = 0) is always fresh; one never refreshed
// (f = 0) or changing infinitely often is never fresh.
func Freshness(rate, freq float64) float64 {
	switch {
	case rate <= 0:
		return 1
	case freq <= 0 || math.IsInf(rate, 1):
		return 0
	case math.IsInf(freq, 1):
		return 1
	}
	r := rate / freq
	return -math.Expm1(-r) / r
}

// ExpectedFreshness returns Σ w_i·F(λ_i, f_i) / Σ w_i: the weighted share
// of fresh pages (with equal weights, the expected fraction of pages that
// are fresh at a random moment). It is 0 when every weight is 0.
func ExpectedFreshness(pages []Page, freqs []float64) (float64, error) {
	if len(freqs) != len(pages) {
		return 0, fmt.Errorf("%w: expected freshness: %d frequencies for %d pages", ErrInput, len(freqs), len(pages))
	}
	var num, den float64
	for i, p := range pages {
		num += p.Weight * Freshness(p.Rate, freqs[i])
		den += p.Weight
	}
	if den == 0 {
		return 0, nil
	}
	return num / den, nil
}

// checkAlloc validates a budget and a cap (maxFreq 0 means none) for n
// pages: the budget must be a positive finite number, and with a cap it
// must fit (n·maxFreq ≥ budget, else part of it could not be spent).
func checkAlloc(what string, n int, budget, maxFreq float64) error {
	switch {
	case n == 0:
		return fmt.Errorf("%w: %s: no pages", ErrInput, what)
	case !(budget > 0) || math.IsInf(budget, 1):
		return fmt.Errorf("%w: %s: budget %v (want a positive finite number of refreshes per unit time)", ErrInput, what, budget)
	case !(maxFreq >= 0) || math.IsInf(maxFreq, 1):
		return fmt.Errorf("%w: %s: cap %v (want 0 for none, or a positive finite frequency)", ErrInput, what, maxFreq)
	case maxFreq > 0 && float64(n)*maxFreq < budget*(1-1e-12):
		return fmt.Errorf("%w: %s: budget %v exceeds %d pages × cap %v", ErrInput, what, budget, n, maxFreq)
	}
	return nil
}

// Uniform gives every page the same frequency budget/n (capped, which
// only matters when the cap is below it and then checkAlloc refuses the
// budget).
func Uniform(n int, budget, maxFreq float64) ([]float64, error) {
	if err := checkAlloc("uniform", n, budget, maxFreq); err != nil {
		return nil, err
	}
	f := make([]float64, n)
	for i := range f {
		f[i] = budget / float64(n)
	}
	return f, nil
}

// Proportional gives page i a frequency proportional to its change rate
// λ_i: the "proportional" policy Cho and Garcia-Molina show to keep pages
// less fresh than Uniform. It is ByScore with score λ_i.
func Proportional(pages []Page, budget, maxFreq float64) ([]float64, error) {
	s := make([]float64, len(pages))
	for i, p := range pages {
		s[i] = p.Rate
	}
	return ByScore(s, budget, maxFreq)
}

// ByScore splits the budget in proportion to the scores: f_i = c·s_i with
// c such that Σ f_i = budget. With a cap (maxFreq > 0), pages whose share
// would exceed it get the cap and the rest is split again over the others
// in proportion to their scores (water-filling), so the whole budget is
// spent. An infinite score takes the cap (or, without a cap, the whole
// budget, shared equally with other infinite scores). When every score is
// 0 the budget is split uniformly. Scores must not be negative or NaN.
//
// Importance-only refresh is ByScore(w_i); the importance × change rate
// order of a recrawl is ByScore(w_i·λ_i).
func ByScore(scores []float64, budget, maxFreq float64) ([]float64, error) {
	n := len(scores)
	if err := checkAlloc("by score", n, budget, maxFreq); err != nil {
		return nil, err
	}
	inf := 0
	for i, s := range scores {
		if !(s >= 0) {
			return nil, fmt.Errorf("%w: by score: score %d is %v (want ≥ 0)", ErrInput, i, s)
		}
		if math.IsInf(s, 1) {
			inf++
		}
	}
	f := make([]float64, n)
	capped := make([]bool, n)
	left := budget
	if inf > 0 {
		each := budget / float64(inf)
		if maxFreq > 0 {
			each = min(each, maxFreq)
		}
		for i, s := range scores {
			if math.IsInf(s, 1) {
				f[i], capped[i] = each, true
				left -= each
			}
		}
	}
	// Each round caps at least one more page or ends, so n+1 rounds do.
	for range n + 1 {
		if left <= budget*1e-15 {
			break
		}
		var sum float64
		free := 0
		for i, s := range scores {
			if !capped[i] {
				sum += s
				free++
			}
		}
		if free == 0 {
			break
		}
		more := false
		for i, s := range scores {
			if capped[i] {
				continue
			}
			share := left / float64(free) // every free score 0: uniform
			if sum > 0 {
				share = left * s / sum
			}
			if maxFreq > 0 && share >= maxFreq {
				more = true
			}
			f[i] = share
		}
		if !more {
			break
		}
		for i := range f {
			if !capped[i] && maxFreq > 0 && f[i] >= maxFreq {
				f[i], capped[i] = maxFreq, true
				left -= maxFreq
			}
		}
		for i := range f {
			if !capped[i] {
				f[i] = 0
			}
		}
	}
	return f, nil
}

// Optimal returns the refresh frequencies that maximise the expected
// weighted freshness Σ w_i·F(λ_i, f_i) subject to Σ f_i = budget and
// 0 ≤ f_i ≤ maxFreq (maxFreq 0: no cap), after Cho and Garcia-Molina
// (TODS 2003, Section 5; SIGMOD 2000). F is concave in f, so the optimum is
// where every page's marginal gain equals one multiplier μ, clamped to the
// box: with r = λ/f,
//
//	w·∂F/∂f = (w/λ)·g(r),  g(r) = 1 − (1 + r)·e^(−r),
//
// g rising from 0 (r → 0, refreshed very often) to 1 (r → ∞). So
//
//	f_i(μ) = λ_i / g⁻¹(μ·λ_i/w_i)  if μ·λ_i/w_i < 1,  else 0,
//
// clamped to [0, maxFreq]: a page whose λ_i/w_i is too high changes too
// often to be worth its refreshes and gets none, the paper's
// counter-intuitive result. Σ f_i(μ) decreases in μ; μ is found by
// bisection on ln μ (200 halvings at most, stopping at a relative width
// of 1e-13) and the frequencies then scaled by at most that much so they
// sum to the budget. g⁻¹ is found by bisection too. Pages with λ = 0
// (never change), λ = +Inf or w = 0 get nothing; if no page can use a
// refresh, the budget is split as Uniform.
func Optimal(pages []Page, budget, maxFreq float64) ([]float64, error) {
	n := len(pages)
	if err := checkAlloc("optimal", n, budget, maxFreq); err != nil {
		return nil, err
	}
	useful := 0
	for i, p := range pages {
		if !(p.Weight >= 0) || math.IsInf(p.Weight, 1) || !(p.Rate >= 0) {
			return nil, fmt.Errorf("%w: optimal: page %d: weight %v, rate %v (want weight ≥ 0 finite, rate ≥ 0)", ErrInput, i, p.Weight, p.Rate)
		}
		if p.Weight > 0 && p.Rate > 0 && !math.IsInf(p.Rate, 1) {
			useful++
		}
	}
	if useful == 0 || maxFreq > 0 && float64(useful)*maxFreq < budget {
		// Nothing (or not enough) to gain: spend the budget evenly, as a
		// crawler without estimates would.
		return Uniform(n, budget, maxFreq)
	}
	f := make([]float64, n)
	// rs[i] is page i's last r = g⁻¹(y): successive μ of the bisection are
	// close, so it starts the next inversion a step or two from its root.
	rs := make([]float64, n)
	fill := func(mu float64) float64 {
		var sum float64
		for i, p := range pages {
			f[i] = 0
			if p.Weight == 0 || p.Rate == 0 || math.IsInf(p.Rate, 1) {
				continue
			}
			y := mu * p.Rate / p.Weight
			if y >= 1 {
				continue
			}
			rs[i] = gInvNear(y, rs[i])
			v := p.Rate / rs[i]
			if maxFreq > 0 {
				v = min(v, maxFreq)
			}
			f[i] = v
			sum += v
		}
		return sum
	}
	// Bracket ln μ: small μ spends more than the budget, large μ less.
	lo, hi := -10.0, 10.0
	for fill(math.Exp(lo)) < budget {
		lo -= 10
		if lo < -700 {
			break
		}
	}
	for fill(math.Exp(hi)) > budget {
		hi += 10
	}
	for range 200 {
		if hi-lo < 1e-13 {
			break
		}
		mid := (lo + hi) / 2
		if fill(math.Exp(mid)) > budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	sum := fill(math.Exp(lo)) // spends at least the budget
	if sum > 0 {
		scale := budget / sum
		for i := range f {
			f[i] *= scale
		}
	}
	return f, nil
}

// g is g(r) = 1 − (1 + r)·e^(−r), the marginal-gain shape of Optimal.
// Below r = 1e-3 the two terms cancel to about r²/2, so it uses the series
// Σ_{k≥2} (−1)^k (k−1)/k! r^k to four terms (error below r⁶/144).
func g(r float64) float64 {
	if r < 1e-3 {
		r2 := r * r
		return r2/2 - r2*r/3 + r2*r2/8 - r2*r2*r/30
	}
	return -math.Expm1(-r) - r*math.Exp(-r)
}

// gInvNear is gInv(y) started from r0, an earlier root for a nearby y:
// plain Newton steps on u = ln r, which converge in two or three steps from
// there; without a start (r0 ≤ 0), or if eight steps do not settle to a
// relative 1e-14, it falls back to gInv.
func gInvNear(y, r0 float64) float64 {
	if y <= 0 {
		return 0
	}
	if r0 > 0 {
		u := math.Log(r0)
		for range 8 {
			r := math.Exp(u)
			d := r * r * math.Exp(-r)
			if !(d > 0) || math.IsInf(r, 0) {
				break
			}
			step := (g(r) - y) / d
			u -= step
			if math.IsNaN(u) {
				break
			}
			if math.Abs(step) < 1e-14 {
				return math.Exp(u)
			}
		}
	}
	return gInv(y)
}

// gInv returns r with g(r) = y for y in (0, 1) to a relative precision of
// about 1e-14 (g is increasing). It runs Newton's method on u = ln r,
// h(u) = g(eᵘ) − y with h'(u) = r²·e^(−r), inside a bracket that every
// step narrows; a step leaving the bracket is replaced by bisection, so it
// converges like bisection at worst and in a handful of steps usually
// (Optimal calls it once per page per bisection step on μ). For tiny y,
// g(r) ≈ r²/2 gives the bracket's lower end.
func gInv(y float64) float64 {
	if y <= 0 {
		return 0
	}
	lo := math.Log(math.Sqrt(2*y)) - 2
	hi := math.Log(max(1, -2*math.Log1p(-y))) + 2
	for g(math.Exp(hi)) < y {
		hi += 2
	}
	for g(math.Exp(lo)) > y {
		lo -= 2
	}
	u := (lo + hi) / 2
	for range 200 {
		r := math.Exp(u)
		h := g(r) - y
		if h < 0 {
			lo = u
		} else {
			hi = u
		}
		if hi-lo < 1e-14 {
			break
		}
		next := (lo + hi) / 2
		if d := r * r * math.Exp(-r); d > 0 {
			if nu := u - h/d; nu > lo && nu < hi {
				next = nu
			}
		}
		if math.Abs(next-u) < 1e-15 {
			break
		}
		u = next
	}
	return math.Exp(u)
}

// maxCycleRate bounds the change rate OptimalCycles works with: a page
// changing more than this many times per cycle is stale at every cycle's
// end with chance 1 − e^(−50), as good as certain.
const maxCycleRate = 50

// FreshnessCycles returns the expected share of cycle ends at which a page
// of change rate λ per cycle, refreshed f ≤ 1 times per cycle at regular
// intervals (every 1/f cycles, within a cycle before its end), is fresh:
//
//	F₁(λ, f) = f·(1 − e^(−λ/f)) / (1 − e^(−λ))
//
// The copy refetched in a cycle is fresh at that cycle's end, and k cycles
// later with chance e^(−λk); averaging over the 1/f cycle ends between two
// refreshes gives F₁. It is Cho and Garcia-Molina's F(λ, f) (Freshness)
// times λ/(1 − e^(−λ)): freshness looked at once per cycle, at its end,
// instead of averaged over continuous time. Unlike F, it does not fall to
// 0 for a page that changes much faster than it is refreshed: a refetch
// makes such a page fresh at the end of its cycle, and F₁ → f. λ = 0 gives
// 1 (never stale); f = 0 gives 0.
func FreshnessCycles(rate, freq float64) float64 {
	switch {
	case rate <= 0:
		return 1
	case freq <= 0:
		return 0
	}
	rate = min(rate, maxCycleRate)
	return freq * -math.Expm1(-rate/freq) / -math.Expm1(-rate)
}

// OptimalCycles returns the refresh frequencies (refreshes per cycle,
// capped at maxFreq; 0 means no cap) that maximise Σ w_i·F₁(λ_i, f_i)
// subject to Σ f_i = budget, with λ_i in changes per cycle: the freshness
// of a crawler whose copies are judged at the end of each cycle
// (FreshnessCycles). Since F₁(λ, f) = F(λ, f)·λ/(1 − e^(−λ)), this is
// Optimal with weights w_i·λ_i/(1 − e^(−λ_i)), and has its structure: the
// marginal gain of page i is w_i·g(λ_i/f_i)/(1 − e^(−λ_i)), so the
// multiplier μ gives a page a refresh if μ·(1 − e^(−λ_i)) < w_i, which
// every page that changes does for μ small enough. A slowly changing page
// stays fresh through many cycle ends after a rare refetch, so its first
// refreshes gain the most (up to 1/(1 − e^(−λ)) ≈ 1/λ cycle ends each); a
// page that changes in every cycle gains one fresh cycle end per refetch,
// which is worth its refreshes once the slow pages' gains fall to that
// (in Optimal it gets none). Rates above 50 per cycle count as 50
// (maxCycleRate), +Inf included.
func OptimalCycles(pages []Page, budget, maxFreq float64) ([]float64, error) {
	adj := make([]Page, len(pages))
	for i, p := range pages {
		if !(p.Weight >= 0) || math.IsInf(p.Weight, 1) || !(p.Rate >= 0) {
			return nil, fmt.Errorf("%w: optimal cycles: page %d: weight %v, rate %v (want weight ≥ 0 finite, rate ≥ 0)", ErrInput, i, p.Weight, p.Rate)
		}
		r := min(p.Rate, maxCycleRate)
		adj[i] = Page{Rate: r}
		if r > 0 {
			adj[i].Weight = p.Weight * r / -math.Expm1(-r)
		}
	}
	return Optimal(adj, budget, maxFreq)
}
