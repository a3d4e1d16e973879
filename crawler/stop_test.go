package crawler

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
)

// parkWatch is the crawl's frontier, telling when the worker's second Next
// parks (asks its context's Done) and what that Next returned.
type parkWatch struct {
	Frontier
	mu       sync.Mutex
	calls    int
	parked   chan struct{} // closed when the second Next parks
	returned chan error    // the second Next's error
}

// parkCtx closes parked the first time Done is asked: the frontier's Next
// asks it only when it parks.
type parkCtx struct {
	context.Context
	once   sync.Once
	parked chan struct{}
}

func (p *parkCtx) Done() <-chan struct{} {
	p.once.Do(func() { close(p.parked) })
	return p.Context.Done()
}

func (w *parkWatch) Next(ctx context.Context) (frontier.Job, error) {
	w.mu.Lock()
	w.calls++
	second := w.calls == 2
	w.mu.Unlock()
	if !second {
		return w.Frontier.Next(ctx)
	}
	job, err := w.Frontier.Next(&parkCtx{Context: ctx, parked: w.parked})
	w.returned <- err
	return job, err
}

// stopThenQueue is a lateQueue that, told of the first page, stops the
// crawl once the worker parked on the (held, dry) frontier and its Next
// returned, then queues its URL.
type stopThenQueue struct {
	lateQueue
	w      *parkWatch
	stop   context.CancelFunc
	nextEr error
}

func (q *stopThenQueue) Recorded(job frontier.Job, _ string, _ storage.Status, _ []storage.Link, _ any) ([]storage.Link, error) {
	if q.done {
		return nil, nil
	}
	q.done = true
	<-q.w.parked
	q.stop()
	q.nextEr = <-q.w.returned
	return nil, q.queue(job)
}

// A crawl stopped while the disposer applies an outcome that then queues a
// URL is interrupted, not exhausted, though the frontier was dry when the
// parked worker was stopped: the URL is pending and a rerun fetches it.
func TestStopWhileOutcomeQueues(t *testing.T) {
	r := newLateRig(t)
	w := &parkWatch{Frontier: r.Frontier(r.opts.Settings), parked: make(chan struct{}), returned: make(chan error, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q := &stopThenQueue{lateQueue: lateQueue{url: lateURL}, w: w, stop: cancel}
	r.opts.Frontier, r.opts.Sitemaps = w, q
	s, err := r.run(ctx, lateHome)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(q.nextEr, frontier.ErrExhausted) {
		t.Fatalf("the parked Next returned %v, want it stopped on a dry frontier (ErrExhausted)", q.nextEr)
	}
	if s.Stopped != monitor.StopInterrupted || s.Pending != 1 {
		t.Fatalf("stopped %q with %d pending, want %q with the late URL pending", s.Stopped, s.Pending, monitor.StopInterrupted)
	}
}
