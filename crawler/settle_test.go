package crawler

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// dryWatch is the crawl's frontier, telling when Next ran dry.
type dryWatch struct {
	Frontier
	dry chan struct{} // closed at the first ErrExhausted
}

func (d *dryWatch) Next(ctx context.Context) (frontier.Job, error) {
	job, err := d.Frontier.Next(ctx)
	if errors.Is(err, frontier.ErrExhausted) {
		select {
		case <-d.dry:
		default:
			close(d.dry)
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

// A URL the disposer queues after the frontier ran dry for the workers
// (while it applies a page's outcome) is still fetched: a worker that
// finds the frontier dry waits for the outcomes sent before to be
// applied and asks again, instead of ending the crawl.
func TestDryFrontierWaitsForDisposer(t *testing.T) {
	r := newRig(t)
	const home, late = "http://a.test/", "http://a.test/late"
	r.Web.HTML(home)
	r.Web.HTML(late)
	r.opts.Settings.Sitemaps = true
	w := &dryWatch{Frontier: r.Frontier(r.opts.Settings), dry: make(chan struct{})}
	r.opts.Frontier = w
	r.opts.Sitemaps = &lateQueue{url: late, dry: w.dry}
	s := r.mustRun(home)
	if got := r.Web.Fetched(); !slices.Contains(got, late) {
		t.Fatalf("fetched %v, want %s too (summary %+v)", got, late, s)
	}
}
