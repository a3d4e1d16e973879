package crawler

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// nextWatch is the crawl's frontier, telling when a worker asks Next
// again after its first job: with one worker, it then asks while the
// disposer applies that job's outcome, which leaves the frontier dry. It
// also notes a Done made while the frontier was not held.
type nextWatch struct {
	Frontier
	asked  chan struct{} // closed at the second Next call
	calls  atomic.Int32
	holds  atomic.Int32
	unheld atomic.Bool
}

func (d *nextWatch) Hold()    { d.holds.Add(1); d.Frontier.Hold() }
func (d *nextWatch) Release() { d.holds.Add(-1); d.Frontier.Release() }

func (d *nextWatch) Done(job frontier.Job, r frontier.Result, ch *frontier.Changes) (bool, error) {
	if d.holds.Load() == 0 {
		d.unheld.Store(true)
	}
	return d.Frontier.Done(job, r, ch)
}

func (d *nextWatch) Next(ctx context.Context) (frontier.Job, error) {
	if d.calls.Add(1) == 2 {
		close(d.asked)
	}
	return d.Frontier.Next(ctx)
}

// lateQueue is a Sitemaps that, told of the first page, queues one more
// URL, as package sitemap queues a site's sitemaps after its first page's
// Done; when asked is set, only once the worker asked Next again.
type lateQueue struct {
	l     Loop
	url   string
	asked <-chan struct{}
	done  bool
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
	if q.asked != nil {
		<-q.asked
	}
	return nil, q.queue(job)
}

// queue queues q.url as a link of job's.
func (q *lateQueue) queue(job frontier.Job) error {
	ints, err := q.l.Store().Intern([]string{q.url}, job.ID, 1)
	if err != nil {
		return err
	}
	q.l.Add([]frontier.Target{{ID: ints[0].ID, Host: "a.test", Depth: 1, New: true}}, job.Prio)
	return nil
}

// lateHome and lateURL are the pages of newLateRig's web: the crawl's seed
// and the URL a lateQueue queues after the seed's Done.
const lateHome, lateURL = "http://a.test/", "http://a.test/late"

// newLateRig is a rig for a lateQueue: the two pages, sitemaps read (so
// the lateQueue is told of pages), one fetcher.
func newLateRig(t *testing.T) *rig {
	r := newRig(t)
	r.Web.HTML(lateHome)
	r.Web.HTML(lateURL)
	r.opts.Settings.Sitemaps = true
	r.opts.Fetchers = r.opts.Fetchers[:1]
	return r
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
// (while it applies a page's outcome) is still fetched: the frontier is
// held while an outcome is applied, so a worker that asks it then waits
// instead of ending the crawl; whether the worker asks before the URL is
// queued (late) or not.
func TestDryFrontierWaitsForDisposer(t *testing.T) {
	for _, tc := range []struct{ late, fed bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		late := tc.late
		t.Run(fmt.Sprintf("queued after the worker asks %v, fed %v", tc.late, tc.fed), func(t *testing.T) {
			r := newLateRig(t)
			const home, after = lateHome, lateURL
			w := &nextWatch{Frontier: r.Frontier(r.opts.Settings), asked: make(chan struct{})}
			q := &lateQueue{url: after}
			if late {
				q.asked = w.asked
			}
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
			if w.unheld.Load() {
				t.Fatal("an outcome's Done was applied on a frontier not held")
			}
		})
	}
}
