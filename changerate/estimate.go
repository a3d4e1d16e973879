package changerate

import (
	"fmt"
	"math"
)

// checkCounts validates x changes detected in n accesses at interval I.
func checkCounts(what string, x, n int, interval float64) error {
	switch {
	case n <= 0 || x < 0 || x > n:
		return fmt.Errorf("%w: %s: %d changes in %d accesses (want 0 ≤ X ≤ n, n ≥ 1)", ErrInput, what, x, n)
	case !(interval > 0) || math.IsInf(interval, 1):
		return fmt.Errorf("%w: %s: access interval %v (want a positive finite number)", ErrInput, what, interval)
	}
	return nil
}

// Naive returns λ̂ = X/T, T = n·I: the x changes detected in n accesses at
// regular interval I, per unit of time (Cho and Garcia-Molina 2003,
// Section 4.1, the "intuitive" estimator X/T). It is biased low: an access
// sees at most one change however many happened, so λ̂ ≤ 1/I and
// E[λ̂] = (1 − e^(−λI))/I.
func Naive(x, n int, interval float64) (float64, error) {
	if err := checkCounts("naive", x, n, interval); err != nil {
		return 0, err
	}
	return float64(x) / (float64(n) * interval), nil
}

// BiasReduced returns Cho and Garcia-Molina's improved estimator for n
// accesses at regular interval I of which x detected a change (2003,
// Section 4.1):
//
//	λ̂ = −ln((n − X + 0.5)/(n + 0.5)) / I
//
// −ln((n−X)/n)/I is the maximum-likelihood estimator (an access sees no
// change with probability e^(−λI)); the 0.5s remove most of its bias and
// keep it finite when every access saw a change (X = n gives
// ln(2n + 1)/I).
func BiasReduced(x, n int, interval float64) (float64, error) {
	if err := checkCounts("bias-reduced", x, n, interval); err != nil {
		return 0, err
	}
	nf, xf := float64(n), float64(x)
	return -math.Log((nf-xf+0.5)/(nf+0.5)) / interval, nil
}

// Observation is one access of a page at irregular intervals: the time
// since the previous access and whether the page changed in it.
type Observation struct {
	Interval float64
	Changed  bool
}

// MLE returns the maximum-likelihood rate for accesses at irregular
// intervals (Cho and Garcia-Molina 2003, Section 4.2). An interval t in
// which a change was seen has probability 1 − e^(−λt), one without change
// e^(−λt), so the log-likelihood
//
//	ℓ(λ) = Σ_changed ln(1 − e^(−λ t_i)) − λ · Σ_unchanged t_j
//
// is concave and its maximum solves
//
//	Σ_changed t_i / (e^(λ t_i) − 1) = Σ_unchanged t_j.
//
// The left side decreases from +∞ to 0 in λ, so the root is unique; it is
// found by bisection on ln λ to a relative precision of 1e-12 (at most 200
// halvings). With no change seen MLE returns 0; when every interval saw a
// change the likelihood grows without bound and MLE returns +Inf (the page
// changes faster than it is looked at).
func MLE(obs []Observation) (float64, error) {
	if len(obs) == 0 {
		return 0, fmt.Errorf("%w: mle: no observations", ErrInput)
	}
	var unchanged float64
	var changed []float64
	for i, o := range obs {
		if !(o.Interval > 0) || math.IsInf(o.Interval, 1) {
			return 0, fmt.Errorf("%w: mle: observation %d: interval %v (want a positive finite number)", ErrInput, i, o.Interval)
		}
		if o.Changed {
			changed = append(changed, o.Interval)
		} else {
			unchanged += o.Interval
		}
	}
	switch {
	case len(changed) == 0:
		return 0, nil
	case unchanged == 0:
		return math.Inf(1), nil
	}
	// score(λ) = Σ t_i/(e^(λt_i) − 1) − unchanged: positive below the root.
	score := func(l float64) float64 {
		var s float64
		for _, t := range changed {
			s += t / math.Expm1(l*t)
		}
		return s - unchanged
	}
	// Bracket: at λ = 1e-300/t the left side is huge; grow hi until the
	// score turns negative.
	lo, hi := math.Log(1e-12/changed[0]), math.Log(1/changed[0])
	for score(math.Exp(lo)) < 0 {
		lo -= 10
	}
	for score(math.Exp(hi)) > 0 {
		hi += 2
	}
	for range 200 {
		if hi-lo < 1e-12 {
			break
		}
		mid := (lo + hi) / 2
		if score(math.Exp(mid)) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2), nil
}

