package sim

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// The size of the epoch study TestHistoryEpochs runs; the defaults keep
// the test quick, the report's table uses
//
//	go test ./sim -run TestHistoryEpochs -v -args -history.pages 20000 -history.hosts 100 -history.epochs 5
var (
	historyPages  = flag.Int("history.pages", 4000, "regular pages of the generated web of TestHistoryEpochs")
	historyHosts  = flag.Int("history.hosts", 40, "regular hosts of the generated web of TestHistoryEpochs")
	historyEpochs = flag.Int("history.epochs", 5, "epochs of TestHistoryEpochs (cycles 2..E score epochs 1..E-1)")
	historySeed   = flag.Int64("history.seed", 1, "seed of the generated web of TestHistoryEpochs")
)

// historySchedulers are the orderings the epoch study compares.
var historySchedulers = []string{"bfs", "fpr", "fpr@100", "history", "history@100", "omniscient"}

// cycleClosure is one cycle of the epoch study: the gap closure of each
// scheduler at 5% and 10% of the reachable pages.
type cycleClosure struct {
	epoch              int
	reachable, newURLs int // reachable pages; those of them the history does not know
	at5, at10          map[string]float64
}

// epochStudy crawls epoch e of site for e = 1..epochs-1 with the history
// of a complete crawl of epoch e-1 (CrawledPageRank of its truth, carried
// over by URL) and scores every scheduler on epoch e's true PageRank.
func epochStudy(t *testing.T, site *testweb.Site, epochs int) []cycleClosure {
	t.Helper()
	var out []cycleClosure
	for e := 1; e < epochs; e++ {
		prev, err := site.Truth(e - 1)
		if err != nil {
			t.Fatal(err)
		}
		cur, err := site.Truth(e)
		if err != nil {
			t.Fatal(err)
		}
		seedsOf := func(tr *testweb.Truth) []uint32 {
			ids := tr.SeedIDs()
			if len(ids) != len(tr.Seeds) {
				t.Fatalf("epoch %d: %d of the seeds %v are nodes", tr.Epoch, len(ids), tr.Seeds)
			}
			return ids
		}
		stored := CrawledPageRank(prev.Graph, seedsOf(prev), 0.85)
		hist, err := HistoryFrom(prev.Graph, stored, cur.Graph)
		if err != nil {
			t.Fatal(err)
		}
		s := newSim(t, cur.Graph, Options{Seeds: seedsOf(cur), PageRank: cur.PageRank(), History: hist,
			Name: fmt.Sprintf("epoch%d", e)})
		rep, err := s.Run(context.Background(), historySchedulers)
		if err != nil {
			t.Fatal(err)
		}
		checkReport(t, rep)
		cc := cycleClosure{epoch: e, reachable: rep.Reachable, at5: map[string]float64{}, at10: map[string]float64{}}
		for v, ok := range graph.Reachable(cur.Graph, s.Seeds(), -1) {
			if ok && !(hist[v] > 0) {
				cc.newURLs++
			}
		}
		for i, f := range rep.Checkpoint {
			for ci := range rep.Curves {
				c := &rep.Curves[ci]
				switch f {
				case 0.05:
					cc.at5[c.Scheduler] = rep.GapClosure(c, i)
				case 0.10:
					cc.at10[c.Scheduler] = rep.GapClosure(c, i)
				}
			}
		}
		out = append(out, cc)
	}
	return out
}

