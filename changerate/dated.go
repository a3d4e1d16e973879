package changerate

import (
	"fmt"
	"math"
)

// Dated is one access of a page that reports when it last changed, on the
// server's own clock: Date is the response's Date, LastModified its
// Last-Modified (or a sitemap's lastmod), in any one unit (seconds, say).
// A crawler's own clock is not used: servers' clocks are off by any
// amount, and a test server may run on a clock of its own; the difference
// Date − LastModified is what one clock measures.
type Dated struct {
	Date, LastModified float64
}

// Exposure returns, for the accesses of a page in time order, the number
// of changes X they show and the time T during which the page is known not
// to have changed, the sufficient statistics of a Poisson process of rate
// λ whose likelihood is λ^X·e^(−λT) (Cho and Garcia-Molina 2003, Section
// 5, with one term more):
//
//   - the first access: the page's last change was Age = Date −
//     LastModified before it. For a process running long before (a
//     stationary one), the age at a random moment is Exp(λ), density
//     λe^(−λ·Age): X += 1, T += Age. This is what a single fetch tells,
//     and on a first crawl it is all there is.
//   - each later access, Interval = Date − previous Date after the
//     previous one: a LastModified later than the previous Date means the
//     page changed in between, the last time Age before this access
//     (X += 1, T += Age); otherwise it did not change in the whole
//     interval (T += Interval). As in LastModifiedNaive, the time between
//     the previous access and the last change says nothing either way.
//
// A LastModified after its Date is taken as the Date (age 0). Accesses must
// have Dates in increasing order and finite values, else ErrInput. X/T is
// the maximum-likelihood rate; with a handful of accesses, use a prior
// (Gamma.Rate).
func Exposure(acc []Dated) (x int, t float64, err error) {
	if len(acc) == 0 {
		return 0, 0, fmt.Errorf("%w: exposure: no accesses", ErrInput)
	}
	var e Exposed
	for i, a := range acc {
		if err := e.Add(a); err != nil {
			return 0, 0, fmt.Errorf("access %d: %w", i, err)
		}
	}
	return e.X, e.T, nil
}

// Exposed accumulates Exposure one access at a time, for a caller that
// streams a page's accesses rather than holding them: X and T are
// Exposure's, Accesses the number added. The zero value has seen nothing.
type Exposed struct {
	X        int
	T        float64
	Accesses int
	last     float64 // Date of the last access added
}

// Add adds the next access of the page (see Exposure); an access out of
// order or not finite is refused with ErrInput and changes nothing.
func (e *Exposed) Add(a Dated) error {
	if math.IsNaN(a.Date) || math.IsInf(a.Date, 0) || math.IsNaN(a.LastModified) || math.IsInf(a.LastModified, 0) {
		return fmt.Errorf("%w: exposure: date %v, last modified %v (want finite)", ErrInput, a.Date, a.LastModified)
	}
	if e.Accesses > 0 && !(a.Date > e.last) {
		return fmt.Errorf("%w: exposure: access at %v, not after the previous one at %v", ErrInput, a.Date, e.last)
	}
	age := max(a.Date-a.LastModified, 0)
	switch {
	case e.Accesses == 0:
		e.X, e.T = 1, age
	case a.LastModified > e.last:
		e.X++
		e.T += age
	default:
		e.T += a.Date - e.last
	}
	e.last = a.Date
	e.Accesses++
	return nil
}

// Last is the Date of the last access added (0 before any).
func (e *Exposed) Last() float64 { return e.last }

// Gamma is a Gamma(Shape, Rate) prior on a page's change rate, the
// conjugate prior of the Poisson likelihood λ^X·e^(−λT): after X changes
// over an exposure T the posterior is Gamma(Shape + X, Rate + T). Shape
// counts as that many changes seen, Rate as that much time watched.
type Gamma struct {
	Shape, Rate float64
}

// FitGamma returns the prior of a group of pages (a host) with the given
// shape and the group's pooled rate ΣX/ΣT as its mean: Rate =
// shape·ΣT/ΣX. The shape says how much a page's own few observations are
// drawn towards its group; small (below 1) since change rates within a
// site spread over orders of magnitude. With no change seen in the group,
// or no exposure, the zero Gamma (no prior) is returned with ok false.
func FitGamma(shape float64, xs []int, ts []float64) (g Gamma, ok bool, err error) {
	if len(xs) != len(ts) {
		return Gamma{}, false, fmt.Errorf("%w: fit gamma: %d counts for %d exposures", ErrInput, len(xs), len(ts))
	}
	if !(shape > 0) || math.IsInf(shape, 1) {
		return Gamma{}, false, fmt.Errorf("%w: fit gamma: shape %v (want a positive finite number)", ErrInput, shape)
	}
	var sx, st float64
	for i, x := range xs {
		if x < 0 || !(ts[i] >= 0) || math.IsInf(ts[i], 1) {
			return Gamma{}, false, fmt.Errorf("%w: fit gamma: page %d: %d changes over %v", ErrInput, i, x, ts[i])
		}
		sx += float64(x)
		st += ts[i]
	}
	if sx == 0 || st == 0 {
		return Gamma{}, false, nil
	}
	return Gamma{Shape: shape, Rate: shape * st / sx}, true, nil
}

// Mean is the prior's mean rate, Shape/Rate (0 for the zero Gamma).
func (g Gamma) Mean() float64 {
	if g.Rate == 0 {
		return 0
	}
	return g.Shape / g.Rate
}

// Estimate returns the posterior mean rate (Shape + X)/(Rate + T) of a
// page with X changes over exposure T. Without a prior (the zero Gamma) it
// is X/T; T = 0 then gives +Inf for X > 0 and 0 for X = 0.
func (g Gamma) Estimate(x int, t float64) (float64, error) {
	if x < 0 || !(t >= 0) || math.IsInf(t, 1) {
		return 0, fmt.Errorf("%w: gamma estimate: %d changes over %v", ErrInput, x, t)
	}
	num, den := g.Shape+float64(x), g.Rate+t
	switch {
	case num == 0:
		return 0, nil
	case den == 0:
		return math.Inf(1), nil
	}
	return num / den, nil
}

// StaleChance returns 1 − e^(−λ·elapsed), the chance that a page of rate λ
// changed in elapsed time since it was fetched: that the stored copy is
// stale now. Refetching it makes it fresh with that chance, so among
// pages of weights w_i the refetches that most raise the weighted share
// of fresh copies at the end of a cycle are those of the largest
// w_i·StaleChance(λ_i, elapsed_i): importance × change rate × time since
// the fetch while λ·elapsed is small, saturating at w_i once a change is
// almost certain.
func StaleChance(rate, elapsed float64) float64 {
	switch {
	case !(rate > 0) || !(elapsed > 0):
		return 0
	case math.IsInf(rate, 1) || math.IsInf(elapsed, 1):
		return 1
	}
	return -math.Expm1(-rate * elapsed)
}
