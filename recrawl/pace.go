package recrawl

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Refresh pacing (Options.RefreshPace): how a capped refresh share is
// spread over a budget-limited cycle.
//
// The refresh share (CycleOptions.MaxRefresh refetches out of a budget of
// CycleOptions.Budget fetches) is a share of every part of the cycle, not
// only of its total. Known pages are the best-connected part of the graph,
// so a scheduler reaches them first: left alone, the refetches take almost
// every fetch of the cycle's first tenth, and the URLs first found this
// cycle (new pages, most of them) wait behind them. A cycle cut short, or
// read while it runs, has then refreshed what it knew and found nothing
// new. Paced, a refetch is granted while the refetches so far are below
// burst + MaxRefresh × fetches / Budget (burst = 1 + MaxRefresh/100): the
// refresh share's even rate, with a little slack so that a worker never
// idles for it.
//
// A refetch candidate the scheduler hands out ahead of that rate is
// traversed from storage at once (its stored links go on in the
// scheduler's order, as for any known page not refetched) and its refetch
// is owed: kept in a queue by the page's stored PageRank, largest first
// (ties in the order the scheduler handed the pages out). After each
// fetch the cycle queues owed refetches again while the rate allows
// (crawler.Loop.Credit), largest PageRank first, at that PageRank (the
// previous cycle's, on the schedulers' scale: the history schedulers'
// prior, and about what fpr gives a page once its in-links are
// downloaded), so they come out promptly; one is then refetched like any
// due page, and hands on the links it gained to the scheduler like a
// download. Released in the order owed, the first refetches were the
// neighbourhood of whatever the crawl started from: a cycle reseeded away
// from the sites' home pages refetched minor pages first and missed the
// new links of the hubs, which is where most new pages of a cycle's first
// tenth are found; by PageRank, the first refetches are the most important
// pages the crawl has reached, whatever its seeds. At most
// MaxRefresh refetches are granted or owed, so the queue is bounded by the
// cycle's budget.
//
// Owed pages not released are held in the frontier at priority 0 after
// each fetch, so the crawl cannot run out of URLs while refetches are
// owed. When the cycle runs out of URLs to fetch other than refetches (a
// site known by heart), the rate would hold refetches back for fetches
// that never come: once the last held page came out with no refetch
// under way (or dryAfter known pages without a fetch), the cycle is dry: every owed refetch is released and
// later ones are granted at once, as without pacing, until a fetch that
// is not a refetch ends: such a fetch shows the cycle was not dry after
// all, and pacing resumes.
//
// The owed queue outlives the process: each commit stores the changes to
// it since the last one (storage.Batch.PutOwed, DeleteOwed: a page owed,
// its refetch granted), in the batch that holds the traversals and
// refetches behind them, so after kill -9 the stored queue matches the
// stored pages and frontier. A resumed cycle (CycleOptions.Owed) puts the
// stored queue back, each page held if the stored frontier still has it
// and held again after the first fetch otherwise, and paces what is left
// of its budget, so it makes the refetches the interrupted run owed. The
// stored queue holds at most MaxRefresh pages, so no commit grows with
// the db.
const (
	// PaceEven spreads the refetches of a capped refresh share evenly over
	// the cycle's budget (the default).
	PaceEven = "even"
	// PaceFront grants refetches as the scheduler reaches known pages, up
	// to the cap: they come first in the cycle.
	PaceFront = "front"
)

// RefreshPaces returns the values of Options.RefreshPace.
func RefreshPaces() []string { return []string{PaceEven, PaceFront} }

// dryAfter is the number of known pages handed out without a fetch in
// between after which a paced cycle counts as having nothing left to fetch
// but refetches.
const dryAfter = 2048

// owedPage is a refetch owed to a page traversed ahead of the pace.
type owedPage struct {
	id    uint64
	host  string // frontier host key (host[:port]), as the frontier queues it
	depth int
	held  bool    // queued in the frontier at priority 0
	w     float64 // stored PageRank (CycleOptions.Weight): the queue's order
	seq   uint64  // order owed: ties
}

