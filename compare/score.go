package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// ScoreOptions configures Score. The zero value is valid.
type ScoreOptions struct {
	// Budget is each crawl's budget: the checkpoints are fractions of it.
	// When every sequence is Done and shorter than Budget (the crawls ran
	// out of URLs), or Budget is 0, the longest sequence's length is used
	// instead, as sim uses the reachable count.
	Budget int
	// Damping is PageRank's d; 0 means 0.85.
	Damping float64
	// Grid is the number of evenly spaced points of the fine grid, and again
	// of geometrically spaced ones, as in sim; 0 means 200.
	Grid int
	// Crawl ranks on the crawl graph instead of the union graph: the
	// fetched pages alone, links to URLs nobody fetched dropped, as Cho et
	// al. (1998) and Baeza-Yates et al. (2005) rank the pages of the
	// crawl they evaluate on.
	Crawl bool
	// Frontier adds to the graph every page of pages that no sequence
	// downloaded but a downloaded page links to: the crawls' frontier,
	// fetched for the score only (seedcrawl compare --score-frontier).
	// Their links then count as votes for the downloaded pages, whose
	// in-links the crawls alone reveal only in part. Frontier pages are
	// scored like the others but never in a sequence.
	Frontier bool
}

// Checkpoints are the fractions of the budget at which the report
// tabulates the scores (sim's checkpoints).
func Checkpoints() []float64 { return []float64{0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1} }

// union is the graph of what a set of crawls downloaded.
type union struct {
	g     *graph.CSR
	id    map[string]uint32
	pr    []float64
	pages int // fetched pages among the nodes
}

// buildUnion makes the union graph of the pages in set: every page of set
// is a node with arcs to its distinct out-links; every other URL they link
// to, and every seed, is a node without arcs (dangling). Node ids: seeds,
// then set in order, then link targets in order of appearance.
func buildUnion(byURL map[string]*Page, seeds []string, set []string, d float64) *union {
	return buildGraph(byURL, seeds, set, d, false)
}

// buildGraph is buildUnion; with crawlOnly, links to URLs outside set are
// dropped (the crawl graph).
func buildGraph(byURL map[string]*Page, seeds []string, set []string, d float64, crawlOnly bool) *union {
	u := &union{id: map[string]uint32{}}
	var urls []string
	intern := func(s string) uint32 {
		if v, ok := u.id[s]; ok {
			return v
		}
		v := uint32(len(urls))
		u.id[s] = v
		urls = append(urls, s)
		return v
	}
	for _, s := range seeds {
		intern(s)
	}
	for _, s := range set {
		intern(s)
	}
	type arc struct{ src, dst uint32 }
	var arcs []arc
	for _, s := range set {
		p := byURL[s]
		u.pages++
		if p.Failed() {
			continue
		}
		v := u.id[s]
		seen := make(map[uint32]bool, len(p.OutLinks))
		for _, l := range p.OutLinks {
			if _, in := u.id[l]; crawlOnly && !in {
				continue // seeds and set are interned first
			}
			t := intern(l)
			if !seen[t] {
				seen[t] = true
				arcs = append(arcs, arc{v, t})
			}
		}
	}
	b := graph.NewBuilder(len(urls), false)
	for _, a := range arcs {
		b.Add(a.src, a.dst)
	}
	u.g = b.Build()
	u.g.SetURLs(urls)
	u.pr, _ = graph.PageRank(u.g, graph.PageRankOptions{Damping: d})
	return u
}

