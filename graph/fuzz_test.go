package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

func gzBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// FuzzReadDataset: the dataset reader never panics on arbitrary arcs and URL
// text, every error wraps ErrFormat, every graph it returns is valid, and
// its node count is bounded by what the data holds (so a fuzzed header can
// never make it allocate more than the input justifies).
func FuzzReadDataset(f *testing.F) {
	f.Add([]byte(header+"0\t1\n1\t1\n2\t3\n"), []byte("a\nb\nc\nd\n"))
	f.Add([]byte("# a\n# b\n# nodes: 2000000000 arcs: 3\n# c\n0\t1\n"), []byte(""))
	f.Add([]byte("# a\n# b\n# nodes: 6 arcs: 3\n# c\n5\t1\n1\t1\r\n\n2\t3"), []byte("u\n\n\n\n\nv"))
	f.Fuzz(func(t *testing.T, arcs, urls []byte) {
		g, err := ReadArcs(bytes.NewReader(gzBytes(arcs)), "x")
		if !readOK(t, g, err) {
			return
		}
		if g.N() > 2*g.M()+MaxIsolatedNodes {
			t.Fatalf("%d nodes from %d arcs", g.N(), g.M())
		}
		u, err := ReadURLs(bytes.NewReader(gzBytes(urls)), "x.urls", g.N())
		if !readOK(t, nil, err) {
			return
		}
		if len(u) != g.N() {
			t.Fatalf("%d URLs for %d nodes", len(u), g.N())
		}
	})
}

// FuzzSNAP: the edge-list reader never panics, errors wrap ErrFormat, and a
// graph it returns is valid, labelled, has one line per arc and survives a
// WriteEdgeList round trip with the same number of nodes and arcs.
func FuzzSNAP(f *testing.F) {
	f.Add([]byte("# Nodes: 3 Edges: 3\n0\t11\n0 7\n11\t0\n"))
	f.Add([]byte("% c\n18446744073709551615 1 0.5\r\n\n1 1"))
	f.Add([]byte("# Nodes: 2000000000\n1 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadSNAP(bytes.NewReader(data), "x")
		if !readOK(t, g, err) {
			return
		}
		if len(g.Labels) != g.N() || g.N() > 2*g.M() {
			t.Fatalf("%d labels, %d nodes, %d arcs", len(g.Labels), g.N(), g.M())
		}
		var out bytes.Buffer
		if err := WriteEdgeList(&out, g); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSNAP(&out, "out")
		if err != nil || back.N() != g.N() || back.M() != g.M() {
			t.Fatalf("round trip: %v, %d/%d nodes, %d/%d arcs", err, back.N(), g.N(), back.M(), g.M())
		}
	})
}

// FuzzBVGraph: the BVGraph decoder never panics on arbitrary streams,
// offsets and parameters, errors wrap ErrFormat, and any graph it returns
// is valid with sorted, distinct successors and as many arcs as declared.
func FuzzBVGraph(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 5, 40} {
		g := localGraph(rng, n)
		e := encodeBV(g, defaultBVTestParams)
		f.Add(e.graph, e.offsets, uint32(n), uint64(g.M()), uint8(7), uint8(4), uint8(3), uint8(0))
		e = encodeBV(g, bvTestParams{window: 2, minInterval: 2, zetaK: 2, outdegree: codeDelta, reference: codeGamma,
			blockCount: codeUnary, block: codeDelta, residual: codeNibble, offset: codeDelta})
		f.Add(e.graph, e.offsets, uint32(n), uint64(g.M()), uint8(2), uint8(2), uint8(2), uint8(1))
	}
	f.Fuzz(func(t *testing.T, graph, offsets []byte, nodes uint32, arcs uint64, window, minInterval, zetaK, codes uint8) {
		p := &bvParams{nodes: uint64(nodes), arcs: arcs, window: uint64(window), minInterval: uint64(minInterval),
			zetaK: uint(zetaK%30) + 1, outdegree: codeGamma, reference: codeUnary, blockCount: codeGamma, block: codeGamma,
			residual: codeZeta, offset: codeGamma, graphBits: uint64(len(graph)) * 8,
			graphName: "g.graph", offsetsName: "g.offsets", propertiesName: "g.properties"}
		if codes%2 == 1 {
			p.outdegree, p.reference, p.blockCount, p.block, p.residual, p.offset = codeDelta, codeGamma, codeUnary, codeDelta, codeNibble, codeDelta
		}
		var off io.Reader
		if len(offsets) > 0 {
			off = bytes.NewReader(offsets)
		}
		g, err := decodeBVGraph(p, bytes.NewReader(graph), off)
		if !readOK(t, g, err) {
			return
		}
		if uint64(g.N()) != p.nodes || uint64(g.M()) != arcs {
			t.Fatalf("%d nodes, %d arcs; declared %d, %d", g.N(), g.M(), p.nodes, arcs)
		}
		for v := 0; v < g.N(); v++ {
			out := g.Out(uint32(v))
			for i := 1; i < len(out); i++ {
				if out[i] <= out[i-1] {
					t.Fatalf("node %d: successors %v not increasing", v, out)
				}
			}
		}
	})
}

// readOK fails t unless a reader's error wraps ErrFormat or, without an
// error, the graph g it returned (if any) is valid; it reports whether there
// was no error, so the caller goes on checking what was read.
func readOK(t *testing.T, g *CSR, err error) bool {
	t.Helper()
	if err != nil {
		if !errors.Is(err, ErrFormat) {
			t.Fatalf("error %v does not wrap ErrFormat", err)
		}
		return false
	}
	if g != nil {
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	return true
}