// owedQueue is a max-heap of owed pages by stored PageRank (container/heap),
// with each page's position: a known page the cycle hands out is looked
// up in it (popped), and a scan for each of them cost O(known pages ×
// owed) per cycle, with owed up to MaxRefresh.
type owedQueue struct {
	items []owedPage
	at    map[uint64]int
}

func (q *owedQueue) Len() int { return len(q.items) }
func (q *owedQueue) Less(i, j int) bool {
	a, b := &q.items[i], &q.items[j]
	if a.w != b.w {
		return a.w > b.w
	}
	return a.seq < b.seq
}
func (q *owedQueue) Swap(i, j int) {
	q.items[i], q.items[j] = q.items[j], q.items[i]
	q.at[q.items[i].id], q.at[q.items[j].id] = i, j
}
func (q *owedQueue) Push(x any) {
	o := x.(owedPage)
	q.at[o.id] = len(q.items)
	q.items = append(q.items, o)
}
func (q *owedQueue) Pop() any {
	o := q.items[len(q.items)-1]
	q.items[len(q.items)-1] = owedPage{}
	q.items = q.items[:len(q.items)-1]
	delete(q.at, o.id)
	return o
}

// pacer holds a paced cycle's owed refetches. Refresh runs on the workers,
// release on the disposer: mu guards everything.
type pacer struct {
	mu     sync.Mutex
	budget int64 // fetches of the cycle (CycleOptions.Budget)
	max    int64 // refetches of the cycle (CycleOptions.MaxRefresh)
	burst  int64
	weight func(id uint64) float64
	owed   owedQueue // waiting, largest stored PageRank first
	seq    uint64    // pages owed so far
	// unheld holds the ids of owed pages not held in the frontier yet,
	// first owed first: release holds them without walking the whole
	// queue after every fetch (O(fetches × owed) per cycle on the
	// disposer). Ids no longer owed are dropped as they are met.
	unheld   []uint64
	released map[uint64]bool // queued again: the next job for it is the refetch
	held     int             // owed pages held in the frontier
	// flying holds the refetches granted and not yet fetched: their end
	// (Cycle.Fetched) queues owed pages. One that ends without a fetch
	// (NotFetched names no page) stays; that only delays the guard below.
	flying map[uint64]bool
	// known counts known pages handed out since the last fetch; dry is set
	// once it reached dryAfter.
	known, lastFetches uint64
	dry                bool
	// touched holds the pages owed, or no longer owed, since the owed
	// queue was last saved (save): what the next commit stores.
	touched map[uint64]struct{}
}

// newPacer returns the pacer of a cycle, or nil when it is not paced: no
// pacing asked, no cap on refetches, no budget or no PageRank to queue owed
// refetches at.
func newPacer(rc *CycleOptions) *pacer {
	if !rc.Paced || rc.MaxRefresh <= 0 || rc.Budget <= 0 || rc.Weight == nil {
		return nil
	}
	return &pacer{budget: rc.Budget, max: rc.MaxRefresh, burst: 1 + rc.MaxRefresh/100, weight: rc.Weight,
		released: map[uint64]bool{}, flying: map[uint64]bool{}, owed: owedQueue{at: map[uint64]int{}},
		touched: map[uint64]struct{}{}}
}

// allowed is the number of refetches the rate allows after fetches.
func (p *pacer) allowed(fetches uint64) int64 {
	return p.burst + int64(math.Floor(float64(p.max)*float64(fetches)/float64(p.budget)))
}

// take reports whether id was queued again for its owed refetch, and
// forgets it: the job handed out is that refetch, granted on release.
func (p *pacer) take(id uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.released[id] {
		return false
	}
	delete(p.released, id)
	return true
}

// mass is the priority an owed page is queued again with: its stored
// PageRank, or the smallest positive priority (a priority of 0 would leave
// it held).
func mass(w float64) float64 {
	if !(w > 0) || math.IsInf(w, 0) {
		return math.SmallestNonzeroFloat64
	}
	return w
}

