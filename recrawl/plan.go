package recrawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/revisit"
	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Plan is one cycle as the crawl layer runs it; Recrawl gives the
// crawler's options for it.
type Plan struct {
	// Cycle is the cycle's record: new (Start) or as stored (a resume).
	Cycle storage.Cycle
	// Start is set for a new cycle, whose first commit stores Cycle and
	// builds the frontier from Seeds and Refresh.
	Start bool
	// Seeds are a new cycle's seeds, in order.
	Seeds []Pick
	// Refresh lists the known pages to revisit, first to refetch first:
	// under Options.RefreshPolicy (see refreshOrder).
	Refresh []uint64
	// Rank is the PageRank of the stored graph as of the previous cycle,
	// indexed by page id (StateRank: computed once per cycle and stored);
	// nil in cycle 1. It is the prior of the history schedulers.
	Rank []float64
	// MaxPages is the budget left in the cycle: 0 means no limit, -1 that
	// it is spent (the cycle only needs closing).
	MaxPages int64
	// MaxRefresh caps refetches of known pages: 0 means no cap, negative
	// none at all (CycleOptions.MaxRefresh).
	MaxRefresh int64
	// Revisit is the revisit schedule (RevisitPolicy).
	Revisit Revisit
	// Replacer replaces vanished seeds (CycleOptions.Replacer).
	Replacer *Replacer
	// RefetchHead, when positive, limits refetches to Refresh[:RefetchHead]
	// (CycleOptions.RefetchHead): a capped refresh share under a policy
	// other than RefreshPageRank, so that the policy, not the crawl order,
	// decides which known pages are refetched.
	RefetchHead int
	// Lazy is set for a budget-limited cycle: Refresh holds only what the
	// budget can use (see lazyRefresh), known pages are queued when a link
	// reaches them (CycleOptions.Lazy), and the frontier entries the
	// cycle leaves unused are removed when it ends.
	Lazy bool
	// Due is how many pages of Refresh the revisit policy (Revisit) finds
	// due as a new cycle is planned: those it refetches as far as the
	// refresh share allows (its seeds are refetched besides). Read from
	// the page records planning reads anyway: every known page's without
	// a budget, the pool's (what Refresh lists) with one (Lazy).
	Due int
	// Paced spreads a capped refresh share evenly over the cycle
	// (Options.RefreshPace, CycleOptions.Paced).
	Paced bool
	// Owed are the refetches a resumed cycle owed when it was
	// interrupted, read from the db (CycleOptions.Owed); nil for a new
	// cycle.
	Owed []OwedRefetch
	// Reseeder and ReseedEvery drive --reseed-every; Reseeder is nil
	// without it.
	Reseeder    *Reseeder
	ReseedEvery uint64
}

// info is the JSON stored in Cycle.Info.
type info struct {
	K              int     `json:"k"`
	Hops           int     `json:"hops"`
	PagesPerCycle  int64   `json:"pages_per_cycle"`
	DiscoveryShare float64 `json:"discovery_share"`
	Scheduler      string  `json:"scheduler"`
	Interval       string  `json:"interval,omitempty"`
	RevisitInitial string  `json:"revisit_initial,omitempty"`
	ReseedEvery    uint64  `json:"reseed_every,omitempty"`
	RefreshPolicy  string  `json:"refresh_policy,omitempty"`
	RevisitGone    uint32  `json:"revisit_gone,omitempty"`
	RefreshPace    string  `json:"refresh_pace,omitempty"`
	Note           string  `json:"note,omitempty"`
}

// crawlState is what one pass over the page records tells the planner.
type crawlState struct {
	live    []bool   // fetched, alive, HTML, on a host with budget left: candidate seeds
	settled []bool   // never to be fetched: rejected, out of scope, robots-denied, deferred
	retry   []uint64 // deferred for their host's state, never fetched: tried again (retryable)
	known   []uint64 // pages fetched (or tried) before: the refresh list
	due     []bool   // per page: known and due by the revisit policy as the cycle is planned
	last    []uint32 // per page: cycle of its last fetch (0: never)
	first   []uint32 // per page: cycle in which its URL was interned
	spawned []uint32 // per page: URLs first found on it in cycles 2, 3, ... (new pages it led to)
	hosts   []string // per page: its host name
	vanish  []string // per page: why it vanished ("" if it did not), for seeds
	depth0  []string // URLs at depth 0 found from nothing: the seeds of a plain crawl
}

