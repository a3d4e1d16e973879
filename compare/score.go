package compare

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/seedcrawl/seedcrawl/chart"
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
	// downloaded but a downloaded page links to: the part of the crawls'
	// frontier fetched for the score only (Options.Frontier, seedcrawl
	// compare --score-frontier-share and --score-frontier). Their links then
	// count as votes for the downloaded pages, whose in-links the crawls
	// alone reveal only in part. Frontier pages are scored like the others
	// but never in a sequence.
	Frontier bool
	// Walked are pages a crawl passed through from storage without
	// fetching them: in a recrawl cycle (seedcrawl score --cycle N of a run
	// db), the pages fetched in earlier cycles and not again in this one,
	// whose stored links the cycle follows. pages must hold them, with
	// those links. Every one joins the graph as a page with its links, so
	// the pages the cycle reached through them are reachable there too;
	// the omniscient crawl passes through them without spending its
	// budget, as the real crawl did, and neither it nor U(k) scores them
	// (no sequence can: they were not fetched). A walked URL that a
	// sequence downloaded counts as downloaded.
	Walked []string
	// BFSReference makes the gap closure's baseline a breadth-first crawl
	// of the graph ranked on, simulated from the seeds for the budget as the
	// omniscient reference is (Report.BFS), instead of a sequence named
	// bfs. A db holds one crawl, not also a BFS crawl of the same web
	// (seedcrawl score): without it, a crawl that ran bfs would be its own
	// baseline and one that ran anything else would have no gap closure.
	BFSReference bool
	// Unfetched is how the rank of a discovered-only node (a URL linked
	// from a fetched page and fetched by nobody) moves on; the zero value is
	// UnfetchedHost.
	Unfetched Unfetched
}

// Unfetched names a way to treat the discovered-only nodes of the union
// graph in PageRank (ScoreOptions.Unfetched).
type Unfetched int

const (
	// UnfetchedHost gives a discovered-only node the links of an average
	// fetched page of its host: its rank goes to the fetched pages of that
	// host that have links, in equal shares, and on along their links (the
	// mean of their rows of the link matrix). A host with no such page
	// leaves the node dangling. Pages of one site share navigation and
	// templates, so the site's fetched pages are the best guess of what an
	// unfetched one links to; without the guess, the pages that unfetched
	// pages link to lose those votes.
	UnfetchedHost Unfetched = iota
	// UnfetchedDangling keeps discovered-only nodes dangling: their rank is
	// spread uniformly over all nodes, as graph.PageRank does.
	UnfetchedDangling
)

// String returns the name ParseUnfetched accepts.
func (u Unfetched) String() string {
	switch u {
	case UnfetchedHost:
		return "host"
	case UnfetchedDangling:
		return "dangling"
	}
	return fmt.Sprintf("Unfetched(%d)", int(u))
}

// ParseUnfetched parses "host" or "dangling".
func ParseUnfetched(s string) (Unfetched, error) {
	switch s {
	case "host":
		return UnfetchedHost, nil
	case "dangling":
		return UnfetchedDangling, nil
	}
	return 0, fmt.Errorf("%w: unfetched model %q: want host or dangling", ErrOptions, s)
}

// Checkpoints are the fractions of the budget at which the report
// tabulates the scores (sim's checkpoints).
func Checkpoints() []float64 { return chart.Checkpoints() }

// corpus is every page Score may rank and every URL they link to, under
// dense ids (pages first, in the given order), so that the union graph and
// its leave-one-out variants are built with arrays, not string maps.
type corpus struct {
	urlIndex            // hosts by graph.HostOf
	page     []bool     // by id: a fetched page
	failed   []bool     // by id: a fetched page that Failed
	walked   []bool     // by id: a page of ScoreOptions.Walked no sequence downloaded
	out      [][]uint32 // by id: distinct out-links of a page that did not fail, document order
}

