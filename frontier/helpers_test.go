package frontier

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// fakeClock is a manual Clock: time moves only on Advance, and timers fire
// when it passes their deadline.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	armed  chan struct{} // signalled when a timer is registered
	read   chan struct{} // signalled when Now is called
}

type fakeTimer struct {
	clk *fakeClock
	at  time.Time
	c   chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), armed: make(chan struct{}, 1), read: make(chan struct{}, 1)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case c.read <- struct{}{}:
	default:
	}
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{clk: c, at: c.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- c.now
		return t
	}
	c.timers = append(c.timers, t)
	select {
	case c.armed <- struct{}{}:
	default:
	}
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	c := t.clk
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, u := range c.timers {
		if u == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			return true
		}
	}
	return false
}

// Advance moves time forward by d and fires the timers it passes.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.c <- c.now
	}
	c.timers = kept
}

// earliest returns the earliest pending timer deadline.
func (c *fakeClock) earliest() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	e := c.timers[0].at
	for _, t := range c.timers[1:] {
		if t.at.Before(e) {
			e = t.at
		}
	}
	return e, true
}

// waitBlocked waits until a Next call is parked on the frontier's wake
// channel, i.e. it found nothing to hand out. Next reads the clock with the
// frontier's lock held and parks before releasing it, so after each clock
// read the lock is taken once to look: no polling on a timer. A signal left
// by an earlier clock read only causes one extra look.
func waitBlocked(t *testing.T, f *Frontier, clk *fakeClock) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case <-clk.read:
		case <-timeout:
			t.Fatal("Next never blocked")
		}
		f.mu.Lock()
		parked := f.wake != nil
		f.mu.Unlock()
		if parked {
			return
		}
	}
}

// waitArmed waits until a timer is pending on clk and returns the
// earliest deadline. A signal left by an earlier timer only causes one extra
// look.
func waitArmed(t *testing.T, clk *fakeClock) time.Time {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		if at, ok := clk.earliest(); ok {
			return at
		}
		select {
		case <-clk.armed:
		case <-timeout:
			t.Fatal("no timer was armed")
		}
	}
}

type nextResult struct {
	job Job
	err error
}

// goNext runs Next in a goroutine.
func goNext(ctx context.Context, f *Frontier) <-chan nextResult {
	ch := make(chan nextResult, 1)
	go func() {
		j, err := f.Next(ctx)
		ch <- nextResult{j, err}
	}()
	return ch
}

// goNextBlocked runs Next in a goroutine, waits until it blocks, and fails
// t if it has returned by then; when names the situation for the message.
func goNextBlocked(t *testing.T, f *Frontier, clk *fakeClock, when string) <-chan nextResult {
	t.Helper()
	res := goNext(context.Background(), f)
	waitBlocked(t, f, clk)
	select {
	case r := <-res:
		t.Fatalf("Next returned %+v, %v %s", r.job, r.err, when)
	default:
	}
	return res
}

// nextAdvancing calls Next and, while it is blocked on a host ready time,
// advances the fake clock to the earliest timer. It returns the job and
// the clock time at which it was handed out. Next must not block without a
// timer (nothing waiting on a ready time), or this waits forever.
func nextAdvancing(t *testing.T, f *Frontier, clk *fakeClock) (Job, time.Time, error) {
	t.Helper()
	res := goNext(context.Background(), f)
	for {
		select {
		case r := <-res:
			return r.job, clk.Now(), r.err
		case <-clk.armed:
			if at, ok := clk.earliest(); ok {
				clk.Advance(at.Sub(clk.Now()))
			}
		}
	}
}

// mustNext calls Next with a background context and fails on error.
func mustNext(t *testing.T, f *Frontier) Job {
	t.Helper()
	j, err := f.Next(context.Background())
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return j
}

