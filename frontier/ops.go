package frontier

import (
	"fmt"
	"math"
	"time"
)

// Requeue puts a job back after a retryable failure (timeout, connection
// reset, 5xx): the URL returns to its host's queue with its priority and
// discovery sequence (so it keeps its place) and one more attempt, and the
// host is not handed out again before after has passed. The stored entry is
// rewritten with the new attempt count (a Put in ch).
func (f *Frontier) Requeue(job Job, after time.Duration, ch *Changes) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requeue(job, after, ch)
}

// requeue is Requeue with mu held.
func (f *Frontier) requeue(job Job, after time.Duration, ch *Changes) error {
	hi, err := f.land(job)
	if err != nil {
		return fmt.Errorf("frontier: requeue %d: %w", job.ID, err)
	}
	depth := f.slots.get(job.ID).depth
	attempt := int32(min(job.Attempt+1, math.MaxInt32))
	f.retries[job.ID] = attempt
	f.add(hi, qitem{id: job.ID, prio: job.Prio, seq: job.Seq}, depth)
	if ch != nil {
		ch.Put = append(ch.Put, Entry{ID: job.ID, Host: f.hosts[hi].name, Prio: job.Prio, Seq: job.Seq, Depth: depth, Attempt: uint32(attempt)})
	}
	now := f.clock.Now().UnixNano()
	f.delayHost(hi, now+int64(after), "", ch)
	f.settle(now)
	f.notify()
	return nil
}

// Defer keeps host from being handed out before until (robots.txt 5xx or
// timeout, Retry-After, a Crawl-delay above --max-crawl-delay), recording
// reason. A ready time already later than until is kept. The host's URLs
// stay queued, so Next keeps waiting for them; to give a host up for good,
// use DropHost.
func (f *Frontier) Defer(host string, until time.Time, reason string, ch *Changes) {
	f.mu.Lock()
	defer f.mu.Unlock()
	hi := f.intern(host)
	f.delayHost(hi, until.UnixNano(), reason, ch)
	f.settle(f.clock.Now().UnixNano())
}

// DropHost removes every queued URL of host (jobs in flight are not
// affected) and returns their ids, so the crawl loop can record why they
// were not fetched in the same batch as the Deletes appended to ch. It does
// not stop later links to the host from being enqueued: mark those Skip.
func (f *Frontier) DropHost(host string, reason string, ch *Changes) []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	hi, ok := f.hostIdx[host]
	if !ok {
		return nil
	}
	ids := f.dropQueued(hi, reason, ch)
	f.settle(f.clock.Now().UnixNano())
	f.notify() // the frontier may now be exhausted
	return ids
}

// dropQueued removes every queued URL of host hi and returns their ids.
// Called with mu held; the caller settles.
func (f *Frontier) dropQueued(hi uint32, reason string, ch *Changes) []uint64 {
	h := f.hosts[hi]
	if reason != "" {
		h.reason = reason
	}
	ids := make([]uint64, 0, h.q.len())
	for _, it := range h.q.items {
		ids = append(ids, it.id)
		f.slots.clear(it.id)
		delete(f.retries, it.id)
	}
	f.npending -= len(ids)
	h.q.items = nil
	if ch != nil {
		ch.Delete = append(ch.Delete, ids...)
	}
	f.touch(hi)
	return ids
}

// Restore loads a snapshot into a fresh frontier: every entry is queued
// with its stored priority, sequence, depth and attempt count, hosts get
// their stored ready times, the scheduler its state, and new sequence
// numbers continue after the largest restored one. Entries of a host with
// no stored ready time, or one already past on the frontier's clock, are
// ready at once (such host states are not kept); a host state recording a
// drop for its Crawl-delay that still runs keeps the host dropped. Restore
// does not call the
// scheduler's Seed or Downloaded. Call it first, before Seed or Defer; it
// returns ErrNotEmpty otherwise.
func (f *Frontier) Restore(s Snapshot) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.npending != 0 || f.ninflight != 0 || len(f.hosts) != 0 {
		return ErrNotEmpty
	}
	if s.SchedState != nil && f.state != nil {
		if err := f.state.UnmarshalState(s.SchedState); err != nil {
			return fmt.Errorf("frontier: restore %s scheduler state: %w", f.sched.Name(), err)
		}
	}
	f.restoreBudget(s.Admitted)
	now := f.clock.Now()
	for _, hs := range s.Hosts {
		if !hs.ReadyAt.After(now) {
			continue // ready: nothing to remember (interned if it has URLs)
		}
		hi := f.intern(hs.Host)
		h := f.hosts[hi]
		if !hs.ReadyAt.IsZero() {
			h.readyAt = hs.ReadyAt.UnixNano()
		}
		h.reason = hs.Reason
		f.setDropped(h, restoredDrop(hs, now))
		f.noteDeferred(hi)
	}
	for _, e := range s.Entries {
		if f.queued(e.ID) {
			return fmt.Errorf("frontier: restore entry %d: stored twice", e.ID)
		}
		f.add(f.intern(e.Host), qitem{id: e.ID, prio: e.Prio, seq: e.Seq}, e.Depth)
		if e.Attempt > 0 {
			f.retries[e.ID] = int32(min(e.Attempt, math.MaxInt32))
		}
		if seq := e.Seq &^ frontSeq; seq >= f.seq {
			f.seq = seq + 1
		}
	}
	f.settle(f.clock.Now().UnixNano())
	f.notify()
	return nil
}

// Len returns the number of queued URLs (not counting jobs in flight).
func (f *Frontier) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.npending
}

// Stats returns counts for progress reports.
// Hosts whose ready time has come are moved to the ready heap first (as
// Next would), so Ready counts the hosts that may be fetched now even while
// every worker is busy and no Next call promoted them. O(k log hosts) for
// k hosts promoted or deferrals expired.
func (f *Frontier) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now().UnixNano()
	f.promote(now)
	f.expireDeferred(now)
	return Stats{
		Pending:  f.npending,
		InFlight: f.ninflight,
		Hosts:    len(f.hosts),
		Ready:    f.ready.Len(),
		Waiting:  f.waiting.Len(),
		Deferred: f.deferred.Len(),
		Failing:  f.nfailing,
		Dropped:  f.ndropped,
	}
}

// Host returns the state of one host, and false if the frontier never saw
// it.
func (f *Frontier) Host(name string) (HostInfo, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	hi, ok := f.hostIdx[name]
	if !ok {
		return HostInfo{}, false
	}
	h := f.hosts[hi]
	return HostInfo{Pending: h.q.len(), InFlight: int(h.inflight), ReadyAt: f.timeOf(h.readyAt), Reason: h.reason}, true
}
