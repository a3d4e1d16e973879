package frontier

import (
	"cmp"
	"container/heap"
	"slices"
	"sync/atomic"

	"github.com/seedcrawl/seedcrawl/internal/pq"
	"github.com/seedcrawl/seedcrawl/monitor"
)

// Host states, as Hosts reports them in monitor.Host.State: the monitor's
// words, and failing, the frontier's own (a Source may add words).
const (
	HostReady    = monitor.StateReady    // URLs queued, free concurrency, ready time passed
	HostBusy     = monitor.StateBusy     // at its concurrency limit: requests in flight
	HostWaiting  = monitor.StateWaiting  // URLs queued; the politeness delay runs until ReadyAt
	HostDeferred = monitor.StateDeferred // held back until ReadyAt for Reason
	HostFailing  = "failing"             // backing off after transient failures
	HostIdle     = monitor.StateIdle     // nothing queued, nothing in flight
	HostDropped  = monitor.StateDropped  // given up for its Crawl-delay (Reason)
)

// hostCounts are host counts Stats reports without scanning the hosts:
// failing and dropped hosts are counted as their state changes, deferred
// hosts sit in a heap by the end of their deferral.
type hostCounts struct {
	deferred pq.Heap // host index by -readyAt, hosts with a reason
	nfailing int     // hosts with fails > 0
	ndropped int     // hosts with dropped set
	// anyDropped mirrors ndropped > 0 for Dropped, asked for every link a
	// page has, to answer without the frontier's lock in the common case.
	anyDropped atomic.Bool
}

// setFails sets h's consecutive failure count, keeping nfailing.
func (f *Frontier) setFails(h *host, n int32) {
	switch {
	case h.fails == 0 && n > 0:
		f.nfailing++
	case h.fails > 0 && n == 0:
		f.nfailing--
	}
	h.fails = n
}

// setDropped sets h's dropped flag, keeping ndropped.
func (f *Frontier) setDropped(h *host, dropped bool) {
	switch {
	case !h.dropped && dropped:
		f.ndropped++
	case h.dropped && !dropped:
		f.ndropped--
	}
	h.dropped = dropped
	f.anyDropped.Store(f.ndropped > 0)
}

// noteDeferred puts host hi in the deferred heap, or moves it there, when
// it has a reason: it counts as deferred until its ready time. Called with
// mu held after its ready time or reason changed.
func (f *Frontier) noteDeferred(hi uint32) {
	h := f.hosts[hi]
	if h.reason == "" {
		return
	}
	key := -float64(h.readyAt - f.epoch)
	if f.deferred.Contains(uint64(hi)) {
		f.deferred.Update(uint64(hi), key)
	} else {
		f.deferred.Push(pq.Item{ID: uint64(hi), Prio: key, Seq: uint64(hi)})
	}
}

// expireDeferred drops the hosts whose deferral ended by now from the
// deferred heap.
func (f *Frontier) expireDeferred(now int64) {
	for {
		top, ok := f.deferred.Peek()
		if !ok || f.hosts[top.ID].readyAt > now {
			return
		}
		f.deferred.Pop()
	}
}

// hostState names host h's state at now.
func (f *Frontier) hostState(h *host, now int64) string {
	switch {
	case h.dropped:
		return HostDropped
	case h.inflight >= f.hostConc(h):
		return HostBusy
	case h.readyAt > now && h.reason != "":
		return HostDeferred
	case h.fails > 0 && h.readyAt > now:
		return HostFailing
	case h.q.len() == 0 && h.inflight == 0:
		return HostIdle
	case h.q.len() == 0:
		return HostBusy
	case h.readyAt > now:
		return HostWaiting
	}
	return HostReady
}

// Hosts returns the limit hosts with the longest queues (then by name),
// longest first, with the number of all hosts in each state; limit < 0
// lists every host. It looks at every host under the frontier's lock,
// O(hosts × log limit): a status page's cost, not one for the crawl loop.
func (f *Frontier) Hosts(limit int) (hosts []monitor.Host, states map[string]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now().UnixNano()
	states = map[string]int{}
	top := &hostHeap{hosts: f.hosts}
	for hi, h := range f.hosts {
		st := f.hostState(h, now)
		states[st]++
		if limit >= 0 && top.Len() >= limit {
			if limit == 0 || !longer(h, f.hosts[top.ids[0]]) {
				continue
			}
			top.ids[0] = uint32(hi)
			heap.Fix(top, 0)
			continue
		}
		if limit >= 0 {
			heap.Push(top, uint32(hi))
		} else {
			top.ids = append(top.ids, uint32(hi))
		}
	}
	hosts = make([]monitor.Host, 0, len(top.ids))
	for _, hi := range top.ids {
		h := f.hosts[hi]
		hs := monitor.Host{Name: h.name, Queue: h.q.len(), InFlight: int(h.inflight), State: f.hostState(h, now),
			Failures: int(h.fails)}
		if h.readyAt > now {
			hs.ReadyAt = f.timeOf(h.readyAt)
		}
		if hs.State == HostDeferred || hs.State == HostDropped {
			hs.Reason = h.reason
		}
		hosts = append(hosts, hs)
	}
	slices.SortFunc(hosts, func(a, b monitor.Host) int {
		if c := cmp.Compare(b.Queue, a.Queue); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return hosts, states
}

// longer reports whether a ranks before b: a longer queue, then the
// smaller name.
func longer(a, b *host) bool {
	if a.q.len() != b.q.len() {
		return a.q.len() > b.q.len()
	}
	return a.name < b.name
}

// hostHeap keeps the best hosts seen so far with the worst on top, so a
// better host replaces the root.
type hostHeap struct {
	ids   []uint32
	hosts []*host
}

func (h *hostHeap) Len() int           { return len(h.ids) }
func (h *hostHeap) Less(i, j int) bool { return longer(h.hosts[h.ids[j]], h.hosts[h.ids[i]]) }
func (h *hostHeap) Swap(i, j int)      { h.ids[i], h.ids[j] = h.ids[j], h.ids[i] }
func (h *hostHeap) Push(x any)         { h.ids = append(h.ids, x.(uint32)) }
func (h *hostHeap) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}
