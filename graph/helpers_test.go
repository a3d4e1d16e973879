package graph

import (
	"math/rand/v2"
	"strconv"
)

// randomGraph returns a graph with n nodes and m uniformly random arcs,
// self-loops and parallel arcs included.
func randomGraph(rng *rand.Rand, n, m int) *CSR {
	b := NewBuilder(n, false)
	for i := 0; i < m; i++ {
		b.Add(uint32(rng.IntN(n)), uint32(rng.IntN(n)))
	}
	return b.Build()
}

// fromArcs builds a graph of n nodes from [src, dst] pairs, keeping order.
func fromArcs(n int, arcs [][2]uint32) *CSR {
	b := NewBuilder(n, false)
	for _, a := range arcs {
		b.Add(a[0], a[1])
	}
	return b.Build()
}

func strconvU(v uint64) string { return strconv.FormatUint(v, 10) }
