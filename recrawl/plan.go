package recrawl

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
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
	Note           string  `json:"note,omitempty"`
}

// crawlState is what one pass over the page records tells the planner.
type crawlState struct {
	live    []bool   // fetched, alive, HTML, on a host with budget left: candidate seeds
	settled []bool   // never to be fetched: rejected, out of scope, robots-denied, deferred
	known   []uint64 // pages fetched (or tried) before: the refresh list
	last    []uint32 // per page: cycle of its last fetch (0: never)
	first   []uint32 // per page: cycle in which its URL was interned
	spawned []uint32 // per page: URLs first found on it in cycles 2, 3, ... (new pages it led to)
	hosts   []string // per page: its host name
	vanish  []string // per page: why it vanished ("" if it did not), for seeds
	depth0  []string // URLs at depth 0 found from nothing: the seeds of a plain crawl
}

// scan reads the page records of the first n pages.
func scan(st Store, n int) (*crawlState, error) {
	cs := &crawlState{live: make([]bool, n), vanish: make([]string, n), settled: make([]bool, n), last: make([]uint32, n),
		first: make([]uint32, n), spawned: make([]uint32, n)}
	hosts := make([]string, n)
	cs.hosts = hosts
	spent := map[string]bool{} // hosts whose page budget (--host-max-pages) ran out
	err := st.EachPage(func(p *storage.Page) error {
		if p.ID >= uint64(n) {
			return nil
		}
		if p.Fetches > 0 {
			cs.known = append(cs.known, p.ID)
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

// vanishReason says why a stored page is no good as a seed: "404", "410",
// "redirect", "unreachable", or "" for a page that is fine (or never tried).
func vanishReason(p *storage.Page) string {
	switch {
	case p.Status == storage.StatusRedirect:
		return "redirect"
	case p.Code == 404 || p.Code == 410:
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
	cs, err := scan(r.o.Store, g.N())
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
		Scheduler: o.Scheduler, ReseedEvery: o.ReseedEvery, RefreshPolicy: o.RefreshPolicy, RevisitGone: o.Revisit.GoneCycles}
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
		if p.Refresh, err = r.lazyRefreshOrder(ids, p.Rank, n, p.MaxRefresh, keep); err != nil {
			return nil, err
		}
	} else if p.Refresh, err = r.refreshOrder(l, ids, p.Rank, n, p.MaxRefresh); err != nil {
		return nil, err
	}
	if p.MaxRefresh > 0 && o.RefreshPolicy != RefreshPageRank {
		p.RefetchHead = int(min(p.MaxRefresh, int64(len(p.Refresh))))
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

// selectSeeds runs the selector on the stored graph, the candidates being
// the fetched, live HTML pages, and fills p.Seeds.
func (r *Runner) selectSeeds(ctx context.Context, l *loaded, n uint32, p *Plan) ([]uint32, error) {
	o := &r.o
	if !slices.Contains(l.cs.live, true) {
		return nil, nil
	}
	if o.SeedAlgo == AlgoNewPages {
		return r.newPages(ctx, l, n, nil, p)
	}
	so := o.Select
	so.Algo, so.Candidates, so.Rand = o.SeedAlgo, l.cs.live, r.rng(n, 0)
	res, err := seeds.Select(ctx, l.input(), so)
	if err != nil {
		return nil, fmt.Errorf("recrawl: cycle %d: select seeds: %w", n, err)
	}
	p.Cycle.SeedAlgo = o.SeedAlgo
	ids := res.Nodes()
	for _, s := range res.Seeds {
		p.Seeds = append(p.Seeds, Pick{URL: l.g.URLs[s.Node], Score: s.Score, Why: why(res, &s)})
	}
	return ids, nil
}

// agree replaces p's seeds with the ones the cluster agreed on
// (Options.Agree) and returns those this node's graph holds.
func (r *Runner) agree(ctx context.Context, l *loaded, n uint32, p *Plan) ([]uint32, error) {
	agreed, err := r.o.Agree(ctx, n, p.Seeds)
	if err != nil {
		return nil, fmt.Errorf("recrawl: cycle %d: agree on seeds: %w", n, err)
	}
	if len(agreed) == 0 {
		return nil, fmt.Errorf("recrawl: cycle %d: %w", n, ErrNoSeeds)
	}
	if !slices.Equal(agreed, p.Seeds) {
		// Another node's selection: this node's replacements of vanished
		// seeds are not part of it.
		p.Seeds, p.Cycle.Replaced = agreed, nil
	}
	var ids []uint32
	if l == nil {
		// A budget-limited cycle with the seeds given loads no graph: the
		// agreed seeds this node holds are looked up in its db.
		urls := make([]string, len(p.Seeds))
		for i, s := range p.Seeds {
			urls[i] = s.URL
		}
		found, err := r.o.Store.Lookup(urls)
		if err != nil {
			return nil, fmt.Errorf("recrawl: cycle %d: look up agreed seeds: %w", n, err)
		}
		for _, id := range found {
			if id != storage.NoPage && id <= math.MaxUint32 {
				ids = append(ids, uint32(id))
			}
		}
		return ids, nil
	}
	for _, s := range p.Seeds {
		if v, ok := nodeOf(l.g, s.URL); ok {
			ids = append(ids, v)
		}
	}
	return ids, nil
}

// why explains a selected seed for the cycle record.
func why(res *seeds.Result, s *seeds.Seed) string {
	w := fmt.Sprintf("%s rank %d: %s %.4g; covers %d new pages (value %.1f) within %d hops",
		res.Algo, s.Rank, res.Score, s.Score, s.Pages, s.Value, res.Hops)
	if s.Filled {
		w += " (filled)"
	}
	if s.Core != nil {
		w += fmt.Sprintf("; core %d hubs x %d authorities, density %.0f%%", len(s.Core.Hubs), len(s.Core.Authorities), s.Core.Density)
	}
	return w
}

// previousSeeds keeps the seeds of cycle n-1 (its replacements applied);
// seeds the stored crawl shows vanished are replaced now and recorded in
// p.Cycle.Replaced. l may be nil (a budget-limited cycle with given
// seeds): the seeds' records are then read one by one, and the graph is
// loaded only for a db that records no seeds.
func (r *Runner) previousSeeds(ctx context.Context, l *loaded, n uint32, cycles []storage.Cycle, p *Plan) ([]uint32, error) {
	var prev []storage.Seed
	var why []string
	for _, c := range cycles {
		if c.N == n-1 {
			prev = applyReplacements(c.Seeds, c.Replaced)
		}
	}
	for _, s := range prev {
		why = append(why, s.Why)
	}
	if len(prev) == 0 {
		// A plain crawl's db: its seeds are its depth-0 pages.
		if l == nil {
			var err error
			if l, err = r.load(n - 1); err != nil {
				return nil, err
			}
		}
		urls := r.o.Seeds
		if len(urls) == 0 {
			urls = l.cs.depth0
		}
		for _, u := range urls {
			if v, ok := nodeOf(l.g, u); ok {
				prev = append(prev, storage.Seed{ID: uint64(v)})
				why = append(why, "given")
			}
		}
	}
	seedPages, err := r.seedPages(l, prev)
	if err != nil {
		return nil, err
	}
	var ids []uint32
	isSeed := map[uint64]bool{}
	for _, s := range prev {
		isSeed[s.ID] = true
	}
	for i, s := range prev {
		sp, ok := seedPages[s.ID]
		if !ok {
			continue
		}
		id, w, u := uint32(s.ID), why[i], sp.url
		if reason := sp.vanish; reason != "" {
			rep := storage.Replacement{Old: s.ID, New: storage.NoPage, Reason: reason}
			pick, ok, err := p.Replacer.replace(ctx, s.ID, reason, func(x uint64) bool { return isSeed[x] })
			if err != nil {
				return nil, err
			}
			p.Cycle.Replaced = append(p.Cycle.Replaced, rep)
			if !ok {
				continue
			}
			v, err := r.idOf(l, pick.URL)
			if err != nil {
				return nil, err
			}
			p.Cycle.Replaced[len(p.Cycle.Replaced)-1].New = uint64(v)
			isSeed[uint64(v)] = true
			id, w, u = v, pick.Why, pick.URL
		}
		ids = append(ids, id)
		p.Seeds = append(p.Seeds, Pick{URL: u, Why: firstNonEmpty(w, "given")})
	}
	return ids, nil
}

// seedPage is what previousSeeds needs of a seed's page.
type seedPage struct {
	url    string
	vanish string // vanishReason
}

// seedPages returns the URL and vanish reason of each seed that is a page
// of the graph as of the previous cycle: from l, or read from the store
// when l is nil.
func (r *Runner) seedPages(l *loaded, seeds []storage.Seed) (map[uint64]seedPage, error) {
	out := make(map[uint64]seedPage, len(seeds))
	if l != nil {
		for _, s := range seeds {
			if s.ID < uint64(l.g.N()) {
				out[s.ID] = seedPage{url: l.g.URLs[s.ID], vanish: l.cs.vanish[s.ID]}
			}
		}
		return out, nil
	}
	ids := make([]uint64, len(seeds))
	for i, s := range seeds {
		ids[i] = s.ID
	}
	err := r.o.Store.EachPageOf(ids, func(p *storage.Page) error {
		out[p.ID] = seedPage{url: p.URL, vanish: vanishReason(p)}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recrawl: read %d seeds: %w", len(ids), err)
	}
	return out, nil
}

// idOf returns the page id of URL u: its node in l, or looked up in the
// store when l is nil.
func (r *Runner) idOf(l *loaded, u string) (uint32, error) {
	if l != nil {
		v, _ := nodeOf(l.g, u)
		return v, nil
	}
	ids, err := r.o.Store.Lookup([]string{u})
	if err != nil {
		return 0, fmt.Errorf("recrawl: look up replacement seed %s: %w", u, err)
	}
	if ids[0] == storage.NoPage || ids[0] > math.MaxUint32 {
		return 0, fmt.Errorf("recrawl: replacement seed %s: %w", u, storage.ErrNotFound)
	}
	return uint32(ids[0]), nil
}

// firstSeeds returns the seeds of cycle 1 (its replacements applied), or
// for a db of a plain crawl its given seeds (else its depth-0 pages).
func (r *Runner) firstSeeds(l *loaded, cycles []storage.Cycle) []uint32 {
	var out []uint32
	for _, c := range cycles {
		if c.N == 1 && len(c.Seeds) > 0 {
			for _, s := range applyReplacements(c.Seeds, c.Replaced) {
				out = append(out, uint32(s.ID))
			}
			return out
		}
	}
	urls := r.o.Seeds
	if len(urls) == 0 {
		urls = l.cs.depth0
	}
	for _, u := range urls {
		if v, ok := nodeOf(l.g, u); ok {
			out = append(out, v)
		}
	}
	return out
}

// applyReplacements returns seeds with each replaced seed swapped for its
// replacement (a seed whose replacement was not found stays).
func applyReplacements(ss []storage.Seed, reps []storage.Replacement) []storage.Seed {
	to := map[uint64]uint64{}
	for _, rp := range reps {
		if rp.New != storage.NoPage {
			to[rp.Old] = rp.New
		}
	}
	var out []storage.Seed
	seen := map[uint64]bool{}
	for _, s := range ss {
		if nw, ok := to[s.ID]; ok {
			// The replacement was appended to the seeds too, with its why;
			// keep the first seed's place.
			s = storage.Seed{ID: nw, Why: whyOf(ss, nw, s.Why)}
		}
		if !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, s)
		}
	}
	return out
}

func whyOf(ss []storage.Seed, id uint64, def string) string {
	for _, s := range ss {
		if s.ID == id && s.Why != "" {
			return s.Why
		}
	}
	return def
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

// refreshOrder orders the known pages for revisiting in cycle n, seeds
// left out (the crawl queues them first). The crawl queues them in this
// order behind the seeds with equal priorities, so its FIFO tie-break
// revisits them in this order, and a refresh cap (maxRefresh) refetches
// the head of the list and traverses the rest from storage.
//
// RefreshPageRank: by PageRank on the stored graph (pr), highest first,
// ties by id (discovery order). The other policies allocate maxRefresh
// refetches per cycle over the known pages (refreshPlan); without a cap
// every due page is refetched and the order only says which first.
func (r *Runner) refreshOrder(l *loaded, seedIDs []uint32, pr []float64, n uint32, maxRefresh int64) ([]uint64, error) {
	seed := make(map[uint64]bool, len(seedIDs))
	for _, s := range seedIDs {
		seed[uint64(s)] = true
	}
	out := make([]uint64, 0, len(l.cs.known))
	for _, id := range l.cs.known {
		if !seed[id] {
			out = append(out, id)
		}
	}
	rank := func(id uint64) float64 {
		if id < uint64(len(pr)) {
			return pr[id]
		}
		return 0
	}
	policy := r.o.RefreshPolicy
	if policy == RefreshPageRank || maxRefresh < 0 {
		slices.SortFunc(out, func(a, b uint64) int {
			if c := cmp.Compare(rank(b), rank(a)); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		return out, nil
	}
	budget := float64(len(out))
	if maxRefresh > 0 {
		budget = float64(maxRefresh)
	}
	// The allocation runs over a pool of the known pages with the highest
	// PageRank, at least 4 refetches' worth of pages per refetch allowed
	// and never fewer than minPool, so that its cost (changerate.Optimal
	// bisects per page) follows the cycle's budget, not the db's size. The
	// rest get no share of the budget and follow, oldest fetch first.
	pool, tail := out, []uint64(nil)
	if size := max(4*int(budget), minPool); len(out) > size {
		slices.SortFunc(out, func(a, b uint64) int {
			if c := cmp.Compare(rank(b), rank(a)); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		pool, tail = out[:size], slices.Clone(out[size:])
		slices.SortStableFunc(tail, func(a, b uint64) int { return cmp.Compare(l.cs.last[a], l.cs.last[b]) })
		// In id order, like a pool of every known page, so that the
		// allocation sums in the same order as lazyRefreshOrder's.
		slices.Sort(pool)
	}
	var rate []float64
	if policy == RefreshOptimal {
		obs, x, gaps, err := changeStats(r.o.Store, n-1, l.g.N())
		if err != nil {
			return nil, err
		}
		hosts := make([]string, len(pool))
		po, px, pg := make([]uint16, len(pool)), make([]uint16, len(pool)), make([]uint32, len(pool))
		for i, id := range pool {
			hosts[i], po[i], px[i], pg[i] = l.cs.hosts[id], obs[id], x[id], gaps[id]
		}
		rate = rates(hosts, po, px, pg)
	}
	f, err := allocate(policy, pool, pr, rate, budget)
	if err != nil {
		return nil, err
	}
	last := make([]uint32, len(pool))
	for i, id := range pool {
		last[i] = l.cs.last[id]
	}
	return append(refreshPlan(pool, last, n, f, pr), tail...), nil
}

// minPool is the smallest pool of known pages the refresh allocation
// runs over (see refreshOrder).
const minPool = 5000

// resumePlan continues the stored, unfinished cycle c.
func (r *Runner) resumePlan(c *storage.Cycle) (*Plan, error) {
	o := &r.o
	p := &Plan{Cycle: *c, Revisit: o.Revisit.at(c.N)}
	if c.N > 1 {
		rank, err := r.rank(c.N-1, nil)
		if err != nil {
			return nil, err
		}
		p.Rank = rank
	}
	if o.PagesPerCycle > 0 {
		left := o.PagesPerCycle - int64(c.Stats.Fetches)
		p.MaxPages = max(left, -1)
		if left <= 0 {
			p.MaxPages = -1
		}
		if o.DiscoveryShare > 0 {
			refreshed := int64(c.Stats.Changed + c.Stats.Unchanged + c.Stats.Gone)
			p.MaxRefresh = refreshCap(int64(math.Floor((1-o.DiscoveryShare)*float64(o.PagesPerCycle))) - refreshed)
		}
	}
	p.Lazy = o.PagesPerCycle > 0
	p.Replacer = r.newReplacer(nil, c.N)
	p.Reseeder = r.newReseeder(c.N)
	p.ReseedEvery = o.ReseedEvery
	return p, nil
}

// refreshCap turns a number of refetches allowed into Plan.MaxRefresh: none
// left is negative (0 would mean no cap).
func refreshCap(n int64) int64 {
	if n <= 0 {
		return -1
	}
	return n
}

// lazyRefresh keeps of a budget-limited cycle's refresh list what the
// budget can use: its first budget pages (the refresh policy's order) and
// the budget pages with the highest PageRank (those a history scheduler
// fetches first), in that order. The crawl reaches the other known pages
// through links (CycleOptions.Lazy).
func lazyRefresh(order []uint64, pr []float64, budget int) []uint64 {
	if len(order) <= budget {
		return order
	}
	out := slices.Clone(order[:budget])
	in := make(map[uint64]bool, 2*budget)
	for _, id := range out {
		in[id] = true
	}
	rank := func(id uint64) float64 {
		if id < uint64(len(pr)) {
			return pr[id]
		}
		return 0
	}
	// The budget highest ranks among the rest: a min-heap of size budget.
	h := &rankHeap{rank: rank}
	for _, id := range order[budget:] {
		if h.Len() < budget {
			heap.Push(h, id)
		} else if x, y := rank(id), rank(h.ids[0]); x > y || x == y && id < h.ids[0] {
			h.ids[0] = id
			heap.Fix(h, 0)
		}
	}
	top := h.ids
	slices.SortFunc(top, func(a, b uint64) int {
		if c := cmp.Compare(rank(b), rank(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, id := range top {
		if !in[id] {
			out = append(out, id)
		}
	}
	return out
}

// rankHeap is a min-heap of ids by rank, of equal ranks the highest id at
// the root: the root is the id that comes last in the order rank
// descending, then id ascending.
type rankHeap struct {
	ids  []uint64
	rank func(uint64) float64
}

func (h *rankHeap) Len() int { return len(h.ids) }
func (h *rankHeap) Less(i, j int) bool {
	a, b := h.rank(h.ids[i]), h.rank(h.ids[j])
	return a < b || a == b && h.ids[i] > h.ids[j]
}
func (h *rankHeap) Swap(i, j int) { h.ids[i], h.ids[j] = h.ids[j], h.ids[i] }
func (h *rankHeap) Push(x any)    { h.ids = append(h.ids, x.(uint64)) }
func (h *rankHeap) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}