func newCorpus(pages []Page, seeds []string) *corpus {
	c := &corpus{urlIndex: newURLIndex(graph.HostOf, 2*len(pages))}
	first := make([]bool, len(pages)) // the first page of its URL: the one that counts
	for i := range pages {
		v := c.intern(pages[i].URL)
		if !c.page[v] {
			c.page[v], c.failed[v], first[i] = true, pages[i].Failed(), true
		}
	}
	for _, s := range seeds {
		c.intern(s)
	}
	stamp := make([]int, 0, len(c.urls))
	for i := range pages {
		p := &pages[i]
		v := c.ids[p.URL]
		if !first[i] || c.failed[v] {
			continue
		}
		out := make([]uint32, 0, len(p.OutLinks))
		for _, l := range p.OutLinks {
			t := c.intern(l)
			for len(stamp) < len(c.urls) {
				stamp = append(stamp, -1)
			}
			if stamp[t] != i {
				stamp[t] = i
				out = append(out, t)
			}
		}
		c.out[v] = out
	}
	return c
}

func (c *corpus) intern(u string) uint32 {
	v, added := c.add(u)
	if added {
		c.page = append(c.page, false)
		c.failed = append(c.failed, false)
		c.walked = append(c.walked, false)
		c.out = append(c.out, nil)
	}
	return v
}

// union is a graph Score ranks on, with its PageRank.
type union struct {
	g     *graph.CSR // Hosts set; no URLs
	walk  []bool     // by node: a walked page (ScoreOptions.Walked)
	node  []int32    // corpus id -> node, -1 when not in the graph
	ids   []uint32   // node -> corpus id
	page  []bool     // by node: a fetched page (downloaded or frontier)
	pr    []float64  // by node
	pages int        // fetched pages among the nodes
}

// rank returns the PageRank of corpus id v (0 when not in the graph).
func (u *union) rank(v uint32) float64 {
	if n := u.node[v]; n >= 0 {
		return u.pr[n]
	}
	return 0
}

// build makes the graph Score ranks on for the downloaded set (corpus ids,
// distinct). Nodes, in this order: the seeds; set; with o.Frontier the
// pages no sequence downloaded (downloaded[v] false) that set links to;
// the walked pages (ScoreOptions.Walked); then every other URL those pages
// link to (discovered-only, no out-arcs),
// in order of appearance. Each page that did not fail has arcs to its
// distinct out-links; with o.Crawl only to seeds and pages.
func (c *corpus) build(seeds, set []uint32, downloaded []bool, o ScoreOptions) *union {
	u := &union{node: make([]int32, len(c.urls))}
	for i := range u.node {
		u.node[i] = -1
	}
	add := func(v uint32) {
		if u.node[v] < 0 {
			u.node[v] = int32(len(u.ids))
			u.ids = append(u.ids, v)
		}
	}
	for _, v := range seeds {
		add(v)
	}
	for _, v := range set {
		add(v)
	}
	pages := slices.Clone(set)
	if o.Frontier {
		for _, v := range set {
			for _, t := range c.out[v] {
				if c.page[t] && !downloaded[t] && !c.walked[t] && u.node[t] < 0 {
					add(t)
					pages = append(pages, t)
				}
			}
		}
	}
	// Every walked page, seeds among them: not in set (nobody downloaded
	// it) nor among the frontier pages above.
	for v, w := range c.walked {
		if w {
			add(uint32(v))
			pages = append(pages, uint32(v))
		}
	}
	u.pages = len(pages)
	if !o.Crawl {
		for _, v := range pages {
			for _, t := range c.out[v] {
				add(t)
			}
		}
	}
	n := len(u.ids)
	u.page, u.walk = make([]bool, n), make([]bool, n)
	for _, v := range pages {
		u.page[u.node[v]] = true
		u.walk[u.node[v]] = c.walked[v]
	}
	g := &graph.CSR{Offsets: make([]uint64, n+1), Hosts: make([]uint32, n)}
	for x, v := range u.ids {
		g.Hosts[x] = c.host[v]
		if u.page[x] {
			for _, t := range c.out[v] {
				if w := u.node[t]; w >= 0 {
					g.Targets = append(g.Targets, uint32(w))
				}
			}
		}
		g.Offsets[x+1] = uint64(len(g.Targets))
	}
	u.g = g
	u.pr = pageRank(g, u.page, c.nHostsOf(), o.Damping, o.Unfetched)
	return u
}

func (c *corpus) nHostsOf() int { return len(c.hostIDs) }

