package chart

import (
	"slices"
	"testing"
)

func TestGrid(t *testing.T) {
	for _, tc := range []struct {
		name              string
		reference, points int
		pages             []int
		checkpoint        []float64
	}{
		// 1%, 2%, 5% and 10% of 10 are all page 1: it stands for the first.
		{"checkpoints share a page", 10, 2, []int{1, 2, 3, 5, 10}, []float64{0.01, 0.2, 0, 0.5, 1}},
		// 100 points on 3 pages would only repeat k values.
		{"points clamped to the reference", 3, 100, []int{1, 2, 3}, []float64{0.01, 0.5, 1}},
		{"no fine grid", 200, 0, []int{2, 4, 10, 20, 40, 100, 200}, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}},
	} {
		pages, checkpoint := Grid(tc.reference, tc.points)
		if !slices.Equal(pages, tc.pages) || !slices.Equal(checkpoint, tc.checkpoint) {
			t.Errorf("%s: Grid(%d, %d) = %v, %v; want %v, %v", tc.name, tc.reference, tc.points, pages, checkpoint, tc.pages, tc.checkpoint)
		}
	}
}
