package graph

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadSNAPAccepts(t *testing.T) {
	cases := []struct {
		name, text string
		n          int
		arcs       [][2]uint32
		labels     []uint64
	}{
		{"snap header and tabs", "# Directed graph (each unordered pair of nodes is saved once): web-Tiny.txt\n# Nodes: 3 Edges: 3\n# FromNodeId\tToNodeId\n0\t11\n0\t7\n11\t0\n",
			3, [][2]uint32{{0, 1}, {0, 2}, {1, 0}}, []uint64{0, 11, 7}},
		{"sparse large ids, spaces, percent comments", "% matrix-market style comment\n  900000000000   5 \n5\t\t 18446744073709551615\n\n18446744073709551615 900000000000\n",
			3, [][2]uint32{{0, 1}, {1, 2}, {2, 0}}, []uint64{900000000000, 5, 18446744073709551615}},
		{"CRLF, extra columns, no final newline", "1 2 0.5\r\n2 2 7 x\r\n3 1", 3, [][2]uint32{{0, 1}, {1, 1}, {2, 0}}, []uint64{1, 2, 3}},
		{"parallel arcs and file order per source", "4 3\n9 4\n4 9\n4 3\n", 3, [][2]uint32{{0, 1}, {0, 2}, {0, 1}, {2, 0}}, []uint64{4, 3, 9}},
		{"only comments", "# Nodes: 0 Edges: 0\n# nothing\n", 0, nil, []uint64{}},
		{"lower-case header, one count", "# nodes: 2\n7 8\n", 2, [][2]uint32{{0, 1}}, []uint64{7, 8}},
	}
	for _, c := range cases {
		for _, zip := range []bool{false, true} {
			name := c.name
			data := []byte(c.text)
			if zip {
				name += ", gzip"
				data = gz(t, c.text)
			}
			t.Run(name, func(t *testing.T) {
				g, err := ReadSNAP(bytes.NewReader(data), "x.txt")
				if err != nil {
					t.Fatal(err)
				}
				sameGraph(t, g, fromArcs(c.n, c.arcs))
				if !slices.Equal(g.Labels, c.labels) || g.Labels == nil {
					t.Fatalf("labels %v, want %v", g.Labels, c.labels)
				}
			})
		}
	}
}

func TestReadSNAPMalformed(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"one field", "1 2\n3\n", "x.txt:2: want two node ids separated by whitespace, got \"3\""},
		{"negative id", "1 -2\n", "x.txt:1: node ids must be non-negative decimal integers, got \"-2\""},
		{"word id", "# c\nfoo bar\n", "x.txt:2: node ids must be non-negative decimal integers, got \"foo\""},
		{"id glued to text", "12x 3\n", "x.txt:1: node ids must be non-negative decimal integers, got \"12x\""},
		{"id beyond 64 bits", "18446744073709551616 1\n", "x.txt:1: node id \"18446744073709551616\" does not fit in 64 bits"},
		{"too many nodes in header", "# Nodes: 2000000000 Edges: 2\n1 2\n2 3\n", "x.txt:1: header says 2000000000 nodes, but the edges name 3 distinct ids"},
		{"too few nodes in header", "# Nodes: 2 Edges: 2\n1 2\n2 3\n", "x.txt:1: header says 2 nodes, but the edges name 3"},
		{"edges mismatch", "#\n# Nodes: 3 Edges: 5000000000\n1 2\n2 3\n", "x.txt:2: header says 5000000000 edges, but the file has 2 edge lines"},
		{"negative header count", "# Nodes: -1\n", "x.txt:1: header count \"-1\" after \"Nodes:\""},
		{"overflowing header count", "# Edges: 99999999999999999999\n", "x.txt:1: header count"},
		{"two header lines", "# Nodes: 1\n# Edges: 1\n1 1\n", "x.txt:2: second \"Nodes:/Edges:\" header line (first on line 1)"},
		{"line too long", "1 " + strings.Repeat("2", 2<<20) + "\n", "x.txt:1: line too long"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := ReadSNAP(strings.NewReader(c.text), "x.txt")
			if err == nil {
				t.Fatalf("no error; graph %+v", g)
			}
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want ErrFormat containing %q", err, c.want)
			}
		})
	}
	if _, err := ReadSNAPFile(filepath.Join(t.TempDir(), "missing.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := ReadSNAP(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0}), "x.gz"); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "x.gz: bad gzip header") {
		t.Fatalf("bad gzip: %v", err)
	}
}

