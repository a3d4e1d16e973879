package graph

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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

// localGraph returns a random graph with sorted, distinct lists whose
// successors cluster near the node and repeat the previous lists, the shape
// that makes BVGraph use references, intervals and residuals together.
func localGraph(rng *rand.Rand, n int) *CSR {
	b := NewBuilder(n, true)
	var prev []uint32
	for x := 0; x < n; x++ {
		set := make(map[uint32]bool)
		for _, v := range prev {
			if rng.IntN(4) > 0 {
				set[v] = true
			}
		}
		if rng.IntN(3) == 0 {
			start := rng.IntN(n)
			for k := rng.IntN(12); k > 0 && start < n; k-- {
				set[uint32(start)] = true
				start++
			}
		}
		for k := rng.IntN(6); k > 0; k-- {
			set[uint32(max(0, min(n-1, x+rng.IntN(40)-20)))] = true
		}
		if rng.IntN(10) == 0 {
			set = nil // dangling
		}
		prev = prev[:0]
		for v := range set {
			prev = append(prev, v)
			b.Add(uint32(x), v)
		}
	}
	return b.Build()
}

func writeBV(t testing.TB, dir, name string, e bvEncoding) string {
	t.Helper()
	base := filepath.Join(dir, name)
	for ext, data := range map[string][]byte{".graph": e.graph, ".offsets": e.offsets, ".properties": []byte(e.properties)} {
		if err := os.WriteFile(base+ext, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

// TestBVGraphParameters encodes random graphs with the test encoder under
// every parameter and code combination the reader claims, and reads them
// back through files.
func TestBVGraphParameters(t *testing.T) {
	withFlags := func(f func(*bvTestParams)) bvTestParams {
		p := defaultBVTestParams
		f(&p)
		return p
	}
	cases := []struct {
		name string
		p    bvTestParams
	}{
		{"defaults", defaultBVTestParams},
		{"no references", withFlags(func(p *bvTestParams) { p.window = 0 })},
		{"no intervals", withFlags(func(p *bvTestParams) { p.minInterval = 0 })},
		{"window 1, intervals of 2", withFlags(func(p *bvTestParams) { p.window, p.minInterval = 1, 2 })},
		{"zeta 1", withFlags(func(p *bvTestParams) { p.zetaK = 1 })},
		{"zeta 5", withFlags(func(p *bvTestParams) { p.zetaK = 5 })},
		{"delta everywhere", withFlags(func(p *bvTestParams) {
			p.outdegree, p.reference, p.blockCount, p.block, p.residual, p.offset = codeDelta, codeDelta, codeDelta, codeDelta, codeDelta, codeDelta
			p.flags = "OUTDEGREES_DELTA | REFERENCES_DELTA | BLOCK_COUNT_DELTA | BLOCKS_DELTA | RESIDUALS_DELTA | OFFSETS_DELTA"
		})},
		{"gamma residuals, unary blocks", withFlags(func(p *bvTestParams) {
			p.residual, p.blockCount, p.block, p.reference = codeGamma, codeUnary, codeUnary, codeGamma
			p.flags = "RESIDUALS_GAMMA|BLOCK_COUNT_UNARY|BLOCKS_UNARY|REFERENCES_GAMMA"
		})},
		{"nibble residuals", withFlags(func(p *bvTestParams) { p.residual, p.flags = codeNibble, "RESIDUALS_NIBBLE" })},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, n := range []int{1, 2, 17, 300, 2000} {
				g := localGraph(rng, n)
				base := writeBV(t, dir, fmt.Sprintf("g%d", i), encodeBV(g, c.p))
				got, err := ReadBVGraph(base)
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				sameGraph(t, got, g)
			}
		})
	}
	// The offsets file is optional.
	g := localGraph(rng, 100)
	base := writeBV(t, dir, "nooffsets", encodeBV(g, defaultBVTestParams))
	os.Remove(base + ".offsets")
	got, err := ReadBVGraph(base)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, g)
}

