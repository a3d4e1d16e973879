package crawler

import (
	"fmt"
	"sync"

	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Feed brings URLs from outside the crawl's own links (Options.Feed):
// package compare's Injection, package cluster's hand-off. With a Feed,
// Run does not stop when the frontier runs dry: the workers wait for the
// feed's URLs until Done closes or Run's ctx ends.
type Feed interface {
	// Attach is called once by Run before the workers start, with the
	// loop through which the feed queues its URLs (Loop.Post).
	Attach(l Loop) error
	// Recorded is told of each URL's final outcome on the disposer, in
	// the order the crawl records them, before they are committed.
	Recorded(r *Recorded) error
	// Done is closed when a dry crawl is over. A nil Done leaves the end
	// to Run's ctx, and a dry crawl stopped so ends as exhausted.
	Done() <-chan struct{}
}

// Recorded is the final outcome of one URL, as the disposer records it.
type Recorded struct {
	ID  uint64
	URL string
	// Fetch is the request's record; nil for a URL recorded without a
	// request (robots.txt denied it, its host was dropped).
	Fetch  *storage.Fetch
	Status storage.Status
	Reason string
	// Links are a fetched page's distinct out-links in document order
	// (the stored ones for a 304), Redirect a redirect's target; each
	// says whether the crawl's scope allows it.
	Links    []scope.Link
	Redirect *scope.Link
	// RedirectTo is the id of the redirect target, or storage.NoPage.
	RedirectTo uint64
}

// record tells the cycle (of a job's outcome: toCycle) and the feed of a
// final outcome, and notes it as awaiting the commit (disposer only).
func (c *Crawler) record(r *Recorded, toCycle bool) error {
	cyc, feed := c.cyc, c.opts.Feed
	if !toCycle {
		cyc = nil
	}
	if cyc == nil && feed == nil {
		return nil
	}
	c.journal.Recorded(r.ID)
	if cyc != nil {
		if err := cyc.Recorded(r); err != nil {
			return err
		}
	}
	if feed == nil {
		return nil
	}
	if r.URL == "" {
		u, err := c.opts.Store.URL(r.ID)
		if err != nil {
			return fmt.Errorf("crawler: URL of page %d: %w", r.ID, err)
		}
		r.URL = u
	}
	return feed.Recorded(r)
}

// holdForFeed holds the frontier while the Feed may bring URLs, so workers
// wait on it when dry: until the Feed's Done closes, or until Run returns
// and calls the release it returns.
func (c *Crawler) holdForFeed() (release func()) {
	c.opts.Frontier.Hold()
	var once sync.Once
	release = func() { once.Do(c.opts.Frontier.Release) }
	if over := c.opts.Feed.Done(); over != nil {
		go func() {
			select {
			case <-over:
				release()
			case <-c.life.Work().Done():
			}
		}()
	}
	return release
}
