package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

// rankDataset writes the BUDG toy graph (A..E = 0..4; A→B, A→D, E→B, E→C,
// E→D) plus a self-loop C→C, with or without URLs, and returns its basename.
func rankDataset(t *testing.T, urls bool) string {
	t.Helper()
	b := graph.NewBuilder(5, true)
	for _, a := range [][2]uint32{{0, 1}, {0, 3}, {4, 1}, {4, 2}, {4, 3}, {2, 2}} {
		b.Add(a[0], a[1])
	}
	g := b.Build()
	if urls {
		g.SetURLs([]string{"http://a.test/", "http://b.test/", "http://c.test/", "http://d.test/", "http://e.test/"})
	}
	base := filepath.Join(t.TempDir(), "toy")
	if err := graph.WriteDataset(base, "rank_test", g); err != nil {
		t.Fatal(err)
	}
	return base
}

// parseTSV splits the output into the header and rows and checks the node
// column counts 0, 1, ...
func parseTSV(t *testing.T, text string) (header []string, rows [][]string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	header = strings.Split(lines[0], "\t")
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != len(header) {
			t.Fatalf("row %d has %d fields, header %d: %q", i, len(f), len(header), l)
		}
		if f[0] != strconv.Itoa(i) {
			t.Fatalf("row %d: node %q", i, f[0])
		}
		rows = append(rows, f)
	}
	return header, rows
}

func column(t *testing.T, rows [][]string, i int) []float64 {
	t.Helper()
	out := make([]float64, len(rows))
	for r, f := range rows {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			t.Fatalf("row %d column %d: %v", r, i, err)
		}
		out[r] = v
	}
	return out
}

func TestRankCommand(t *testing.T) {
	withURLs := rankDataset(t, true)
	plain := rankDataset(t, false)
	g, err := graph.ReadDataset(withURLs)
	if err != nil {
		t.Fatal(err)
	}
	prWant, _ := graph.PageRank(g, graph.PageRankOptions{})
	prNoLoops, _ := graph.PageRank(g, graph.PageRankOptions{NoSelfLoops: true})
	hubWant, authWant, _ := graph.HITS(g, graph.HITSOptions{})

	cases := []struct {
		name   string
		args   []string
		header string
		urls   bool
		want   [][]float64
	}{
		{"pagerank", []string{"--graph", withURLs, "--algo", "pagerank"}, "node url score", true, [][]float64{prWant}},
		{"pagerank no self-loops", []string{"--graph", withURLs, "--algo", "pagerank", "--no-self-loops", "--out", "-"}, "node url score", true, [][]float64{prNoLoops}},
		{"pagerank without URLs", []string{"--graph", plain, "--algo", "pagerank"}, "node url score", false, [][]float64{prWant}},
		{"hits", []string{"--graph", withURLs, "--algo", "hits"}, "node url hub authority", true, [][]float64{hubWant, authWant}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append(append([]string{"rank"}, c.args...), "--header")
			if code := run(context.Background(), args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			header, rows := parseTSV(t, out.String())
			if strings.Join(header, " ") != c.header || len(rows) != 5 {
				t.Fatalf("header %q, %d rows:\n%s", header, len(rows), out.String())
			}
			for i, r := range rows {
				wantURL := ""
				if c.urls {
					wantURL = fmt.Sprintf("http://%c.test/", 'a'+i)
				}
				if r[1] != wantURL {
					t.Fatalf("row %d url %q, want %q", i, r[1], wantURL)
				}
			}
			for k, want := range c.want {
				got := column(t, rows, 2+k)
				for v := range got {
					if got[v] != want[v] {
						t.Fatalf("column %s node %d: %v, want %v (exactly)", header[2+k], v, got[v], want[v])
					}
				}
				var s, ss float64
				for _, x := range got {
					s += x
					ss += x * x
				}
				pagerank := len(c.want) == 1
				if pagerank && math.Abs(s-1) > 1e-12 {
					t.Fatalf("PageRank sums to %v", s)
				}
				if !pagerank && math.Abs(ss-1) > 1e-12 {
					t.Fatalf("%s has L2 norm² %v", header[2+k], ss)
				}
			}
			if !strings.Contains(errb.String(), "graph loaded") {
				t.Fatalf("no progress on stderr: %q", errb.String())
			}
		})
	}
	// The no-self-loops case must differ from the default, or it tests nothing.
	if prWant[2] == prNoLoops[2] {
		t.Fatal("self-loop C→C does not change PageRank")
	}
}

