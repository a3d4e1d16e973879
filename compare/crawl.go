package compare

import (
	"github.com/seedcrawl/seedcrawl/internal/pq"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// Node states of a logical crawl, numbered as scheduler.State so that a
// state converts to a Link's State as is (the same numbering as package
// sim's simulated queue).
const (
	unseen = uint8(scheduler.New)
	queued = uint8(scheduler.Queued)
	done   = uint8(scheduler.Done) // downloaded or in flight
)

// local is what a logical crawl knows of a URL it has discovered; it is
// indexed by the crawl's local id (see crawl).
type local struct {
	prio  float64
	state uint8
}

// crawl is one logical crawl: one scheduler's queue over the revealed web,
// as a state machine that the engine (or the scorer's omniscient reference)
// steps page by page.
//
// Ids. Every URL the comparison knows has a global id (gid) in the order the
// comparison first met it, which depends on how concurrent crawls raced and
// so is not reproducible. The scheduler therefore sees a local id instead:
// the crawl's own discovery index (seeds 0, 1, ... in the given order, then
// each newly discovered link target in download order and document order).
// The local id is also the queue's FIFO sequence number, exactly as sim's
// sequence counter (sim pushes a node once, when first discovered, and
// numbers pushes consecutively), and it is what the Store records, so a
// replay of the recorded sequence rebuilds the same ids.
//
// The queue semantics are sim.(*Sim).Crawl's: pop the highest priority, ties
// to the smaller sequence number; the popped URL is Done at once; the
// downloaded page's distinct out-links (parallel links merged, self-links
// as Done) go to Downloaded in document order; New targets are pushed in
// that order, Queued ones updated; then a Batcher is asked Due(queued) and
// flushed. The one addition is the window: up to window URLs are popped
// ahead (in flight, Done to the scheduler, as in the live frontier) and
// the engine decides which of them is downloaded next.
type crawl struct {
	name    string
	sch     scheduler.Scheduler
	batcher scheduler.Batcher
	budget  int
	window  int

	h      *pq.Heap // keyed by local id; Seq = local id
	hcap   int      // ids the dense heap can index
	loc    []local  // by local id
	l2g    []uint32 // local id -> gid
	g2l    []uint32 // gid -> local id + 1, 0 = never discovered
	stamp  []uint32 // gid -> page number when last seen as a link target
	mark   uint32   // pages downloaded, the stamp of the current page
	flight []flying // popped but not downloaded, in pop order
	down   []uint32 // local ids downloaded, in download order
	links  int      // out-links examined
	out    []scheduler.Link
	emitFn func(id uint64, p float64)
}

// flying is an in-flight URL: its local id and the priority it was popped
// with (the heap's, which maps NaN to -Inf, as sim hands to Downloaded).
type flying struct {
	id   uint32
	prio float64
}

// newCrawl returns a crawl that start seeds.
func newCrawl(name string, budget, window int) *crawl {
	return &crawl{name: name, budget: budget, window: window, h: pq.NewDense(64), hcap: 64}
}

// start hands the seeds (gids, distinct, in order) to sch and queues them,
// as sim does: local ids and sequence numbers 0, 1, ... in seed order.
func (c *crawl) start(sch scheduler.Scheduler, seeds []uint32) {
	c.sch = sch
	c.batcher, _ = sch.(scheduler.Batcher)
	c.emitFn = c.emit
	links := make([]scheduler.Link, len(seeds))
	for i, g := range seeds {
		c.discover(g)
		links[i] = scheduler.Link{ID: uint64(i), Intra: true, State: scheduler.New}
	}
	sch.Seed(links)
	for i, l := range links {
		c.loc[i] = local{prio: l.Prio, state: queued}
		c.push(uint32(i), l.Prio)
	}
}

// growG makes the gid-indexed arrays cover g.
func (c *crawl) growG(g uint32) {
	if int(g) < len(c.g2l) {
		return
	}
	n := max(int(g)+1, 2*len(c.g2l), 64)
	c.g2l = append(c.g2l, make([]uint32, n-len(c.g2l))...)
	c.stamp = append(c.stamp, make([]uint32, n-len(c.stamp))...)
}

// discover gives gid g the next local id; g must be undiscovered.
func (c *crawl) discover(g uint32) uint32 {
	c.growG(g)
	id := uint32(len(c.l2g))
	c.l2g = append(c.l2g, g)
	c.loc = append(c.loc, local{})
	c.g2l[g] = id + 1
	return id
}

// push queues local id with prio. The dense heap is rebuilt at twice the
// size when id outgrows it: the heap order is the total order (prio desc,
// seq asc), so a rebuilt heap pops exactly what the old one would have.
func (c *crawl) push(id uint32, prio float64) {
	if int(id) >= c.hcap {
		c.hcap = max(2*int(id)+2, 64)
		h := pq.NewDense(c.hcap)
		for _, it := range c.h.Items() {
			h.Push(it)
		}
		c.h = h
	}
	c.h.Push(pq.Item{ID: uint64(id), Prio: prio, Seq: uint64(id)})
}

func (c *crawl) emit(id uint64, p float64) {
	if id < uint64(len(c.loc)) && c.loc[id].state == queued && c.loc[id].prio != p {
		c.loc[id].prio = p
		c.h.Update(id, p)
	}
}

// fill pops URLs into flight until the window is full, the budget is
// covered by downloads and flights, or the queue is empty. It returns the
// gids newly in flight, appended to buf.
func (c *crawl) fill(buf []uint32) []uint32 {
	for len(c.flight) < c.window && len(c.down)+len(c.flight) < c.budget && c.h.Len() > 0 {
		it, _ := c.h.Pop()
		id := uint32(it.ID)
		c.loc[id].state = done
		c.flight = append(c.flight, flying{id: id, prio: it.Prio})
		buf = append(buf, c.l2g[id])
	}
	return buf
}

// finished reports whether the crawl has nothing left to download.
func (c *crawl) finished() bool { return len(c.flight) == 0 }

// download downloads the in-flight URL at flight[i] whose page has the
// out-links out (gids, document order; duplicates allowed), hosts giving
// each gid's host.
func (c *crawl) download(i int, out []uint32, host func(g uint32) uint32) {
	f := c.flight[i]
	id := f.id
	c.flight = append(c.flight[:i], c.flight[i+1:]...)
	c.down = append(c.down, id)
	c.mark++
	mark := c.mark
	c.links += len(out)
	hv := host(c.l2g[id])
	ls := c.out[:0]
	for _, t := range out {
		c.growG(t)
		if c.stamp[t] == mark {
			continue // parallel link
		}
		c.stamp[t] = mark
		var lid uint32
		if l := c.g2l[t]; l != 0 {
			lid = l - 1
		} else {
			lid = c.discover(t)
		}
		nd := c.loc[lid]
		ls = append(ls, scheduler.Link{ID: uint64(lid), Intra: host(t) == hv, State: scheduler.State(nd.state), Prio: nd.prio})
	}
	c.out = ls
	c.sch.Downloaded(scheduler.Link{ID: uint64(id), Intra: true, State: scheduler.Done, Prio: f.prio}, ls)
	for j := range ls {
		l := &ls[j]
		switch l.State {
		case scheduler.New:
			c.loc[l.ID] = local{prio: l.Prio, state: queued}
			c.push(uint32(l.ID), l.Prio)
		case scheduler.Queued:
			if nd := &c.loc[l.ID]; l.Prio != nd.prio {
				nd.prio = l.Prio
				c.h.Update(l.ID, l.Prio)
			}
		}
	}
	if c.batcher != nil && c.batcher.Due(c.h.Len()) {
		c.batcher.Flush(c.emitFn)
	}
}