// Score scores download sequences without ground truth, on the union graph
// of what they downloaded (see the package documentation for the union
// graph and its PageRank). pages must hold every downloaded URL; pages no
// sequence downloaded are left out of the union graph (their URLs stay as
// dangling nodes when linked), so a partial comparison scores like a
// finished one of that length. seeds are the crawls' seeds, for the
// omniscient reference.
func Score(pages []Page, seeds []string, seqs []Sequence, o ScoreOptions) (*Report, error) {
	if len(seqs) == 0 {
		return nil, fmt.Errorf("%w: no sequences to score", ErrOptions)
	}
	if o.Damping == 0 {
		o.Damping = scheduler.DefaultDamping
	}
	if !(o.Damping > 0 && o.Damping < 1) {
		return nil, fmt.Errorf("%w: damping %v must lie in (0, 1)", ErrOptions, o.Damping)
	}
	if o.Grid <= 0 {
		o.Grid = 200
	}
	byURL := make(map[string]*Page, len(pages))
	for i := range pages {
		byURL[pages[i].URL] = &pages[i]
	}
	sets := make([]map[string]bool, len(seqs))
	maxLen, allDone := 0, true
	for i, s := range seqs {
		sets[i] = make(map[string]bool, len(s.URLs))
		for k, u := range s.URLs {
			if byURL[u] == nil {
				return nil, fmt.Errorf("compare: score %s: download %d, %s: %w", s.Name, k+1, u, ErrUnknownPage)
			}
			if sets[i][u] {
				return nil, fmt.Errorf("%w: %s downloads %s twice", ErrOptions, s.Name, u)
			}
			sets[i][u] = true
		}
		maxLen = max(maxLen, len(s.URLs))
		allDone = allDone && s.Done
	}
	K := o.Budget
	if K <= 0 || (allDone && maxLen < K) {
		K = maxLen
	}
	r := &Report{Seeds: len(seeds), Budget: o.Budget, Damping: o.Damping, Reference: K}
	if K == 0 {
		return nil, fmt.Errorf("%w: no sequence has downloaded anything", ErrOptions)
	}
	r.Pages, r.Checkpoint = grid(K, o.Grid)

	all := unionOf(seqs, -1)
	u := scoreGraph(byURL, seeds, all, o)
	r.UnionNodes, r.UnionArcs, r.Downloaded = u.g.N(), u.g.M(), len(all)
	r.FrontierPages = u.pages - len(all)
	r.Graph = "union"
	if o.Crawl {
		r.Graph = "crawl"
	}
	r.SumBudgets = o.Budget * len(seqs)
	if o.Budget <= 0 {
		for _, s := range seqs {
			r.SumBudgets += len(s.URLs)
		}
	}
	sorted := slices.Clone(u.pr)
	slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
	r.Upper = cumulative(sorted, r.Pages, true)
	for _, s := range seqs {
		r.Curves = append(r.Curves, curve(s, u, r.Pages))
		if s.Name == "bfs" {
			r.bfs = len(r.Curves) - 1
			r.HasBFS = true
		}
	}
	om, err := omniscient(u, seeds, K, r.Pages)
	if err != nil {
		return nil, err
	}
	r.Omniscient = om

	r.Overlap = make([][]float64, len(seqs))
	for i := range seqs {
		r.Overlap[i] = make([]float64, len(seqs))
		for j := range seqs {
			r.Overlap[i][j] = jaccard(sets[i], sets[j])
		}
	}
	r.Ranking = rankings(r.Curves, r.Checkpoint, nil)
	if len(seqs) >= 2 {
		for i, s := range seqs {
			lu := scoreGraph(byURL, seeds, unionOf(seqs, i), o)
			var cs []Curve
			for j, t := range seqs {
				if j != i {
					cs = append(cs, curve(t, lu, r.Pages))
				}
			}
			l := LeaveOneOut{Left: s.Name, Orders: rankings(cs, r.Checkpoint, nil), Stable: true}
			full := rankings(r.Curves, r.Checkpoint, func(name string) bool { return name != s.Name })
			l.Changed = make([]bool, len(l.Orders))
			for c := range l.Orders {
				if !slices.Equal(l.Orders[c], full[c]) {
					l.Changed[c], l.Stable = true, false
				}
			}
			r.LeaveOneOut = append(r.LeaveOneOut, l)
		}
	}
	return r, nil
}

// scoreGraph builds the graph Score ranks on for the downloaded set: with
// o.Frontier the fetched pages that set links to join it, with o.Crawl
// links leaving the set are dropped.
func scoreGraph(byURL map[string]*Page, seeds []string, set []string, o ScoreOptions) *union {
	if o.Frontier {
		in := make(map[string]bool, len(set))
		for _, x := range set {
			in[x] = true
		}
		ext := slices.Clone(set)
		for _, x := range set {
			if p := byURL[x]; !p.Failed() {
				for _, l := range p.OutLinks {
					if !in[l] && byURL[l] != nil {
						in[l] = true
						ext = append(ext, l)
					}
				}
			}
		}
		set = ext
	}
	return buildGraph(byURL, seeds, set, o.Damping, o.Crawl)
}