// scan reads the page records of the first n pages; due tells whether a
// known page is due for a refetch.
func scan(st Store, n int, due func(p *storage.Page) bool) (*crawlState, error) {
	cs := &crawlState{live: make([]bool, n), vanish: make([]string, n), settled: make([]bool, n), last: make([]uint32, n),
		first: make([]uint32, n), spawned: make([]uint32, n), due: make([]bool, n)}
	hosts := make([]string, n)
	cs.hosts = hosts
	spent := map[string]bool{} // hosts whose page budget (--host-max-pages) ran out
	err := st.EachPage(func(p *storage.Page) error {
		if p.ID >= uint64(n) {
			return nil
		}
		if p.Fetches > 0 {
			cs.known = append(cs.known, p.ID)
			cs.due[p.ID] = due(p)
		}
		if retryable(p) {
			cs.retry = append(cs.retry, p.ID)
		}
		cs.last[p.ID], cs.first[p.ID] = p.Cycle, p.FirstCycle
		if p.FirstCycle >= 2 && p.From < uint64(n) && p.Status != storage.StatusOutOfScope && p.Status != storage.StatusRejected {
			cs.spawned[p.From]++
		}
		cs.live[p.ID] = p.Status.Fetched() && isHTML(p.ContentType)
		switch p.Status {
		case storage.StatusRejected, storage.StatusOutOfScope, storage.StatusRobotsDenied, storage.StatusDeferred:
			cs.settled[p.ID] = true
		}
		hosts[p.ID] = p.Host()
		if p.Status == storage.StatusRejected && p.Reason == "host-max-pages" {
			spent[hosts[p.ID]] = true
		}
		cs.vanish[p.ID] = vanishReason(p)
		if p.Depth == 0 && p.From == storage.NoPage {
			cs.depth0 = append(cs.depth0, p.URL)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recrawl: read pages: %w", err)
	}
	// A host whose budget is spent takes no new URL for the rest of the
	// db's life (a spider trap, usually): a seed there discovers nothing.
	for v := range cs.live {
		if cs.live[v] && spent[hosts[v]] {
			cs.live[v] = false
		}
	}
	return cs, nil
}

// retryable reports a URL never fetched because of its host's state at
// the time (robots.txt unreachable, a Crawl-delay or Retry-After too long,
// too many failures in a row: StatusDeferred), which a later cycle tries
// again; the frontier gives the host up again at once if it still is so.
func retryable(p *storage.Page) bool {
	return p.Fetches == 0 && p.Status == storage.StatusDeferred
}

// vanishReason says why a stored page is no good as a seed: the code of a
// lasting answer ("404", "410", "403", ...: revisit.Lasting), "redirect",
// "unreachable", or "" for a page that is fine (or never tried).
func vanishReason(p *storage.Page) string {
	switch {
	case p.Status == storage.StatusRedirect:
		return "redirect"
	case revisit.Lasting(p.Code):
		return fmt.Sprint(p.Code)
	case p.Status == storage.StatusFetchError || p.Status == storage.StatusHTTPError && p.Code >= 500:
		return "unreachable"
	}
	return ""
}

// isHTML reports whether a Content-Type is HTML (as package fetch parses it).
func isHTML(ct string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(ct), ";")
	mt = strings.TrimSpace(mt)
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// loaded is the stored graph and crawl state a cycle is planned on.
type loaded struct {
	g             *graph.CSR
	fetched, nove []bool
	cs            *crawlState
}

// load reads the graph as of the end of cycle asOf (0: the current graph)
// and the crawl state of its pages. Cycle n is planned, and its vanished
// seeds replaced, on the graph as of cycle n-1, so a resumed cycle sees the
// graph the uninterrupted one saw.
func (r *Runner) load(asOf uint32) (*loaded, error) {
	var view *storage.View
	var err error
	if asOf > 0 {
		view, err = r.o.Store.AsOf(asOf)
	}
	if asOf == 0 || errors.Is(err, storage.ErrNotFound) {
		view, err = r.o.Store.Graph()
	}
	if err != nil {
		return nil, fmt.Errorf("recrawl: graph: %w", err)
	}
	g, err := graph.Load(view)
	if err != nil {
		return nil, fmt.Errorf("recrawl: load graph: %w", err)
	}
	fetched, novel, err := view.NodeFlags()
	if err != nil {
		return nil, fmt.Errorf("recrawl: page flags: %w", err)
	}
	cs, err := scan(r.o.Store, g.N(), r.dueIn(asOf+1))
	if err != nil {
		return nil, err
	}
	// A page the crawl will not fetch (a trap guard or budget rejected it,
	// out of scope, robots.txt denies it) counts as settled, not uncrawled:
	// links to it add nothing to their source's value. Otherwise the last
	// pages before a spider trap's cut-off, whose links all lead to rejected
	// URLs, look like the most valuable seeds.
	for v, ok := range cs.settled {
		if ok && v < len(fetched) {
			fetched[v] = true
		}
	}
	return &loaded{g: g, fetched: fetched, nove: novel, cs: cs}, nil
}

// dueIn returns the revisit policy's test of a known page in cycle n, at
// the planning clock's now.
func (r *Runner) dueIn(n uint32) func(p *storage.Page) bool {
	v, now := r.o.Revisit.at(n), r.o.Now()
	return func(p *storage.Page) bool { return v.Due(p, now) }
}

// input is the selectors' view of the crawl: pages the crawl will not fetch
// are worth nothing (weight 0), so covering them gains nothing.
func (l *loaded) input() seeds.Input {
	in := seeds.Input{G: l.g, Fetched: l.fetched, Novel: l.nove}
	for v, ok := range l.cs.settled {
		if ok {
			if in.Weights == nil {
				in.Weights = map[uint32]float64{}
			}
			in.Weights[uint32(v)] = 0
		}
	}
	return in
}

// newPlan plans cycle n: its seeds (given, or selected on the stored graph
// with vanished ones replaced), its refresh list and its budget.
func (r *Runner) newPlan(ctx context.Context, n uint32, cycles []storage.Cycle) (*Plan, error) {
	o := &r.o
	p := &Plan{Start: true, Revisit: o.Revisit.at(n)}
	p.Cycle = storage.Cycle{N: n, Start: o.Now(), SeedAlgo: AlgoGiven}
	if o.PagesPerCycle > 0 {
		p.MaxPages = o.PagesPerCycle
		if o.DiscoveryShare > 0 {
			p.MaxRefresh = refreshCap(int64(math.Floor((1 - o.DiscoveryShare) * float64(o.PagesPerCycle))))
		}
	}
	inf := info{K: o.Select.K, Hops: o.Select.Hops, PagesPerCycle: o.PagesPerCycle, DiscoveryShare: o.DiscoveryShare,
		Scheduler: o.Scheduler, ReseedEvery: o.ReseedEvery, RefreshPolicy: o.RefreshPolicy, RevisitGone: o.Revisit.GoneCycles,
		RefreshPace: o.RefreshPace}
	if o.Interval > 0 {
		inf.Interval = o.Interval.String()
	}
	if o.Revisit.Initial > 0 {
		inf.RevisitInitial = o.Revisit.Initial.String()
	}
	if n == 1 {
		if len(o.Seeds) == 0 {
			return nil, ErrNoSeeds
		}
		for _, s := range o.Seeds {
			p.Seeds = append(p.Seeds, Pick{URL: s, Why: "given"})
		}
		p.Replacer = r.newReplacer(nil, n)
		p.Reseeder = r.newReseeder(n)
		p.ReseedEvery = o.ReseedEvery
		return p, r.setInfo(p, inf)
	}

	// A budget-limited cycle with the seeds given needs no graph: the
	// seeds are read one by one, the refresh pool by stored PageRank
	// (lazyRefreshOrder), and a vanished seed's replacement loads the graph
	// if one is needed. Selecting seeds reads the whole graph.
	var l *loaded
	var err error
	if o.PagesPerCycle == 0 || o.SeedAlgo != AlgoGiven {
		if l, err = r.load(n - 1); err != nil {
			return nil, err
		}
	}
	p.Replacer = r.newReplacer(l, n)
	var ids []uint32
	switch o.SeedAlgo {
	case AlgoGiven:
	case AlgoNewPages:
		ids, err = r.newPages(ctx, l, n, r.firstSeeds(l, cycles), p)
	default:
		ids, err = r.selectSeeds(ctx, l, n, p)
	}
	if o.SeedAlgo != AlgoGiven {
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			inf.Note = fmt.Sprintf("%s found no candidate seed (no fetched live HTML page): kept the previous seeds", o.SeedAlgo)
		}
	}
	if len(ids) == 0 {
		if ids, err = r.previousSeeds(ctx, l, n, cycles, p); err != nil {
			return nil, err
		}
	}
	if o.Agree != nil {
		if ids, err = r.agree(ctx, l, n, p); err != nil {
			return nil, err
		}
	} else if len(ids) == 0 {
		return nil, fmt.Errorf("recrawl: cycle %d: %w", n, ErrNoSeeds)
	}
	var g *graph.CSR
	if l != nil {
		g = l.g
	}
	if p.Rank, err = r.rank(n-1, g); err != nil {
		return nil, err
	}
	if o.PagesPerCycle > 0 {
		p.Lazy = true
		// RefetchHead below is at most MaxRefresh ≤ PagesPerCycle.
		keep := int(o.PagesPerCycle)
		if p.Refresh, p.Due, err = r.lazyRefreshOrder(ids, p.Rank, n, p.MaxRefresh, keep); err != nil {
			return nil, err
		}
	} else {
		if p.Refresh, err = r.refreshOrder(l, ids, p.Rank, n, p.MaxRefresh); err != nil {
			return nil, err
		}
		for _, id := range p.Refresh {
			if l.cs.due[id] {
				p.Due++
			}
		}
	}
	if p.MaxRefresh > 0 && o.RefreshPolicy != RefreshPageRank {
		p.RefetchHead = int(min(p.MaxRefresh, int64(len(p.Refresh))))
	}
	// URLs deferred for their host's state come last, out of the refresh
	// order and its share: never fetched, they are the cycle's discovery
	// work, fetched as new URLs are (no refresh decision is asked of them).
	// A budget-limited cycle, planned without the whole graph, queues them
	// when a link reaches them (Cycle.Requeue).
	if l != nil {
		p.Refresh = append(p.Refresh, l.cs.retry...)
	}
	p.Reseeder = r.newReseeder(n)
	p.ReseedEvery = o.ReseedEvery
	return p, r.setInfo(p, inf)
}

// Recrawl returns the options of the cycle p plans (NewCycle): the crawl
// is one cycle of the incremental crawler.
func (p *Plan) Recrawl() *CycleOptions {
	rc := &CycleOptions{
		Cycle:       p.Cycle,
		Start:       p.Start,
		Seeds:       p.Seeds,
		Refresh:     p.Refresh,
		Policy:      p.Revisit,
		MaxRefresh:  p.MaxRefresh,
		ReseedEvery: p.ReseedEvery,
		Lazy:        p.Lazy,
		RefetchHead: p.RefetchHead,
		Paced:       p.Paced,
		Budget:      max(p.MaxPages, 0),
		Owed:        p.Owed,
	}
	if rank := p.Rank; rank != nil {
		rc.Weight = func(id uint64) float64 {
			if id < uint64(len(rank)) {
				return rank[id]
			}
			return 0
		}
	}
	if p.Replacer != nil {
		rc.Replacer = p.Replacer
	}
	if p.Reseeder != nil {
		rc.Reseeder = p.Reseeder
	}
	return rc
}

func (r *Runner) setInfo(p *Plan, inf info) error {
	b, err := json.Marshal(inf)
	if err != nil {
		return fmt.Errorf("recrawl: cycle info: %w", err)
	}
	p.Cycle.Info = string(b)
	return nil
}

// rng returns the selectors' generator for cycle n.
func (r *Runner) rng(n uint32, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(r.o.RandSeed, uint64(n)<<32|salt))
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// nodeOf finds the node of URL u (a linear scan: planning only).
func nodeOf(g *graph.CSR, u string) (uint32, bool) {
	for v, x := range g.URLs {
		if x == u {
			return uint32(v), true
		}
	}
	return 0, false
}
