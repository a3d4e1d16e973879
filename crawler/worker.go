package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/seedcrawl/seedcrawl/extract"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// An outcome is what a worker hands the disposer for one job; dispose
// applies it on the disposer goroutine, in arrival order.
type outcome interface {
	dispose(c *Crawler) error
}

// fetched: a request was made (any response, or a network failure).
type fetched struct {
	job      frontier.Job
	url      string
	rec      storage.Fetch
	links    []scope.Link
	redirect *scope.Link // 3xx target
	retry    fetch.Retry
	// counts are the counters it adds: the worker fills in its links'
	// (Rejects, NoFollow, TooMany) and Refresh, the disposer the rest.
	counts monitor.Fetch
	// serverTime is the server's time to first byte, for the adaptive
	// per-host delay: the whole fetch time would include this process's
	// own CPU starvation and slow the crawl down when the client is busy.
	serverTime time.Duration
	sitemap    any // the job is a sitemap: what Sitemaps read (nil: a page)
}

// skipped: the job ends without a request, recorded with a status (robots
// denied, host dropped, bad URL). dropped are the host's other URLs the
// frontier gave up with it (Job.Dropped), recorded alike.
type skipped struct {
	job    frontier.Job
	status storage.Status
	reason string
}

// traversed: a known page of a recrawl is not refetched; its stored links
// go to the frontier as if it had answered 304. reason is why
// Cycle.Refresh gave, counted under "refresh/".
type traversed struct {
	job    frontier.Job
	links  []scope.Link
	reason string
}

// abandoned: the job was interrupted by shutdown; nothing is recorded and
// the URL stays in the stored frontier.
type abandoned struct{}

// fatal: the crawl cannot go on (a database read failed).
type fatal struct{ err error }

// bodyReleaser is implemented by a Fetcher (fetch.Fetcher) that reuses
// body buffers: Release hands a Response's Body back once nothing will
// read it again.
type bodyReleaser interface {
	Release(body []byte)
}

// work is one worker's loop: take a job, process it, hand the outcome
// over, until the frontier is exhausted (a held one waits: see the package
// doc), the budget is spent or the crawl stops.
func (c *Crawler) work(f Fetcher) {
	for {
		if !c.pages.Reserve() {
			return
		}
		c.waiting.Add(1)
		job, err := c.opts.Frontier.Next(c.life.Stop())
		c.waiting.Add(-1)
		if err != nil {
			c.pages.Release()
			if c.ranDry(err) {
				c.exhausted.Store(true)
			}
			return
		}
		o, refresh := c.process(f, job)
		if _, ok := o.(*fetched); !ok {
			c.pages.Release()
			if refresh {
				c.cyc.NotFetched()
			}
		}
		c.in <- o
	}
}

// ranDry reports whether Next's err ends the crawl as exhausted: the
// frontier was, or it was dry when the crawl was stopped: a crawl without
// a Feed (nothing more could have come), or one fed from outside without
// an end of its own (Feed.Done nil), stopped by its caller, who wants
// nothing more. A cluster node stopped while dry is stopped, not done.
func (c *Crawler) ranDry(err error) bool {
	if !errors.Is(err, frontier.ErrExhausted) {
		return false
	}
	stopped := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
	return !stopped || c.opts.Feed == nil || c.opts.Feed.Done() == nil
}

