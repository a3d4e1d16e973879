package seeds

import (
	"context"
	"fmt"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

// prefix returns the subgraph induced by nodes 0..n-1 of g (a crawl-order
// prefix of a LAW graph keeps its locality), for benchmarks at several sizes.
func prefix(g *graph.CSR, n int) *graph.CSR {
	if n >= g.N() {
		return g
	}
	b := graph.NewBuilder(n, false)
	for v := 0; v < n; v++ {
		for _, u := range g.Out(uint32(v)) {
			if int(u) < n {
				b.Add(uint32(v), u)
			}
		}
	}
	return b.Build()
}

type benchGraph struct {
	name string
	g    *graph.CSR
}

func benchGraphs(b *testing.B) []benchGraph {
	cnr := dataset(b, "cnr-2000")
	return []benchGraph{
		{"epa", dataset(b, "epa")},
		{"hollins", dataset(b, "hollins")},
		{"cnr-2000-32k", prefix(cnr, 32_000)},
		{"cnr-2000-100k", prefix(cnr, 100_000)},
		{"cnr-2000", cnr},
	}
}

func benchSelect(b *testing.B, g *graph.CSR, o Options) {
	in := Input{G: g, Fetched: FetchedByOutDegree(g)}
	b.ReportAllocs()
	var r *Result
	for b.Loop() {
		var err error
		if r, err = Select(context.Background(), in, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(r.Seeds)), "seeds")
	b.ReportMetric(float64(r.Pages), "pages")
}

// BenchmarkMaxWeight: Zheng et al.'s Maximal Depth-d Weight First with lazy
// evaluation; the target is ≤ 30 s for d = 2, k = 100 on cnr-2000.
func BenchmarkMaxWeight(b *testing.B) {
	for _, bg := range benchGraphs(b) {
		for _, c := range []struct{ d, k int }{{2, 10}, {2, 100}, {3, 10}} {
			b.Run(fmt.Sprintf("%s/d=%d/k=%d", bg.name, c.d, c.k), func(b *testing.B) {
				benchSelect(b, bg.g, Options{Algo: AlgoMaxWeight, K: c.k, Depth: c.d, Hops: 5})
			})
		}
	}
}

// BenchmarkHITSCore: Daneshpajouh et al.'s cores, 60 HITS iterations per
// core; the target is ≤ 30 s for k = 10 on cnr-2000.
func BenchmarkHITSCore(b *testing.B) {
	for _, bg := range benchGraphs(b) {
		for _, k := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/k=%d", bg.name, k), func(b *testing.B) {
				benchSelect(b, bg.g, Options{Algo: AlgoHITSCore, K: k})
			})
		}
	}
}

// BenchmarkSelectors runs every selector at k = 10 on one graph size each.
func BenchmarkSelectors(b *testing.B) {
	for _, bg := range benchGraphs(b) {
		if bg.name != "hollins" && bg.name != "cnr-2000" {
			continue
		}
		for _, a := range Algos() {
			b.Run(bg.name+"/"+a, func(b *testing.B) {
				benchSelect(b, bg.g, Options{Algo: a, K: 10})
			})
		}
	}
}
