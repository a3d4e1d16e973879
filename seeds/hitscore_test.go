package seeds

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

// plantedBiclique returns a graph on distinct hosts with a complete bipartite
// core hubs 0..h-1 → authorities h..h+a-1 hidden in sparse random noise among
// the other n-h-a pages, plus one noise page linking into the core's first
// authority only.
func plantedBiclique(rng *rand.Rand, h, a, n, noise int) *graph.CSR {
	var arcs [][2]uint32
	for x := 0; x < h; x++ {
		for y := h; y < h+a; y++ {
			arcs = append(arcs, [2]uint32{uint32(x), uint32(y)})
		}
	}
	base := h + a
	arcs = append(arcs, [2]uint32{uint32(base), uint32(h)})
	seen := map[[2]uint32]bool{}
	for len(seen) < noise {
		s := uint32(base + rng.IntN(n-base))
		d := uint32(base + rng.IntN(n-base))
		if s != d && !seen[[2]uint32{s, d}] {
			seen[[2]uint32{s, d}] = true
			arcs = append(arcs, [2]uint32{s, d})
		}
	}
	return withHosts(fromArcs(n, arcs), func(v int) int { return v })
}

func TestHITSCoreFindsPlantedBiclique(t *testing.T) {
	cases := []struct{ h, a int }{{5, 4}, {3, 7}, {8, 2}}
	for _, c := range cases {
		g := plantedBiclique(rand.New(rand.NewPCG(uint64(c.h), uint64(c.a))), c.h, c.a, 80, 90)
		r := mustSelect(t, Input{G: g}, Options{Algo: AlgoHITSCore, K: 1})
		core := r.Seeds[0].Core
		hubs := slices.Sorted(slices.Values(core.Hubs))
		auts := slices.Sorted(slices.Values(core.Authorities))
		var wantH, wantA []uint32
		for x := 0; x < c.h; x++ {
			wantH = append(wantH, uint32(x))
		}
		for y := c.h; y < c.h+c.a; y++ {
			wantA = append(wantA, uint32(y))
		}
		if !slices.Equal(hubs, wantH) || !slices.Equal(auts, wantA) {
			t.Errorf("K(%d,%d): core hubs %v authorities %v; want %v %v", c.h, c.a, hubs, auts, wantH, wantA)
		}
		if !slices.Contains(core.Hubs, r.Seeds[0].Node) || core.Density != 100 || core.Arcs != c.h*c.a {
			t.Errorf("K(%d,%d): seed %d, density %g, arcs %d", c.h, c.a, r.Seeds[0].Node, core.Density, core.Arcs)
		}
	}
}

// checkCores verifies every core against the inter-host arcs of g: hubs and
// authorities disjoint, Arcs = |E(H,A)|, Density as defined, at least minDensity,
// the seed among the hubs, and cores of different seeds disjoint (only within
// one run: per-host runs are independent, so their cores may share pages).
func checkCores(t *testing.T, g *graph.CSR, r *Result, minDensity float64, maxHubs int) {
	t.Helper()
	inter := map[[2]uint32]bool{}
	for v := 0; v < g.N(); v++ {
		for _, u := range g.Out(uint32(v)) {
			if u != uint32(v) && (!g.HasHosts() || g.Hosts[v] != g.Hosts[u]) {
				inter[[2]uint32{uint32(v), u}] = true
			}
		}
	}
	used := map[uint32]int{}
	for _, s := range r.Seeds {
		c := s.Core
		if c == nil || len(c.Hubs) == 0 || len(c.Authorities) == 0 {
			t.Fatalf("seed %d: empty core %+v", s.Rank, c)
		}
		if !slices.Contains(c.Hubs, s.Node) || !slices.Contains(c.Authorities, c.TopAuthority) {
			t.Errorf("seed %d: node %d not a hub or top authority %d not an authority", s.Rank, s.Node, c.TopAuthority)
		}
		if len(c.Hubs) > maxHubs {
			t.Errorf("seed %d: %d hubs > max %d", s.Rank, len(c.Hubs), maxHubs)
		}
		arcs := 0
		for _, x := range c.Hubs {
			for _, y := range c.Authorities {
				if x == y {
					t.Fatalf("seed %d: page %d is hub and authority", s.Rank, x)
				}
				if inter[[2]uint32{x, y}] {
					arcs++
				}
			}
		}
		dens := 100 * float64(arcs) / float64(len(c.Hubs)*len(c.Authorities))
		if arcs != c.Arcs || dens != c.Density || dens < minDensity-1e-9 {
			t.Errorf("seed %d: arcs %d (reported %d), density %g (reported %g), want ≥ %g",
				s.Rank, arcs, c.Arcs, dens, c.Density, minDensity)
		}
		if r.Hosts != nil {
			continue
		}
		for _, v := range append(slices.Clone(c.Hubs), c.Authorities...) {
			if prev, ok := used[v]; ok {
				t.Errorf("page %d in the cores of seeds %d and %d", v, prev, s.Rank)
			}
			used[v] = s.Rank
		}
	}
}

