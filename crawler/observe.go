package crawler

import (
	"context"
	"fmt"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Recorder is told of the crawl's events as the crawler counts them, for
// live metrics; *monitor.Recorder implements it. It is called from the
// places that update the run's counters, with the same numbers, so the
// metrics equal the stored counters by construction. Calls come from the
// disposer goroutine (and from Run before the workers start); they must be
// cheap.
type Recorder interface {
	// ObserveFetch is called once per request made (retries included):
	// its HTTP status code (0: no response), the bytes counted for it
	// (Totals.Bytes) and its duration.
	ObserveFetch(code int, bytes int64, dur time.Duration)
	// Count is called with every counter increment, by its stored key
	// ("fetch/fetched", "reject/max-depth", "error/timeout", ...).
	Count(key string, n uint64)
}

// archive hands a fetch's capture to Options.Archive, if both exist
// (fetch.Response.Archive; a 304 refers to the page's last full fetch,
// storage.DB.LastFull). The response is in hand, so a stop that cancels
// ctx does not lose it: the write goes on without ctx's cancellation.
func (c *Crawler) archive(ctx context.Context, id uint64, resp *fetch.Response, prev *storage.Page) error {
	if c.opts.Archive == nil {
		return nil
	}
	lastFull := func() time.Time { return c.opts.Store.LastFull(id, prev) }
	if err := resp.Archive(context.WithoutCancel(ctx), c.opts.Archive, lastFull); err != nil {
		return fmt.Errorf("crawler: archive %s: %w", resp.URL, err)
	}
	return nil
}

// observeFetch tells the Recorder of a request, as the run's totals count
// it.
func (c *Crawler) observeFetch(rec *storage.Fetch) {
	if r := c.opts.Recorder; r != nil {
		r.ObserveFetch(rec.Code, rec.Length, rec.Duration)
	}
}

// Counters returns a copy of this run's counters so far, keyed as they are
// stored ("fetch/fetched", "skip/robots-denied", ...); safe to call from
// any goroutine while Run is going on.
func (c *Crawler) Counters() map[string]uint64 {
	return c.totals.Counters()
}
