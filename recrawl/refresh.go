package recrawl

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/seedcrawl/seedcrawl/changerate"
	"github.com/seedcrawl/seedcrawl/internal/revisit"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Refresh policies (Options.RefreshPolicy): how the refresh share of a
// cycle's budget is spread over the known pages.
const (
	// RefreshPageRank orders the known pages by stored PageRank alone,
	// every cycle the same order: a capped refresh share refetches the same
	// most important pages each cycle. The zero value.
	RefreshPageRank = "pagerank"
	// RefreshUniform gives every known page the same refresh frequency:
	// the pages fetched longest ago come first (round robin).
	RefreshUniform = "uniform"
	// RefreshImportance gives each page a refresh frequency proportional to
	// its stored PageRank (changerate.ByScore).
	RefreshImportance = "importance"
	// RefreshOptimal refetches the pages that most raise the
	// PageRank-weighted share of fresh copies at the end of the cycle:
	// PageRank × the chance the page changed since its last fetch, from its
	// estimated change rate (refreshList, rates). The change-aware policy
	// for PageRank-weighted freshness.
	RefreshOptimal = "optimal"
	// RefreshCount gives each page the refresh frequency that keeps the
	// most pages fresh at the cycles' ends, every page alike, from its
	// estimated change rate (changerate.OptimalCycles; refreshList). The
	// change-aware policy for the share of fresh pages.
	RefreshCount = "count"
)

// RefreshPolicies lists the refresh policies.
func RefreshPolicies() []string {
	return []string{RefreshPageRank, RefreshUniform, RefreshImportance, RefreshOptimal, RefreshCount}
}

// changeAware reports whether policy reads the pages' change rates.
func changeAware(policy string) bool { return policy == RefreshOptimal || policy == RefreshCount }

// defaultRate is the change rate (per cycle) assumed for a page whose
// history holds no second fetch, when no page of the db has one either.
const defaultRate = 0.5