// labelledLists returns each node's targets in file order, keyed and
// valued by labels: the form that survives renumbering.
func labelledLists(g *CSR) map[uint64][]uint64 {
	out := make(map[uint64][]uint64)
	for v := 0; v < g.N(); v++ {
		for _, t := range g.Out(uint32(v)) {
			out[g.Labels[v]] = append(out[g.Labels[v]], g.Labels[t])
		}
	}
	return out
}

// TestSNAPRoundTrip reads random edge lists with sparse 64-bit ids, writes
// them with WriteEdgeList and reads them back: the arcs, in the file ids,
// are the same, in the same order per source.
func TestSNAPRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20; i++ {
		ids := make([]uint64, 1+rng.IntN(50))
		for k := range ids {
			ids[k] = rng.Uint64() >> rng.UintN(64)
		}
		var text strings.Builder
		text.WriteString("# random\n")
		for k := rng.IntN(200); k > 0; k-- {
			text.WriteString(u64(ids[rng.IntN(len(ids))]) + " " + u64(ids[rng.IntN(len(ids))]) + "\n")
		}
		g, err := ReadSNAP(strings.NewReader(text.String()), "in")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := WriteEdgeList(&out, g); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSNAP(&out, "out")
		if err != nil {
			t.Fatal(err)
		}
		want, got := labelledLists(g), labelledLists(back)
		if back.N() != g.N() || back.M() != g.M() || len(got) != len(want) {
			t.Fatalf("case %d: round trip changed the graph:\n%v\n%v", i, want, got)
		}
		for s, l := range want {
			if !slices.Equal(got[s], l) {
				t.Fatalf("case %d: node %d: targets %v, want %v", i, s, got[s], l)
			}
		}
	}
}

func u64(v uint64) string { return strconvU(v) }

// TestReadErrorsKeepTheCause: an I/O error inside a graph file is reported
// as malformed input at a position and still matches its cause.
func TestReadErrorsKeepTheCause(t *testing.T) {
	var text strings.Builder
	for i := 0; i < 50000; i++ {
		text.WriteString(strconvU(uint64(i)) + " " + strconvU(uint64(i*7%50000)) + "\n")
	}
	z := gz(t, text.String())
	_, err := ReadSNAP(bytes.NewReader(z[:len(z)/2]), "cut.gz")
	if !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "cut.gz:") {
		t.Fatalf("truncated gzip: %v", err)
	}
	_, err = ReadArcs(bytes.NewReader(truncatedGzip(t)), "cut.arcs.tsv.gz")
	if !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated arcs: %v", err)
	}
	e := encodeBV(localGraph(rand.New(rand.NewPCG(1, 2)), 50), defaultBVTestParams)
	p, perr := parseBVProperties([]byte(e.properties), "g.properties")
	if perr != nil {
		t.Fatal(perr)
	}
	p.graphBits, p.graphName = uint64(len(e.graph))*8, "g.graph"
	broken := errors.New("disk on fire")
	_, err = decodeBVGraph(p, io.MultiReader(bytes.NewReader(e.graph[:len(e.graph)/2]), iotest.ErrReader(broken)), nil)
	if !errors.Is(err, ErrFormat) || !errors.Is(err, broken) || !strings.Contains(err.Error(), "g.graph: node") {
		t.Fatalf("failing reader: %v", err)
	}
}
