package graph

import (
	"bytes"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// cnrOnce loads cnr-2000 (325,557 nodes, 3,216,152 arcs) once for every test
// and benchmark that needs it.
var cnrOnce struct {
	sync.Once
	g   *CSR
	err error
}

// loadCNR returns the shared cnr-2000 graph; a missing or unreadable file is
// a failure, not a skip. Callers must not modify the graph.
func loadCNR(tb testing.TB) *CSR {
	tb.Helper()
	cnrOnce.Do(func() { cnrOnce.g, cnrOnce.err = ReadDataset(sharedData(tb, "cnr-2000")) })
	if cnrOnce.err != nil {
		tb.Fatalf("cnr-2000 dataset (see ../shared/data/README.md): %v", cnrOnce.err)
	}
	return cnrOnce.g
}

// benchGraph is one input size for the benchmarks.
type benchGraph struct {
	name string
	load func(testing.TB) *CSR
}

func datasetLoader(name string) func(testing.TB) *CSR {
	return func(tb testing.TB) *CSR {
		tb.Helper()
		g, err := ReadDataset(sharedData(tb, name))
		if err != nil {
			tb.Fatalf("%s dataset (see ../shared/data/README.md): %v", name, err)
		}
		return g
	}
}

// benchGraphs are the sizes every algorithm is measured at: the two small
// shared datasets, a uniform random graph (no locality, so the worst case for
// caches) and cnr-2000, the size the targets are stated for.
func benchGraphs() []benchGraph {
	return []benchGraph{
		{"epa", datasetLoader("epa")},
		{"hollins", datasetLoader("hollins")},
		{"random-100k-1M", func(testing.TB) *CSR {
			return randomGraph(rand.New(rand.NewPCG(7, 7)), 100_000, 1_000_000)
		}},
		{"cnr-2000", loadCNR},
	}
}

// csrBytes is the memory held by g's structure arrays (capacities, not
// lengths): offsets, targets and the per-node host index.
func csrBytes(g *CSR) int {
	return 8*cap(g.Offsets) + 4*cap(g.Targets) + 4*cap(g.Hosts)
}

// urlBytes is the memory held by URL and host name strings and headers.
func urlBytes(g *CSR) int {
	b := 16*cap(g.URLs) + 16*cap(g.HostNames)
	for _, u := range g.URLs {
		b += len(u)
	}
	for _, h := range g.HostNames {
		b += len(h)
	}
	return b
}

func BenchmarkReadDataset(b *testing.B) {
	for _, name := range []string{"epa", "hollins", "cnr-2000"} {
		b.Run(name, func(b *testing.B) {
			path := sharedData(b, name)
			var g *CSR
			var before, after runtime.MemStats
			for i := 0; i < b.N; i++ {
				if i == b.N-1 {
					runtime.GC()
					runtime.ReadMemStats(&before)
				}
				var err error
				if g, err = ReadDataset(path); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.GC()
			runtime.ReadMemStats(&after)
			m, n := float64(g.M()), float64(g.N())
			b.ReportMetric(float64(csrBytes(g))/m, "csr-bytes/arc")
			// The memory budget a loaded graph is held to: 10 bytes per arc
			// (a 4-byte target plus slack for the offsets) and 40 per node.
			b.ReportMetric(100*float64(csrBytes(g))/(10*m+40*n), "%budget")
			b.ReportMetric(float64(urlBytes(g))/n, "url-bytes/node")
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/m, "heap-bytes/arc")
			b.ReportMetric(m/b.Elapsed().Seconds()*float64(b.N), "arcs/s")
			runtime.KeepAlive(g)
		})
	}
}

// benchSteps runs a sub-benchmark per bench graph: setup prepares what
// the step needs from the loaded graph, untimed, and returns the step,
// timed over b.N calls, and the arcs one step reads (reported as arcs/s
// when not 0).
func benchSteps(b *testing.B, setup func(g *CSR) (step func(), arcs int)) {
	for _, bg := range benchGraphs() {
		b.Run(bg.name, func(b *testing.B) {
			step, arcs := setup(bg.load(b))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				step()
			}
			if arcs != 0 {
				b.ReportMetric(float64(arcs)*float64(b.N)/b.Elapsed().Seconds(), "arcs/s")
			}
		})
	}
}

func BenchmarkPageRankIteration(b *testing.B) {
	benchSteps(b, func(g *CSR) (func(), int) {
		p := newPageRanker(g, PageRankOptions{}.withDefaults())
		return func() { p.step() }, g.M()
	})
}

func BenchmarkPageRank(b *testing.B) {
	for _, bg := range benchGraphs() {
		b.Run(bg.name, func(b *testing.B) {
			g := bg.load(b)
			b.ResetTimer()
			var st IterStats
			for i := 0; i < b.N; i++ {
				_, st = PageRank(g, PageRankOptions{})
			}
			b.ReportMetric(float64(st.Iterations), "iterations")
		})
	}
}

func BenchmarkHITSIteration(b *testing.B) {
	benchSteps(b, func(g *CSR) (func(), int) {
		h := newHITSRunner(g, false)
		return func() { h.step() }, 2 * g.M()
	})
}

