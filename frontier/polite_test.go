package frontier

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/storage"
)

// fakeRobots answers robots.txt questions from a script: the verdicts of a
// host's successive checks (the last one repeats), allow-all for hosts
// without a script. It counts the checks.
type fakeRobots struct {
	mu     sync.Mutex
	script map[string][]Verdict
	checks int
}

func (r *fakeRobots) Check(_ context.Context, _ uint64, host string) (Verdict, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checks++
	s := r.script[host]
	switch len(s) {
	case 0:
		return Verdict{Allowed: true}, nil
	case 1:
		return s[0], nil
	}
	r.script[host] = s[1:]
	return s[0], nil
}

// politeRig is a frontier on a fake clock with a scripted robots.txt, two
// hosts: a.test (ids 1..4) and b.test (ids 11..14), all queued.
type politeRig struct {
	t   *testing.T
	clk *fakeClock
	rb  *fakeRobots
	f   *Frontier
	t0  time.Time
	ch  Changes
}

func newPoliteRig(t *testing.T, p config.Politeness, script map[string][]Verdict) *politeRig {
	t.Helper()
	r := &politeRig{t: t, clk: newFakeClock(), rb: &fakeRobots{script: script}}
	r.t0 = r.clk.Now()
	f, err := New(Options{Scheduler: bfsSched{}, Clock: r.clk, Politeness: p, Robots: r.rb, DropFor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	r.f = f
	var seeds []Target
	for _, id := range []uint64{1, 2, 3, 4} {
		seeds = append(seeds, Target{ID: id, Host: "a.test", New: true})
	}
	for _, id := range []uint64{11, 12, 13, 14} {
		seeds = append(seeds, Target{ID: id, Host: "b.test", New: true})
	}
	if err := f.Seed(seeds, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// next hands out the next job, advancing the fake clock while Next waits,
// and returns it with the offset from t0 at which it came out.
func (r *politeRig) next() (Job, time.Duration) {
	r.t.Helper()
	j, at, err := nextAdvancing(r.t, r.f, r.clk)
	if err != nil {
		r.t.Fatalf("Next: %v", err)
	}
	return j, at.Sub(r.t0)
}

// nextOf hands out jobs until one of host comes, ending the others at once
// without a request (their hosts are not delayed).
func (r *politeRig) nextOf(host string) (Job, time.Duration) {
	r.t.Helper()
	for {
		j, at := r.next()
		if j.Host == host {
			return j, at
		}
		r.done(j, Result{})
	}
}

func (r *politeRig) done(j Job, res Result) bool {
	r.t.Helper()
	retried, err := r.f.Done(j, res, &r.ch)
	if err != nil {
		r.t.Fatalf("Done(%d): %v", j.ID, err)
	}
	return retried
}

func TestPolitenessDelays(t *testing.T) {
	tests := []struct {
		name   string
		pol    config.Politeness
		cd     time.Duration // robots.txt Crawl-delay of a.test
		dur    time.Duration // response time of the first fetch
		wantAt time.Duration // when a.test's second URL comes out
	}{
		{"delay", config.Politeness{Delay: time.Second}, 0, 0, time.Second},
		{"crawl-delay above delay", config.Politeness{Delay: time.Second}, 5 * time.Second, 0, 5 * time.Second},
		{"crawl-delay capped", config.Politeness{Delay: time.Second, MaxCrawlDelay: 10 * time.Second}, 10 * time.Second, 0, 10 * time.Second},
		{"delay above crawl-delay", config.Politeness{Delay: 3 * time.Second}, time.Second, 0, 3 * time.Second},
		{"delay factor", config.Politeness{Delay: time.Second, DelayFactor: 2}, 0, 3 * time.Second, 6 * time.Second},
		{"delay factor below delay", config.Politeness{Delay: time.Second, DelayFactor: 2}, 0, 100 * time.Millisecond, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newPoliteRig(t, tt.pol, map[string][]Verdict{"a.test": {{Allowed: true, CrawlDelay: tt.cd}}})
			j, at := r.nextOf("a.test")
			if at != 0 {
				t.Fatalf("first a.test job at %v, want 0", at)
			}
			r.done(j, Result{Requested: true, Downloaded: true, Duration: tt.dur})
			if _, at := r.nextOf("a.test"); at != tt.wantAt {
				t.Errorf("second a.test job at %v, want %v", at, tt.wantAt)
			}
		})
	}
}

// A job ended without a request (robots.txt denied it) leaves its host
// ready: the next URL of the host comes out at once.
func TestRobotsDenied(t *testing.T) {
	r := newPoliteRig(t, config.Politeness{Delay: time.Hour}, map[string][]Verdict{
		"a.test": {{Reason: "robots-disallowed"}, {Allowed: true}},
	})
	j, _ := r.nextOf("a.test")
	if j.Skip != "robots-disallowed" {
		t.Fatalf("Skip = %q, want robots-disallowed", j.Skip)
	}
	r.done(j, Result{})
	if slices.Contains(r.ch.Delete, j.ID) == false {
		t.Errorf("denied URL %d not deleted: %+v", j.ID, r.ch.Delete)
	}
	j2, at := r.nextOf("a.test")
	if j2.Skip != "" || at != 0 {
		t.Errorf("next a.test job %+v at %v, want a fetchable job at 0", j2, at)
	}
}

// robots.txt that cannot be fetched yet defers the host until RetryAt, with
// the reason, and the URL waits in its queue.
func TestRobotsDeferral(t *testing.T) {
	clk0 := newFakeClock().Now()
	r := newPoliteRig(t, config.Politeness{}, map[string][]Verdict{
		"a.test": {{Reason: "robots-deferred", RetryAt: clk0.Add(time.Minute)}, {Allowed: true}},
	})
	j, at := r.nextOf("a.test")
	if at != time.Minute || j.Skip != "" || j.ID != 1 {
		t.Fatalf("a.test job %+v at %v; want id 1 at 1m, fetchable", j, at)
	}
	if h, _ := r.f.Host("a.test"); h.Reason != "robots-deferred" {
		t.Errorf("host reason %q, want robots-deferred", h.Reason)
	}
	r.done(j, Result{Requested: true, Downloaded: true})
	if !slices.ContainsFunc(r.ch.Hosts, func(h HostState) bool { return h.Host == "a.test" && h.Reason == "robots-deferred" }) {
		t.Errorf("deferral not persisted: %+v", r.ch.Hosts)
	}
}

// A robots.txt request counts as a request to its host, and to the host of
// each redirect hop: they wait their delay before their first page.
func TestRobotsRequestCountsForPoliteness(t *testing.T) {
	clk0 := newFakeClock().Now()
	r := newPoliteRig(t, config.Politeness{Delay: 2 * time.Second}, map[string][]Verdict{
		"a.test": {{Allowed: true, Requests: []Request{{"a.test", clk0}, {"b.test", clk0}}}, {Allowed: true}},
	})
	j, at := r.next()
	if j.Host != "a.test" || at != 2*time.Second {
		t.Fatalf("first job %+v at %v; want a.test at 2s (after its robots.txt request)", j, at)
	}
	r.done(j, Result{Requested: true})
	j, at = r.next()
	if j.Host != "b.test" || at != 2*time.Second {
		t.Errorf("second job %+v at %v; want b.test at 2s (the redirect hop went there)", j, at)
	}
}

// Retry-After and exponential back-off: a transient failure retries the URL
// (same id, Attempt+1) after max(Retry-After, Backoff × 2^(n−1) capped at
// MaxBackoff); past MaxRetries the URL completes and the host still waits.
func TestRetryAndBackoff(t *testing.T) {
	pol := config.Politeness{Backoff: time.Second, MaxBackoff: 10 * time.Second, MaxRetries: 5}
	steps := []struct {
		retryAfter  time.Duration
		wantRetried bool
		wantGap     time.Duration // until the host's next job
	}{
		{0, true, time.Second},
		{0, true, 2 * time.Second},
		{10 * time.Second, true, 10 * time.Second}, // Retry-After beats the back-off (4s)
		{0, true, 8 * time.Second},
		{0, true, 10 * time.Second},  // 16s capped at MaxBackoff
		{0, false, 10 * time.Second}, // retries spent: completed, host still backs off
	}
	r := newPoliteRig(t, pol, nil)
	j, at := r.nextOf("a.test")
	for i, st := range steps {
		if j.ID != 1 && st.wantRetried {
			t.Fatalf("step %d: job %d, want the retried URL 1", i, j.ID)
		}
		if j.Attempt != i {
			t.Fatalf("step %d: Attempt = %d, want %d", i, j.Attempt, i)
		}
		if got := r.done(j, Result{Requested: true, Downloaded: true, Transient: true, RetryAfter: st.retryAfter}); got != st.wantRetried {
			t.Fatalf("step %d: retried = %v, want %v", i, got, st.wantRetried)
		}
		next, nat := r.nextOf("a.test")
		if gap := nat - at; gap != st.wantGap {
			t.Errorf("step %d: next a.test job after %v, want %v", i, gap, st.wantGap)
		}
		j, at = next, nat
	}
	if j.ID != 2 {
		t.Errorf("after the retries, job %d, want the next URL 2", j.ID)
	}
	// A success resets the failure count: the next failure waits Backoff.
	r.done(j, Result{Requested: true, Downloaded: true})
	j, at = r.nextOf("a.test")
	r.done(j, Result{Requested: true, Transient: true})
	if _, nat := r.nextOf("a.test"); nat-at != time.Second {
		t.Errorf("back-off after a success: %v, want 1s", nat-at)
	}
}

// A Crawl-delay above MaxCrawlDelay drops the host: the job comes out with
// the reason, the host's other URLs leave with it (Deletes held for the
// job's Done), later checks are not made, and a restore keeps it dropped.
func TestCrawlDelayAboveCapDropsHost(t *testing.T) {
	r := newPoliteRig(t, config.Politeness{MaxCrawlDelay: 30 * time.Second}, map[string][]Verdict{
		"a.test": {{Allowed: true, CrawlDelay: time.Minute}},
	})
	j, _ := r.nextOf("a.test")
	const reason = "crawl-delay 1m0s exceeds max-crawl-delay 30s"
	if j.Skip != reason {
		t.Fatalf("Skip = %q, want %q", j.Skip, reason)
	}
	if !slices.Equal(j.Dropped, []uint64{2, 3, 4}) && !slices.Equal(sorted(j.Dropped), []uint64{2, 3, 4}) {
		t.Errorf("Dropped = %v, want 2, 3, 4", j.Dropped)
	}
	if why, ok := r.f.Dropped("a.test"); !ok || why != reason {
		t.Errorf("Dropped(a.test) = %q, %v", why, ok)
	}
	if len(r.ch.Delete) != 0 {
		t.Errorf("Deletes before Done: %v", r.ch.Delete)
	}
	r.done(j, Result{})
	if got := sorted(r.ch.Delete); !slices.Equal(got, []uint64{1, 2, 3, 4}) {
		t.Errorf("Deletes = %v, want 1..4", got)
	}
	var stored HostState
	for _, h := range r.ch.Hosts {
		if h.Host == "a.test" {
			stored = h
		}
	}
	if stored.Reason != reason || !stored.ReadyAt.Equal(r.t0.Add(time.Hour)) {
		t.Errorf("stored host state %+v, want the reason until t0+DropFor", stored)
	}
	checks := r.rb.checks

	// A restored frontier knows the host is dropped: a URL of it seeded
	// again comes out skipped, without a robots.txt check.
	f2, err := New(Options{Scheduler: bfsSched{}, Clock: r.clk, Robots: r.rb})
	if err != nil {
		t.Fatal(err)
	}
	if err := f2.Restore(Snapshot{Hosts: []HostState{stored}}); err != nil {
		t.Fatal(err)
	}
	if err := f2.Seed([]Target{{ID: 5, Host: "a.test", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	if j := mustNext(t, f2); j.ID != 5 || j.Skip != reason {
		t.Errorf("restored: job %+v, want 5 skipped with %q", j, reason)
	}
	if r.rb.checks != checks {
		t.Errorf("a dropped host's URL was checked against robots.txt")
	}
}

func TestDoneNotInFlight(t *testing.T) {
	r := newPoliteRig(t, config.Politeness{}, nil)
	if _, err := r.f.Done(Job{ID: 1, Host: "a.test"}, Result{}, nil); err == nil {
		t.Error("Done of a job never handed out succeeded")
	}
}

func TestNewRejectsNegativePoliteness(t *testing.T) {
	for _, p := range []config.Politeness{{Delay: -1}, {Backoff: -1}, {MaxRetries: -1}, {DelayFactor: -1}} {
		if _, err := New(Options{Scheduler: bfsSched{}, Politeness: p}); err == nil {
			t.Errorf("New(%+v) succeeded", p)
		}
	}
}

func sorted(ids []uint64) []uint64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// blockingRobots holds every check until released, reporting each start.
type blockingRobots struct {
	started chan string
	release chan struct{}
}

func (r *blockingRobots) Check(ctx context.Context, _ uint64, host string) (Verdict, error) {
	r.started <- host
	select {
	case <-r.release:
		return Verdict{Allowed: true}, nil
	case <-ctx.Done():
		return Verdict{}, ctx.Err()
	}
}

// A robots.txt check holds its job in flight, so it counts against the
// host's concurrency: while a.test's check runs, Next hands out b.test,
// not a second a.test URL; a check cut short by ctx puts its URL back.
func TestRobotsCheckCountsAgainstConcurrency(t *testing.T) {
	rb := &blockingRobots{started: make(chan string, 4), release: make(chan struct{})}
	f, err := New(Options{Scheduler: bfsSched{}, Clock: newFakeClock(), Robots: rb})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Seed([]Target{{ID: 1, Host: "a.test", New: true}, {ID: 2, Host: "a.test", New: true}, {ID: 3, Host: "b.test", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := goNext(ctx, f)
	if h := <-rb.started; h != "a.test" {
		t.Fatalf("first check for %s, want a.test", h)
	}
	second := goNext(context.Background(), f)
	if h := <-rb.started; h != "b.test" {
		t.Fatalf("second check for %s while a.test's runs, want b.test", h)
	}
	cancel()
	if r := <-first; r.err == nil {
		t.Fatalf("first Next = %+v, want ctx's error", r.job)
	}
	if n := f.Len(); n != 2 {
		t.Errorf("%d URLs queued after the cut check, want 2 (a.test's URL put back, b.test's in flight)", n)
	}
	close(rb.release)
	if r := <-second; r.err != nil || r.job.Host != "b.test" {
		t.Errorf("second Next = %+v, %v; want b.test", r.job, r.err)
	}
	if j := mustNext(t, f); j.ID != 1 {
		t.Errorf("next job %d, want a.test's first URL again", j.ID)
	}
}

// TestSkipName checks the counter names of outcomes without a request.
func TestSkipName(t *testing.T) {
	tests := []struct {
		name   string
		status storage.Status
		reason string
		want   string
	}{
		{"no reason: the status", storage.StatusOutOfScope, "", storage.StatusOutOfScope.String()},
		{"a reason", storage.StatusRejected, "max-depth", "max-depth"},
		{"dropped for its Crawl-delay", storage.StatusDeferred, dropPrefix + "60s exceeds max-crawl-delay 30s", "crawl-delay-too-long"},
		{"deferred otherwise", storage.StatusDeferred, "robots-unavailable", "robots-unavailable"},
	}
	for _, tt := range tests {
		if got := SkipName(tt.status, tt.reason); got != tt.want {
			t.Errorf("%s: SkipName = %q, want %q", tt.name, got, tt.want)
		}
	}
}
