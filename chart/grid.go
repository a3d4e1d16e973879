package chart

import (
	"math"
	"slices"
)

// Checkpoints are the fractions of the reference k (sim's reachable pages,
// compare's budget) at which the tables show S(k).
func Checkpoints() []float64 { return []float64{0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1} }

// Grid returns the k values S(k) is sampled at for a reference of k pages,
// ascending and distinct: the Checkpoints, k = ⌈fraction·reference⌉, then
// points evenly spaced k and points geometrically spaced ones
// (reference^(i/points), for a log axis). checkpoint[i] is the fraction
// pages[i] stands for, or 0 for a point of the fine grid only. points is
// clamped to reference: more would only repeat k values, and the clamp
// keeps a typo such as --grid 1e12 from allocating them. sim and compare
// sample on this one grid, so that their Scores line up.
func Grid(reference, points int) (pages []int, checkpoint []float64) {
	points = min(points, reference)
	cp := map[int]float64{}
	var ks []int
	for _, f := range Checkpoints() {
		k := max(1, int(math.Ceil(f*float64(reference)-1e-9)))
		if _, dup := cp[k]; !dup { // on tiny crawls 1% and 2% may both be page 1
			cp[k] = f
		}
		ks = append(ks, k)
	}
	for i := 1; i <= points; i++ {
		ks = append(ks, max(1, int(math.Round(float64(i)*float64(reference)/float64(points)))))
		ks = append(ks, max(1, int(math.Round(math.Pow(float64(reference), float64(i)/float64(points))))))
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	fr := make([]float64, len(ks))
	for i, k := range ks {
		fr[i] = cp[k]
	}
	return ks, fr
}
