package frontier

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/internal/pq"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Frontier is the crawl frontier: one priority queue per host, a heap of
// hosts waiting for their ready time and a heap of ready hosts ordered by
// their best URL. All methods are safe for concurrent use.
type Frontier struct {
	mu      sync.Mutex
	sched   scheduler.Scheduler
	batch   scheduler.Batcher  // nil unless sched implements it
	state   scheduler.Stateful // nil unless sched implements it
	clock   Clock
	conc    int32
	pol     config.Politeness
	robots  RobotsChecker
	dropFor time.Duration
	log     *slog.Logger
	held    map[uint64]*Changes // changes Next made for a job, until its Done
	epoch   int64               // unix ns at New: origin of the waiting heap's keys

	hosts   []*host
	hostIdx map[string]uint32
	ready   pq.Heap // host index by best URL (Prio, Seq)
	waiting pq.Heap // host index by -readyAt
	hostCap int     // hosts the heaps' array indexes cover

	hostCounts // hosts deferred, failing, dropped (Stats)
	budget     hostBudget

	slots     slots            // every queued URL and job in flight
	npending  int              // number of queued URLs
	ninflight int              // number of jobs handed out
	holds     int              // Hold calls not yet Released: more URLs may come
	retries   map[uint64]int32 // attempt count of queued URLs requeued before
	seq       uint64           // next discovery sequence number

	wake       chan struct{} // closed to wake parked Next calls; nil when none parked
	sleepUntil int64         // latest time a parked Next waits for (its timer)

	// scratch buffers reused under mu
	links     []scheduler.Link
	old       []float64
	touched   []uint32
	epochMark uint32
}

// New returns an empty frontier ordered by opts.Scheduler.
func New(opts Options) (*Frontier, error) {
	if opts.Scheduler == nil {
		return nil, ErrNoScheduler
	}
	p := opts.Politeness
	if p.HostConcurrency < 0 || p.HostConcurrency > math.MaxInt32 {
		return nil, fmt.Errorf("frontier: host concurrency %d: must be ≥ 0", p.HostConcurrency)
	}
	if opts.HostMaxPages < 0 {
		return nil, fmt.Errorf("frontier: host max pages %d: must be ≥ 0", opts.HostMaxPages)
	}
	if p.Delay < 0 || p.MaxCrawlDelay < 0 || p.DelayFactor < 0 || p.Backoff < 0 || p.MaxBackoff < 0 || p.MaxRetries < 0 || opts.DropFor < 0 {
		return nil, fmt.Errorf("frontier: politeness %+v, drop for %v: no setting may be negative", p, opts.DropFor)
	}
	if p.Backoff == 0 {
		p.Backoff = DefaultBackoff
	}
	if p.MaxBackoff == 0 {
		p.MaxBackoff = DefaultMaxBackoff
	}
	f := &Frontier{
		sched:      opts.Scheduler,
		clock:      opts.Clock,
		conc:       int32(p.HostConcurrency),
		pol:        p,
		robots:     opts.Robots,
		dropFor:    opts.DropFor,
		budget:     hostBudget{max: opts.HostMaxPages},
		held:       make(map[uint64]*Changes),
		hostIdx:    make(map[string]uint32),
		retries:    make(map[uint64]int32),
		epochMark:  1,
		sleepUntil: math.MinInt64,
	}
	if f.clock == nil {
		f.clock = SystemClock{}
	}
	if f.conc == 0 {
		f.conc = 1
	}
	if f.dropFor == 0 {
		f.dropFor = DefaultDropFor
	}
	if f.log = opts.Logger; f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	f.batch, _ = opts.Scheduler.(scheduler.Batcher)
	f.state, _ = opts.Scheduler.(scheduler.Stateful)
	f.epoch = f.clock.Now().UnixNano()
	f.growHostHeaps(64)
	return f, nil
}

// Scheduler returns the scheduler the frontier was made with.
func (f *Frontier) Scheduler() scheduler.Scheduler { return f.sched }