// unionOf returns the distinct URLs downloaded by the sequences other than
// skip (-1: all), in order of the sequences, then of download.
func unionOf(seqs []Sequence, skip int) []string {
	seen := map[string]bool{}
	var out []string
	for i, s := range seqs {
		if i == skip {
			continue
		}
		for _, u := range s.URLs {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// grid returns sim's grid of k values for K pages: the checkpoints,
// evenly spaced and geometrically spaced points, ascending and distinct,
// with the checkpoint fraction each k stands for (0 for the fine grid).
func grid(K, points int) ([]int, []float64) {
	points = min(points, K)
	cp := map[int]float64{}
	var ks []int
	for _, f := range Checkpoints() {
		k := max(1, int(math.Ceil(f*float64(K)-1e-9)))
		if _, dup := cp[k]; !dup {
			cp[k] = f
		}
		ks = append(ks, k)
	}
	for i := 1; i <= points; i++ {
		ks = append(ks, max(1, int(math.Round(float64(i)*float64(K)/float64(points)))))
		ks = append(ks, max(1, int(math.Round(math.Pow(float64(K), float64(i)/float64(points))))))
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	fr := make([]float64, len(ks))
	for i, k := range ks {
		fr[i] = cp[k]
	}
	return ks, fr
}

// cumulative returns Σ vals[:k] at each k of ks; beyond len(vals) the sum
// holds when hold, and is NaN otherwise.
func cumulative(vals []float64, ks []int, hold bool) []float64 {
	out := make([]float64, len(ks))
	var sum float64
	j := 0
	for i, k := range ks {
		if k > len(vals) && !hold {
			out[i] = math.NaN()
			continue
		}
		for ; j < k && j < len(vals); j++ {
			sum += vals[j]
		}
		out[i] = sum
	}
	return out
}

// curve scores one sequence on u.
func curve(s Sequence, u *union, ks []int) Curve {
	vals := make([]float64, len(s.URLs))
	for i, x := range s.URLs {
		vals[i] = u.pr[u.id[x]]
	}
	return Curve{Scheduler: s.Name, Cumulative: cumulative(vals, ks, s.Done), Downloaded: len(s.URLs), Done: s.Done}
}

// omniscient crawls u from the seeds by sim's queue semantics with every
// node's union PageRank known in advance, for K pages.
func omniscient(u *union, seeds []string, K int, ks []int) (Curve, error) {
	var sg []uint32
	for _, s := range seeds {
		if v := u.id[s]; !slices.Contains(sg, v) {
			sg = append(sg, v)
		}
	}
	c := newCrawl("omniscient", K, 1)
	sch, err := scheduler.ByName("omniscient", scheduler.Options{Truth: func(id uint64) float64 { return u.pr[c.l2g[id]] }})
	if err != nil {
		return Curve{}, fmt.Errorf("compare: omniscient reference: %w", err)
	}
	c.start(sch, sg)
	host := func(g uint32) uint32 { return u.g.Hosts[g] }
	var vals []float64
	for c.fill(nil); !c.finished(); c.fill(nil) {
		v := c.l2g[c.flight[0].id]
		vals = append(vals, u.pr[v])
		c.download(0, u.g.Out(v), host)
	}
	return Curve{Scheduler: "omniscient", Cumulative: cumulative(vals, ks, true), Downloaded: len(vals), Done: true}, nil
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for x := range a {
		if b[x] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// rankings orders the curves (those keep accepts, nil: all) by score at
// each checkpoint, best first. Scores within 1e-12 of each other tie, and
// ties keep the curves' order.
func rankings(cs []Curve, checkpoint []float64, keep func(string) bool) [][]string {
	var out [][]string
	for i, f := range checkpoint {
		if f == 0 {
			continue
		}
		var idx []int
		for j := range cs {
			if keep == nil || keep(cs[j].Scheduler) {
				idx = append(idx, j)
			}
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			x, y := cs[a].Cumulative[i], cs[b].Cumulative[i]
			switch {
			case math.IsNaN(x) && math.IsNaN(y), math.Abs(x-y) <= 1e-12:
				return 0
			case math.IsNaN(x):
				return 1
			case math.IsNaN(y):
				return -1
			}
			return cmp.Compare(y, x)
		})
		names := make([]string, len(idx))
		for k, j := range idx {
			names[k] = cs[j].Scheduler
		}
		out = append(out, names)
	}
	return out
}