// decide handles a known page that may be refetched (due, in the refetch
// head): granted now (refreshFetched, true; granted counted), owed
// (refreshPaced, false) or over the share (refreshOverShare, false).
// granted is the cycle's count of refetches granted (released owed
// refetches included).
func (p *pacer) decide(prev *storage.Page, fetches uint64, granted *atomic.Int64) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.noteKnown(fetches)
	g := granted.Load()
	waiting := int64(p.owed.Len())
	switch {
	case g+waiting >= p.max:
		return refreshOverShare, false
	case p.dry || waiting == 0 && g < p.allowed(fetches) || p.held == 0 && waiting > 0 && len(p.flying) == 0:
		// The last case: owed pages wait, none held in the frontier yet
		// and no refetch under way whose end would queue them, so the
		// crawl could run out of URLs first: keep one refetch going.
		granted.Add(1)
		p.flying[prev.ID] = true
		return refreshFetched, true
	}
	heap.Push(&p.owed, owedPage{id: prev.ID, host: urlnorm.Authority(prev.URL), depth: int(prev.Depth), w: mass(p.weight(prev.ID)), seq: p.seq})
	p.seq++
	p.unheld = append(p.unheld, prev.ID)
	p.touched[prev.ID] = struct{}{}
	return refreshPaced, false
}

// seed handles a seed of the cycle fetched before: refetched at once while
// the cap allows, ahead of the rate and whatever the refresh policy chose.
// The selector chose it for the new pages it leads to, and a seed's links
// are the first the cycle follows: traversed from storage, it would hand
// on only the links it had. Called once per seed (a seed comes out once).
func (p *pacer) seed(id uint64, granted *atomic.Int64) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if granted.Load()+int64(p.owed.Len()) >= p.max {
		return refreshOverShare, false
	}
	granted.Add(1)
	p.flying[id] = true
	return refreshFetched, true
}

// noteKnown counts a known page handed out and sets dry when dryAfter of
// them came without a fetch in between. Called with mu held.
func (p *pacer) noteKnown(fetches uint64) {
	if fetches != p.lastFetches {
		p.lastFetches, p.known = fetches, 0
	}
	p.known++
	if p.known >= dryAfter {
		p.dry = true
	}
}

// release queues owed refetches again after the fetch of page id, through
// credit (crawler.Loop.Credit of one target, returning how many it
// enqueued): those the rate allows (all of them once the cycle is dry),
// largest stored PageRank first, are granted and queued at their Weight;
// every other owed page not yet in the frontier is held there at priority
// 0, after every URL with a priority, so that the crawl cannot run out of
// URLs while refetches are owed. Raising a held page's priority (Credit
// adds Mass) releases it. A page whose traversal is still in flight cannot
// be queued yet: it stays owed as it was until a later fetch. The cost is
// that of the pages granted and newly held (log owed each), not of the
// queue.
func (p *pacer) release(id uint64, fetches uint64, granted *atomic.Int64, credit func(frontier.Target) int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.flying[id] && p.dry {
		// A fetch that is not a refetch: the cycle still had URLs to
		// fetch, so it was not dry.
		p.dry = false
		p.known = 0
	}
	delete(p.flying, id)
	allowed := p.allowed(fetches)
	var busy []owedPage // in flight still: back into the queue after the loop
	for p.owed.Len() > 0 && (p.dry || granted.Load() < allowed) {
		o := heap.Pop(&p.owed).(owedPage)
		t := frontier.Target{ID: o.id, Host: o.host, Depth: o.depth, New: !o.held, Mass: o.w}
		if credit(t) == 0 && !o.held {
			busy = append(busy, o)
			continue
		}
		granted.Add(1)
		p.released[o.id] = true
		p.flying[o.id] = true
		p.touched[o.id] = struct{}{}
		if o.held {
			p.held--
		}
	}
	for _, o := range busy {
		heap.Push(&p.owed, o)
	}
	kept := p.unheld[:0]
	for _, x := range p.unheld {
		i, ok := p.owed.at[x]
		if !ok || p.owed.items[i].held {
			continue // granted, or refetched when popped
		}
		o := &p.owed.items[i]
		if credit(frontier.Target{ID: o.id, Host: o.host, Depth: o.depth, New: true}) == 1 {
			o.held = true
			p.held++
			continue
		}
		kept = append(kept, x)
	}
	clear(p.unheld[len(kept):])
	p.unheld = kept
}

