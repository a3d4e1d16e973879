package compare

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

var (
	truthPages = flag.Int("compare.truthpages", 3000, "pages of the generated test web TestUnionScoreTruth measures on")
	truthSeed  = flag.Int64("compare.truthseed", 1, "seed of the generated test web TestUnionScoreTruth measures on")
)

// personalizedPageRank is PageRank with teleport to the nodes in jump only:
// PR = d·(Aᵀ·PR/out + dangling mass·t) + (1−d)·t, t uniform over jump, where
// the rank of dangling nodes also goes to t (Langville & Meyer 2006, §5.3
// "personalization vector"; a dangling node's row is replaced by t). It
// stops when the L1 change is below 1e-10 or after 200 iterations.
func personalizedPageRank(g *graph.CSR, jump []bool, d float64) []float64 {
	n := g.N()
	var nj int
	for _, j := range jump {
		if j {
			nj++
		}
	}
	t := make([]float64, n)
	for v := range n {
		if jump[v] {
			t[v] = 1 / float64(nj)
		}
	}
	pr := slices.Clone(t)
	next := make([]float64, n)
	for range 200 {
		var dangling float64
		clear(next)
		for v := range n {
			out := g.Out(uint32(v))
			if len(out) == 0 {
				dangling += pr[v]
				continue
			}
			share := pr[v] / float64(len(out))
			for _, w := range out {
				next[w] += share
			}
		}
		var delta float64
		for v := range n {
			x := d*(next[v]+dangling*t[v]) + (1-d)*t[v]
			delta += math.Abs(x - pr[v])
			next[v] = x
		}
		pr, next = next, pr
		if delta < 1e-10 {
			break
		}
	}
	return pr
}

