package seeds

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

// fromArcs builds a graph of n nodes from [src, dst] pairs.
func fromArcs(n int, arcs [][2]uint32) *graph.CSR {
	b := graph.NewBuilder(n, false)
	for _, a := range arcs {
		b.Add(a[0], a[1])
	}
	return b.Build()
}

// randomGraph returns a graph with n nodes and m distinct random arcs
// without self-loops.
func randomGraph(rng *rand.Rand, n, m int) *graph.CSR {
	seen := make(map[[2]uint32]bool)
	b := graph.NewBuilder(n, true)
	for len(seen) < m {
		a := [2]uint32{uint32(rng.IntN(n)), uint32(rng.IntN(n))}
		if a[0] == a[1] || seen[a] {
			continue
		}
		seen[a] = true
		b.Add(a[0], a[1])
	}
	return b.Build()
}

// withHosts attaches URLs http://hH/pV so that node v is on host hostOf(v).
func withHosts(g *graph.CSR, hostOf func(v int) int) *graph.CSR {
	urls := make([]string, g.N())
	for v := range urls {
		urls[v] = "http://h" + strconv.Itoa(hostOf(v)) + ".test/p" + strconv.Itoa(v)
	}
	g.SetURLs(urls)
	return g
}

// coverValue is the reference objective: the total value of the pages within
// h hops of the seeds, by a plain BFS.
func coverValue(g *graph.CSR, val []float64, seeds []uint32, h int) float64 {
	var sum float64
	graph.NewBFS(g).Run(seeds, h, func(v uint32, _ int) bool {
		sum += val[v]
		return true
	})
	return sum
}

// bruteForceOpt returns the best coverage value over all k-subsets.
func bruteForceOpt(g *graph.CSR, val []float64, k, h int) float64 {
	n := g.N()
	best := 0.0
	idx := make([]uint32, k)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == k {
			if c := coverValue(g, val, idx, h); c > best {
				best = c
			}
			return
		}
		for v := start; v < n; v++ {
			idx[depth] = uint32(v)
			rec(v+1, depth+1)
		}
	}
	rec(0, 0)
	return best
}

// eagerGreedy is the textbook greedy the lazy one must equal: every round it
// recomputes every candidate's depth-d weight under the current values.
func eagerGreedy(g *graph.CSR, val0 []float64, k, d, h int) []uint32 {
	val := append([]float64(nil), val0...)
	chosen := make([]bool, g.N())
	bfs := graph.NewBFS(g)
	var out []uint32
	for len(out) < k {
		best, bw := -1, 0.0
		for v := 0; v < g.N(); v++ {
			if chosen[v] {
				continue
			}
			w := 0.0
			bfs.Run([]uint32{uint32(v)}, d, func(u uint32, _ int) bool { w += val[u]; return true })
			if best < 0 || w > bw {
				best, bw = v, w
			}
		}
		if best < 0 || bw <= 0 {
			break
		}
		chosen[best] = true
		out = append(out, uint32(best))
		bfs.Run([]uint32{uint32(best)}, h, func(u uint32, _ int) bool { val[u] = 0; return true })
	}
	return out
}

func mustSelect(t *testing.T, in Input, o Options) *Result {
	t.Helper()
	r, err := Select(context.Background(), in, o)
	if err != nil {
		t.Fatalf("Select(%s, k=%d): %v", o.Algo, o.K, err)
	}
	return r
}

func sharedDataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "shared", "data")
}

var datasets sync.Map // name → *graph.CSR, read once per test binary

// dataset loads a ../shared/data graph; a missing file fails the test.
func dataset(tb testing.TB, name string) *graph.CSR {
	tb.Helper()
	if g, ok := datasets.Load(name); ok {
		return g.(*graph.CSR)
	}
	g, err := graph.ReadDataset(filepath.Join(sharedDataDir(), name))
	if err != nil {
		tb.Fatalf("dataset %s is required (../shared/data beside the repository): %v", name, err)
	}
	datasets.Store(name, g)
	return g
}