// TestBVGraphMalformed: lying properties, damaged streams and unsupported
// variants give errors naming the file and the line, node or bit, and
// nothing is sized from a count the data does not support.
func TestBVGraphMalformed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := localGraph(rng, 200)
	good := encodeBV(g, defaultBVTestParams)
	prop := func(old, new string) func(*bvEncoding) {
		return func(e *bvEncoding) { e.properties = strings.Replace(e.properties, old, new, 1) }
	}
	cases := []struct {
		name   string
		change func(*bvEncoding)
		want   string
	}{
		{"nodes beyond the file's bits", prop("nodes=200", "nodes=2000000000"), "b.properties: nodes=2000000000, but "},
		{"arcs far beyond the file", prop(fmt.Sprintf("arcs=%d", g.M()), "arcs=4000000000000"), "b.properties: arcs=4000000000000 in a"},
		{"arcs beyond nodes squared", prop(fmt.Sprintf("arcs=%d", g.M()), "arcs=40001"), "exceeds nodes²=40000"},
		{"one arc too many declared", prop(fmt.Sprintf("arcs=%d", g.M()), fmt.Sprintf("arcs=%d", g.M()+1)), fmt.Sprintf("b.properties: arcs=%d, but ", g.M()+1)},
		{"one arc too few declared", prop(fmt.Sprintf("arcs=%d", g.M()), fmt.Sprintf("arcs=%d", g.M()-1)), "takes the arcs past the"},
		{"fewer nodes declared", prop("nodes=200", "nodes=150"), "b.graph: node"},
		{"more nodes declared", prop("nodes=200", "nodes=260"), "b.graph: node 200 (list at bit"},
		{"no nodes", prop("nodes=200\n", ""), "b.properties: no \"nodes\" property"},
		{"negative nodes", prop("nodes=200", "nodes=-1"), "b.properties:4: nodes: want an integer in 0..4294967295, got \"-1\""},
		{"nodes beyond 2^32", prop("nodes=200", "nodes=4294967296"), "b.properties:4: nodes: want an integer"},
		{"overflowing arcs", prop(fmt.Sprintf("arcs=%d", g.M()), "arcs=99999999999999999999999"), "b.properties:5: arcs: want an integer"},
		{"version 1", prop("version=0", "version=1"), "b.properties:3: version: format version 1 is not supported"},
		{"little endian", prop("version=0", "version=0\nendianness=little"), "b.properties:4: endianness: \"little\" bit order is not supported"},
		{"golomb residuals", prop("compressionflags=", "compressionflags=RESIDUALS_GOLOMB"), "b.properties:10: compressionflags: \"RESIDUALS_GOLOMB\": code GOLOMB is not supported"},
		{"unknown flag", prop("compressionflags=", "compressionflags=WEIRD_GAMMA"), "unknown flag \"WEIRD_GAMMA\""},
		{"not a BVGraph", prop("webgraph.BVGraph", "webgraph.EFGraph"), "b.properties:2: graphclass: \"it.unimi.dsi.webgraph.EFGraph\" is not a BVGraph"},
		{"zetak 0", prop("zetak=3", "zetak=0"), "zetak: must be at least 1"},
		{"truncated graph", func(e *bvEncoding) { e.graph = e.graph[:len(e.graph)/2] }, "b.graph: node"},
		{"trailing data", func(e *bvEncoding) { e.graph = append(e.graph, make([]byte, 9)...) }, "bits left after the last of the 200 nodes"},
		{"damaged offsets", func(e *bvEncoding) { e.offsets[len(e.offsets)/2] ^= 0x55 }, "b.offsets:"},
		{"damaged stream", func(e *bvEncoding) {
			for i := 10; i < len(e.graph); i += 7 {
				e.graph[i] ^= 0xa5
			}
		}, "b."},
		{"window smaller than the references", prop("windowsize=7", "windowsize=1"), "b."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := bvEncoding{graph: slices.Clone(good.graph), offsets: slices.Clone(good.offsets), properties: good.properties}
			c.change(&e)
			base := writeBV(t, t.TempDir(), "b", e)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := ReadBVGraph(base)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("no error; %d nodes, %d arcs", got.N(), got.M())
			}
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want ErrFormat containing %q", err, c.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
				t.Fatalf("allocated %d bytes for a %d-byte graph", alloc, len(e.graph))
			}
		})
	}
	if _, err := ReadBVGraph(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing files: %v", err)
	}
}

func TestJavaProperties(t *testing.T) {
	text := "# comment\n! also\n  nodes = 3\narcs:2\nwindowsize 0\nminintervallength=\\\n   0\ngraphclass=it.unimi.dsi.big.webgraph.BVGraph\nversion\t=\t0\r\nzetak=\\u0033\n"
	p, err := parseBVProperties([]byte(text), "p")
	if err != nil {
		t.Fatal(err)
	}
	if p.nodes != 3 || p.arcs != 2 || p.window != 0 || p.minInterval != 0 || p.zetaK != 3 {
		t.Fatalf("parsed %+v", p)
	}
}

// TestBVGraphURLs: a BASENAME.urls.gz beside the BVGraph gives it URLs and
// hosts; one with the wrong number of lines is an error naming it.
func TestBVGraphURLs(t *testing.T) {
	dir := t.TempDir()
	g := fromArcs(3, [][2]uint32{{0, 1}, {1, 2}, {2, 0}})
	base := writeBV(t, dir, "u", encodeBV(g, defaultBVTestParams))
	if err := os.WriteFile(base+".urls.gz", gz(t, "http://a.test/\nhttp://a.test/x\nhttp://b.test/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBVGraph(base)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, g)
	if !got.HasHosts() || len(got.HostNames) != 2 || got.URLs[2] != "http://b.test/" {
		t.Fatalf("URLs %v, hosts %v", got.URLs, got.HostNames)
	}
	if err := os.WriteFile(base+".urls.gz", gz(t, "http://a.test/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBVGraph(base); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "u.urls.gz: 1 URL lines for 3 nodes") {
		t.Fatalf("short URL list: %v", err)
	}
}
