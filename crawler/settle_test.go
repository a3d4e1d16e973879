package crawler

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// dryWatch is the crawl's frontier, telling when Next ran dry; with
// late set, the first dry answer reaches the worker only once the
// disposer applied the outcome it was applying (q's page).
type dryWatch struct {
	Frontier
	dry  chan struct{} // closed at the first ErrExhausted
	once sync.Once
	late bool
	q    *lateQueue
}

func (d *dryWatch) Next(ctx context.Context) (frontier.Job, error) {
	job, err := d.Frontier.Next(ctx)
	if errors.Is(err, frontier.ErrExhausted) {
		first := false
		d.once.Do(func() { close(d.dry); first = true })
		if first && d.late {
			for d.q.l.c.applied.Load() == 0 {
				runtime.Gosched()
			}
		}
	}
	return job, err
}

// lateQueue is a Sitemaps that, told of the first page, waits until the
// frontier ran dry and only then queues one more URL, as package
// sitemap queues a site's sitemaps after its first page's Done.
type lateQueue struct {
	l    Loop
	url  string
	dry  <-chan struct{}
	done bool
}

func (q *lateQueue) Start(l Loop)                          { q.l = l }
func (q *lateQueue) Job(uint64) (any, bool)                { return nil, false }
func (q *lateQueue) Bound(uint64, any, *storage.Fetch) int { return 0 }
func (q *lateQueue) Read(context.Context, any, string, *fetch.Response, *storage.Fetch) (any, []scope.Link, []string) {
	return nil, nil, nil
}

func (q *lateQueue) Recorded(job frontier.Job, _ string, _ storage.Status, _ []storage.Link, _ any) ([]storage.Link, error) {
	if q.done {
		return nil, nil
	}
	q.done = true
	<-q.dry
	ints, err := q.l.Store().Intern([]string{q.url}, job.ID, 1)
	if err != nil {
		return nil, err
	}
	q.l.Add([]frontier.Target{{ID: ints[0].ID, Host: "a.test", Depth: 1, New: true}}, job.Prio)
	return nil, nil
}

// endFeed is a Feed that brings nothing and ends the crawl once url is
// recorded.
type endFeed struct {
	url  string
	done chan struct{}
}

func (f *endFeed) Attach(Loop) error     { return nil }
func (f *endFeed) Done() <-chan struct{} { return f.done }
func (f *endFeed) Recorded(r *Recorded) error {
	if r.URL == f.url {
		close(f.done)
	}
	return nil
}

// A URL the disposer queues after the frontier ran dry for the workers
// (while it applies a page's outcome) is still fetched: a worker that
// finds the frontier dry while outcomes sent before are not applied waits
// for them and asks again, instead of ending the crawl; whether the
// disposer is done with them before the worker looks (late) or not.
func TestDryFrontierWaitsForDisposer(t *testing.T) {
	for _, tc := range []struct{ late, fed bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		late := tc.late
		t.Run(fmt.Sprintf("applied before the worker looks %v, fed %v", tc.late, tc.fed), func(t *testing.T) {
			r := newRig(t)
			const home, after = "http://a.test/", "http://a.test/late"
			r.Web.HTML(home)
			r.Web.HTML(after)
			r.opts.Settings.Sitemaps = true
			r.opts.Fetchers = r.opts.Fetchers[:1]
			w := &dryWatch{Frontier: r.Frontier(r.opts.Settings), dry: make(chan struct{}), late: late}
			q := &lateQueue{url: after, dry: w.dry}
			w.q = q
			r.opts.Frontier, r.opts.Sitemaps = w, q
			if tc.fed {
				// A fed crawl waits dry for its feed, which ends it once
				// the late URL is recorded; the guard only bounds a
				// failure.
				r.opts.Feed = &endFeed{url: after, done: make(chan struct{})}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, err := r.run(ctx, home)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Web.Fetched(); !slices.Contains(got, after) {
				t.Fatalf("fetched %v, want %s too (summary %+v)", got, after, s)
			}
		})
	}
}