// changeStats streams the fetch records of cycles 1..last and returns
// what refresh planning reads of the history of each page of ids
// (pageHist, indexed like ids); n bounds the page ids. One pass over every
// fetch stored: a cycle without a budget, which revisits every known page.
// Only the pages asked for are kept (a 4-byte index per page id besides).
func changeStats(st Store, last uint32, n int, ids []uint64) ([]pageHist, error) {
	at := make([]int32, n) // 1 + index in ids; 0 for a page not asked for
	for i, id := range ids {
		if id < uint64(n) {
			at[id] = int32(i + 1)
		}
	}
	hs := make([]pageHist, len(ids))
	for c := uint32(1); c <= last; c++ {
		err := st.EachFetch(c, func(r storage.FetchRecord) error {
			if r.ID < uint64(n) && at[r.ID] > 0 {
				hs[at[r.ID]-1].add(r)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("recrawl: fetch history of cycle %d: %w", c, err)
		}
	}
	return hs, nil
}

// pageHist is what refresh planning reads of one page's fetch history,
// its records added in cycle order.
type pageHist struct {
	// Content comparisons: refetches that compared the content with an
	// earlier copy (obs), how many found it changed (x), the cycles
	// between those fetches summed (gaps), and the cycle of the previous
	// successful fetch (prev).
	obs, x uint16
	gaps   uint32
	prev   uint32
	// The server's clock: the page's fetches with both a Date and a
	// Last-Modified, as Cho and Garcia-Molina's last-modified exposure
	// (changerate.Exposed, in seconds of the server's clock); lmBad once
	// Last-Modified disagreed with the content (it moved while the content
	// stayed, or the other way round: a server that stamps every answer
	// with the time, or never updates the date), and the page's rate is
	// then estimated from content comparisons alone.
	lm    changerate.Exposed
	lmBad bool
	// lmCycle is the cycle of the last dated fetch; span the server
	// seconds and spanCycles the cycles between consecutive dated fetches,
	// summed: how long a cycle lasts on the server's clock.
	lmCycle    uint32
	span       float64
	spanCycles uint32
	// wall is the crawler's clock at the last dated fetch (Unix seconds).
	wall float64
	// noCopy is the cycle of the last answer if it left no copy to
	// refresh and is one Revisit.GoneCycles spaces out (goneAnswer: a
	// redirect, a 404 or 410, a 401, 403 or 451, robots.txt denying it);
	// 0 otherwise.
	noCopy uint32
}

// add adds fetch record r, the next of the page in cycle order.
func (h *pageHist) add(r storage.FetchRecord) {
	switch {
	case goneAnswer(r.Status, r.Code):
		h.noCopy = r.Cycle
	case r.Status.Fetched() || r.Status == storage.StatusHTTPError:
		h.noCopy = 0
	}
	switch r.Change {
	case storage.ChangeChanged, storage.ChangeUnchanged:
		if h.obs < ^uint16(0) {
			h.obs++
			if r.Change == storage.ChangeChanged {
				h.x++
			}
			if h.prev > 0 {
				h.gaps += r.Cycle - h.prev
			} else {
				h.gaps++
			}
		}
		h.prev = r.Cycle
	case storage.ChangeNew:
		h.prev = r.Cycle
	default:
		return
	}
	if r.Date.IsZero() || r.LastModified.IsZero() || h.lmBad {
		return
	}
	a := changerate.Dated{Date: float64(r.Date.Unix()), LastModified: float64(r.LastModified.Unix())}
	if h.lm.Accesses > 0 && r.Change != storage.ChangeNew {
		if moved := a.LastModified > h.lm.Last(); moved != (r.Change == storage.ChangeChanged) {
			h.lmBad = true
			return
		}
	}
	last, cycle := h.lm.Last(), h.lmCycle
	if err := h.lm.Add(a); err != nil {
		// A Date not after the previous one: a clock that went back.
		h.lmBad = true
		return
	}
	if h.lm.Accesses > 1 && r.Cycle > cycle {
		h.span += a.Date - last
		h.spanCycles += r.Cycle - cycle
	}
	h.lmCycle = r.Cycle
	h.wall = float64(r.FetchedAt.Unix())
}

// dated reports whether h's rate comes from last-modified dates.
func (h *pageHist) dated() bool { return !h.lmBad && h.lm.Accesses > 0 }

// lmPriorShape is the shape of the per-host Gamma prior of last-modified
// rates (changerate.FitGamma): two changes' worth of the host's mean.
// Rates within a host spread over orders of magnitude, but a page's own
// evidence is one or two exponential ages, whose spread alone is as wide
// as its mean: with a weaker prior (half a change) the estimates spread
// far more than the rates, and the pages ranked most likely to have
// changed did so little more often than the rest (measured on the test
// web: 57% against 28%, predicted 86% against 15%), which cost the
// weighted freshness the policy exists for.
const lmPriorShape = 2

// rates estimates each page's change rate per cycle from its history
// (hs, indexed like hosts: one entry per page of the pool); now is the
// crawler's clock (Unix seconds) while planning.
//
// Pages whose server sends Date and Last-Modified (pageHist.dated): Cho
// and Garcia-Molina's last-modified estimator on the server's own clock
// (changerate.Exposure, which also reads the age of the copy at the first
// fetch), with a Gamma prior per host whose mean is the host's pooled rate
// (changerate.FitGamma), else one over every dated page. Its rate per
// second becomes a rate per cycle at the length of a cycle on the servers'
// clocks: server seconds between consecutive dated fetches per cycle
// between them, the median over the pages; before any page was fetched twice
// with a Date, the crawler's own time since the last dated fetch (a real
// server's clock runs like the crawler's).
//
// Other pages: content comparisons. With one to three refetches per page a
// page's own counts are mostly noise (one change seen in one refetch reads
// as a rate above 1 per cycle), so each host's pages are pooled:
// changerate.FitPrior fits the spread of change chances among them, and
// each page's rate is Cho and Garcia-Molina's bias-reduced estimate with
// the host's prior added (changerate.Prior.Rate), floored by
// changerate.Unseen so that "no change seen yet" never becomes "never
// changes". A page refetched never takes its host's rate (else the rate of
// all pages pooled, else defaultRate).
func rates(hosts []string, hs []pageHist, now float64) []float64 {
	out := make([]float64, len(hosts))
	byHost := map[string][]changerate.Counts{}
	var all []changerate.Counts
	type lmPool struct {
		xs []int
		ts []float64
	}
	lmHosts := map[string]*lmPool{}
	var lmAll lmPool
	var wall float64
	var perCycles []float64 // server seconds per cycle, a value per page
	for i, h := range hosts {
		p := &hs[i]
		if p.dated() {
			g := lmHosts[h]
			if g == nil {
				g = &lmPool{}
				lmHosts[h] = g
			}
			g.xs, g.ts = append(g.xs, p.lm.X), append(g.ts, p.lm.T)
			lmAll.xs, lmAll.ts = append(lmAll.xs, p.lm.X), append(lmAll.ts, p.lm.T)
			if p.spanCycles > 0 && p.span > 0 {
				perCycles = append(perCycles, p.span/float64(p.spanCycles))
			}
			wall = max(wall, p.wall)
			continue
		}
		if p.obs == 0 {
			continue
		}
		c := changerate.Counts{X: int(p.x), N: int(p.obs), Interval: float64(p.gaps) / float64(p.obs)}
		byHost[h] = append(byHost[h], c)
		all = append(all, c)
	}
	// Server seconds per cycle: the median over the pages, since one
	// server whose Date leaps ahead (a lying or broken clock: any HTTP
	// date up to the year 9999 parses) would otherwise stretch the cycle
	// every other host's rates are read at by as much as it likes.
	perCycle := 0.0
	switch {
	case len(perCycles) > 0:
		slices.Sort(perCycles)
		perCycle = perCycles[len(perCycles)/2]
	case now > wall && wall > 0:
		perCycle = now - wall
	default:
		perCycle = defaultCycleSeconds
	}
	lmGlobal, _, _ := changerate.FitGamma(lmPriorShape, lmAll.xs, lmAll.ts)
	lmPriors := make(map[string]changerate.Gamma, len(lmHosts))
	for h, g := range lmHosts {
		if p, ok, err := changerate.FitGamma(lmPriorShape, g.xs, g.ts); ok && err == nil {
			lmPriors[h] = p
		}
	}

	prior := func(cs []changerate.Counts) (changerate.Prior, bool) {
		p, err := changerate.FitPrior(cs)
		return p, err == nil && p.Weight() > 0
	}
	global, haveGlobal := prior(all)
	priors := make(map[string]changerate.Prior, len(byHost))
	for h, cs := range byHost {
		if p, ok := prior(cs); ok {
			priors[h] = p
		}
	}
	for i, h := range hosts {
		hp := &hs[i]
		if hp.dated() {
			g, ok := lmPriors[h]
			if !ok {
				g = lmGlobal
			}
			lam, err := g.Estimate(hp.lm.X, hp.lm.T)
			if err != nil || math.IsInf(lam, 1) {
				// Every change at its fetch's very second (T = 0) and no
				// prior: as fast as a cycle can tell.
				lam = math.Inf(1)
			}
			out[i] = lam * perCycle
			continue
		}
		p, ok := priors[h]
		if !ok {
			p, ok = global, haveGlobal
		}
		n := int(hp.obs)
		if n == 0 {
			out[i] = defaultRate
			if ok {
				if r, err := p.GroupRate(); err == nil {
					out[i] = r
				}
			}
			continue
		}
		iv := float64(hp.gaps) / float64(n)
		lam, err := p.Rate(int(hp.x), n, iv)
		if err != nil {
			out[i] = defaultRate
			continue
		}
		if u, err := changerate.Unseen(n, iv); err == nil {
			lam = max(lam, u)
		}
		out[i] = lam
	}
	return out
}

// holdGone sets to 0 the rate of each page (ids, with histories hs,
// indexed like rate) whose last answer left no copy (pageHist.noCopy: a
// redirect, a 404 or 410, a 401, 403 or 451, robots.txt denying it) and
// that is not due in cycle n: the revisit policy refetches such URLs only
// every goneCycles cycles, each in its phase (Revisit.GoneCycles,
// revisit.Due), so a refetch planned for one before then would not be
// made and its share of the budget would go unspent; and there is no copy
// to keep fresh. Once due, the page keeps its estimated rate and competes
// for a refetch like any other.
func holdGone(rate []float64, ids []uint64, hs []pageHist, n, goneCycles uint32) {
	if goneCycles == 0 {
		return
	}
	for i := range rate {
		if at := hs[i].noCopy; at > 0 && !revisit.Due(ids[i], at, n, goneCycles) {
			rate[i] = 0
		}
	}
}

// defaultCycleSeconds is the length of a cycle on the servers' clocks
// assumed when nothing tells it (no page fetched twice with a Date, and
// the crawler's clock not after the last dated fetch): a day.
const defaultCycleSeconds = 24 * 60 * 60

// refreshList orders a pool of known pages (ids, last fetched in cycles
// last, with change rates per cycle rate under RefreshOptimal) for
// revisiting in cycle n under policy, for a budget of refetches per
// cycle: the crawl refetches the head of the list.
//
// RefreshOptimal maximises the weighted share of fresh copies when the
// cycle ends: a refetch makes the page's copy fresh if the page changed
// since its last fetch, with chance changerate.StaleChance(λ, n − last),
// so the pages of the largest PageRank × that chance come first (ties by
// PageRank, then id). The list is the same whatever the budget: the best
// refetches of a larger budget include those of a smaller one.
//
// This is not Cho and Garcia-Molina's optimal frequencies
// (changerate.Optimal), which maximise freshness averaged over continuous
// time with the refetches spread evenly over it: there a page that
// changes much faster than it can be refetched is stale most of the time
// whatever is done, and gets nothing. A cycle's refetches all come before
// the copies are used, and measured, at the end of the cycle; a page that
// changed is made fresh by one refetch however fast it changes, so it is
// worth its weight times the chance it changed, which is highest for the
// fastest pages. Between cycles those pages go stale again, as Cho's
// model says; a crawler that serves its copies over the whole time
// between cycles, on a web that changes meanwhile, would weigh them by
// the share of that time they stay fresh as well.
//
// RefreshCount keeps the most pages fresh, counted alike, over the
// cycles to come, not just the next one: refetching only the pages most
// likely to have changed spends every cycle's budget on the fastest pages,
// which are stale again by the next cycle's end, while a page that changes
// rarely, once refetched, stays fresh through many cycle ends. It gives
// each page the refresh frequency of changerate.OptimalCycles (equal
// weights, rates per cycle, at most one refetch per cycle) and orders by
// what each page owes, as the allocating policies do (refreshPlan). Use
// RefreshOptimal when important pages matter more (copies served by
// PageRank, a search index), RefreshCount when every page counts alike (a
// mirror, an archive).
//
// The other policies allocate refetch frequencies (allocate) and order by
// what each page owes (refreshPlan).
func refreshList(policy string, ids []uint64, last []uint32, n uint32, pr, rate []float64, budget float64) ([]uint64, error) {
	if changeAware(policy) && (len(rate) != len(ids) || len(last) != len(ids)) {
		return nil, fmt.Errorf("%w: refresh list: %d rates, %d last cycles for %d pages", ErrOptions, len(rate), len(last), len(ids))
	}
	if policy != RefreshOptimal {
		var f []float64
		var err error
		if policy == RefreshCount {
			f, err = countAllocation(rate, budget)
		} else {
			f, err = allocate(policy, ids, pr, budget)
		}
		if err != nil {
			return nil, err
		}
		return refreshPlan(ids, last, n, f, pr), nil
	}
	rank := prRank(pr)
	value := make([]float64, len(ids))
	for i, id := range ids {
		value[i] = rank(id) * changerate.StaleChance(rate[i], float64(n-min(n, last[i])))
	}
	return byValue(ids, value, rank), nil
}

// countAllocation returns RefreshCount's refresh frequencies (refetches
// per cycle, at most 1) for pages of change rates rate per cycle.
func countAllocation(rate []float64, budget float64) ([]float64, error) {
	if len(rate) == 0 {
		return nil, nil
	}
	budget = min(budget, float64(len(rate)))
	pages := make([]changerate.Page, len(rate))
	for i, r := range rate {
		pages[i] = changerate.Page{Weight: 1, Rate: r}
	}
	f, err := changerate.OptimalCycles(pages, budget, 1)
	if err != nil {
		return nil, fmt.Errorf("recrawl: allocate %g refetches over %d pages (%s): %w", budget, len(rate), RefreshCount, err)
	}
	return f, nil
}

// allocate returns each known page's refresh frequency (refetches per
// cycle, at most 1) under an allocating policy (RefreshUniform,
// RefreshImportance), for a budget of refetches per cycle.
func allocate(policy string, known []uint64, pr []float64, budget float64) ([]float64, error) {
	if len(known) == 0 {
		return nil, nil
	}
	budget = min(budget, float64(len(known)))
	w := make([]float64, len(known))
	rank := prRank(pr)
	for i, id := range known {
		w[i] = rank(id)
	}
	var f []float64
	var err error
	switch policy {
	case RefreshUniform:
		f, err = changerate.Uniform(len(known), budget, 1)
	case RefreshImportance:
		f, err = changerate.ByScore(w, budget, 1)
	default:
		return nil, fmt.Errorf("%w: refresh policy %q (known: %v)", ErrOptions, policy, RefreshPolicies())
	}
	if err != nil {
		return nil, fmt.Errorf("recrawl: allocate %g refetches over %d pages (%s): %w", budget, len(known), policy, err)
	}
	return f, nil
}

// refreshPlan orders the known pages for cycle n under an allocation: a
// page given f refetches per cycle and last fetched in cycle c owes
// f·(n − c) refetches, and the pages owing most come first (ties by
// PageRank, then id). With the refresh share capped at the budget the
// allocation was made for, the crawl refetches the head of this list and
// traverses the rest from storage, so over the cycles each page is
// refetched about f times per cycle: the fixed-order schedule Cho and
// Garcia-Molina's freshness formula assumes. last[i] is the cycle of
// known[i]'s last fetch.
func refreshPlan(known []uint64, last []uint32, n uint32, f, pr []float64) []uint64 {
	owe := make([]float64, len(known))
	for i := range known {
		owe[i] = f[i] * float64(n-min(n, last[i]))
	}
	return byValue(known, owe, prRank(pr))
}

// byValue returns ids ordered by value (value[i] is ids[i]'s) descending,
// ties by rank descending, then by id.
func byValue(ids []uint64, value []float64, rank func(uint64) float64) []uint64 {
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(value[b], value[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(rank(ids[b]), rank(ids[a])); c != 0 {
			return c
		}
		return cmp.Compare(ids[a], ids[b])
	})
	out := make([]uint64, len(ids))
	for i, j := range idx {
		out[i] = ids[j]
	}
	return out
}