func BenchmarkHITS(b *testing.B) {
	benchSteps(b, func(g *CSR) (func(), int) { return func() { HITS(g, HITSOptions{}) }, 0 })
}

func BenchmarkSCC(b *testing.B) {
	benchSteps(b, func(g *CSR) (func(), int) { return func() { SCC(g) }, 0 })
}

func BenchmarkCondense(b *testing.B) {
	benchSteps(b, func(g *CSR) (func(), int) {
		comp, k := SCC(g)
		return func() { Condense(g, comp, k) }, 0
	})
}

func BenchmarkTranspose(b *testing.B) {
	benchSteps(b, func(g *CSR) (func(), int) { return func() { g.Transpose() }, 0 })
}

// BenchmarkBFS measures a full reachability search from node 0 and 2-hop
// searches from spread-out single nodes (mean nodes reached reported), which
// cost O(reached), not O(N), on a reused BFS.
func BenchmarkBFS(b *testing.B) {
	for _, bg := range benchGraphs() {
		g := bg.load(b)
		bfs := NewBFS(g)
		b.Run(bg.name+"/all", func(b *testing.B) {
			reached := 0
			for i := 0; i < b.N; i++ {
				reached = bfs.Run([]uint32{0}, -1, nil)
			}
			b.ReportMetric(float64(reached), "nodes")
		})
		b.Run(bg.name+"/2hops", func(b *testing.B) {
			reached := 0
			for i := 0; i < b.N; i++ {
				reached += bfs.Run([]uint32{uint32(i * 7919 % g.N())}, 2, nil)
			}
			b.ReportMetric(float64(reached)/float64(b.N), "nodes")
		})
	}
}

// BenchmarkBVGraphDecode decodes BVGraph streams held in memory (so the
// figure is the decoder's, not the disk's): cnr-2000 as LAW distributes it,
// and the subgraph induced by its first 32,768 nodes, re-encoded with the
// default parameters by the test encoder. Metrics: arcs/s, the compressed
// size (bits/arc) and the bytes allocated per decoded arc (alloc-B/arc,
// the CSR arrays themselves included).
func BenchmarkBVGraphDecode(b *testing.B) {
	base := sharedData(b, "bvgraph/cnr-2000")
	full, err := ReadBVGraph(base)
	if err != nil {
		b.Fatal(err)
	}
	graphBytes, err := os.ReadFile(base + ".graph")
	if err != nil {
		b.Fatal(err)
	}
	props, err := readBVProperties(base + ".properties")
	if err != nil {
		b.Fatal(err)
	}
	const k = 1 << 15
	prefix := full.Filter(func(s, d uint32) bool { return s < k && d < k })
	prefix = &CSR{Offsets: prefix.Offsets[:k+1], Targets: prefix.Targets}
	enc := encodeBV(prefix, defaultBVTestParams)
	prefixProps, err := parseBVProperties([]byte(enc.properties), "prefix.properties")
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name  string
		p     *bvParams
		graph []byte
		arcs  int
	}{
		{"cnr-2000", props, graphBytes, full.M()},
		{"cnr-2000-prefix-32k", prefixProps, enc.graph, prefix.M()},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			p := *c.p
			p.graphBits, p.graphName = uint64(len(c.graph))*8, c.name
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g, err := decodeBVGraph(&p, bytes.NewReader(c.graph), nil)
				if err != nil || g.M() != c.arcs {
					b.Fatalf("%v, %d arcs", err, g.M())
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			m := float64(c.arcs)
			b.ReportMetric(m*float64(b.N)/b.Elapsed().Seconds(), "arcs/s")
			b.ReportMetric(float64(len(c.graph))*8/m, "bits/arc")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/m, "alloc-B/arc")
		})
	}
}

// BenchmarkReadSNAP parses SNAP edge lists held in memory: hollins and
// cnr-2000 written with sparse ids (v → 7919·v+3, so every id goes through
// the remapping table). Metrics: arcs/s and bytes allocated per arc.
func BenchmarkReadSNAP(b *testing.B) {
	for _, name := range []string{"hollins", "cnr-2000"} {
		b.Run(name, func(b *testing.B) {
			g, err := ReadDataset(sharedData(b, name))
			if err != nil {
				b.Fatal(err)
			}
			var text bytes.Buffer
			buf := make([]byte, 0, 48)
			for v := 0; v < g.N(); v++ {
				for _, w := range g.Out(uint32(v)) {
					buf = strconv.AppendUint(buf[:0], 7919*uint64(v)+3, 10)
					buf = append(buf, '\t')
					buf = strconv.AppendUint(buf, 7919*uint64(w)+3, 10)
					buf = append(buf, '\n')
					text.Write(buf)
				}
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, err := ReadSNAP(bytes.NewReader(text.Bytes()), name)
				if err != nil || s.M() != g.M() {
					b.Fatalf("%v, %d arcs", err, s.M())
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			m := float64(g.M())
			b.ReportMetric(m*float64(b.N)/b.Elapsed().Seconds(), "arcs/s")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/m, "alloc-B/arc")
		})
	}
}
