package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveDistances returns hop distances from seeds by repeated relaxation
// (Bellman–Ford with unit weights), −1 for unreachable nodes.
func naiveDistances(g *CSR, seeds []uint32) []int {
	dist := make([]int, g.N())
	for i := range dist {
		dist[i] = -1
	}
	for _, s := range seeds {
		dist[s] = 0
	}
	for changed := true; changed; {
		changed = false
		for u := 0; u < g.N(); u++ {
			if dist[u] < 0 {
				continue
			}
			for _, v := range g.Out(uint32(u)) {
				if dist[v] < 0 || dist[v] > dist[u]+1 {
					dist[v] = dist[u] + 1
					changed = true
				}
			}
		}
	}
	return dist
}

func TestBFSHopLimits(t *testing.T) {
	// 0→1→2→3→4, 0→5, 5→3, 6 isolated, 4→4.
	g := fromArcs(7, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {5, 3}, {4, 4}})
	cases := []struct {
		name    string
		seeds   []uint32
		maxHops int
		depth   map[uint32]int
	}{
		{"seed only", []uint32{0}, 0, map[uint32]int{0: 0}},
		{"one hop", []uint32{0}, 1, map[uint32]int{0: 0, 1: 1, 5: 1}},
		{"two hops, shortcut", []uint32{0}, 2, map[uint32]int{0: 0, 1: 1, 5: 1, 2: 2, 3: 2}},
		{"unlimited", []uint32{0}, -1, map[uint32]int{0: 0, 1: 1, 5: 1, 2: 2, 3: 2, 4: 3}},
		{"limit beyond reach", []uint32{0}, 100, map[uint32]int{0: 0, 1: 1, 5: 1, 2: 2, 3: 2, 4: 3}},
		{"two seeds, duplicate", []uint32{2, 5, 2}, 1, map[uint32]int{2: 0, 5: 0, 3: 1}},
		{"isolated seed", []uint32{6}, -1, map[uint32]int{6: 0}},
		{"no seeds", nil, -1, map[uint32]int{}},
	}
	b := NewBFS(g)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := map[uint32]int{}
			last := 0
			n := b.Run(c.seeds, c.maxHops, func(v uint32, d int) bool {
				if _, dup := got[v]; dup {
					t.Fatalf("node %d visited twice", v)
				}
				if d < last {
					t.Fatalf("depth decreased from %d to %d", last, d)
				}
				last = d
				got[v] = d
				return true
			})
			if n != len(c.depth) || len(got) != len(c.depth) {
				t.Fatalf("reached %d (visited %v), want %v", n, got, c.depth)
			}
			for v, d := range c.depth {
				if gd, ok := got[v]; !ok || gd != d {
					t.Fatalf("visited %v, want %v", got, c.depth)
				}
				if !b.Seen(v) {
					t.Fatalf("Seen(%d) = false", v)
				}
			}
			if len(b.Reached()) != n {
				t.Fatalf("Reached has %d nodes, want %d", len(b.Reached()), n)
			}
			r := Reachable(g, c.seeds, c.maxHops)
			for v := range r {
				if _, ok := c.depth[uint32(v)]; r[v] != ok {
					t.Fatalf("Reachable[%d] = %v", v, r[v])
				}
			}
		})
	}
}

func TestBFSVisitStopsExpansion(t *testing.T) {
	// 0→1→2, 0→3→4: refusing to expand 1 hides 2 but not 4.
	g := fromArcs(5, [][2]uint32{{0, 1}, {1, 2}, {0, 3}, {3, 4}})
	var order []uint32
	n := NewBFS(g).Run([]uint32{0}, -1, func(v uint32, _ int) bool {
		order = append(order, v)
		return v != 1
	})
	if n != 4 || !slices.Equal(order, []uint32{0, 1, 3, 4}) {
		t.Fatalf("reached %d in order %v, want 4 in order [0 1 3 4]", n, order)
	}
}

func TestBFSReuseMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	g := randomGraph(rng, 300, 450)
	b := NewBFS(g)
	for i := 0; i < 200; i++ {
		seeds := []uint32{uint32(rng.IntN(300)), uint32(rng.IntN(300))}
		hops := rng.IntN(6) - 1
		dist := naiveDistances(g, seeds)
		n := b.Run(seeds, hops, func(v uint32, d int) bool {
			if dist[v] != d {
				t.Fatalf("run %d: depth(%d) = %d, want %d", i, v, d, dist[v])
			}
			return true
		})
		want := 0
		for _, d := range dist {
			if d >= 0 && (hops < 0 || d <= hops) {
				want++
			}
		}
		if n != want {
			t.Fatalf("run %d (seeds %v, hops %d): reached %d, want %d", i, seeds, hops, n, want)
		}
	}
}

func TestBFSGenerationWrap(t *testing.T) {
	g := fromArcs(3, [][2]uint32{{0, 1}})
	b := NewBFS(g)
	b.gen = ^uint32(0) - 1
	for i, want := range []int{2, 1, 2, 1} { // crosses the wrap to 0
		seed := uint32(i % 2 * 2) // 0, 2, 0, 2
		if n := b.Run([]uint32{seed}, -1, nil); n != want {
			t.Fatalf("run %d (gen %d): reached %d, want %d", i, b.gen, n, want)
		}
	}
	if b.Seen(1) {
		t.Fatal("stale mark: node 1 seen after a run from 2")
	}
}
