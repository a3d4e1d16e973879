package graph

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileDetects lays out one graph in each format and checks that
// auto-detection and the explicit formats read the same arcs.
func TestReadFileDetects(t *testing.T) {
	dir := t.TempDir()
	g := fromArcs(3, [][2]uint32{{0, 1}, {1, 2}, {2, 0}})
	ds := filepath.Join(dir, "ds")
	if err := WriteDataset(ds, "test", g); err != nil {
		t.Fatal(err)
	}
	bv := writeBV(t, dir, "bv", encodeBV(g, defaultBVTestParams))
	snap := filepath.Join(dir, "edges.txt")
	if err := os.WriteFile(snap, []byte("# Nodes: 3 Edges: 3\n0 1\n1 2\n2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path   string
		format Format
		want   Format
	}{
		{ds, FormatAuto, FormatDataset},
		{ds + ".arcs.tsv.gz", FormatAuto, FormatDataset},
		{ds, FormatDataset, FormatDataset},
		{bv, FormatAuto, FormatBVGraph},
		{bv + ".graph", FormatAuto, FormatBVGraph},
		{bv + ".properties", FormatAuto, FormatBVGraph},
		{bv, FormatBVGraph, FormatBVGraph},
		{snap, FormatAuto, FormatSNAP},
		{snap, FormatSNAP, FormatSNAP},
		{bv + ".graph", FormatSNAP, FormatSNAP}, // explicit wins: garbage as an edge list
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path)+"/"+string(c.format), func(t *testing.T) {
			if c.format == FormatAuto {
				f, _, err := DetectFormat(c.path)
				if err != nil || f != c.want {
					t.Fatalf("detected %q, %v; want %q", f, err, c.want)
				}
			}
			got, err := ReadFile(c.path, c.format)
			if c.path == bv+".graph" && c.format == FormatSNAP {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("a BVGraph stream read as SNAP: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, got, g)
		})
	}
	_, err := ReadFile(filepath.Join(dir, "nothing"), FormatAuto)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nothing.arcs.tsv.gz") {
		t.Fatalf("missing: %v", err)
	}
	if _, err := ParseFormat("graphml"); !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("unknown format: %v", err)
	}
}
