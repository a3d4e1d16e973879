package seeds

import (
	"slices"
	"testing"
)

// sccGraph: A = cycle 0→1→2→0, B = cycle 3→4→5→6→3 with 3→7 and 6→7, and
// 8→0. Components A, B, {7}, {8}; the roots of the condensation are B and {8}.
func sccGraph() Input {
	return Input{G: fromArcs(9, [][2]uint32{
		{0, 1}, {1, 2}, {2, 0},
		{3, 4}, {4, 5}, {5, 6}, {6, 3}, {3, 7}, {6, 7},
		{8, 0},
	})}
}

func TestMaxSCC(t *testing.T) {
	cases := []struct {
		k, h   int
		want   []uint32
		scores []float64
		sizes  []int
	}{
		// B weighs 4: its member with the largest depth-1 weight is 3 ({3,4,7}).
		{1, 1, []uint32{3}, []float64{4}, []int{4}},
		// Then B keeps 5 and 6 (weight 2) < A (3): A's first best member, 0.
		{2, 1, []uint32{3, 0}, []float64{4, 3}, []int{4, 3}},
		// With h = 3, 3 covers B and 7, 0 covers A; 8 remains.
		{5, 3, []uint32{3, 0, 8}, []float64{4, 3, 1}, []int{4, 3, 1}},
	}
	for _, c := range cases {
		r := mustSelect(t, sccGraph(), Options{Algo: AlgoMaxSCC, K: c.k, Hops: c.h})
		var scores []float64
		var sizes []int
		for _, s := range r.Seeds {
			scores = append(scores, s.Score)
			sizes = append(sizes, s.ComponentSize)
		}
		if !slices.Equal(r.Nodes(), c.want) || !slices.Equal(scores, c.scores) || !slices.Equal(sizes, c.sizes) {
			t.Errorf("k=%d h=%d: seeds %v scores %v sizes %v; want %v %v %v",
				c.k, c.h, r.Nodes(), scores, sizes, c.want, c.scores, c.sizes)
		}
		if len(r.Seeds) < c.k && r.Note == "" {
			t.Errorf("k=%d h=%d: short result without a note", c.k, c.h)
		}
	}
}

func TestRootSCC(t *testing.T) {
	// Root candidates 3, 4, 5, 6 (B) and 8. Depth-2 weights: 3 = {3,4,5,7},
	// 6 = {6,3,4,7} (4 each), 8 = {8,0,1}. With h = 2: 3 covers 3,4,5,7; then
	// 8 (3) beats 6 (1); then 4 covers 6; then no root candidate adds value
	// and maxweight fills with 0, which reaches the last page, 2.
	r := mustSelect(t, sccGraph(), Options{Algo: AlgoRootSCC, K: 4, Hops: 2, Depth: 2})
	want := []uint32{3, 8, 4, 0}
	filled := []bool{false, false, false, true}
	sizes := []int{4, 1, 4, 3}
	for i, s := range r.Seeds {
		if i >= len(want) || s.Node != want[i] || s.Filled != filled[i] || s.ComponentSize != sizes[i] {
			t.Fatalf("seeds %+v; want nodes %v filled %v sizes %v", r.Seeds, want, filled, sizes)
		}
	}
	if len(r.Seeds) != 4 || r.Pages != 9 {
		t.Fatalf("%d seeds covering %d pages, want 4 covering 9", len(r.Seeds), r.Pages)
	}
}