// Score scores download sequences without ground truth, on the union graph
// of what they downloaded (see the package documentation for the union
// graph and its PageRank). pages must hold every downloaded URL; pages no
// sequence downloaded are left out of the union graph (their URLs stay as
// discovered-only nodes when linked) unless o.Frontier, so a partial
// comparison scores like a finished one of that length. seeds are the
// crawls' seeds, for the omniscient reference.
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
	if o.Unfetched != UnfetchedHost && o.Unfetched != UnfetchedDangling {
		return nil, fmt.Errorf("%w: unfetched model %v", ErrOptions, o.Unfetched)
	}
	if o.Grid <= 0 {
		o.Grid = 200
	}
	c := newCorpus(pages, seeds)
	ids := make([][]uint32, len(seqs))
	sets := make([]map[uint32]bool, len(seqs))
	downloaded := make([]bool, len(c.urls))
	maxLen, allDone := 0, true
	for i, s := range seqs {
		sets[i] = make(map[uint32]bool, len(s.URLs))
		ids[i] = make([]uint32, len(s.URLs))
		for k, x := range s.URLs {
			v, ok := c.ids[x]
			if !ok || !c.page[v] {
				return nil, fmt.Errorf("compare: score %s: download %d, %s: %w", s.Name, k+1, x, ErrUnknownPage)
			}
			if sets[i][v] {
				return nil, fmt.Errorf("%w: %s downloads %s twice", ErrOptions, s.Name, x)
			}
			sets[i][v] = true
			ids[i][k] = v
			downloaded[v] = true
		}
		maxLen = max(maxLen, len(s.URLs))
		allDone = allDone && s.Done
	}
	for _, x := range o.Walked {
		v, ok := c.ids[x]
		if !ok || !c.page[v] {
			return nil, fmt.Errorf("compare: score: walked page %s: %w", x, ErrUnknownPage)
		}
		c.walked[v] = !downloaded[v]
	}
	K := o.Budget
	if K <= 0 || (allDone && maxLen < K) {
		K = maxLen
	}
	r := &Report{Seeds: len(seeds), Budget: o.Budget, Damping: o.Damping, Reference: K, Unfetched: o.Unfetched.String()}
	if K == 0 {
		return nil, fmt.Errorf("%w: no sequence has downloaded anything", ErrOptions)
	}
	r.Pages, r.Checkpoint = chart.Grid(K, o.Grid)
	var seedIDs []uint32
	for _, s := range seeds {
		if v := c.ids[s]; !slices.Contains(seedIDs, v) {
			seedIDs = append(seedIDs, v)
		}
	}

	all := unionOf(ids, -1)
	// The union graph and the leave-one-out graphs are independent: build
	// and rank them on every core.
	var loo []*union
	if len(seqs) >= 2 {
		loo = make([]*union, len(seqs))
	}
	var u *union
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(seqs)+1) {
		wg.Go(func() {
			for i := range work {
				if i < 0 {
					u = c.build(seedIDs, all, downloaded, o)
				} else {
					loo[i] = c.build(seedIDs, unionOf(ids, i), downloaded, o)
				}
			}
		})
	}
	work <- -1
	for i := range loo {
		work <- i
	}
	close(work)
	wg.Wait()

	r.UnionNodes, r.UnionArcs, r.Downloaded = u.g.N(), u.g.M(), len(all)
	r.FrontierPages = u.pages - len(all) - u.walked()
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
	// U(k) ranks what a crawl can score: not the walked pages.
	sorted := make([]float64, 0, len(u.pr))
	for x, p := range u.pr {
		if !u.walk[x] {
			sorted = append(sorted, p)
		}
	}
	slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
	r.Upper = cumulative(sorted, r.Pages, true)
	for i, s := range seqs {
		r.Curves = append(r.Curves, curve(s, ids[i], u, r.Pages))
		if s.Name == "bfs" {
			r.bfs = len(r.Curves) - 1
			r.HasBFS = true
		}
	}
	om, err := omniscient(u, seedIDs, K, r.Pages)
	if err != nil {
		return nil, err
	}
	r.Omniscient = om
	if o.BFSReference {
		b, err := bfsReference(u, seedIDs, K, r.Pages)
		if err != nil {
			return nil, err
		}
		r.BFS, r.HasBFS = &b, true
	}

	r.Overlap = make([][]float64, len(seqs))
	for i := range seqs {
		r.Overlap[i] = make([]float64, len(seqs))
		for j := range seqs {
			r.Overlap[i][j] = jaccard(sets[i], sets[j])
		}
	}
	r.Ranking = rankings(r.Curves, r.Checkpoint, nil)
	for i := range loo {
		var cs []Curve
		for j, t := range seqs {
			if j != i {
				cs = append(cs, curve(t, ids[j], loo[i], r.Pages))
			}
		}
		name := seqs[i].Name
		l := LeaveOneOut{Left: name, Orders: rankings(cs, r.Checkpoint, nil), Stable: true}
		full := rankings(r.Curves, r.Checkpoint, func(n string) bool { return n != name })
		l.Changed = make([]bool, len(l.Orders))
		for k := range l.Orders {
			if !slices.Equal(l.Orders[k], full[k]) {
				l.Changed[k], l.Stable = true, false
			}
		}
		r.LeaveOneOut = append(r.LeaveOneOut, l)
	}
	return r, nil
}