func newFrontier(t testing.TB, s scheduler.Scheduler, clk Clock, conc int) *Frontier {
	t.Helper()
	f, err := New(Options{Scheduler: s, Clock: clk, Politeness: config.Politeness{HostConcurrency: conc}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return f
}

// bfsSched never changes Prio: the frontier's FIFO tie-break makes it BFS.
type bfsSched struct{}

func (bfsSched) Name() string                                { return "bfs-test" }
func (bfsSched) Seed(seeds []scheduler.Link)                 {}
func (bfsSched) Downloaded(scheduler.Link, []scheduler.Link) {}

// fixedSched gives each URL a priority from a table (0 when absent).
type fixedSched struct{ prio map[uint64]float64 }

func (s fixedSched) Name() string { return "fixed-test" }
func (s fixedSched) Seed(seeds []scheduler.Link) {
	for i := range seeds {
		seeds[i].Prio = s.prio[seeds[i].ID]
	}
}
func (s fixedSched) Downloaded(_ scheduler.Link, out []scheduler.Link) {
	for i := range out {
		if out[i].State != scheduler.Done {
			out[i].Prio = s.prio[out[i].ID]
		}
	}
}

// fprSched is a small Fractional PageRank: seeds get (1-d)/|S|,
// a downloaded page with value f gives d·f/N to each undownloaded target.
// It counts downloads and is Stateful so Restore can be checked.
type fprSched struct {
	d         float64
	downloads uint64
}

func (s *fprSched) Name() string { return "fpr-test" }
func (s *fprSched) Seed(seeds []scheduler.Link) {
	for i := range seeds {
		seeds[i].Prio += (1 - s.d) / float64(len(seeds))
	}
}
func (s *fprSched) Downloaded(page scheduler.Link, out []scheduler.Link) {
	s.downloads++
	for i := range out {
		if out[i].State != scheduler.Done {
			out[i].Prio += s.d * page.Prio / float64(len(out))
		}
	}
}
func (s *fprSched) MarshalState() ([]byte, error) {
	return binary.BigEndian.AppendUint64(nil, s.downloads), nil
}
func (s *fprSched) UnmarshalState(b []byte) error {
	if len(b) != 8 {
		return fmt.Errorf("fpr-test state: %d bytes, want 8", len(b))
	}
	s.downloads = binary.BigEndian.Uint64(b)
	return nil
}

// batchSched ranks by in-links but only in batches: Downloaded leaves Prio
// alone and every k-th download Flush emits the in-link counts.
type batchSched struct {
	k, since int
	in       map[uint64]int
	queued   map[uint64]bool
}

func (s *batchSched) Name() string { return "batch-test" }
func (s *batchSched) Seed(seeds []scheduler.Link) {
	for _, l := range seeds {
		s.queued[l.ID] = true
	}
}
func (s *batchSched) Downloaded(page scheduler.Link, out []scheduler.Link) {
	delete(s.queued, page.ID)
	s.since++
	for _, l := range out {
		if l.State != scheduler.Done {
			s.in[l.ID]++
			s.queued[l.ID] = true
		}
	}
}
func (s *batchSched) Due(int) bool { return s.since >= s.k }
func (s *batchSched) Flush(emit func(uint64, float64)) {
	s.since = 0
	ids := make([]uint64, 0, len(s.queued))
	for id := range s.queued {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		emit(id, float64(s.in[id]))
	}
}

// web is a small test link graph: host and out-links per URL id.
type web struct {
	host func(id uint64) string
	out  map[uint64][]uint64
}

// crawler drives a frontier over a web like the crawl loop does: it
// interns targets (the seen-set), reports Depth, and collects Changes.
type crawler struct {
	w     web
	seen  map[uint64]bool
	depth map[uint64]int
}

func newCrawler(w web) *crawler {
	return &crawler{w: w, seen: map[uint64]bool{}, depth: map[uint64]int{}}
}

func (c *crawler) seeds(ids ...uint64) []Target {
	var ts []Target
	for _, id := range ids {
		ts = append(ts, Target{ID: id, Host: c.w.host(id), New: !c.seen[id]})
		c.seen[id] = true
	}
	return ts
}

func (c *crawler) targets(j Job) []Target {
	var ts []Target
	for _, id := range c.w.out[j.ID] {
		ts = append(ts, Target{ID: id, Host: c.w.host(id), Depth: j.Depth + 1, New: !c.seen[id]})
		c.seen[id] = true
	}
	return ts
}

// store is a map-backed frontier bucket: Changes applied in order.
type store struct {
	entries map[uint64]Entry
	hosts   map[string]HostState
	state   []byte
}

func newStore() *store {
	return &store{entries: map[uint64]Entry{}, hosts: map[string]HostState{}}
}

func (s *store) apply(c *Changes) {
	for _, e := range c.Put {
		s.entries[e.ID] = e
	}
	for _, id := range c.Delete {
		delete(s.entries, id)
	}
	for _, h := range c.Hosts {
		s.hosts[h.Host] = h
	}
	if c.SchedState != nil {
		s.state = append([]byte(nil), c.SchedState...)
	}
	c.Reset()
}

func (s *store) snapshot() Snapshot {
	var snap Snapshot
	for _, e := range s.entries {
		snap.Entries = append(snap.Entries, e)
	}
	for _, h := range s.hosts {
		snap.Hosts = append(snap.Hosts, h)
	}
	snap.SchedState = s.state
	return snap
}

// drain crawls until the frontier is exhausted, completing each job with
// delay 0, and returns the ids in the order handed out.
func drain(t *testing.T, f *Frontier, c *crawler, st *store) []uint64 {
	t.Helper()
	var order []uint64
	var ch Changes
	for {
		j, err := f.Next(context.Background())
		if errors.Is(err, ErrExhausted) {
			return order
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		order = append(order, j.ID)
		if err := f.Complete(j, Outcome{Downloaded: true, Links: c.targets(j)}, &ch); err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if st != nil {
			st.apply(&ch)
		}
	}
}

// runWorkers runs n workers on f, each taking jobs with Next and passing
// them to work, until Next or work fails; it returns when all have ended
// and fails t unless each ended with ErrExhausted (work completes the job
// itself, and its error names what it found wrong).
func runWorkers(t *testing.T, f *Frontier, n int, work func(j Job) error) {
	t.Helper()
	errs := make(chan error, n)
	for range n {
		go func() {
			for {
				j, err := f.Next(context.Background())
				if err == nil {
					err = work(j)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range n {
		if err := <-errs; !errors.Is(err, ErrExhausted) {
			t.Fatalf("worker ended with %v, want ErrExhausted", err)
		}
	}
}