// next takes the best pending URL among hosts that are ready: hosts with
// fewer than HostConcurrency jobs in flight whose ready time has passed.
// Priority never overrides politeness: a better URL of a host that is not
// ready waits. next blocks while nothing is ready ("not now") until a host's
// ready time comes, a job completes or URLs are added; it returns
// ErrExhausted when nothing is queued, nothing is in flight and nothing is
// held ("never"; see Hold), and ctx.Err() when ctx ends first. A URL of a
// dropped host comes out with Skip set.
func (f *Frontier) next(ctx context.Context) (Job, error) {
	parked := false
	for {
		if err := ctx.Err(); err != nil {
			// Stopped while parked: was the frontier dry by then? A Done
			// under a Hold may have left it so without waking this call.
			if parked && f.dry() {
				return Job{}, fmt.Errorf("%w: %w", ErrExhausted, err)
			}
			return Job{}, err
		}
		f.mu.Lock()
		now := f.clock.Now().UnixNano()
		f.promote(now)
		if job, ok := f.take(now); ok {
			f.mu.Unlock()
			return job, nil
		}
		if f.npending == 0 && f.ninflight == 0 && f.holds == 0 {
			f.mu.Unlock()
			return Job{}, ErrExhausted
		}
		if f.wake == nil {
			f.wake = make(chan struct{})
		}
		wake := f.wake
		var timer Timer
		var fire <-chan time.Time
		until := int64(math.MaxInt64)
		if top, ok := f.waiting.Peek(); ok {
			until = f.hosts[top.ID].readyAt
			timer = f.clock.NewTimer(time.Duration(until - now))
			fire = timer.C()
		}
		f.sleepUntil = max(f.sleepUntil, until)
		f.mu.Unlock()
		parked = true

		select {
		case <-ctx.Done():
		case <-wake:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// dry reports that nothing is queued and nothing is in flight.
func (f *Frontier) dry() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.npending == 0 && f.ninflight == 0
}

// take pops the best URL of the best ready host, if any. Called with mu held.
func (f *Frontier) take(now int64) (Job, bool) {
	top, ok := f.ready.Peek()
	if !ok {
		return Job{}, false
	}
	hi := uint32(top.ID)
	h := f.hosts[hi]
	it := h.q.pop(&f.slots)
	depth := f.slots.get(it.id).depth
	f.slots.set(it.id, slot{host: inFlight | (hi + 1), depth: depth})
	f.npending--
	f.ninflight++
	var attempt int32
	if len(f.retries) != 0 {
		if attempt = f.retries[it.id]; attempt != 0 {
			delete(f.retries, it.id)
		}
	}
	h.inflight++
	f.reposition(hi, now)
	job := Job{ID: it.id, Host: h.name, Prio: it.prio, Depth: int(depth), Seq: it.seq, Attempt: int(attempt)}
	if h.dropped {
		job.Skip = h.reason
	}
	return job, true
}

// Complete ends a job handed out by Next. It removes the URL from the
// frontier (appending a Delete to ch), sets the host's next ready time from
// out.Delay and out.ReadyAt, and, when out.Downloaded, classifies the page's
// out-link targets, calls the scheduler's Downloaded (then Due/Flush for a
// Batcher) and applies the priorities it set: new URLs are enqueued and
// queued ones re-ranked, each change appended to ch as a Put.
func (f *Frontier) Complete(job Job, out Outcome, ch *Changes) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.complete(job, out, ch)
}

// complete is Complete with mu held.
func (f *Frontier) complete(job Job, out Outcome, ch *Changes) error {
	hi, err := f.land(job)
	if err != nil {
		return fmt.Errorf("frontier: complete %d: %w", job.ID, err)
	}
	f.slots.clear(job.ID)
	if ch != nil {
		ch.Delete = append(ch.Delete, job.ID)
	}
	now := f.clock.Now().UnixNano()
	until := now + int64(out.Delay)
	if !out.ReadyAt.IsZero() && out.ReadyAt.UnixNano() > until {
		until = out.ReadyAt.UnixNano()
	}
	f.delayHost(hi, until, "", ch)
	if out.Downloaded {
		err = f.downloaded(job, hi, out.Links, ch)
	}
	f.settle(now)
	f.notify()
	return err
}

// land takes job out of flight and returns its host index. The job's slot
// is left to the caller (cleared on Complete, requeued on Requeue).
func (f *Frontier) land(job Job) (uint32, error) {
	sl := f.slots.get(job.ID)
	if !sl.flying() {
		return 0, ErrNotInFlight
	}
	hi := sl.hostIdx()
	f.hosts[hi].inflight--
	f.ninflight--
	f.touch(hi)
	return hi, nil
}

// downloaded runs the scheduler for the page of job and applies its
// priorities.
func (f *Frontier) downloaded(job Job, hi uint32, targets []Target, ch *Changes) error {
	// FPR@M splits links by host name, port dropped (urlnorm.Host.Name), as
	// the simulator does with graph.HostOf: a.com:8080 and a.com are one
	// site for link analysis though two hosts for politeness.
	src := urlnorm.Host(f.hosts[hi].name).Name()
	f.classify(targets, func(t *Target) bool { return urlnorm.Host(t.Host).Name() == src })
	f.sched.Downloaded(scheduler.Link{ID: job.ID, Prio: job.Prio, State: scheduler.Done}, f.links)
	f.apply(targets, ch)
	if f.batch != nil && f.batch.Due(f.npending) {
		f.batch.Flush(func(id uint64, prio float64) { f.update(id, prio, ch) })
	}
	return f.saveState(ch)
}

// Seed enqueues seed URLs and lets the scheduler set their priorities
// (scheduler.Seed). Targets that are New are enqueued at the depth given;
// targets already pending are passed to the scheduler as Queued; targets
// that are neither (known and not pending: downloaded, rejected) are
// ignored. On resume, pass only seeds that storage reports New, or none:
// restored entries already carry their priorities.
func (f *Frontier) Seed(seeds []Target, ch *Changes) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := make([]Target, 0, len(seeds))
	for _, t := range seeds {
		if sl := f.slots.get(t.ID); sl.queued() || (t.New && !t.Skip && sl.host == 0) || (t.Remote && sl.host == 0) {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	f.classify(kept, func(*Target) bool { return false })
	f.sched.Seed(f.links)
	f.apply(kept, ch)
	err := f.saveState(ch)
	f.settle(f.clock.Now().UnixNano())
	f.notify()
	return err
}

// classify fills f.links (and f.old) for targets: Queued if pending, New if
// New and enqueueable, Done otherwise.
func (f *Frontier) classify(targets []Target, intra func(*Target) bool) {
	f.links = f.links[:0]
	f.old = f.old[:0]
	for i := range targets {
		t := &targets[i]
		l := scheduler.Link{ID: t.ID, Intra: intra(t), State: scheduler.Done}
		if sl := f.slots.get(t.ID); sl.queued() {
			l.State, l.Prio = scheduler.Queued, f.hosts[sl.hostIdx()].q.items[sl.pos].prio
		} else if t.Remote && sl.host == 0 || t.New && !t.Skip && sl.host == 0 {
			l.State = scheduler.New
		}
		f.links = append(f.links, l)
		f.old = append(f.old, l.Prio)
	}
}

// apply enqueues the New targets and re-ranks the Queued ones after the
// scheduler set their Prio in f.links.
func (f *Frontier) apply(targets []Target, ch *Changes) {
	for i := range f.links {
		l := &f.links[i]
		switch l.State {
		case scheduler.New:
			if targets[i].Remote {
				targets[i].Mass = l.Prio
				continue
			}
			f.enqueue(&targets[i], l.Prio, ch)
		case scheduler.Queued:
			lowered := f.lower(l.ID, targets[i].Depth)
			if l.Prio != f.old[i] {
				f.update(l.ID, l.Prio, ch)
			} else if lowered {
				f.record(l.ID, ch)
			}
		}
	}
}

func (f *Frontier) queued(id uint64) bool { return f.slots.get(id).queued() }

// enqueue adds a new pending URL with the next sequence number.
func (f *Frontier) enqueue(t *Target, prio float64, ch *Changes) { f.enqueueMarked(t, prio, 0, ch) }

// enqueueMarked is enqueue with mark (0 or frontSeq) set in the sequence
// number.
func (f *Frontier) enqueueMarked(t *Target, prio float64, mark uint64, ch *Changes) {
	if f.queued(t.ID) { // repeated target in one call
		f.update(t.ID, prio, ch)
		return
	}
	hi := f.intern(t.Host)
	depth := clampDepth(t.Depth)
	seq := f.seq | mark
	f.seq++
	f.add(hi, qitem{id: t.ID, prio: prio, seq: seq}, depth)
	if ch != nil {
		ch.Put = append(ch.Put, Entry{ID: t.ID, Host: f.hosts[hi].name, Prio: prio, Seq: seq, Depth: depth})
	}
}

// add queues it on host hi.
func (f *Frontier) add(hi uint32, it qitem, depth uint32) {
	f.slots.set(it.id, slot{host: hi + 1, depth: depth})
	f.hosts[hi].q.push(&f.slots, it)
	f.npending++
	f.touch(hi)
}

func clampDepth(d int) uint32 { return uint32(min(max(d, 0), math.MaxUint32)) }

// lower sets the depth of a pending URL to depth if that is less, and
// reports whether it did; the caller records the change.
func (f *Frontier) lower(id uint64, depth int) bool {
	sl := f.slots.get(id)
	if d := clampDepth(depth); sl.queued() && d < sl.depth {
		sl.depth = d
		f.slots.set(id, sl)
		return true
	}
	return false
}

// update sets the priority of a pending URL; ids not pending are ignored
// (a Batcher may emit ids that were handed out since).
func (f *Frontier) update(id uint64, prio float64, ch *Changes) {
	sl := f.slots.get(id)
	if !sl.queued() {
		return
	}
	h := f.hosts[sl.hostIdx()]
	it := h.q.items[sl.pos]
	if it.prio == prio {
		return
	}
	h.q.update(&f.slots, int(sl.pos), prio)
	f.touch(sl.hostIdx())
	f.record(id, ch)
}

// record appends the entry of pending URL id to ch.
func (f *Frontier) record(id uint64, ch *Changes) {
	sl := f.slots.get(id)
	if ch == nil || !sl.queued() {
		return
	}
	h := f.hosts[sl.hostIdx()]
	it := h.q.items[sl.pos]
	var attempt int32
	if len(f.retries) != 0 {
		attempt = f.retries[id]
	}
	ch.Put = append(ch.Put, Entry{ID: id, Host: h.name, Prio: it.prio, Seq: it.seq, Depth: sl.depth, Attempt: uint32(attempt)})
}

// saveState records the scheduler's state when it is Stateful.
func (f *Frontier) saveState(ch *Changes) error {
	if f.state == nil || ch == nil {
		return nil
	}
	b, err := f.state.MarshalState()
	if err != nil {
		return fmt.Errorf("frontier: save %s scheduler state: %w", f.sched.Name(), err)
	}
	ch.SchedState = b
	return nil
}

// notify wakes the parked Next calls if the change can give one of them a
// job or an answer sooner: a host is ready, the frontier is exhausted, or a
// host will be ready before a parked call's timer. Other changes (a host
// delayed after a completion, URLs added to a busy host) leave them parked,
// so N idle workers are not all woken by every completion.
func (f *Frontier) notify() {
	if f.wake == nil {
		return
	}
	if f.ready.Len() == 0 && (f.npending != 0 || f.ninflight != 0 || f.holds != 0) {
		top, ok := f.waiting.Peek()
		if !ok || f.hosts[top.ID].readyAt >= f.sleepUntil {
			return
		}
	}
	close(f.wake)
	f.wake = nil
	f.sleepUntil = math.MinInt64
}

// timeOf converts unix ns to a time.Time.
func (f *Frontier) timeOf(ns int64) time.Time { return time.Unix(0, ns) }
