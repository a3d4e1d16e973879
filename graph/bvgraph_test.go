package graph

import (
	"slices"
	"testing"
)

// TestBVGraphCNR2000 decodes the LAW files of cnr-2000 and checks they give
// exactly the arcs of ../shared/data/cnr-2000.arcs.tsv.gz, which was decoded
// independently (README there).
func TestBVGraphCNR2000(t *testing.T) {
	base := sharedData(t, "bvgraph/cnr-2000")
	if !IsBVGraph(base) {
		t.Fatalf("%s.graph/.properties missing: link /work/shared as ../shared (see RULES)", base)
	}
	g, err := ReadBVGraph(base)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadDataset(sharedData(t, "cnr-2000"))
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 325557 || g.M() != 3216152 {
		t.Fatalf("N, M = %d, %d; want 325557, 3216152", g.N(), g.M())
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Offsets, want.Offsets) {
		t.Fatal("offsets differ from the dataset's")
	}
	if !slices.Equal(g.Targets, want.Targets) {
		for i := range g.Targets {
			if g.Targets[i] != want.Targets[i] {
				t.Fatalf("first difference at arc %d: %d, want %d", i, g.Targets[i], want.Targets[i])
			}
		}
	}
	if loops := g.SelfLoops(); loops != 87442 {
		t.Fatalf("self-loops %d, want 87442", loops)
	}
}