// Access is one access of a page that reports when it last changed
// (Last-Modified, a sitemap's lastmod): Interval is the time since the
// previous access, Age the time from the last change to this access. The
// page changed in the interval exactly when Age < Interval.
type Access struct {
	Interval float64
	Age      float64
}

// lastModTotals returns X (accesses that saw a change), n and
// T = Σ (Age if changed, else Interval): the time during which the page is
// known not to have changed.
func lastModTotals(what string, acc []Access) (x, n int, t float64, err error) {
	if len(acc) == 0 {
		return 0, 0, 0, fmt.Errorf("%w: %s: no accesses", ErrInput, what)
	}
	for i, a := range acc {
		if !(a.Interval > 0) || math.IsInf(a.Interval, 1) || !(a.Age >= 0) || math.IsInf(a.Age, 1) {
			return 0, 0, 0, fmt.Errorf("%w: %s: access %d: interval %v, age %v (want interval > 0, age ≥ 0, both finite)", ErrInput, what, i, a.Interval, a.Age)
		}
		if a.Age < a.Interval {
			x++
			t += a.Age
		} else {
			t += a.Interval
		}
	}
	return x, len(acc), t, nil
}

// LastModifiedNaive returns X/T for accesses that know the last change
// time (Cho and Garcia-Molina 2003, Section 5): X accesses saw a change, T
// sums, over the accesses, the time known to be free of change: Age for
// an access that saw a change (from the last change to the access),
// Interval for one that did not. It is the maximum-likelihood estimator:
// the last change before an access at age a has density λe^(−λa), so
// ℓ(λ) = X·ln λ − λT. T = 0 (every change exactly at its access) gives
// +Inf if X > 0.
func LastModifiedNaive(acc []Access) (float64, error) {
	x, _, t, err := lastModTotals("last-modified naive", acc)
	if err != nil {
		return 0, err
	}
	if x == 0 {
		return 0, nil
	}
	return float64(x) / t, nil
}

// LastModified returns Cho and Garcia-Molina's bias-reduced last-modified
// estimator (2003, Section 5), with X, n and T as in LastModifiedNaive:
//
//	λ̂ = ((X − 1) − X/(n·ln(1 − X/n))) / T
//
// X/T overestimates λ (a rate estimated from X events over an exposure T is
// biased by about X/(X − 1)); the correction subtracts between 0 (X → 0)
// and 1 (X = n, where X/(n·ln(1 − X/n)) → 0, giving (n − 1)/T). X = 0
// gives 0.
func LastModified(acc []Access) (float64, error) {
	x, n, t, err := lastModTotals("last-modified", acc)
	if err != nil {
		return 0, err
	}
	if x == 0 {
		return 0, nil
	}
	xf, nf := float64(x), float64(n)
	num := xf - 1
	if x < n {
		num -= xf / (nf * math.Log1p(-xf/nf))
	}
	if num <= 0 {
		return 0, nil
	}
	return num / t, nil
}

// Unseen returns a rate for a page that n accesses at interval I never saw
// change, for allocators that must not take "no change seen" for "never
// changes" (Optimal gives a page of rate 0 no refresh at all, so a page
// that changes once a month but not in the first n days would never be
// refetched). It is what BiasReduced gives for half a change,
//
//	λ₀ = ln((n + 0.5)/n) / I ≈ 1/(2nI),
//
// in the spirit of its 0.5 corrections: X = 0 in n accesses is likely for
// any rate well below 1/(nI). Use max(BiasReduced(...), Unseen(n, I)).
func Unseen(n int, interval float64) (float64, error) {
	if err := checkCounts("unseen", 0, n, interval); err != nil {
		return 0, err
	}
	return math.Log1p(0.5/float64(n)) / interval, nil
}
