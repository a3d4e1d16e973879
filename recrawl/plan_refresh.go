package recrawl

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The refresh order of a cycle: which known pages are refetched, by stored
// PageRank and the revisit policy, and how many.

// refreshOrder orders the known pages for revisiting in cycle n, seeds
// left out (the crawl queues them first). The crawl queues them in this
// order behind the seeds with equal priorities, so its FIFO tie-break
// revisits them in this order, and a refresh cap (maxRefresh) refetches
// the head of the list and traverses the rest from storage.
//
// RefreshPageRank: by PageRank on the stored graph (pr), highest first,
// ties by id (discovery order). The other policies spend maxRefresh
// refetches per cycle on the known pages (refreshList); without a cap
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
	rank := prRank(pr)
	policy := r.o.RefreshPolicy
	if policy == RefreshPageRank || maxRefresh < 0 {
		sortByRank(out, rank)
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
		sortByRank(out, rank)
		pool, tail = out[:size], slices.Clone(out[size:])
		slices.SortStableFunc(tail, func(a, b uint64) int { return cmp.Compare(l.cs.last[a], l.cs.last[b]) })
		// In id order, like a pool of every known page, so that the
		// allocation sums in the same order as lazyRefreshOrder's.
		slices.Sort(pool)
	}
	var rate []float64
	if changeAware(policy) {
		hs, err := changeStats(r.o.Store, n-1, l.g.N(), pool)
		if err != nil {
			return nil, err
		}
		hosts := make([]string, len(pool))
		for i, id := range pool {
			hosts[i] = l.cs.hosts[id]
		}
		rate = rates(hosts, hs, float64(r.o.Now().Unix()))
		holdGone(rate, pool, hs, n, r.o.Revisit.GoneCycles)
	}
	last := make([]uint32, len(pool))
	for i, id := range pool {
		last[i] = l.cs.last[id]
	}
	order, err := refreshList(policy, pool, last, n, pr, rate, budget)
	if err != nil {
		return nil, err
	}
	return append(order, tail...), nil
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
		// The budget counts requests: the fetch records, one per URL
		// whose outcome was committed, and the retries before them.
		left := o.PagesPerCycle - int64(min(c.Stats.Fetches+c.Stats.Retries, math.MaxInt64))
		p.MaxPages = max(left, -1)
		if left <= 0 {
			p.MaxPages = -1
		}
		if o.DiscoveryShare > 0 {
			refreshed := int64(c.Stats.Changed + c.Stats.Unchanged + c.Stats.Gone)
			p.MaxRefresh = refreshCap(int64(math.Floor((1-o.DiscoveryShare)*float64(o.PagesPerCycle))) - refreshed)
		}
	}
	if p.MaxRefresh > 0 && p.MaxPages > 0 {
		owed, err := r.owed(c.N)
		if err != nil {
			return nil, err
		}
		p.Owed = owed
	}
	p.Lazy = o.PagesPerCycle > 0
	p.Replacer = r.newReplacer(nil, c.N)
	p.Reseeder = r.newReseeder(c.N)
	p.ReseedEvery = o.ReseedEvery
	return p, nil
}

// owed reads the refetches the interrupted cycle n owed, with the host
// and depth of each page: one read of at most the cycle's refresh cap of
// entries and page records. A page refetched in cycle n since (its owed
// entry outlived the refetch only if the commit that deleted it was lost)
// is left out, so it is not fetched twice in the cycle.
func (r *Runner) owed(n uint32) ([]OwedRefetch, error) {
	stored, err := r.o.Store.Owed(n)
	if err != nil {
		return nil, fmt.Errorf("recrawl: resume cycle %d: %w", n, err)
	}
	if len(stored) == 0 {
		return nil, nil
	}
	ids := make([]uint64, len(stored))
	for i, o := range stored {
		ids[i] = o.ID
	}
	type page struct {
		host  string
		depth int
		ok    bool
	}
	pages := make(map[uint64]page, len(ids))
	if err := r.o.Store.EachPageOf(ids, func(p *storage.Page) error {
		pages[p.ID] = page{host: urlnorm.Authority(p.URL), depth: int(p.Depth), ok: p.Cycle < n && p.Fetches > 0}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("recrawl: resume cycle %d: read %d pages owed a refetch: %w", n, len(ids), err)
	}
	out := make([]OwedRefetch, 0, len(stored))
	for _, o := range stored {
		if p := pages[o.ID]; p.ok {
			out = append(out, OwedRefetch{ID: o.ID, Host: p.host, Depth: p.depth, Weight: o.Weight, Seq: o.Seq})
		}
	}
	return out, nil
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
	rank := prRank(pr)
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
	sortByRank(top, rank)
	for _, id := range top {
		if !in[id] {
			out = append(out, id)
		}
	}
	return out
}

// prRank returns the rank of a page in pr, its PageRank by id; 0 for an
// id beyond pr (a page found after pr was computed).
func prRank(pr []float64) func(uint64) float64 {
	return func(id uint64) float64 {
		if id < uint64(len(pr)) {
			return pr[id]
		}
		return 0
	}
}

// sortByRank sorts ids by rank descending, ties by id ascending.
func sortByRank(ids []uint64, rank func(uint64) float64) {
	slices.SortFunc(ids, func(a, b uint64) int {
		if c := cmp.Compare(rank(b), rank(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
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
