package compare

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/seedcrawl/seedcrawl/chart"
)

// starClique is the web of TestScoreOmniscientSeedsFirst: seed L opens a
// star whose hub H holds the most rank, seed C a clique of four pages. It
// returns the pages, the seeds and the breadth-first order from them.
func starClique() (pages []Page, seeds, bfs []string) {
	l := func(s string) string { return "http://l.example/" + s }
	c := func(s string) string { return "http://c.example/" + s }
	pages = []Page{{URL: l("L"), Status: 200, OutLinks: []string{l("H")}}}
	var star []string
	for i := range 8 {
		star = append(star, l("h"+strconv.Itoa(i)))
		pages = append(pages, Page{URL: star[i], Status: 200, OutLinks: []string{l("H")}})
	}
	pages = append(pages, Page{URL: l("H"), Status: 200, OutLinks: star})
	clique := []string{c("C"), c("c1"), c("c2"), c("c3")}
	for _, p := range clique {
		pages = append(pages, Page{URL: p, Status: 200, OutLinks: slices.DeleteFunc(slices.Clone(clique), func(q string) bool { return q == p })})
	}
	seeds = []string{l("L"), c("C")}
	bfs = append(append([]string{l("L"), c("C"), l("H")}, clique[1:]...), star...)
	return pages, seeds, bfs
}

// TestScoreBFSReference: with BFSReference the gap closure's baseline is
// a breadth-first crawl simulated on the graph, even when the crawl scored
// is named bfs (a real crawl's order, interleaved by politeness, is not
// BFS's, and must not be its own baseline).
func TestScoreBFSReference(t *testing.T) {
	pages, seeds, bfs := starClique()
	// The real crawl: named bfs, but C's clique first.
	real := append(append([]string{}, bfs[1:2]...), bfs[3:6]...)
	real = append(append(real, bfs[0], bfs[2]), bfs[6:]...)
	r, err := Score(pages, seeds, []Sequence{{Name: "bfs", URLs: real, Done: true}}, ScoreOptions{BFSReference: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Score(pages, seeds, []Sequence{{Name: "true bfs", URLs: bfs, Done: true}}, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.BFS == nil || !r.HasBFS || r.BFS.Scheduler != BFSReferenceName {
		t.Fatalf("BFS reference %+v, HasBFS %v", r.BFS, r.HasBFS)
	}
	differs := false
	for i, k := range r.Pages {
		b, s, o := r.BFS.Cumulative[i], r.Curves[0].Cumulative[i], r.Omniscient.Cumulative[i]
		if math.Abs(b-want.Curves[0].Cumulative[i]) > 1e-12 {
			t.Errorf("k=%d: BFS reference %.4f, want the breadth-first order's %.4f", k, b, want.Curves[0].Cumulative[i])
		}
		g, wg := r.GapClosure(&r.Curves[0], i), chart.GapClosure(s, b, o)
		if !(math.IsNaN(g) && math.IsNaN(wg)) && math.Abs(g-wg) > 1e-12 {
			t.Errorf("k=%d: gap closure %v, want %v against the BFS reference", k, g, wg)
		}
		differs = differs || (!math.IsNaN(g) && math.Abs(g) > 1e-6)
	}
	if !differs {
		t.Error("the crawl's gap closure is 0 everywhere: measured against itself")
	}
}

// TestScoreOmniscientLowSeeds: seeds A and s1..s5, none linked by anyone;
// A links to T, which a ring of six pages all link to. Downloading the
// seeds first, the omniscient crawl spends five pages on s1..s5 before T
// and falls below a crawl that takes T second; the reference is the better
// of that crawl and the one ranking seeds by PageRank alone.
func TestScoreOmniscientLowSeeds(t *testing.T) {
	u := func(s string) string { return "http://a.example/" + s }
	var ring []string
	for i := range 6 {
		ring = append(ring, u("r"+strconv.Itoa(i)))
	}
	pages := []Page{{URL: u("A"), Status: 200, OutLinks: []string{u("T")}}, {URL: u("T"), Status: 200, OutLinks: ring}}
	seeds := []string{u("A")}
	for i, r := range ring {
		pages = append(pages, Page{URL: r, Status: 200, OutLinks: []string{u("T"), ring[(i+1)%6]}})
	}
	var low []string
	for i := 1; i <= 5; i++ {
		low = append(low, u("s"+strconv.Itoa(i)))
		pages = append(pages, Page{URL: low[i-1], Status: 200})
	}
	seeds = append(seeds, low...)
	bfs := append(append(append([]string{}, seeds...), u("T")), ring...)
	greedy := append(append([]string{u("A"), u("T")}, ring...), low...)
	r, err := Score(pages, seeds, []Sequence{{Name: "bfs", URLs: bfs, Done: true}, {Name: "greedy", URLs: greedy, Done: true}}, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range r.Pages {
		o := r.Omniscient.Cumulative[i]
		for _, c := range r.Curves {
			if c.Cumulative[i] > o+1e-12 {
				t.Errorf("k=%d: %s scores %.4f, above the omniscient reference %.4f", k, c.Scheduler, c.Cumulative[i], o)
			}
		}
	}
}