// unionOf returns the distinct ids downloaded by the sequences other than
// skip (-1: all), in order of the sequences, then of download.
func unionOf[T comparable](seqs [][]T, skip int) []T {
	seen := map[T]bool{}
	var out []T
	for i, s := range seqs {
		if i == skip {
			continue
		}
		for _, u := range s {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
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

// curve scores one sequence, whose corpus ids are ids, on u.
func curve(s Sequence, ids []uint32, u *union, ks []int) Curve {
	vals := make([]float64, len(ids))
	for i, v := range ids {
		vals[i] = u.rank(v)
	}
	return Curve{Scheduler: s.Name, Cumulative: cumulative(vals, ks, s.Done), Downloaded: len(s.URLs), Done: s.Done}
}

// walked returns the number of walked pages among u's nodes.
func (u *union) walked() int {
	n := 0
	for _, w := range u.walk {
		if w {
			n++
		}
	}
	return n
}

// walkPrio is the omniscient priority of a walked page: above any
// PageRank and any seed's priority (scheduler.SeedBoost plus a PageRank
// below 1), so that it is passed through as soon as it is discovered. It
// costs nothing, and only opens the way to the pages it links to.
const walkPrio = scheduler.SeedBoost + 1

// omniscient returns the omniscient reference on u for K pages: at each
// k, the better of two crawls from the seeds by sim's queue semantics with
// every node's union PageRank known in advance, one that downloads the
// seeds first (scheduler.SeedsFirst) and one that ranks a seed like any
// other page. Neither rule is best everywhere: seeds first, a seed of low
// rank that opens a site of high rank is not left waiting behind a whole
// site (ranked alone, the reference can score below BFS); ranked alone,
// seeds of low rank do not take the budget from the pages of high rank
// the first seeds link to. sim's reference is the same.
func omniscient(u *union, seeds []uint32, K int, ks []int) (Curve, error) {
	var out Curve
	for _, seedsFirst := range []bool{true, false} {
		cv, err := referenceCrawl(u, seeds, K, ks, "omniscient", func(c *crawl, isSeed []bool) (scheduler.Scheduler, error) {
			truth := func(id uint64) float64 {
				if g := c.l2g[id]; u.walk[g] {
					return walkPrio
				}
				return u.pr[c.l2g[id]]
			}
			if seedsFirst {
				truth = scheduler.SeedsFirst(truth, func(id uint64) bool { return isSeed[c.l2g[id]] })
			}
			return scheduler.ByName("omniscient", scheduler.Options{Truth: truth})
		})
		if err != nil {
			return Curve{}, err
		}
		if out.Cumulative == nil {
			out = cv
			continue
		}
		for i, v := range cv.Cumulative {
			out.Cumulative[i] = max(out.Cumulative[i], v)
		}
		out.Downloaded = max(out.Downloaded, cv.Downloaded)
	}
	return out, nil
}

// BFSReferenceName names the simulated BFS crawl of ScoreOptions.BFSReference.
const BFSReferenceName = "bfs (simulated)"

// bfsReference crawls u breadth-first from the seeds for K pages, by sim's
// queue semantics, the walked pages passed through free as the omniscient
// reference passes them: the gap closure's baseline when there is no real
// BFS crawl of the same web (ScoreOptions.BFSReference).
func bfsReference(u *union, seeds []uint32, K int, ks []int) (Curve, error) {
	return referenceCrawl(u, seeds, K, ks, BFSReferenceName, func(*crawl, []bool) (scheduler.Scheduler, error) {
		return scheduler.ByName("bfs", scheduler.Options{})
	})
}

// referenceCrawl crawls u from the seeds by sim's queue semantics with the
// scheduler mk returns (given the crawl, for its local ids, and which
// nodes are seeds), for K pages. Walked pages are passed through free:
// they do not count among the K.
func referenceCrawl(u *union, seeds []uint32, K int, ks []int, name string, mk func(c *crawl, isSeed []bool) (scheduler.Scheduler, error)) (Curve, error) {
	var sg []uint32
	isSeed := make([]bool, len(u.pr))
	for _, s := range seeds {
		// A seed no crawl downloaded and no page links to (robots.txt
		// denied it, its host failed) is not in the graph.
		if n := u.node[s]; n >= 0 && !isSeed[n] {
			sg = append(sg, uint32(n))
			isSeed[n] = true
		}
	}
	c := newCrawl(name, K+u.walked(), 1)
	sch, err := mk(c, isSeed)
	if err != nil {
		return Curve{}, fmt.Errorf("compare: %s reference: %w", name, err)
	}
	c.start(sch, sg)
	host := func(g uint32) uint32 { return u.g.Hosts[g] }
	var vals []float64
	for c.fill(nil); !c.finished() && len(vals) < K; c.fill(nil) {
		v := c.l2g[c.flight[0].id]
		if !u.walk[v] {
			vals = append(vals, u.pr[v])
		}
		c.download(0, u.g.Out(v), host)
	}
	return Curve{Scheduler: name, Cumulative: cumulative(vals, ks, true), Downloaded: len(vals), Done: true}, nil
}

func jaccard(a, b map[uint32]bool) float64 {
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

// FrontierSample returns up to n URLs of the crawls' frontier to fetch for
// the score: the URLs a downloaded page links to that no sequence
// downloaded and pages does not hold (frontier pages in pages count as
// fetched), highest UnfetchedHost PageRank on the union graph first, ties
// in node order. Their
// rank is the estimated rank mass whose votes the union graph does not
// see; fetching the URLs that hold the most of it reveals most of what is
// missing (ScoreOptions.Frontier). pages and seqs are as for Score.
func FrontierSample(pages []Page, seeds []string, seqs []Sequence, damping float64, n int) ([]string, error) {
	if damping == 0 {
		damping = scheduler.DefaultDamping
	}
	if n <= 0 {
		return nil, nil
	}
	c := newCorpus(pages, seeds)
	ids := make([][]uint32, len(seqs))
	downloaded := make([]bool, len(c.urls))
	for i, s := range seqs {
		for k, x := range s.URLs {
			v, ok := c.ids[x]
			if !ok || !c.page[v] {
				return nil, fmt.Errorf("compare: frontier sample: %s download %d, %s: %w", s.Name, k+1, x, ErrUnknownPage)
			}
			ids[i] = append(ids[i], v)
			downloaded[v] = true
		}
	}
	var seedIDs []uint32
	for _, s := range seeds {
		seedIDs = append(seedIDs, c.ids[s])
	}
	all := unionOf(ids, -1)
	u := c.build(seedIDs, all, downloaded, ScoreOptions{Damping: damping, Frontier: true})
	// Candidates: what the downloaded pages link to, not the links of
	// frontier pages already fetched.
	linked := make([]bool, len(c.urls))
	for _, v := range all {
		for _, t := range c.out[v] {
			linked[t] = true
		}
	}
	var cand []int
	for x, v := range u.ids {
		if linked[v] && !c.page[v] {
			cand = append(cand, x)
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(u.pr[b], u.pr[a]) })
	out := make([]string, 0, min(n, len(cand)))
	for _, x := range cand[:min(n, len(cand))] {
		out = append(out, c.urls[u.ids[x]])
	}
	return out, nil
}

// DefaultFrontierShare is the share of the union of the downloaded sets
// that a comparison fetches of the crawls' frontier for the score by
// default (Options.FrontierShare): the requests stay within 1.1 times the
// union.
const DefaultFrontierShare = 0.1
