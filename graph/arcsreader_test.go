package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"
)

func gz(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const header = "# name: t\n# source: test\n# nodes: 4 arcs: 3\n# self-loops: 1\n"

func TestReadArcsMalformed(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string // substring of the error, naming file and line
	}{
		{"not gzip", []byte("# name: t\n"), "x.arcs.tsv.gz: not gzip"},
		{"truncated gzip", truncatedGzip(t), "x.arcs.tsv.gz:"},
		{"empty", gz(t, ""), "x.arcs.tsv.gz:1: file ends inside the four-line header"},
		{"short header", gz(t, "# name: t\n# source: s\n"), "x.arcs.tsv.gz:3: file ends inside"},
		{"header without #", gz(t, "# name: t\nsource: s\n# nodes: 4 arcs: 3\n# x\n"), "x.arcs.tsv.gz:2: header line \"source: s\""},
		{"bad counts", gz(t, "# name: t\n# source: s\n# nodes: four arcs: 3\n# x\n"), "x.arcs.tsv.gz:3: want \"# nodes: N arcs: M\""},
		{"no counts", gz(t, "# name: t\n# source: s\n# x\n# y\n0\t1\n"), "x.arcs.tsv.gz:5: arc before"},
		{"no counts, no arcs", gz(t, "# name: t\n# source: s\n# x\n# y\n"), "x.arcs.tsv.gz:1-4: header has no"},
		{"source out of range", gz(t, header+"0\t1\n4\t1\n2\t3\n"), "x.arcs.tsv.gz:6: node id out of range 0..3 in \"4\\t1\""},
		{"target out of range", gz(t, header+"0\t1\n1\t1\n2\t99\n"), "x.arcs.tsv.gz:7: node id out of range"},
		{"id too long", gz(t, header+"0\t1\n1\t00000000001\n2\t3\n"), "x.arcs.tsv.gz:6: want \"src<TAB>dst\""},
		{"space separated", gz(t, header+"0 1\n"), "x.arcs.tsv.gz:5: want \"src<TAB>dst\" with two decimal node ids, got \"0 1\""},
		{"missing target", gz(t, header+"0\t1\n1\t\n"), "x.arcs.tsv.gz:6: want"},
		{"trailing text", gz(t, header+"0\t1\n1\t1x\n"), "x.arcs.tsv.gz:6: want"},
		{"negative id", gz(t, header+"-1\t1\n"), "x.arcs.tsv.gz:5: want"},
		{"too few arcs", gz(t, header+"0\t1\n1\t1\n"), "x.arcs.tsv.gz:6: file ends after 2 arcs, but the header says 3"},
		{"too many arcs", gz(t, header+"0\t1\n1\t1\n2\t3\n3\t0\n"), "x.arcs.tsv.gz:8: more arcs than the 3 the header says"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := ReadArcs(bytes.NewReader(c.data), "x.arcs.tsv.gz")
			if err == nil {
				t.Fatalf("no error; graph %+v", g)
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("error %v does not wrap ErrFormat", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

// truncatedGzip is a gzip stream of a long arcs file cut in half.
func truncatedGzip(t *testing.T) []byte {
	var b strings.Builder
	b.WriteString("# a\n# b\n# nodes: 100000 arcs: 100000\n# c\n")
	for i := 0; i < 100000; i++ {
		b.WriteString(strconv.Itoa(i) + "\t" + strconv.Itoa(i*7%100000) + "\n")
	}
	z := gz(t, b.String())
	return z[:len(z)/2]
}

func TestReadDatasetErrorsNameFiles(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "g")
	if err := os.WriteFile(base+".arcs.tsv.gz", gz(t, header+"0\t1\n1\t1\n2\t3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".urls.gz", gz(t, "http://a/\nhttp://b/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadDataset(base)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), base+".urls.gz") {
		t.Fatalf("URL count mismatch: %v", err)
	}
	_, err = ReadDataset(filepath.Join(dir, "missing"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestReadArcsAccepts(t *testing.T) {
	want := fromArcs(4, [][2]uint32{{0, 1}, {1, 1}, {2, 3}})
	cases := []struct {
		name, text string
		want       *CSR
	}{
		{"plain", header + "0\t1\n1\t1\n2\t3\n", want},
		{"no final newline", header + "0\t1\n1\t1\n2\t3", want},
		{"CRLF", strings.ReplaceAll(header+"0\t1\n1\t1\n2\t3\n", "\n", "\r\n"), want},
		{"empty lines", header + "\n0\t1\n\n1\t1\n2\t3\n\n", want},
		{"unsorted, file order kept per source",
			"# a\n# b\n# nodes: 4 arcs: 5\n# c\n2\t3\n0\t2\n2\t0\n0\t1\n3\t3\n",
			fromArcs(4, [][2]uint32{{0, 2}, {0, 1}, {2, 3}, {2, 0}, {3, 3}})},
		{"only isolated nodes", "# a\n# b\n# nodes: 3 arcs: 0\n# c\n", fromArcs(3, nil)},
		{"no nodes", "# a\n# b\n# nodes: 0 arcs: 0\n# c\n", fromArcs(0, nil)},
		{"last nodes dangling", "# a\n# b\n# nodes: 6 arcs: 2\n# c\n1\t5\n1\t2\n", fromArcs(6, [][2]uint32{{1, 5}, {1, 2}})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := ReadArcs(bytes.NewReader(gz(t, c.text)), "x")
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, g, c.want)
		})
	}
}

func sameGraph(t *testing.T, got, want *CSR) {
	t.Helper()
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	if got.N() != want.N() || !slices.Equal(got.Offsets[:got.N()+1], want.Offsets[:want.N()+1]) || !slices.Equal(got.Targets, want.Targets) {
		t.Fatalf("got offsets %v targets %v\nwant offsets %v targets %v", got.Offsets, got.Targets, want.Offsets, want.Targets)
	}
}

// TestReadArcsChunkBoundaries parses random sorted and unsorted inputs with
// a tiny line buffer and a one-byte reader, so lines straddle every possible
// chunk boundary, and compares with the Builder.
func TestReadArcsChunkBoundaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for _, sorted := range []bool{true, false} {
		for i := 0; i < 20; i++ {
			n, m := 1+rng.IntN(200), rng.IntN(400)
			arcs := make([][2]uint32, m)
			for j := range arcs {
				arcs[j] = [2]uint32{uint32(rng.IntN(n)), uint32(rng.IntN(n))}
			}
			if sorted {
				slices.SortStableFunc(arcs, func(a, b [2]uint32) int { return int(a[0]) - int(b[0]) })
			}
			var text strings.Builder
			text.WriteString("# a\n# b\n# nodes: " + strconv.Itoa(n) + " arcs: " + strconv.Itoa(m) + "\n# c\n")
			for _, a := range arcs {
				text.WriteString(strconv.Itoa(int(a[0])) + "\t" + strconv.Itoa(int(a[1])) + "\n")
			}
			ar := arcsReader{lines: newLines(iotest.OneByteReader(strings.NewReader(text.String())), "x", 32), n: -1, m: -1}
			g, err := ar.read()
			if err != nil {
				t.Fatalf("sorted=%v case %d: %v", sorted, i, err)
			}
			sameGraph(t, g, fromArcs(n, arcs))
		}
	}
	ar := arcsReader{lines: newLines(strings.NewReader(header+"0\t1111111111111111111111111111111111111\n"), "x", 32), n: -1, m: -1}
	if _, err := ar.read(); err == nil || !strings.Contains(err.Error(), "x:5: line too long") {
		t.Fatalf("long line: %v", err)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	// Unsorted lists with a duplicate arc and a self-loop; nodes 4 and 5 are
	// isolated. WriteDataset sorts and de-duplicates.
	g := fromArcs(6, [][2]uint32{{2, 0}, {0, 3}, {0, 1}, {0, 3}, {1, 1}, {3, 2}})
	g.SetURLs([]string{"http://a.example/", "http://a.example/x", "https://B.example:8080/", "http://c.example/?q", "http:/nohost", "http://d.example/"})
	base := filepath.Join(t.TempDir(), "rt")
	if err := WriteDataset(base, "test", g); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDataset(base)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, fromArcs(6, [][2]uint32{{0, 1}, {0, 3}, {1, 1}, {2, 0}, {3, 2}}))
	if !slices.Equal(got.URLs, g.URLs) {
		t.Fatalf("URLs %v, want %v", got.URLs, g.URLs)
	}
	wantHosts := []string{"a.example", "b.example", "c.example", "", "d.example"}
	if !slices.Equal(got.HostNames, wantHosts) || got.Hosts[1] != 0 || got.Hosts[4] != 3 {
		t.Fatalf("hosts %v %v, want names %v", got.Hosts, got.HostNames, wantHosts)
	}
	text := string(crawltest.ReadGzip(t, base+".arcs.tsv.gz"))
	wantText := "# name: rt\n# source: test\n# nodes: 6 arcs: 5\n# self-loops: 1\n0\t1\n0\t3\n1\t1\n2\t0\n3\t2\n"
	if text != wantText {
		t.Fatalf("file text:\n%s\nwant:\n%s", text, wantText)
	}

	// Without URLs, no .urls.gz is written and none is read.
	plain := filepath.Join(t.TempDir(), "plain")
	if err := WriteDataset(plain, "test", fromArcs(3, [][2]uint32{{2, 1}})); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(plain + ".urls.gz"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("urls file for a graph without URLs: %v", err)
	}
	got, err = ReadDataset(plain)
	if err != nil || got.URLs != nil {
		t.Fatalf("read back: %v, URLs %v", err, got.URLs)
	}
	sameGraph(t, got, fromArcs(3, [][2]uint32{{2, 1}}))
}

// TestReadArcsLyingHeader feeds tiny files whose headers claim billions of
// nodes or arcs: each must fail with an error naming file:line, and the
// reader must allocate no more than a few MiB doing so (the header alone
// would have cost about 23 GB when it was trusted).
func TestReadArcsLyingHeader(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"nodes far beyond arcs", "# a\n# b\n# nodes: 2000000000 arcs: 3\n# c\n0\t1\n1\t1\n2\t3\n", "x:3: header declares 2000000000 nodes but only 3 arcs"},
		{"arcs far beyond the data", "# a\n# b\n# nodes: 2000000000 arcs: 1000000000\n# c\n0\t1\n1\t1\n1999999999\t3\n", "x:7: file ends after 3 arcs, but the header says 1000000000"},
		{"nodes at the 2^32 limit", "# a\n# b\n# nodes: 4294967295 arcs: 4000000000\n# c\n4294967294\t0\n", "x:5: file ends after 1 arcs, but the header says 4000000000"},
		{"nodes beyond uint32", "# a\n# b\n# nodes: 4294967296 arcs: 4000000000\n# c\n", "x:3: want \"# nodes: N arcs: M\" with N < 2^32"},
		{"overflowing count", "# a\n# b\n# nodes: 3 arcs: 99999999999999999999999\n# c\n", "x:3: want \"# nodes: N arcs: M\""},
		{"negative count", "# a\n# b\n# nodes: -3 arcs: 2\n# c\n", "x:3: want \"# nodes: N arcs: M\""},
		{"huge arcs, few nodes", "# a\n# b\n# nodes: 2 arcs: 9000000000000000000\n# c\n0\t1\n", "x:5: file ends after 1 arcs, but the header says 9000000000000000000"},
		{"id beyond the declared nodes", "# a\n# b\n# nodes: 2 arcs: 1\n# c\n0\t2\n", "x:5: node id out of range 0..1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := gz(t, c.text)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ReadArcs(bytes.NewReader(data), "x")
			runtime.ReadMemStats(&after)
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			// The line buffer (1 MiB) and gzip state are the fixed cost.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Fatalf("allocated %d bytes for a %d-byte file", alloc, len(data))
			}
		})
	}
}

// TestReadDatasetLyingURLs: a URL file with more or fewer lines than the
// header's node count is an error naming the file, and N is checked against
// the arcs before the URL file is read.
func TestReadDatasetLyingURLs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), gz(t, text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("big.arcs.tsv.gz", "# a\n# b\n# nodes: 2000000000 arcs: 1\n# c\n0\t1\n")
	write("big.urls.gz", "http://a/\nhttp://b/\n")
	if _, err := ReadDataset(filepath.Join(dir, "big")); err == nil || !strings.Contains(err.Error(), "big.arcs.tsv.gz:3: header declares") {
		t.Fatalf("lying node count: %v", err)
	}
	write("more.arcs.tsv.gz", "# a\n# b\n# nodes: 2 arcs: 1\n# c\n0\t1\n")
	write("more.urls.gz", "http://a/\nhttp://b/\nhttp://c/\n")
	if _, err := ReadDataset(filepath.Join(dir, "more")); err == nil || !strings.Contains(err.Error(), "more.urls.gz:3: more URL lines than the 2 nodes") {
		t.Fatalf("extra URL: %v", err)
	}
}