// process runs one job up to the point where the disposer takes over:
// fetch, link extraction and filtering. refresh reports that a refetch of
// a known page was allowed by Cycle.Refresh (handed back if not made).
func (c *Crawler) process(f Fetcher, job frontier.Job) (o outcome, refresh bool) {
	ctx := c.life.Work()
	u, prev, err := c.opts.Store.PageOrURL(job.ID)
	if err != nil {
		return &fatal{fmt.Errorf("crawler: look up page %d: %w", job.ID, err)}, false
	}
	sj, isSitemap := c.sitemapOf(job.ID)
	if c.cyc != nil && prev.Fetches > 0 && !isSitemap && !frontier.DropReason(job.Skip) {
		// A known page is refetched or traversed as the cycle decides,
		// also one robots.txt now denies (its stored links are traversed).
		// A sitemap is read once per cycle whatever the refresh policy
		// says (conditionally: a 304 hands its stored links on).
		why, fetch := c.cyc.Refresh(job.ID, &prev, c.journal.Uncommitted(job.ID))
		if !fetch {
			links, err := c.rules.Stored(c.opts.Store, job.ID)
			if err != nil {
				return &fatal{err}, false
			}
			return &traversed{job: job, links: links, reason: why}, false
		}
		refresh = true
	}
	if job.Skip != "" {
		return &skipped{job: job, status: robots.SkipStatus(job.Skip), reason: job.Skip}, refresh
	}
	if _, err := url.Parse(u); err != nil {
		return &skipped{job: job, status: storage.StatusRejected, reason: "bad-url"}, refresh
	}
	req := fetch.Request{URL: u, KeepBody: isSitemap}
	if prev.Status.Fetched() {
		req.ETag, req.LastModified = prev.ETag, prev.LastModified
	}
	fetchedAt := time.Now()
	c.fetching.Add(1)
	resp := f.Fetch(ctx, req)
	c.fetching.Add(-1)
	if resp.Reason == fetch.ReasonCanceled && ctx.Err() != nil {
		return abandoned{}, refresh
	}
	if err := c.archive(ctx, job.ID, &resp, &prev); err != nil {
		return &fatal{err}, refresh
	}
	m := &fetched{job: job, url: u, counts: monitor.Fetch{Refresh: refresh}, serverTime: resp.TTFB}
	if isSitemap {
		m.sitemap = sj
	}
	if m.serverTime <= 0 {
		m.serverTime = resp.Dur // no response arrived: the time spent trying
	}
	m.rec, m.retry = resp.Record(&prev, c.olderHashes)
	if !resp.Start.IsZero() {
		// The instant the archive's record gives as the request's date
		// (WARC-Date), which a later 304's WARC-Refers-To-Date repeats.
		fetchedAt = resp.Start
	}
	m.rec.ID, m.rec.Host, m.rec.FetchedAt = job.ID, job.Host, fetchedAt
	if isSitemap {
		c.readSitemap(m, &resp)
	} else {
		c.links(m, resp)
	}
	if r, ok := f.(bodyReleaser); ok && resp.Body != nil && !isSitemap {
		// The body has been archived, hashed and parsed: m holds only
		// copies (URLs are strings built from it), and resp does not
		// outlive this call, so its buffer can go back for the next
		// fetch. A sitemap's body is left alone; they are few.
		r.Release(resp.Body)
		resp.Body = nil
	}
	if m.rec.Status == storage.StatusNotModified {
		// The page is as stored: so are its links, which the scheduler
		// and the frontier need again in a recrawl.
		links, err := c.rules.Stored(c.opts.Store, job.ID)
		if err != nil {
			return &fatal{err}, refresh
		}
		m.links = links
	}
	if c.cyc != nil {
		m.rec.Interval = c.cyc.Interval(&prev, &m.rec)
	}
	return m, refresh
}

// links reads a page's links: a redirect's target, the links of an HTML
// page.
func (c *Crawler) links(m *fetched, resp fetch.Response) {
	switch m.rec.Status {
	case storage.StatusRedirect:
		if cand, reason, ok := c.rules.Vet(resp.Location, storage.LinkRedirect); ok {
			m.redirect = &cand
		} else {
			m.counts.Rejects = append(m.counts.Rejects, reason)
		}
	case storage.StatusFetched:
		if fetch.IsHTML(resp.ContentType) && resp.Body != nil {
			c.extractLinks(m, resp)
		}
	}
}

// extractLinks parses an HTML body and keeps its distinct, guard-checked
// links in document order.
func (c *Crawler) extractLinks(m *fetched, resp fetch.Response) {
	f, err := c.extractor.Follow(m.url, resp.Body, resp.Charset, resp.Header.Get("X-Robots-Tag"))
	m.counts.NoFollow += f.NoFollow
	m.counts.TooMany = f.Dropped
	m.counts.Rejects = append(m.counts.Rejects, f.Rejects...)
	if errors.Is(err, extract.ErrInternal) {
		m.counts.Rejects = append(m.counts.Rejects, "extract-internal-error")
		c.opts.Logger.Error("links of a page lost to an internal error", "url", m.url, "err", err)
		return
	}
	if err != nil {
		m.counts.Rejects = append(m.counts.Rejects, "bad-page-url")
		return
	}
	if c.opts.Settings.RespectNoindex && f.Robots.NoIndex && m.rec.Reason == "" {
		m.rec.Reason = "noindex"
	}
	m.links, m.counts.Rejects = c.rules.Extracted(f.Links, m.counts.Rejects)
	// m holds copies (scope.Link, with the same strings): the slice can
	// serve the next page.
	c.extractor.Recycle(f.Links)
}