// TestUnionScoreTruth measures how well scores computed without ground
// truth rank the schedulers, against their true PageRank on the test web,
// at 5, 10 and 20% of a budget of half the pages (W = 1, whose sequences
// are sim's on the ground-truth graph). Scorers, all on the union of the
// downloaded sets:
//
//   - union PR: the report's score (package documentation);
//   - fetched teleport: PageRank with the jump and the dangling rank going
//     to downloaded pages only, so discovered-only URLs hold rank only
//     through links (a personalization vector, Langville & Meyer 2006);
//   - fetched subgraph: PageRank of the downloaded pages alone, links to
//     the rest dropped;
//   - in-degree: distinct in-links from downloaded pages (Cho et al. 1998
//     order by backlink count; Baeza-Yates et al. 2005 score on the final
//     crawl).
//
// It asserts what the measurement rests on (every score sums over the
// right pages; sequences are sim's), and logs the rankings side by side.
// Bigger: go test -run UnionScoreTruth -v ./compare -args -compare.truthpages=20000
func TestUnionScoreTruth(t *testing.T) {
	tw := newTruthWeb(t, *truthSeed, *truthPages)
	truth, g, fail, seeds, seedURLs, sg := tw.truth, tw.g, tw.fail, tw.seeds, tw.seedURLs, tw.sg
	truePR := truth.PageRank()
	budget := *truthPages / 2
	web := newFakeWeb(g, fail)

	var seqs []Sequence
	byURL := map[string]*Page{}
	for _, name := range measureSchedulers {
		order := simOrder(t, sg, seeds, name)
		s := Sequence{Name: name, Done: true}
		for _, v := range order[:min(budget, len(order))] {
			u := g.URLs[v]
			s.URLs = append(s.URLs, u)
			if byURL[u] == nil {
				p := web.page(u)
				byURL[u] = &p
			}
		}
		seqs = append(seqs, s)
	}
	set := unionOf(seqs, -1)
	u := buildUnion(byURL, seedURLs, set, 0.85)
	fetched := make([]bool, u.g.N())
	for _, x := range set {
		fetched[u.id[x]] = true
	}
	sub := u.g.Filter(func(src, dst uint32) bool { return fetched[src] && fetched[dst] })
	subPR, _ := graph.PageRank(sub, graph.PageRankOptions{Damping: 0.85})
	for v := range subPR {
		if !fetched[v] {
			subPR[v] = 0 // isolated non-pages of the filtered graph
		}
	}
	indeg := make([]float64, u.g.N())
	for v := range u.g.N() {
		for _, w := range u.g.Out(uint32(v)) {
			indeg[w]++
		}
	}
	// One more hop: the URLs the crawls discovered but none downloaded are
	// fetched too, for the score only (a reference crawl of the frontier),
	// so that their links count as votes.
	hop := slices.Clone(set)
	for v := range u.g.N() {
		if !fetched[v] {
			x := u.g.URLs[v]
			hop = append(hop, x)
			if byURL[x] == nil {
				p := web.page(x)
				byURL[x] = &p
			}
		}
	}
	uh := buildUnion(byURL, seedURLs, hop, 0.85)
	fetchedH := make([]bool, uh.g.N())
	for _, x := range hop {
		fetchedH[uh.id[x]] = true
	}
	subH := uh.g.Filter(func(src, dst uint32) bool { return fetchedH[src] && fetchedH[dst] })
	subHPR, _ := graph.PageRank(subH, graph.PageRankOptions{Damping: 0.85})
	scorers := []struct {
		name string
		val  func(url string) float64
	}{
		{"truth", func(x string) float64 { v, _ := truth.ID(x); return truePR[v] }},
		{"union PR", func(x string) float64 { return u.pr[u.id[x]] }},
		{"fetched teleport", func() func(string) float64 {
			pr := personalizedPageRank(u.g, fetched, 0.85)
			return func(x string) float64 { return pr[u.id[x]] }
		}()},
		{"fetched subgraph", func(x string) float64 { return subPR[u.id[x]] }},
		{"in-degree", func(x string) float64 { return indeg[u.id[x]] }},
		{"+1 hop union PR", func(x string) float64 { return uh.pr[uh.id[x]] }},
		{"+1 hop subgraph", func(x string) float64 { return subHPR[uh.id[x]] }},
	}
	fracs := []float64{0.05, 0.10, 0.20}
	var sb strings.Builder
	fmt.Fprintf(&sb, "web %d pages, %d seeds, budget %d, union %d downloaded + %d discovered only; +1 hop: %d downloaded + %d discovered only\n",
		g.N(), len(seeds), budget, len(set), u.g.N()-len(set), len(hop), uh.g.N()-len(hop))
	orders := map[string][]string{}
	for _, sc := range scorers {
		fmt.Fprintf(&sb, "%-17s", sc.name)
		for _, f := range fracs {
			k := int(math.Ceil(f * float64(budget)))
			score := map[string]float64{}
			for _, s := range seqs {
				for _, x := range s.URLs[:min(k, len(s.URLs))] {
					score[s.Name] += sc.val(x)
				}
			}
			names := slices.Clone(measureSchedulers)
			slices.SortStableFunc(names, func(a, b string) int { return cmpDesc(score[a], score[b]) })
			orders[fmt.Sprintf("%s@%g", sc.name, f)] = names
			fmt.Fprintf(&sb, " | %g%%: %s", 100*f, strings.Join(names, " > "))
		}
		fmt.Fprintln(&sb)
	}
	for _, sc := range scorers[1:] {
		var agree []string
		for _, f := range fracs {
			a, b := orders[fmt.Sprintf("%s@%g", sc.name, f)], orders[fmt.Sprintf("truth@%g", f)]
			agree = append(agree, fmt.Sprintf("%g%% %v (Kendall tau %.2f)", 100*f, slices.Equal(a, b), kendall(a, b)))
		}
		fmt.Fprintf(&sb, "%-17s agrees with truth: %s\n", sc.name, strings.Join(agree, ", "))
	}
	t.Log("\n" + sb.String())

	// Score with Crawl and Frontier ranks as the "+1 hop subgraph" scorer
	// measured above: the option is what was measured.
	var pages []Page
	for _, p := range byURL {
		pages = append(pages, *p)
	}
	r, err := Score(pages, seedURLs, seqs, ScoreOptions{Budget: budget, Crawl: true, Frontier: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Downloaded != len(set) || r.Downloaded+r.FrontierPages != len(hop) {
		t.Errorf("Score: %d downloaded + %d frontier pages, want %d + %d", r.Downloaded, r.FrontierPages, len(set), len(hop)-len(set))
	}
	for _, f := range fracs {
		c := slices.Index(Checkpoints(), f)
		if want := orders[fmt.Sprintf("+1 hop subgraph@%g", f)]; !slices.Equal(r.Ranking[c], want) {
			t.Errorf("Score with Crawl and Frontier at %g%%: %v, the measured scorer: %v", 100*f, r.Ranking[c], want)
		}
	}

	// What the measurement rests on: the union PageRank sums to 1 over its
	// nodes, and so does the personalized one, whose discovered-only nodes
	// get rank only through links.
	for name, pr := range map[string][]float64{"union": u.pr, "fetched teleport": personalizedPageRank(u.g, fetched, 0.85)} {
		var s float64
		for _, x := range pr {
			s += x
		}
		if math.Abs(s-1) > 1e-6 {
			t.Errorf("%s PageRank sums to %v", name, s)
		}
	}
}

// kendall is Kendall's tau between two orders of the same names.
func kendall(a, b []string) float64 {
	pos := map[string]int{}
	for i, x := range b {
		pos[x] = i
	}
	var c, d int
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if pos[a[i]] < pos[a[j]] {
				c++
			} else {
				d++
			}
		}
	}
	if c+d == 0 {
		return 1
	}
	return float64(c-d) / float64(c+d)
}
