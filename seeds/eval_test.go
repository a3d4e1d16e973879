package seeds

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

func TestGroupDistances(t *testing.T) {
	// Path 0→1→2→3→4 and 5 alone.
	g := fromArcs(6, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}})
	m := &measurer{g: g, bfs: graph.NewBFS(g), dist: []int32{-1, -1, -1, -1, -1, -1}}
	cases := []struct {
		name   string
		groups [][]uint32
		want   DistStats
	}{
		{"singletons", [][]uint32{{0}, {2}, {4}}, DistStats{Pairs: 6, Unreachable: 3, Min: 2, Mean: 8.0 / 3, Max: 4}},
		{"groups take the nearest member", [][]uint32{{0, 3}, {2, 4}}, DistStats{Pairs: 2, Unreachable: 0, Min: 1, Mean: 1, Max: 1}},
		{"group reaching itself", [][]uint32{{1}, {1, 2}, {4}}, DistStats{Pairs: 6, Unreachable: 2, Min: 0, Mean: 5.0 / 4, Max: 3}},
		{"nothing reachable", [][]uint32{{4}, {5}}, DistStats{Pairs: 2, Unreachable: 2}},
	}
	for _, c := range cases {
		if got := m.groupDistances(c.groups); got.Pairs != c.want.Pairs || got.Unreachable != c.want.Unreachable ||
			got.Min != c.want.Min || got.Max != c.want.Max || math.Abs(got.Mean-c.want.Mean) > 1e-12 {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		for v, d := range m.dist {
			if d != -1 {
				t.Fatalf("%s: scratch distance of %d left at %d", c.name, v, d)
			}
		}
	}
}

func TestEvaluate(t *testing.T) {
	g := dataset(t, "hollins")
	in := Input{G: g, Fetched: FetchedByOutDegree(g)}
	const k, hops = 5, 3
	ev, err := Evaluate(context.Background(), in, EvalOptions{Select: Options{K: k, Hops: hops}, Seed: 3, RandomTrials: 4, DistanceSamples: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Rows) != len(Algos()) || ev.Hops != hops || ev.K != k || ev.N != g.N() {
		t.Fatalf("rows %d hops %d k %d n %d", len(ev.Rows), ev.Hops, ev.K, ev.N)
	}
	val, _ := Values(in)
	pr, _ := graph.PageRank(g, graph.PageRankOptions{})
	for i, r := range ev.Rows {
		if r.Algo != Algos()[i] || len(r.Seeds) != k || len(r.MeanPR) != hops+1 {
			t.Fatalf("row %d: algo %s, %d seeds, %d depths", i, r.Algo, len(r.Seeds), len(r.MeanPR))
		}
		if r.Algo == AlgoRandom {
			if r.PagesOverRandom != 0 || r.Dist.Pairs != k*(k-1) {
				t.Errorf("random row: %+v", r)
			}
			continue
		}
		if cv := coverValue(g, val, r.Seeds, hops); math.Abs(cv-r.Value) > 1e-6 {
			t.Errorf("%s: value %g, BFS says %g", r.Algo, r.Value, cv)
		}
		// Random.Pages is the rounded mean the gain was computed from.
		b := float64(ev.Random.Pages)
		if want := overPct(float64(r.Pages), b); math.Abs(want-r.PagesOverRandom) > 100*float64(r.Pages)/(b*b) {
			t.Errorf("%s: %g%% over random, want about %g%%", r.Algo, r.PagesOverRandom, want)
		}
		var pr0 float64
		for _, s := range r.Seeds {
			pr0 += pr[s]
		}
		if want := float64(g.N()) * pr0 / k; math.Abs(r.MeanPR[0]-want) > 1e-9*want {
			t.Errorf("%s: mean PageRank at depth 0 = %g, want %g", r.Algo, r.MeanPR[0], want)
		}
		if r.Groups != k || r.Dist.Pairs != k*(k-1) {
			t.Errorf("%s: %d groups, %d pairs", r.Algo, r.Groups, r.Dist.Pairs)
		}
	}
	if ev.AvgDistance <= 1 {
		t.Errorf("average distance %g", ev.AvgDistance)
	}

	var tab, cs bytes.Buffer
	if err := ev.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	for _, a := range Algos() {
		if !strings.Contains(tab.String(), a) {
			t.Errorf("table lacks %s:\n%s", a, tab.String())
		}
	}
	if err := ev.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil || len(recs) != len(Algos())+1 || len(recs[0]) != 17+hops+1 {
		t.Fatalf("csv: %v, %d records, header %v", err, len(recs), recs[0])
	}
	plotPath := filepath.Join(t.TempDir(), "eval.svg")
	if err := ev.Plot(plotPath, "hollins"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(plotPath)
	if err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Fatalf("plot: %v, %d bytes", err, len(b))
	}
	var w bytes.Buffer
	if err := ev.WritePlot(&w, "SVG", "hollins"); err != nil || !bytes.Equal(w.Bytes(), b) {
		t.Fatalf("WritePlot: %v; %d bytes, Plot wrote %d", err, w.Len(), len(b))
	}
	if err := ev.WritePlot(&w, "gif", "hollins"); err == nil {
		t.Error("WritePlot as gif: no error")
	}
}

func TestEvaluateRejectsUnknownAlgo(t *testing.T) {
	g := fromArcs(3, [][2]uint32{{0, 1}})
	_, err := Evaluate(context.Background(), Input{G: g}, EvalOptions{Algos: []string{"maxweight", "nope"}, Select: Options{K: 1}})
	if !errors.Is(err, ErrUnknownAlgo) {
		t.Fatalf("err = %v, want ErrUnknownAlgo", err)
	}
}
