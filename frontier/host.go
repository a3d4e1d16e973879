package frontier

import (
	"time"

	"github.com/seedcrawl/seedcrawl/internal/pq"
)

// where says which host heap a host is in.
type where uint8

const (
	nowhere where = iota // empty queue, or at its concurrency limit
	waiting              // queued URLs, ready time in the future
	ready                // queued URLs, may be handed out now
)

// host is the per-host state: Mercator's back queue plus politeness.
type host struct {
	name       string
	q          queue  // pending URLs of this host by (Prio desc, Seq asc)
	readyAt    int64  // unix ns; the next request may start at or after it
	reason     string // reason of the last Defer
	inflight   int32
	fails      int32         // consecutive transient failures (back-off)
	failedURLs int32         // consecutive URLs whose retries all failed (HostMaxFailures)
	crawlDelay time.Duration // robots.txt Crawl-delay, last verdict
	dropped    bool          // given up for its Crawl-delay; reason says why
	where      where
	mark       uint32 // touch epoch: the host is in f.touched for this epoch
}

// releaseCap is the queue capacity above which an emptied host queue gives
// its memory back; smaller queues keep it to avoid churn on hosts that
// alternate between zero and a few URLs.
const releaseCap = 32

// intern returns the index of host name, creating its state if needed.
func (f *Frontier) intern(name string) uint32 {
	if i, ok := f.hostIdx[name]; ok {
		return i
	}
	i := uint32(len(f.hosts))
	f.hosts = append(f.hosts, &host{name: name, readyAt: f.epoch})
	f.hostIdx[name] = i
	if len(f.hosts) > f.hostCap {
		f.growHostHeaps(2 * len(f.hosts))
	}
	return i
}

// growHostHeaps rebuilds the ready and waiting heaps with array indexes
// for n hosts (no map lookups on the hot path). Items are pushed in heap
// order, so none moves: O(hosts).
func (f *Frontier) growHostHeaps(n int) {
	for _, hp := range []*pq.Heap{&f.ready, &f.waiting, &f.deferred} {
		grown := pq.NewDense(n)
		for _, it := range hp.Items() {
			grown.Push(it)
		}
		*hp = *grown
	}
	f.hostCap = n
}

// touch records that host hi changed; reposition runs once per touched host
// at the end of the operation (settle), however many of its URLs changed.
func (f *Frontier) touch(hi uint32) {
	h := f.hosts[hi]
	if h.mark == f.epochMark {
		return
	}
	h.mark = f.epochMark
	f.touched = append(f.touched, hi)
}

// settle repositions every touched host and starts a new touch epoch.
func (f *Frontier) settle(now int64) {
	for _, hi := range f.touched {
		f.reposition(hi, now)
	}
	f.touched = f.touched[:0]
	f.epochMark++
	if f.epochMark == 0 { // wrapped: clear marks so no host looks touched
		for _, h := range f.hosts {
			h.mark = 0
		}
		f.epochMark = 1
	}
}

// reposition moves host hi to the heap its state calls for: ready (keyed by
// its best URL's priority and sequence), waiting (keyed by ready time), or
// none. O(log hosts).
func (f *Frontier) reposition(hi uint32, now int64) {
	h := f.hosts[hi]
	want := nowhere
	if h.q.len() > 0 && h.inflight < f.hostConc(h) {
		// A dropped host's URLs are not fetched, only handed out to be
		// recorded as skipped: no need to wait for its ready time.
		if h.readyAt <= now || h.dropped {
			want = ready
		} else {
			want = waiting
		}
	}
	if h.where != want {
		switch h.where {
		case ready:
			f.ready.Remove(uint64(hi))
		case waiting:
			f.waiting.Remove(uint64(hi))
		}
	}
	switch want {
	case ready:
		top := h.q.top()
		// The ready heap orders hosts by their best URL's priority, then
		// its discovery: a sitemap put at the front of its host's queue
		// (frontSeq) goes ahead of the host's other URLs, not of other
		// hosts, so the mark is left out of the host's key.
		seq := top.seq &^ frontSeq
		if h.where == ready {
			cur, _ := f.ready.Get(uint64(hi))
			if cur.Seq == seq { // same best URL: only its priority may differ
				if cur.Prio != top.prio {
					f.ready.Update(uint64(hi), top.prio)
				}
				break
			}
			// pq keeps an item's Seq on update, so a new best URL means
			// remove and push.
			f.ready.Remove(uint64(hi))
		}
		f.ready.Push(pq.Item{ID: uint64(hi), Prio: top.prio, Seq: seq})
	case waiting:
		// Max-heap on -readyAt: the earliest ready time on top. Relative to
		// the epoch, nanoseconds stay exact in a float64 for 104 days.
		key := -float64(h.readyAt - f.epoch)
		if h.where == waiting {
			f.waiting.Update(uint64(hi), key)
		} else {
			f.waiting.Push(pq.Item{ID: uint64(hi), Prio: key, Seq: uint64(hi)})
		}
	case nowhere:
		if h.q.len() == 0 && cap(h.q.items) > releaseCap {
			h.q.items = nil
		}
	}
	h.where = want
}

// hostConc is the most jobs of host h in flight at once: HostConcurrency,
// but one for a host whose robots.txt asks for a Crawl-delay. The site
// asks for that long between two requests; a second request in flight
// would halve it whatever the delay after each.
func (f *Frontier) hostConc(h *host) int32 {
	if h.crawlDelay > 0 {
		return 1
	}
	return f.conc
}

// promote moves every waiting host whose ready time has come to the ready
// heap. O(k log hosts) for k hosts promoted.
func (f *Frontier) promote(now int64) {
	for {
		top, ok := f.waiting.Peek()
		if !ok || f.hosts[top.ID].readyAt > now {
			return
		}
		f.reposition(uint32(top.ID), now)
	}
}

// delayHost moves host hi's ready time to at least until and records the
// change for persistence.
func (f *Frontier) delayHost(hi uint32, until int64, reason string, ch *Changes) {
	h := f.hosts[hi]
	if reason != "" {
		h.reason = reason
	}
	if until <= h.readyAt && reason == "" {
		return
	}
	if until > h.readyAt {
		h.readyAt = until
	}
	f.noteDeferred(hi)
	f.touch(hi)
	if ch != nil {
		ch.Hosts = append(ch.Hosts, HostState{Host: h.name, ReadyAt: f.timeOf(h.readyAt), Reason: h.reason})
	}
}
