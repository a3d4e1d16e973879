package graph

import (
	"slices"
	"testing"
)

// TestDatasetFigures checks the reader against every figure of
// ../shared/data/README.md.
func TestDatasetFigures(t *testing.T) {
	cases := []struct {
		name                    string
		load                    func(testing.TB) *CSR
		n, m, loops, dangling   int
		isolated, maxOut, maxIn int
		interHost               int // −1: no URLs
	}{
		{"epa", datasetLoader("epa"), 4772, 8965, 0, 3349, 501, 175, 124, 8954},
		{"hollins", datasetLoader("hollins"), 6012, 23875, 0, 3189, 0, 184, 829, 918},
		{"cnr-2000", loadCNR, 325557, 3216152, 87442, 78056, 0, 2716, 18235, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.load(t)
			if err := g.Validate(); err != nil {
				t.Fatal(err)
			}
			in := g.InDegrees()
			var dangling, isolated, maxOut, inter int
			for v := 0; v < g.N(); v++ {
				out := g.OutDegree(uint32(v))
				maxOut = max(maxOut, out)
				if out == 0 {
					dangling++
					if in[v] == 0 {
						isolated++
					}
				}
				if g.HasHosts() {
					for _, w := range g.Out(uint32(v)) {
						if g.Hosts[v] != g.Hosts[w] {
							inter++
						}
					}
				}
			}
			if !g.HasHosts() {
				inter = -1
			}
			got := []int{g.N(), g.M(), g.SelfLoops(), dangling, isolated, maxOut, int(slices.Max(in)), inter}
			want := []int{c.n, c.m, c.loops, c.dangling, c.isolated, c.maxOut, c.maxIn, c.interHost}
			if !slices.Equal(got, want) {
				t.Fatalf("N, M, self-loops, dangling, isolated, max out, max in, inter-host = %v, want %v", got, want)
			}
			// Sorted, duplicate-free lists, as the format promises.
			for v := 0; v < g.N(); v++ {
				out := g.Out(uint32(v))
				for i := 1; i < len(out); i++ {
					if out[i] <= out[i-1] {
						t.Fatalf("node %d: targets not strictly increasing: %v", v, out)
					}
				}
			}
		})
	}
}

func TestFilterAndSelfLoops(t *testing.T) {
	g := fromArcs(4, [][2]uint32{{0, 0}, {0, 2}, {0, 1}, {1, 1}, {2, 3}, {3, 0}, {3, 3}})
	g.SetURLs([]string{"http://a/", "http://a/1", "http://b/", "http://c/"})
	cases := []struct {
		name string
		got  *CSR
		want *CSR
	}{
		{"without self-loops", g.WithoutSelfLoops(), fromArcs(4, [][2]uint32{{0, 2}, {0, 1}, {2, 3}, {3, 0}})},
		{"filter keeps order", g.Filter(func(s, d uint32) bool { return d != 1 }), fromArcs(4, [][2]uint32{{0, 0}, {0, 2}, {2, 3}, {3, 0}, {3, 3}})},
		{"filter inter-host", g.Filter(func(s, d uint32) bool { return g.Hosts[s] != g.Hosts[d] }), fromArcs(4, [][2]uint32{{0, 2}, {2, 3}, {3, 0}})},
		{"filter none", g.Filter(func(s, d uint32) bool { return false }), fromArcs(4, nil)},
		{"transpose", g.Transpose(), fromArcs(4, [][2]uint32{{0, 0}, {0, 3}, {1, 0}, {1, 1}, {2, 0}, {3, 2}, {3, 3}})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sameGraph(t, c.got, c.want)
			if !slices.Equal(c.got.URLs, g.URLs) || !slices.Equal(c.got.Hosts, g.Hosts) {
				t.Fatal("URLs or hosts not kept")
			}
		})
	}
	if k := g.SelfLoops(); k != 3 {
		t.Fatalf("SelfLoops = %d, want 3", k)
	}
	if in := g.InDegrees(); !slices.Equal(in, []uint32{2, 2, 1, 2}) {
		t.Fatalf("InDegrees = %v", in)
	}
	if g.Out(0)[0] != 0 {
		t.Fatal("Filter modified its input")
	}
}
