package recrawl

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"

	"github.com/seedcrawl/seedcrawl/storage"
)

// Planning a budget-limited cycle by its budget. A lazy cycle (Plan.Lazy)
// only ever uses the head of its refresh list: the pages the refresh
// policy allocates its refetches to, out of a pool of the known pages with
// the highest stored PageRank (refreshOrder), and the next pages by
// PageRank (lazyRefresh). So the pool is all the cycle needs, and it is
// found without reading every page: the stored PageRank vector (StateRank,
// 8 bytes a page, written when the previous cycle closed) gives the ids in
// rank order, and only the pool's page records and fetch histories are
// read (storage.DB.EachPageOf, EachHistoryOf). The result is the list
// refreshOrder and lazyRefresh make from a pass over every page.

// poolPage is what planning reads about one page of the pool.
type poolPage struct {
	id    uint64
	last  uint32 // cycle of its last fetch
	host  string
	known bool // fetched (or tried) before
	due   bool // due by the revisit policy as the cycle is planned
}

// lazyRefreshOrder is refreshOrder followed by lazyRefresh(keep) for a
// budget-limited cycle n, reading only the pool: see the comment above.
// seedIDs are left out; maxRefresh is Plan.MaxRefresh; keep is the
// length lazyRefresh trims to. It also returns how many pages of the
// list are due (Plan.Due), read from the pool's records.
func (r *Runner) lazyRefreshOrder(seedIDs []uint32, pr []float64, n uint32, maxRefresh int64, keep int) ([]uint64, int, error) {
	seed := make(map[uint64]bool, len(seedIDs))
	for _, s := range seedIDs {
		seed[uint64(s)] = true
	}
	policy := r.o.RefreshPolicy
	byRank := policy == RefreshPageRank || maxRefresh < 0
	budget := float64(r.o.PagesPerCycle)
	if maxRefresh > 0 {
		budget = float64(maxRefresh)
	}
	size := max(4*int(budget), minPool)
	if byRank {
		size = 2 * keep // lazyRefresh keeps keep pages, then keep more by rank
	}
	pool, err := r.rankPool(pr, seed, size, r.dueIn(n))
	if err != nil {
		return nil, 0, err
	}
	ids := make([]uint64, len(pool))
	due := map[uint64]bool{}
	for i, p := range pool {
		ids[i] = p.id
		if p.due {
			due[p.id] = true
		}
	}
	if byRank {
		return countDue(lazyRefresh(ids, pr, keep), due)
	}
	// The allocation sums over the pool in id order, as refreshOrder's.
	slices.SortFunc(pool, func(a, b poolPage) int { return cmp.Compare(a.id, b.id) })
	for i, p := range pool {
		ids[i] = p.id
	}
	var rate []float64
	if changeAware(policy) {
		hosts := make([]string, len(pool))
		hs := make([]pageHist, len(pool))
		at := make(map[uint64]int, len(pool))
		for i, p := range pool {
			hosts[i] = p.host
			at[p.id] = i
		}
		err := r.o.Store.EachHistoryOf(ids, n-1, func(id uint64, recs []storage.FetchRecord) error {
			for _, rec := range recs {
				hs[at[id]].add(rec)
			}
			return nil
		})
		if err != nil {
			return nil, 0, fmt.Errorf("recrawl: fetch history of %d pages: %w", len(ids), err)
		}
		rate = rates(hosts, hs, float64(r.o.Now().Unix()))
		holdGone(rate, ids, hs, n, r.o.Revisit.GoneCycles)
	}
	last := make([]uint32, len(pool))
	for i, p := range pool {
		last[i] = p.last
	}
	order, err := refreshList(policy, ids, last, n, pr, rate, budget)
	if err != nil {
		return nil, 0, err
	}
	return countDue(lazyRefresh(order, pr, keep), due)
}

// countDue returns order and how many of its pages due holds.
func countDue(order []uint64, due map[uint64]bool) ([]uint64, int, error) {
	n := 0
	for _, id := range order {
		if due[id] {
			n++
		}
	}
	return order, n, nil
}

// rankPool returns the size known pages, seeds left out, with the highest
// PageRank in pr (ties by id), in that order: every known page if there
// are fewer. It reads the records of the top-ranked ids, more of them
// until size known pages are found or every ranked id was read; due
// tells whether a known page is due.
func (r *Runner) rankPool(pr []float64, seed map[uint64]bool, size int, due func(p *storage.Page) bool) ([]poolPage, error) {
	k := min(len(pr), size+size/4+len(seed)+64)
	for {
		top := topByRank(pr, k)
		got := make(map[uint64]poolPage, len(top))
		err := r.o.Store.EachPageOf(top, func(p *storage.Page) error {
			got[p.ID] = poolPage{id: p.ID, last: p.Cycle, host: p.Host(), known: p.Fetches > 0, due: p.Fetches > 0 && due(p)}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("recrawl: read the %d pages of highest PageRank: %w", len(top), err)
		}
		pool := make([]poolPage, 0, size)
		for _, id := range top {
			if p := got[id]; p.known && !seed[id] && len(pool) < size {
				pool = append(pool, p)
			}
		}
		if len(pool) >= size || k >= len(pr) {
			return pool, nil
		}
		// Few known pages among the top ranks (a db with many URLs never
		// fetched): read more, in proportion to what was found.
		k = min(len(pr), max(2*k, k*size/max(len(pool), 1)))
	}
}

// topByRank returns the k ids with the highest value in pr, highest first,
// ties by id: one pass with a min-heap of k.
func topByRank(pr []float64, k int) []uint64 {
	rank := func(id uint64) float64 { return pr[id] }
	h := &rankHeap{rank: rank, ids: make([]uint64, 0, k)}
	for id := range uint64(len(pr)) {
		if h.Len() < k {
			heap.Push(h, id)
			continue
		}
		// Ids come in increasing order, so an equal rank never displaces
		// an earlier id.
		if k > 0 && pr[id] > pr[h.ids[0]] {
			h.ids[0] = id
			heap.Fix(h, 0)
		}
	}
	out := h.ids
	sortByRank(out, rank)
	return out
}