func TestRankCommandOutFile(t *testing.T) {
	base := rankDataset(t, true)
	path := filepath.Join(t.TempDir(), "pr.tsv")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"rank", "-q", "--header", "--graph", base, "--algo", "pagerank", "--out", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.Len() != 0 || errb.Len() != 0 {
		t.Fatalf("stdout %q stderr %q, want both empty with --out and -q", out.String(), errb.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rows := parseTSV(t, string(data))
	// BUDG toy with C→C: A and E have no in-links, so they tie, as do B and D.
	pr := column(t, rows, 2)
	if pr[0] != pr[4] || pr[1] != pr[3] || !(pr[1] > pr[0]) {
		t.Fatalf("scores %v do not reflect the graph", pr)
	}
}

func TestRankCommandErrors(t *testing.T) {
	base := rankDataset(t, false)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no algo", []string{"--graph", base}, 2, "--algo \"\": want pagerank or hits"},
		{"bad algo", []string{"--graph", base, "--algo", "katz"}, 2, "want pagerank or hits"},
		{"no graph", []string{"--algo", "hits"}, 2, "give --graph BASENAME or --db FILE"},
		{"both sources", []string{"--graph", base, "--db", "x.db", "--algo", "hits"}, 2, "not both"},
		{"bad damping", []string{"--graph", base, "--algo", "pagerank", "--damping", "1"}, 2, "--damping 1"},
		{"stray argument", []string{"--graph", base, "--algo", "pagerank", "extra"}, 2, "unexpected argument \"extra\""},
		{"unknown flag", []string{"--graph", base, "--algo", "pagerank", "--nope"}, 2, "nope"},
		{"missing dataset", []string{"--graph", base + "-missing", "--algo", "pagerank"}, 1, "toy-missing.arcs.tsv.gz"},
		{"unwritable out", []string{"--graph", base, "--algo", "pagerank", "--out", filepath.Join(t.TempDir(), "no", "such", "dir.tsv")}, 1, "dir.tsv"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkExit(t, append([]string{"rank"}, c.args...), c.code, c.want)
		})
	}
}

// TestRankDefaultHasNoHeader: by default every line is a data row, as the
// issue spells the format (node<TAB>url<TAB>score), so scripts can parse all.
func TestRankDefaultHasNoHeader(t *testing.T) {
	base := rankDataset(t, true)
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"rank", "--graph", base, "--algo", "pagerank", "-q"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5 data rows:\n%s", len(lines), out.String())
	}
	sum := 0.0
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 || f[0] != strconv.Itoa(i) {
			t.Fatalf("line %d = %q, want node %d<TAB>url<TAB>score", i, l, i)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("line %d score: %v", i, err)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("scores sum to %v, want 1", sum)
	}
}

// TestRankUnwritableOutFailsFirst: a bad --out is reported before any work
// and leaves nothing behind.
func TestRankUnwritableOutFailsFirst(t *testing.T) {
	base := rankDataset(t, true)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"rank", "--graph", base, "--algo", "pagerank", "-q", "--out", dir}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "is a directory") {
		t.Fatalf("exit %d, stderr %q; want usage error naming the directory", code, errb.String())
	}
	missing := filepath.Join(dir, "no", "such", "dir", "pr.tsv")
	errb.Reset()
	if code := run(context.Background(), []string{"rank", "--graph", base, "--algo", "pagerank", "-q", "--out", missing}, &out, &errb); code != 1 {
		t.Fatalf("exit %d for %s, want 1: %s", code, missing, errb.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left files behind: %v", entries)
	}
}
