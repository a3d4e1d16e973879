package main

import (
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

func sharedDataPath(name string) string {
	return filepath.Join("..", "..", "..", "shared", "data", name)
}

// TestGraphFormatsRankAlike ranks cnr-2000 from its dataset file and from
// the LAW BVGraph files, auto-detected and named explicitly: the rows must
// be byte-identical, since both hold the same arcs in the same order.
func TestGraphFormatsRankAlike(t *testing.T) {
	want := ""
	for _, args := range [][]string{
		{"--graph", sharedDataPath("cnr-2000")},
		{"--graph", sharedDataPath("bvgraph/cnr-2000")},
		{"--graph", sharedDataPath("bvgraph/cnr-2000.graph")},
		{"--graph", sharedDataPath("bvgraph/cnr-2000"), "--graph-format", "bvgraph"},
	} {
		// Ten iterations are enough to tell graphs apart and keep the test short.
		out := cmdOK(t, append([]string{"rank", "--algo", "pagerank", "--iterations", "10", "-q"}, args...)...)
		if want == "" {
			want = out
			if n := strings.Count(out, "\n"); n != 325557 {
				t.Fatalf("%d rows, want 325557", n)
			}
		} else if out != want {
			t.Fatalf("%v: ranks differ from the dataset's", args)
		}
	}
}

// TestGraphFormatSNAPRanks writes hollins as a gzipped SNAP edge list with
// sparse ids (node v becomes 1000003*v+7) and checks rank gives each node
// the score the dataset gives it (to rounding), found through its label.
func TestGraphFormatSNAPRanks(t *testing.T) {
	g, err := graph.ReadDataset(sharedDataPath("hollins"))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	text.WriteString("# Directed graph: hollins with sparse ids\n# Nodes: 6012 Edges: 23875\n")
	for v := 0; v < g.N(); v++ {
		for _, w := range g.Out(uint32(v)) {
			text.WriteString(strconv.Itoa(1000003*v+7) + " \t" + strconv.Itoa(1000003*int(w)+7) + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "hollins.txt.gz")
	writeGzFile(t, path, text.String())
	snap, err := graph.ReadSNAPFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scores := func(args ...string) []string {
		out := cmdOK(t, append([]string{"rank", "--algo", "pagerank", "-q"}, args...)...)
		var s []string
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			f := strings.Split(l, "\t")
			s = append(s, f[len(f)-1])
		}
		return s
	}
	want := scores("--graph", sharedDataPath("hollins"))
	for _, args := range [][]string{{"--graph", path}, {"--graph", path, "--graph-format", "snap"}} {
		got := scores(args...)
		if len(got) != len(want) {
			t.Fatalf("%d rows, want %d", len(got), len(want))
		}
		for i, s := range got {
			v := (snap.Labels[i] - 7) / 1000003
			// Renumbering changes the summation order, so allow rounding.
			a, _ := strconv.ParseFloat(s, 64)
			b, _ := strconv.ParseFloat(want[v], 64)
			if math.Abs(a-b) > 1e-12*math.Max(b, 1e-300) || a == 0 {
				t.Fatalf("node %d (label %d = hollins node %d): score %s, want %s", i, snap.Labels[i], v, s, want[v])
			}
		}
	}
}

// TestGraphFormatFlagEveryCommand: rank, seeds, eval seeds and sim all take
// --graph-format and read a SNAP file and a BVGraph with it.
func TestGraphFormatFlagEveryCommand(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join(dir, "toy.edges")
	writeFile(t, snap, "10 20\n10 40\n50 20\n50 30\n50 40\n30 30\n")
	for _, args := range [][]string{
		{"rank", "--algo", "hits", "-q"},
		{"seeds", "--algo", "pagerank", "--k", "2"},
		{"eval", "seeds", "--algos", "pagerank,outdegree", "--k", "2", "--trials", "2", "--samples", "2"},
		{"sim", "--schedulers", "bfs", "--seeds", "top-pagerank:1", "-q"},
	} {
		for _, src := range [][]string{{"--graph", snap, "--graph-format", "snap"}, {"--graph", snap}} {
			code, _, stderr := cmdRun(append(args, src...)...)
			if code != 0 {
				t.Errorf("%v %v: exit %d: %s", args, src, code, stderr)
			}
		}
		checkExit(t, append(args, "--graph", snap, "--graph-format", "graphml"), 2, "--graph-format: graph: unknown graph format: \"graphml\"")
		checkExit(t, append(args, "--graph", snap, "--graph-format", "bvgraph"), 1, "toy.edges.properties")
	}
}

// TestGraphLyingHeaderCommands: a 100-byte dataset whose header claims two
// billion nodes made rank and sim allocate about 23 GB; now each command
// fails at once, naming the file and line, having allocated little.
func TestGraphLyingHeaderCommands(t *testing.T) {
	base := filepath.Join(t.TempDir(), "liar")
	writeGzFile(t, base+".arcs.tsv.gz", "# name: liar\n# source: test\n# nodes: 2000000000 arcs: 3\n# self-loops: 0\n0\t1\n1\t2\n2\t0\n")
	for _, args := range [][]string{
		{"rank", "--algo", "pagerank", "-q"},
		{"sim", "--schedulers", "bfs", "-q"},
		{"seeds", "--algo", "pagerank"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, _, stderr := cmdRun(append(args, "--graph", base)...)
		runtime.ReadMemStats(&after)
		if code != 1 || !strings.Contains(stderr, "liar.arcs.tsv.gz:3: header declares 2000000000 nodes but only 3 arcs") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%v: allocated %d bytes", args, alloc)
		}
	}
}
