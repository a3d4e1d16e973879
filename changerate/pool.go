package changerate

import (
	"fmt"
	"math"
)

// Pooling the pages of a group (a host). With one to three accesses per
// page, a page's own counts say little: one change in one access reads as
// a rate above 1 per interval, none as 0. Pages of one site share their
// publishing habits, so the group's pages together estimate how rates are
// spread within it, and each page's estimate is drawn towards its group as
// far as its own few accesses warrant: empirical Bayes with the beta-
// binomial model (Kleinman, "Proportions with extraneous variance", JASA
// 1973, for the moment estimates). A page's chance p of a detected change
// between two accesses is Beta(A, B) within its group; after x changes in
// n accesses its posterior mean is (A + x)/(A + B + n).

// Counts are the change detections of one page: X changes seen in N
// accesses, at a mean Interval between them.
type Counts struct {
	X, N     int
	Interval float64
}

// Prior is the Beta(A, B) distribution of the chance of a detected change
// between two accesses among the pages of a group, with the group's pooled
// counts. The zero Prior has no weight: Rate is then BiasReduced.
type Prior struct {
	A, B float64
	// X and N are the group's changes and accesses, summed over its pages;
	// Interval is the mean interval of those accesses.
	X, N, Interval float64
}

// Weight is A + B: how many accesses of a page's own the prior counts as.
func (p Prior) Weight() float64 { return p.A + p.B }

// Mean is the group's chance of a change between two accesses, A/(A+B)
// (0 for the zero Prior).
func (p Prior) Mean() float64 {
	if p.A+p.B == 0 {
		return 0
	}
	return p.A / (p.A + p.B)
}

// The prior's weight is kept within [minPriorWeight, maxPriorWeight]: a
// group whose pages look alike does not silence any page's own evidence
// entirely, and one whose pages look wildly different (or too few to
// tell) still counts as one access, which keeps a page seen once from
// reading as changing never or always.
const (
	minPriorWeight = 1
	maxPriorWeight = 50
)

// FitPrior fits the group's Prior to its pages' counts (pages with N = 0
// are skipped) by the method of moments: the pooled chance m = ΣX/ΣN, and
// the intra-group correlation ρ = 1/(A+B+1) from the spread of the pages'
// shares X/N around m, which for the beta-binomial is
//
//	E[(X/N − m)²] = m(1−m)·(ρ + (1−ρ)/N),
//
// averaged over the pages, the weight A+B = 1/ρ − 1 kept within
// [minPriorWeight, maxPriorWeight]: a spread no wider than the binomial's
// own makes the pages alike; a wider one weakens the prior. With fewer
// than two pages, or m at 0 or 1, the prior has the pooled mean and the
// least weight.
func FitPrior(cs []Counts) (Prior, error) {
	var sx, sn, st float64
	pages := 0
	for i, c := range cs {
		if c.N == 0 {
			continue
		}
		if err := checkCounts(fmt.Sprintf("prior page %d", i), c.X, c.N, max(c.Interval, 1e-300)); err != nil {
			return Prior{}, err
		}
		sx += float64(c.X)
		sn += float64(c.N)
		st += float64(c.N) * c.Interval
		pages++
	}
	if pages == 0 {
		return Prior{}, nil
	}
	m := sx / sn
	pooled := Prior{X: sx, N: sn, Interval: st / sn}
	if pages < 2 || m <= 0 || m >= 1 {
		pooled.A, pooled.B = m*minPriorWeight, (1-m)*minPriorWeight
		return pooled, nil
	}
	var v, k float64
	for _, c := range cs {
		if c.N == 0 {
			continue
		}
		d := float64(c.X)/float64(c.N) - m
		v += d * d
		k += 1 / float64(c.N)
	}
	v /= float64(pages)
	k /= float64(pages)
	rho := 1.0
	if k < 1 {
		rho = (v/(m*(1-m)) - k) / (1 - k)
	}
	rho = min(max(rho, 1/float64(maxPriorWeight+1)), 1/float64(minPriorWeight+1))
	w := 1/rho - 1
	pooled.A, pooled.B = m*w, (1-m)*w
	return pooled, nil
}

// GroupRate is the group's own rate: BiasReduced over its pooled counts,
// the rate of a page of the group never accessed twice.
func (p Prior) GroupRate() (float64, error) {
	if p.N <= 0 {
		return 0, fmt.Errorf("%w: group rate: no accesses", ErrInput)
	}
	return -math.Log((p.N-p.X+0.5)/(p.N+0.5)) / p.Interval, nil
}

// Rate returns the rate of a page with x changes seen in n ≥ 1 accesses
// at mean interval I, given its group's prior: BiasReduced with the
// prior's pseudo-accesses added to the page's own,
//
//	λ̂ = −ln((B + n − x + 0.5)/(A + B + n + 0.5)) / I,
//
// which is BiasReduced itself for the zero Prior. (A page never accessed
// twice takes GroupRate.)
func (p Prior) Rate(x, n int, interval float64) (float64, error) {
	if err := checkCounts("pooled", x, n, interval); err != nil {
		return 0, err
	}
	num := p.B + float64(n-x) + 0.5
	den := p.A + p.B + float64(n) + 0.5
	return -math.Log(num/den) / interval, nil
}
