package frontier

import (
	"context"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
)

// delayRobots holds every check until released, then allows with a
// Crawl-delay, reporting each start.
type delayRobots struct {
	started chan struct{}
	release chan struct{}
	delay   time.Duration
}

func (r *delayRobots) Check(ctx context.Context, _ uint64, _ string) (Verdict, error) {
	r.started <- struct{}{}
	select {
	case <-r.release:
		return Verdict{Allowed: true, CrawlDelay: r.delay}, nil
	case <-ctx.Done():
		return Verdict{}, ctx.Err()
	}
}

// TestCrawlDelayOneAtATime checks that a host whose robots.txt sets a
// Crawl-delay has one job in flight at a time whatever HostConcurrency
// says: two jobs taken before the delay was known (both checks running)
// yield one request, the other job waits for it to end and for the
// Crawl-delay after it, and the host is busy meanwhile.
func TestCrawlDelayOneAtATime(t *testing.T) {
	const delay = 5 * time.Second
	clk := newFakeClock()
	rb := &delayRobots{started: make(chan struct{}, 8), release: make(chan struct{}), delay: delay}
	f, err := New(Options{Scheduler: bfsSched{}, Clock: clk, Robots: rb, Politeness: config.Politeness{HostConcurrency: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Seed([]Target{{ID: 1, Host: "a.test", New: true}, {ID: 2, Host: "a.test", New: true},
		{ID: 3, Host: "a.test", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	first, second := goNext(context.Background(), f), goNext(context.Background(), f)
	<-rb.started
	<-rb.started // both jobs taken: HostConcurrency 2, no Crawl-delay known yet
	close(rb.release)
	var got nextResult
	var waiting <-chan nextResult
	select {
	case got = <-first:
		waiting = second
	case got = <-second:
		waiting = first
	}
	if got.err != nil {
		t.Fatal(got.err)
	}
	waitBlocked(t, f, clk)
	select {
	case r := <-waiting:
		t.Fatalf("second job %+v (%v) handed out while %d is in flight; Crawl-delay %v", r.job, r.err, got.job.ID, delay)
	default:
	}
	if hosts, _ := f.Hosts(-1); len(hosts) != 1 || hosts[0].State != HostBusy {
		t.Errorf("hosts %+v, want a.test busy", hosts)
	}
	start := clk.Now()
	if _, err := f.Done(got.job, Result{Requested: true}, nil); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case r := <-waiting:
			if r.err != nil {
				t.Fatal(r.err)
			}
			if at := clk.Now(); at.Sub(start) < delay {
				t.Errorf("second job handed out %v after the first ended; Crawl-delay %v", at.Sub(start), delay)
			}
			return
		case <-clk.armed:
			if at, ok := clk.earliest(); ok {
				clk.Advance(at.Sub(clk.Now()))
			}
		}
	}
}

// orderRobots hands each check the next verdict sent on verdicts, in the
// order the test sends them, reporting each start.
type orderRobots struct {
	started  chan struct{}
	verdicts chan Verdict
}

func (r *orderRobots) Check(ctx context.Context, _ uint64, _ string) (Verdict, error) {
	r.started <- struct{}{}
	select {
	case v := <-r.verdicts:
		return v, nil
	case <-ctx.Done():
		return Verdict{}, ctx.Err()
	}
}

// TestCrawlDelayAfterRobotsRequest checks the Crawl-delay limit when two
// jobs of a host were taken before robots.txt was known and the check of
// one fetched it (its verdict lists the request) while the other's came
// from the cache the fetch had just filled (no request listed): the first
// goes back to the queue for the host's delay after the robots.txt
// request, and so must the second, though it is alone in flight by then.
func TestCrawlDelayAfterRobotsRequest(t *testing.T) {
	const delay = 5 * time.Second
	clk := newFakeClock()
	rb := &orderRobots{started: make(chan struct{}, 8), verdicts: make(chan Verdict)}
	f, err := New(Options{Scheduler: bfsSched{}, Clock: clk, Robots: rb, Politeness: config.Politeness{HostConcurrency: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Seed([]Target{{ID: 1, Host: "a.test", New: true}, {ID: 2, Host: "a.test", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	first, second := goNext(context.Background(), f), goNext(context.Background(), f)
	<-rb.started
	<-rb.started
	start := clk.Now()
	rb.verdicts <- Verdict{Allowed: true, CrawlDelay: delay, Requests: []Request{{Host: "a.test", At: start}}}
	waitBlocked(t, f, clk)
	rb.verdicts <- Verdict{Allowed: true, CrawlDelay: delay}
	waitBlocked(t, f, clk)
	handedOut := func(r nextResult) {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if at := clk.Now(); at.Sub(start) < delay {
			t.Fatalf("job %d handed out %v after the robots.txt request; Crawl-delay %v", r.job.ID, at.Sub(start), delay)
		}
	}
	for {
		select {
		case r := <-first:
			handedOut(r)
			return
		case r := <-second:
			handedOut(r)
			return
		case <-clk.armed:
			if at, ok := clk.earliest(); ok {
				clk.Advance(at.Sub(clk.Now()))
			}
		case <-rb.started:
			// A job taken again after its wait asks robots.txt again
			// (cached by now): allowed, no request.
			go func() { rb.verdicts <- Verdict{Allowed: true, CrawlDelay: delay} }()
		}
	}
}