// popped handles an owed page handed out before its release: held at
// priority 0, it came out because nothing with a priority was left, or a
// link raised its priority. It is refetched now (fetch) if the rate allows
// or the cycle is dry; otherwise it is traversed again, handing on only
// what its priority gathered since, and stays owed, to be held again after
// the next fetch. owed reports whether id was an owed page.
func (p *pacer) popped(id uint64, fetches uint64, granted *atomic.Int64) (owed, fetch bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i, ok := p.owed.at[id]
	if !ok {
		return false, false
	}
	o := &p.owed.items[i]
	if o.held {
		o.held = false
		p.held--
		p.unheld = append(p.unheld, id)
		if len(p.flying) == 0 && p.held == 0 {
			// No refetch under way and the last held page came out:
			// nothing with a priority is left, and no fetch would come
			// to hold the owed pages again. A few held pages in a row
			// mean less: the frontier hands out the best URL of a ready
			// host, and a host with nothing but held pages is ready
			// while the hosts with other URLs are busy; taking four in
			// a row for dry released hundreds of owed refetches at once
			// into a cycle's first tenth.
			p.dry = true
		}
	}
	if !p.dry && granted.Load() >= p.allowed(fetches) {
		return true, false
	}
	heap.Remove(&p.owed, i)
	p.touched[id] = struct{}{}
	if granted.Load() >= p.max {
		return true, false
	}
	granted.Add(1)
	p.flying[id] = true
	return true, true
}

// save puts into b the changes to the owed queue since the last save, as
// the owed refetches of cycle n: a page owed is stored with its weight
// and order, one no longer owed deleted. Called before each commit
// (Cycle.Committing); the changes number at most the pages owed and
// granted since the last commit.
func (p *pacer) save(n uint32, b *storage.Batch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id := range p.touched {
		if i, ok := p.owed.at[id]; ok {
			o := &p.owed.items[i]
			b.PutOwed(n, storage.Owed{ID: id, Weight: o.w, Seq: o.seq})
		} else {
			b.DeleteOwed(n, id)
		}
	}
	clear(p.touched)
}

// restore puts the owed refetches a resumed cycle read from the db back
// into the queue, before the crawl starts: those queued (in the restored
// frontier) are held there, the others are held after the first fetch.
// They are stored already, so nothing is saved for them. At most max are
// kept, largest weight first (the order they would be released in): the
// refetches left in the share may be fewer than the interrupted run owed,
// and the others are deleted by the next commit.
// It returns the number owed.
func (p *pacer) restore(owed []OwedRefetch, queued func(id uint64) bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	owed = slices.Clone(owed)
	slices.SortStableFunc(owed, func(a, b OwedRefetch) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
	keep := min(int64(len(owed)), max(p.max, 0))
	for _, o := range owed[keep:] {
		p.touched[o.ID] = struct{}{} // no longer owed: deleted by the next commit
	}
	for _, o := range owed[:keep] {
		if _, ok := p.owed.at[o.ID]; ok {
			continue
		}
		held := queued(o.ID)
		heap.Push(&p.owed, owedPage{id: o.ID, host: o.Host, depth: o.Depth, held: held, w: mass(o.Weight), seq: o.Seq})
		if held {
			p.held++
		} else {
			p.unheld = append(p.unheld, o.ID)
		}
		p.seq = max(p.seq, o.Seq+1)
	}
	return p.owed.Len()
}
