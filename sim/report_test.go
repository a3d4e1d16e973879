package sim

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/graph"
)

// smallGraph is 0 → 1, 2; 1 → 3; 2 → 3; 3 → 0; 4 isolated, with URLs on
// two hosts.
func smallGraph() *graph.CSR {
	b := graph.NewBuilder(5, false)
	for _, a := range [][2]uint32{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 0}} {
		b.Add(a[0], a[1])
	}
	g := b.Build()
	g.SetURLs([]string{"http://a.example/", "http://a.example/1", "http://B.example/2", "http://b.example/3", "http://c.example/"})
	return g
}

func TestParseSeeds(t *testing.T) {
	g := smallGraph()
	pr := []float64{0.1, 0.3, 0.3, 0.25, 0.05}
	pr2 := []float64{0.3, 0.1, 0.3, 0.25, 0.05} // ties: lower id first
	if got, _ := ParseSeeds("top-pagerank:1", g, pr2); !slices.Equal(got, []uint32{0}) {
		t.Errorf("top-pagerank:1 with a tie = %v, want [0]", got)
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := filepath.Join(dir, "seeds.gz")
	{
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte("4\nhttp://a.example/1\n"))
		zw.Close()
		if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		spec string
		want []uint32
		err  error
	}{
		{spec: "top-pagerank:1", want: []uint32{1}},
		{spec: "top-pagerank:2", want: []uint32{1, 2}},
		{spec: "top-pagerank:3", want: []uint32{1, 2, 3}},
		{spec: "top-pagerank:4", want: []uint32{0, 1, 2, 3}}, // by id, not by PageRank
		{spec: "top-pagerank:99", want: []uint32{0, 1, 2, 3, 4}},
		{spec: write("ids.txt", "# seeds\n3\n\n  0  \nhttp://B.example/2\n"), want: []uint32{3, 0, 2}},
		{spec: gz, want: []uint32{4, 1}},
		{spec: "top-pagerank:0", err: ErrSeedSpec},
		{spec: "top-pagerank:x", err: ErrSeedSpec},
		{spec: "random:3", err: ErrSeedSpec},
		{spec: "random:3:x", err: ErrSeedSpec},
		{spec: "random:0:1", err: ErrSeedSpec},
		{spec: filepath.Join(dir, "missing.txt"), err: ErrSeedSpec},
		{spec: write("range.txt", "5\n"), err: ErrSeedSpec},
		{spec: write("unknown.txt", "http://nowhere.example/\n"), err: ErrSeedSpec},
		{spec: write("empty.txt", "# nothing\n"), err: ErrNoSeeds},
	} {
		t.Run(filepath.Base(tc.spec), func(t *testing.T) {
			got, err := ParseSeeds(tc.spec, g, pr)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// random: distinct, in range, reproducible, seed-dependent.
	a, err := ParseSeeds("random:3:7", g, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseSeeds("random:3:7", g, nil)
	if !slices.Equal(a, b) || len(a) != 3 {
		t.Fatalf("random:3:7 gave %v then %v", a, b)
	}
	if s := slices.Sorted(slices.Values(a)); len(slices.Compact(s)) != 3 {
		t.Errorf("random seeds repeat: %v", a)
	}
	big := nodesOnly(1000)
	x, _ := ParseSeeds("random:20:1", big, nil)
	y, _ := ParseSeeds("random:20:2", big, nil)
	if slices.Equal(x, y) {
		t.Error("random:20:1 and random:20:2 agree")
	}
	noURLs := &graph.CSR{Offsets: g.Offsets, Targets: g.Targets}
	if _, err := ParseSeeds(write("url.txt", "http://a.example/\n"), noURLs, nil); !errors.Is(err, ErrSeedSpec) {
		t.Errorf("URL seed on a graph without URLs: %v", err)
	}
}

// nodesOnly returns a graph of n nodes without arcs.
func nodesOnly(n int) *graph.CSR { return graph.NewBuilder(n, false).Build() }

func TestReadHosts(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     []uint32
		err      bool
	}{
		{"hosts", "a.example\nb.example\nA.example\n", 3, []uint32{0, 1, 0}, false},
		{"urls", "http://www.a.com/x\nhttp://a.com/\nhttps://WWW.A.COM:8080/y\n", 3, []uint32{0, 1, 0}, false},
		{"too few", "a\nb\n", 3, nil, true},
		{"too many", "a\nb\nc\nd\n", 3, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadHosts(strings.NewReader(tc.in), tc.name, tc.n)
			if tc.err {
				if !errors.Is(err, ErrHosts) {
					t.Fatalf("error %v, want ErrHosts", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// A read error keeps both the sentinel and its cause for errors.Is.
	long := "a\n" + strings.Repeat("x", 2<<20) + "\n"
	if _, err := ReadHosts(strings.NewReader(long), "long", 2); !errors.Is(err, ErrHosts) || !errors.Is(err, bufio.ErrTooLong) || !strings.Contains(err.Error(), "long:2") {
		t.Errorf("over-long line: %v, want ErrHosts wrapping bufio.ErrTooLong at long:2", err)
	}
	// A dataset's URL file is a host map.
	d := dataset(t, "hollins")
	hosts, err := ReadHostsFile(filepath.Join("..", "..", "shared", "data", "hollins.urls.gz"), d.g.N())
	if err != nil {
		t.Fatal(err)
	}
	for v := range hosts {
		for _, u := range d.g.Out(uint32(v)) {
			if (hosts[v] == hosts[u]) != (d.g.Hosts[v] == d.g.Hosts[u]) {
				t.Fatalf("arc %d→%d: host map and graph disagree", v, u)
			}
		}
	}
}

func smallReport(t *testing.T, g *graph.CSR, names ...string) *Report {
	t.Helper()
	s := newSim(t, g, Options{Seeds: []uint32{0}, Name: "small", Grid: 4})
	rep, err := s.Run(context.Background(), names)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestWriteCSV(t *testing.T) {
	rep := smallReport(t, smallGraph(), "fpr", "bfs", "fpr")
	var buf bytes.Buffer
	if err := rep.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); !strings.HasPrefix(got, "scheduler,pages,fraction,cumulative_pagerank,upper_bound,gap_closure") {
		t.Fatalf("header %q", got)
	}
	if want := 1 + 2*len(rep.Pages); len(rows) != want {
		t.Fatalf("%d rows, want %d (header + 2 schedulers × %d points)", len(rows), want, len(rep.Pages))
	}
	for i, row := range rows[1:] {
		c := &rep.Curves[i/len(rep.Pages)]
		j := i % len(rep.Pages)
		if row[0] != c.Scheduler {
			t.Fatalf("row %d scheduler %q, want %q", i+1, row[0], c.Scheduler)
		}
		k, _ := strconv.Atoi(row[1])
		frac, _ := strconv.ParseFloat(row[2], 64)
		s, _ := strconv.ParseFloat(row[3], 64)
		u, _ := strconv.ParseFloat(row[4], 64)
		if k != rep.Pages[j] || math.Abs(frac-float64(k)/float64(rep.Reachable)) > 1e-9 ||
			math.Abs(s-c.Cumulative[j]) > 1e-9 || math.Abs(u-rep.Upper[j]) > 1e-9 {
			t.Errorf("row %d = %v disagrees with the report", i+1, row)
		}
		if gc := rep.GapClosure(c, j); math.IsNaN(gc) != (row[5] == "") {
			t.Errorf("row %d gap closure %q, want NaN=%v", i+1, row[5], math.IsNaN(gc))
		}
	}
}

func TestWriteTable(t *testing.T) {
	var buf bytes.Buffer
	if err := smallReport(t, smallGraph(), "fpr@2", "opic").WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"small:", "U(k)", "fpr@2", "opic", "gap closure", "ns/link", "100%"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hosts: none") {
		t.Error("table says no hosts for a graph with URLs")
	}
	g := smallGraph()
	g.URLs, g.Hosts, g.HostNames = nil, nil, nil
	buf.Reset()
	smallReport(t, g, "fpr").WriteTable(&buf)
	if !strings.Contains(buf.String(), "hosts: none") {
		t.Errorf("table does not say the graph has no hosts:\n%s", buf.String())
	}
	buf.Reset()
	smallReport(t, g, "fpr", "bfs").WriteGoBench(&buf)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "BenchmarkSim/graph=small/sched=fpr ") || !strings.Contains(lines[0], " ns/link") {
		t.Errorf("benchmark lines:\n%s", buf.String())
	}
}

func TestPlot(t *testing.T) {
	rep := smallReport(t, smallGraph(), "bfs", "fpr", "omniscient")
	f, err := rep.Figure(PlotOptions{Seeds: "top-pagerank:2"})
	if err != nil {
		t.Fatal(err)
	}
	head := f.Title + " | " + f.Subtitle
	for _, want := range []string{"small", "cumulative PageRank", chart.Count(rep.Seeds, "seed") + " (top-pagerank:2)",
		fmt.Sprintf("budget %d pages", rep.Reachable)} {
		if !strings.Contains(head, want) {
			t.Errorf("title %q lacks %q", head, want)
		}
	}
	if len(f.Panels) != 2 || !strings.Contains(f.Panels[1].YLabel, "bfs") {
		t.Fatalf("want the curves and their difference to bfs, got %d panels", len(f.Panels))
	}
	var names []string
	for _, s := range f.Panels[0].Series {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "U(k) upper bound,bfs,fpr,omniscient" {
		t.Errorf("upper panel series %s", got)
	}
	var svg bytes.Buffer
	if err := rep.WritePlot(&svg, "svg", PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "<svg") || strings.Contains(svg.String(), "<text") {
		t.Error("SVG is not a document with its text drawn as outlines")
	}
	path := filepath.Join(t.TempDir(), "curves.png")
	if err := rep.SavePlot(path, PlotOptions{LogX: true, Lower: chart.LowerGap}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Error("PNG file does not start with the PNG signature")
	}
	if err := rep.SavePlot(filepath.Join(t.TempDir(), "curves"), PlotOptions{}); err == nil {
		t.Error("SavePlot without an extension: no error")
	}
	if err := rep.WritePlot(&svg, "bmp", PlotOptions{}); err == nil {
		t.Error("WritePlot as bmp: no error")
	}
}