// At cover density 100 every extracted core is complete bipartite; at lower
// thresholds every core keeps its density; fixed-size cores have their size.
func TestHITSCoreCores(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	random := withHosts(randomGraph(rng, 300, 2400), func(v int) int { return v % 40 })
	cases := []struct {
		name string
		g    *graph.CSR
		o    Options
	}{
		{"random density 100", random, Options{K: 10}},
		{"random density 60", random, Options{K: 10, CoverDensity: 60}},
		{"random density 30 two per step", random, Options{K: 6, CoverDensity: 30, NewMembers: 2}},
		{"random max hubs 2", random, Options{K: 6, CoverDensity: 50, MaxHubs: 2}},
		{"hollins density 100", dataset(t, "hollins"), Options{K: 10}},
		{"epa density 100", dataset(t, "epa"), Options{K: 10}},
		{"hollins density 70", dataset(t, "hollins"), Options{K: 5, CoverDensity: 70}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.Algo = AlgoHITSCore
			r := mustSelect(t, Input{G: c.g}, o)
			if len(r.Seeds) != o.K {
				t.Fatalf("%d seeds, want %d (note %q)", len(r.Seeds), o.K, r.Note)
			}
			d, mh := o.CoverDensity, o.MaxHubs
			if d == 0 {
				d = 100
			}
			if mh == 0 {
				mh = DefaultMaxHubs
			}
			checkCores(t, c.g, r, d, mh)
		})
	}
	t.Run("fixed size", func(t *testing.T) {
		for _, size := range []int{2, 5, 12} {
			r := mustSelect(t, Input{G: random}, Options{Algo: AlgoHITSCore, K: 5, CoreSize: size, NewMembers: 2})
			checkCores(t, random, r, 0, DefaultMaxHubs)
			for _, s := range r.Seeds {
				if n := len(s.Core.Hubs) + len(s.Core.Authorities); n != size {
					t.Errorf("size %d: core of seed %d has %d pages", size, s.Rank, n)
				}
			}
		}
	})
}

// Links inside a host are dropped before HITS: a biclique whose arcs are all
// intra-host is invisible, and the cross-host one is found.
func TestHITSCoreDropsIntraHostLinks(t *testing.T) {
	var arcs [][2]uint32
	for x := 0; x < 6; x++ { // dense, intra-host: 0..5 → 6..11, host 0
		for y := 6; y < 12; y++ {
			arcs = append(arcs, [2]uint32{uint32(x), uint32(y)})
		}
	}
	for x := 12; x < 14; x++ { // small, cross-host: 12,13 → 14,15
		for y := 14; y < 16; y++ {
			arcs = append(arcs, [2]uint32{uint32(x), uint32(y)})
		}
	}
	g := withHosts(fromArcs(16, arcs), func(v int) int {
		if v < 12 {
			return 0
		}
		return v
	})
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoHITSCore, K: 3})
	if len(r.Seeds) != 1 || r.Note == "" {
		t.Fatalf("seeds %v note %q; want one seed from the cross-host core and a note", r.Nodes(), r.Note)
	}
	c := r.Seeds[0].Core
	if got := slices.Sorted(slices.Values(c.Hubs)); !slices.Equal(got, []uint32{12, 13}) {
		t.Errorf("hubs %v, want [12 13]", got)
	}
}

func TestHITSCorePerHostSeedsStayOnTheirHost(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	g := withHosts(randomGraph(rng, 400, 3000), func(v int) int { return v % 5 })
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoHITSCore, K: 10, PerHost: true})
	checkPerHost(t, g, r)
	checkCores(t, g, r, 100, DefaultMaxHubs)
	for _, s := range r.Seeds {
		for _, h := range s.Core.Hubs {
			if g.Hosts[h] != g.Hosts[s.Node] {
				t.Errorf("seed %d on %s has hub %d on another host", s.Node, s.Host, h)
			}
		}
	}
}
