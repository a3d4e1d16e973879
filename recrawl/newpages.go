package recrawl

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
)

// AlgoNewPages selects seeds by the new pages they are expected to lead to
// in the first steps of the crawl (the recrawl objective; see newPages).
const AlgoNewPages = "newpages"

// newPageHistory is what the stored fetch history says about where new
// links appeared: per page, its refetches with a content answer (200 or
// 304 after its first fetch), how many of them found the content changed,
// and the in-scope URLs first found on it after its first fetch. Such a
// URL was not on the page when the crawl first read it, so it is a link
// the page gained: the web grew there. A URL first found on a page fetched
// for the first time is only new to the crawl, not to the web, and is not
// counted (those are what made seeds chase the old frontier).
type newPageHistory struct {
	refetches, changes []uint16
	gained             []uint32
}

// readNewPageHistory reads the fetch records of cycles 1..last and the
// discovery of every page (one pass over each).
func readNewPageHistory(st Store, last uint32, n int) (*newPageHistory, error) {
	h := &newPageHistory{refetches: make([]uint16, n), changes: make([]uint16, n), gained: make([]uint32, n)}
	firstFetch := make([]uint32, n) // cycle of the first fetch with content; 0: none
	for c := uint32(1); c <= last; c++ {
		err := st.EachFetch(c, func(r storage.FetchRecord) error {
			if r.ID >= uint64(n) {
				return nil
			}
			switch r.Change {
			case storage.ChangeNew:
				if firstFetch[r.ID] == 0 {
					firstFetch[r.ID] = c
				}
			case storage.ChangeChanged, storage.ChangeUnchanged:
				if firstFetch[r.ID] == 0 {
					firstFetch[r.ID] = c
				} else if h.refetches[r.ID] < ^uint16(0) {
					h.refetches[r.ID]++
					if r.Change == storage.ChangeChanged {
						h.changes[r.ID]++
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("recrawl: newpages: fetch history of cycle %d: %w", c, err)
		}
	}
	err := st.EachPage(func(p *storage.Page) error {
		if p.ID >= uint64(n) || p.From >= uint64(n) || p.Status == storage.StatusOutOfScope || p.Status == storage.StatusRejected {
			return nil
		}
		if f := firstFetch[p.From]; f > 0 && p.FirstCycle > f {
			h.gained[p.From]++
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recrawl: newpages: read pages: %w", err)
	}
	return h, nil
}

// newPageRate estimates, per page of the stored graph, the new pages one
// refetch of it reveals: the links it gains between cycles (Zheng,
// Dmitriev & Giles, CIKM 2009, value pages by P_uniq per host; here the
// rate is observed per page and per host instead of a default of 1).
//
// Only fetched, live HTML pages get a rate: a refetch is how a crawl sees
// new links, and an old URL never fetched is not new to the web. A page's
// rate is the empirical-Bayes mean
//
//	r(v) = (gained(v) + a·prior(v)) / (refetches(v) + a),   a = 1,
//
// so a page refetched often is judged by what it gained, a page never
// refetched by its prior. The prior spreads its host's observed rate
// (links gained per refetch over the host's pages, itself shrunk toward
// the whole crawl's rate with weight a) over the host's pages by the two
// places new pages are known to attach (Ntoulas, Cho & Olston, "What's new
// on the web?", WWW 2004: new links appear on pages that change; Barabási
// & Albert 1999: new pages link near hubs), half each, both scaled to mean
// 1 over the host: in-degree + 1, and the smoothed share of refetches
// that found the page changed, (changes + ½)/(refetches + 1). Before any
// refetch (cycle 2) every host has the same rate, so a host's value
// follows its size, and pages are ranked by in-degree.
func newPageRate(l *loaded, h *newPageHistory) []float64 {
	g := l.g
	n := g.N()
	rate := make([]float64, n)
	indeg := make([]float64, n)
	for v := range n {
		for _, w := range g.Out(uint32(v)) {
			indeg[w]++
		}
	}
	type hostSum struct{ gained, refetches, hub, chg, pages float64 }
	byHost := map[string]*hostSum{}
	var allGained, allRefetches float64
	ok := func(v int) bool { return l.cs.live[v] && !l.cs.settled[v] }
	chg := func(v int) float64 { return (float64(h.changes[v]) + 0.5) / (float64(h.refetches[v]) + 1) }
	for v := range n {
		if !ok(v) {
			continue
		}
		hs := byHost[l.cs.hosts[v]]
		if hs == nil {
			hs = &hostSum{}
			byHost[l.cs.hosts[v]] = hs
		}
		hs.gained += float64(h.gained[v])
		hs.refetches += float64(h.refetches[v])
		hs.hub += indeg[v] + 1
		hs.chg += chg(v)
		hs.pages++
		allGained += float64(h.gained[v])
		allRefetches += float64(h.refetches[v])
	}
	const a = 1.0
	global := 1.0
	if allRefetches > 0 {
		global = allGained / allRefetches
	}
	for v := range n {
		if !ok(v) {
			continue
		}
		hs := byHost[l.cs.hosts[v]]
		hostRate := (hs.gained + a*global) / (hs.refetches + a)
		mix := 0.5*(indeg[v]+1)/(hs.hub/hs.pages) + 0.5*chg(v)/(hs.chg/hs.pages)
		prior := hostRate * mix
		rate[v] = (float64(h.gained[v]) + a*prior) / (float64(h.refetches[v]) + a)
	}
	return rate
}

// ball calls fn with every node within hops hops of s (s included), once.
// mark and stamp are the caller's scratch (stamp distinct per call).
type baller struct {
	out   func(v uint32) []uint32
	mark  []uint32
	stamp uint32
	cur   []uint32
	next  []uint32
}

func (b *baller) ball(s uint32, hops int, fn func(v uint32, d int)) {
	b.stamp++
	b.mark[s] = b.stamp
	fn(s, 0)
	b.cur = append(b.cur[:0], s)
	for h := 0; h < hops && len(b.cur) > 0; h++ {
		b.next = b.next[:0]
		for _, u := range b.cur {
			for _, w := range b.out(u) {
				if b.mark[w] != b.stamp {
					b.mark[w] = b.stamp
					fn(w, h+1)
					b.next = append(b.next, w)
				}
			}
		}
		b.cur, b.next = b.next, b.cur
	}
}

// gainHeap is a max-heap of candidate gains for lazy greedy selection.
type gainHeap []gainItem

type gainItem struct {
	v    uint32
	gain float64
	at   int // number of seeds chosen when gain was computed
}

func (h gainHeap) Len() int { return len(h) }
func (h gainHeap) Less(i, j int) bool {
	if h[i].gain != h[j].gain {
		return h[i].gain > h[j].gain
	}
	return h[i].v < h[j].v
}
func (h gainHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *gainHeap) Push(x any)   { *h = append(*h, x.(gainItem)) }
func (h *gainHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// seedsRefetched reports whether a cycle's seeds that were fetched before
// are refetched: a paced cycle refetches them first (pacer.seed); without
// pacing, not when a capped refresh share goes to the head of a refresh
// policy's list (CycleOptions.RefetchHead), which leaves the seeds out,
// nor when the share is 0; such seeds are traversed from storage.
func (r *Runner) seedsRefetched() bool {
	o := &r.o
	if o.PagesPerCycle <= 0 || o.DiscoveryShare <= 0 {
		return true
	}
	if o.DiscoveryShare < 1 && o.RefreshPace == PaceEven {
		return true
	}
	return o.DiscoveryShare < 1 && o.RefreshPolicy == RefreshPageRank
}

// pacedSeeds reports whether a cycle refetches its seeds first, ahead of
// a paced refresh share (pacer.seed).
func (r *Runner) pacedSeeds() bool {
	o := &r.o
	return o.PagesPerCycle > 0 && o.DiscoveryShare > 0 && o.DiscoveryShare < 1 && o.RefreshPace == PaceEven
}

// newPages selects K seeds among the candidates (fetched, live, in-scope
// HTML pages) by the share of a seed's weight that reaches new pages in
// the first steps of the crawl, the way FPR (and OPIC, FPR@M) hands it on
// (Alam et al. 2009: a downloaded page splits d times its priority over
// its out-links). With r the rates of newPageRate, D(v) the stored
// out-degree and d = 0.85, seed s is worth
//
//	gain(s) = σ·r(s)/(D(s)+1) + Σ_{v ∈ out(s)} d·r(v) / ((D(s)+1)·(D(v)+1))
//
// the priority its own new links get (σ = 1 when the crawl refetches its
// seeds, 0 when it traverses them from storage, see seedsRefetched; a
// paced cycle, which refetches its seeds first with the whole seed weight,
// counts a seed's own new links with weight 1 and not its out-neighbours':
// gain(s) = r(s)) and
// the priority the new links of its out-neighbours get when the crawl
// refetches them next (Baeza-Yates et al.: start one hop from where new
// pages appear). A new link competes with the known pages for the first
// fetches, so a seed that spreads its weight over hundreds of links leads
// to new pages late even when many lie behind it. Seeds are chosen by
// greedy maximum coverage of gain, a page counted for the first seed that
// reaches it only (lazy greedy, Minoux's accelerated greedy). Seeds are
// spread over hosts: a host gets at most max(1, K · its share of the total
// rate, rounded) seeds, so one site takes most seeds only when its value
// dominates. Cycle 1's seeds in keep that are still live stay, first and
// not counted against K, unless dominated: a selected seed is one or
// links to it, or the selected seeds cover more than half of its gain.
// Pages the cycle refetches early anyway (earlyRefetches) are worth
// nothing: their new links show without them.
func (r *Runner) newPages(ctx context.Context, l *loaded, n uint32, keep []uint32, p *Plan) ([]uint32, error) {
	o := &r.o
	g := l.g
	const hops = 1
	// Through cycle n: planning cycle n finds none of its records yet, a
	// reseed inside it (Reseeder) learns from what the cycle found so far.
	hist, err := readNewPageHistory(o.Store, n, g.N())
	if err != nil {
		return nil, err
	}
	val := newPageRate(l, hist)
	self, next := 1.0, 1.0
	switch {
	case !r.seedsRefetched():
		// The seed itself is traversed from storage, not refetched: its
		// own new links stay unseen, so only its neighbours count.
		self = 0
	case r.pacedSeeds():
		// A paced cycle refetches its seeds first with the whole seed
		// weight, far above any other priority, so each new link a seed
		// gained is among the first fetches whatever the seed's
		// out-degree; its out-neighbours are traversed from storage,
		// their new links unseen until the refresh share reaches them.
		// A seed is worth all the new links it gains (its own term
		// counts with weight 1, not 1/(D(s)+1)), and nothing through its
		// out-neighbours.
		next = 0
	}
	b := &baller{out: g.Out, mark: make([]uint32, g.N())}
	// The pages the cycle refetches early anyway reveal their new links
	// without being seeds: they are worth nothing as seeds, and a seed's
	// neighbour among them adds nothing either.
	early, err := r.earlyRefetches(l, n, p)
	if err != nil {
		return nil, err
	}
	for _, v := range early {
		val[v] = 0
	}
	hostVal := map[string]float64{}
	total := 0.0
	for v, x := range val {
		hostVal[l.cs.hosts[v]] += x
		total += x
	}
	covered := make([]bool, g.N())
	// gain returns gain(s) over the pages no earlier seed covers, the new
	// links expected on them per cycle and their number.
	gain := func(s uint32) (x, links float64, pages int) {
		ds := float64(g.OutDegree(s) + 1)
		b.ball(s, hops, func(v uint32, d int) {
			if !covered[v] && val[v] > 0 {
				links += val[v]
				var w float64
				switch d {
				case 0:
					w = self / ds
					if next == 0 {
						// Refetched first, the seed shows all the
						// links it gained at once.
						w = self
					}
				case 1:
					w = next * scheduler.DefaultDamping / (ds * float64(g.OutDegree(v)+1))
				}
				x += val[v] * w
				pages++
			}
		})
		return x, links, pages
	}
	h := &gainHeap{}
	for v, ok := range l.cs.live {
		if !ok {
			continue
		}
		if v%4096 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("recrawl: cycle %d: newpages: %w", n, ctx.Err())
		}
		x, _, _ := gain(uint32(v))
		if x > 0 {
			*h = append(*h, gainItem{v: uint32(v), gain: x})
		}
	}
	heap.Init(h)
	k := o.Select.K
	perHost := map[string]int{}
	capOf := func(host string) int {
		if total <= 0 {
			return k
		}
		return max(1, int(math.Round(float64(k)*hostVal[host]/total)))
	}
	type pick struct {
		v           uint32
		gain, links float64
		pages       int
	}
	var picks []pick
	for h.Len() > 0 && len(picks) < k {
		it := heap.Pop(h).(gainItem)
		host := l.cs.hosts[it.v]
		if perHost[host] >= capOf(host) {
			continue
		}
		if it.at != len(picks) {
			x, _, _ := gain(it.v)
			it.gain, it.at = x, len(picks)
			if x > 0 {
				heap.Push(h, it)
			}
			continue
		}
		x, links, pages := gain(it.v)
		b.ball(it.v, hops, func(v uint32, _ int) { covered[v] = true })
		picks = append(picks, pick{it.v, x, links, pages})
		perHost[host]++
	}
	// Keep the previous seeds that no selected seed dominates.
	reach := make([]bool, g.N())
	for _, pk := range picks {
		b.ball(pk.v, 1, func(v uint32, _ int) { reach[v] = true })
	}
	var ids []uint32
	chosen := map[uint32]bool{}
	for _, s := range keep {
		if int(s) >= g.N() || !l.cs.live[s] || reach[s] || chosen[s] {
			continue
		}
		left, _, _ := gain(s)
		clear(covered)
		alone, _, _ := gain(s)
		for _, pk := range picks {
			b.ball(pk.v, hops, func(v uint32, _ int) { covered[v] = true })
		}
		if left < alone/2 {
			continue
		}
		why := "kept: a seed of cycle 1, alive, not linked from a selected seed, worth nothing more as a seed (refetched early anyway)"
		if alone > 0 {
			why = fmt.Sprintf("kept: a seed of cycle 1, alive, not linked from a selected seed, the selected seeds cover %.0f%% of its gain %.3g",
				100*(1-left/alone), alone)
		}
		chosen[s] = true
		ids = append(ids, s)
		p.Seeds = append(p.Seeds, Pick{URL: g.URLs[s], Score: left, Why: why})
	}
	for i, pk := range picks {
		if chosen[pk.v] {
			continue
		}
		chosen[pk.v] = true
		ids = append(ids, pk.v)
		p.Seeds = append(p.Seeds, Pick{URL: g.URLs[pk.v], Score: pk.gain,
			Why: fmt.Sprintf("%s rank %d: gain %.3g; %.2g new pages expected per cycle on it and its out-links, %d fetched in-scope pages not covered by earlier seeds (host %s)",
				AlgoNewPages, i+1, pk.gain, pk.links, pk.pages, l.cs.hosts[pk.v])})
	}
	p.Cycle.SeedAlgo = AlgoNewPages
	return ids, nil
}

// earlyShare is the share of a cycle's budget whose refetches count as
// early: the window in which seeds must find what the refetches do not.
const earlyShare = 0.10

// earlyRefetches returns the pages a budget-limited cycle n with a capped,
// evenly paced refresh share refetches in the first earlyShare of its
// budget whatever its seeds. The pacer releases the refetches it owes by
// the previous cycle's PageRank, largest first, at an even rate
// (MaxRefresh over the budget): the first earlyShare × MaxRefresh fetched
// live pages due in cycle n, by PageRank. Any other cycle gets none: its refetches are
// not spread over the budget that way.
func (r *Runner) earlyRefetches(l *loaded, n uint32, p *Plan) ([]uint32, error) {
	if !r.pacedSeeds() || p.MaxRefresh <= 0 {
		return nil, nil
	}
	pr, err := r.rank(n-1, l.g)
	if err != nil {
		return nil, err
	}
	var out []uint32
	for v, ok := range l.cs.live {
		// A page not due is traversed from storage, never owed: the
		// pacer does not refetch it early.
		if ok && l.cs.due[v] && v < len(pr) {
			out = append(out, uint32(v))
		}
	}
	slices.SortFunc(out, func(a, b uint32) int {
		if c := cmp.Compare(pr[b], pr[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return out[:min(len(out), int(math.Ceil(earlyShare*float64(p.MaxRefresh))))], nil
}