// closureTable formats the study as the table of the report: one row per
// cycle and scheduler pair of columns, then the mean over the cycles.
func closureTable(cs []cycleClosure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %-5s %9s %6s", "cycle", "epoch", "reachable", "new")
	for _, n := range historySchedulers[:len(historySchedulers)-1] {
		fmt.Fprintf(&b, " %13s", n+" 5%/10%")
	}
	b.WriteString("\n")
	mean5, mean10 := map[string]float64{}, map[string]float64{}
	for _, c := range cs {
		fmt.Fprintf(&b, "%-6d %-5d %9d %6d", c.epoch+1, c.epoch, c.reachable, c.newURLs)
		for _, n := range historySchedulers[:len(historySchedulers)-1] {
			fmt.Fprintf(&b, " %6.3f/%6.3f", c.at5[n], c.at10[n])
			mean5[n] += c.at5[n] / float64(len(cs))
			mean10[n] += c.at10[n] / float64(len(cs))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-6s %-5s %9s %6s", "mean", "", "", "")
	for _, n := range historySchedulers[:len(historySchedulers)-1] {
		fmt.Fprintf(&b, " %6.3f/%6.3f", mean5[n], mean10[n])
	}
	b.WriteString("\n")
	return b.String()
}

// TestHistoryEpochs is the recrawl ordering study on a generated web whose
// epochs evolve like the web (testweb's EvolveWeb model): in every cycle
// from the second on, history closes at least 80% of the gap between bfs
// and omniscient at 5% and at 10% of the crawl, and more of it than fpr.
func TestHistoryEpochs(t *testing.T) {
	site, err := testweb.Generate(testweb.GenOptions{Seed: *historySeed, Pages: *historyPages, Hosts: *historyHosts,
		Preset: testweb.Clean, Evolution: testweb.Evolution{Model: testweb.EvolveWeb}})
	if err != nil {
		t.Fatal(err)
	}
	cs := epochStudy(t, site, *historyEpochs)
	t.Logf("gap closure (S-bfs)/(omniscient-bfs), %d pages on %d hosts:\n%s", *historyPages, *historyHosts, closureTable(cs))
	for _, c := range cs {
		if c.newURLs == 0 {
			t.Errorf("epoch %d: every reachable page is known to the history: the study tests nothing new", c.epoch)
		}
		for _, at := range []struct {
			pct string
			m   map[string]float64
		}{{"5%", c.at5}, {"10%", c.at10}} {
			h := at.m["history"]
			if math.IsNaN(h) || h < 0.8 {
				t.Errorf("epoch %d, %s: history closes %.3f of the gap, want >= 0.8", c.epoch, at.pct, h)
			}
			if h <= at.m["fpr"] {
				t.Errorf("epoch %d, %s: history %.3f does not beat fpr %.3f", c.epoch, at.pct, h, at.m["fpr"])
			}
		}
	}
}

// TestHistoryFrom checks the mapping of an older graph's values: by URL
// when both graphs have URLs (reordered, with a node gone and one new), by
// id otherwise.
func TestHistoryFrom(t *testing.T) {
	mk := func(urls []string, n int) *graph.CSR {
		g := graph.NewBuilder(n, false).Build()
		if urls != nil {
			g.SetURLs(urls)
		}
		return g
	}
	prev := mk([]string{"http://a.test/", "http://a.test/x", "http://b.test/"}, 3)
	cur := mk([]string{"http://b.test/", "http://c.test/", "http://a.test/"}, 3)
	prior := []float64{0.5, 0.3, 0.2}
	for _, tc := range []struct {
		name      string
		prev, cur *graph.CSR
		want      []float64
	}{
		{"by URL", prev, cur, []float64{0.2, 0, 0.5}},
		{"by id", mk(nil, 3), mk(nil, 4), []float64{0.5, 0.3, 0.2, 0}},
		{"by id, fewer nodes", mk(nil, 3), mk(nil, 2), []float64{0.5, 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := HistoryFrom(tc.prev, prior, tc.cur)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := HistoryFrom(prev, prior[:2], cur); err == nil {
		t.Error("HistoryFrom with 2 values for 3 nodes: no error")
	}
}

// TestCrawledPageRank checks that the stored graph of a complete crawl
// leaves out what the seeds do not reach and ranks the rest on its own.
func TestCrawledPageRank(t *testing.T) {
	// 0 -> 1 -> 2 -> 0 is reached from 0; 3 -> 0 is not.
	b := graph.NewBuilder(4, false)
	for _, a := range [][2]uint32{{0, 1}, {1, 2}, {2, 0}, {3, 0}} {
		b.Add(a[0], a[1])
	}
	pr := CrawledPageRank(b.Build(), []uint32{0}, 0.85)
	for v, want := range []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0} {
		if math.Abs(pr[v]-want) > 1e-9 {
			t.Errorf("node %d: %v, want %v", v, pr[v], want)
		}
	}
}

// TestHistoryOptions checks that a history of the wrong length, or one
// that knows no node, is refused with ErrOptions.
func TestHistoryOptions(t *testing.T) {
	g := graph.NewBuilder(3, false).Build()
	for _, tc := range []struct {
		name string
		h    []float64
	}{{"short", []float64{0.5, 0.5}}, {"knows nothing", []float64{0, math.NaN(), -1}}} {
		if _, err := New(g, Options{Seeds: []uint32{0}, History: tc.h}); !errors.Is(err, ErrOptions) {
			t.Errorf("%s: New = %v, want ErrOptions", tc.name, err)
		}
	}
	s := newSim(t, g, Options{Seeds: []uint32{0}, History: []float64{0.25, 0, 0.5}})
	if s.HistoryKnown() != 2 || s.histMass != 0.75 {
		t.Errorf("history knows %d nodes of mass %v, want 2 and 0.75", s.HistoryKnown(), s.histMass)
	}
}

// TestReadHistory writes an older graph as a dataset and reads it back as
// the history of a newer one with a page more, matched by URL.
func TestReadHistory(t *testing.T) {
	site, err := testweb.Generate(testweb.GenOptions{Seed: 4, Pages: 300, Hosts: 5, Preset: testweb.Clean})
	if err != nil {
		t.Fatal(err)
	}
	t0, _ := site.Truth(0)
	t1, _ := site.Truth(1)
	base := t.TempDir() + "/e0"
	if err := graph.WriteDataset(base, "test", t0.Graph); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHistory(base, t1.Graph, 0.85)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := graph.PageRank(t0.Graph, graph.PageRankOptions{})
	for v := range t1.Graph.URLs {
		w := 0.0
		if v < t0.Graph.N() {
			w = want[v] // testweb ids are stable across epochs
		}
		if math.Abs(h[v]-w) > 1e-12 {
			t.Fatalf("node %d %s: history %v, want %v", v, t1.URL(uint32(v)), h[v], w)
		}
	}
	if _, err := ReadHistory(base+"-missing", t1.Graph, 0.85); err == nil {
		t.Error("ReadHistory of a missing dataset: no error")
	}
}
