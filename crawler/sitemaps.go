package crawler

import (
	"context"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Sitemaps reads the sites' sitemaps within the crawl (Options.Sitemaps;
// package sitemap's Crawl). Sitemap files are frontier jobs like pages,
// so no sitemap request bypasses the frontier; they count against
// MaxPages, not against the host page budget. What a worker read is
// opaque to the crawl (read): it goes back to Bound and Recorded.
type Sitemaps interface {
	// Start is called by Run before its first commit.
	Start(l Loop)
	// Job reports whether job id is a sitemap to read rather than a page,
	// with its read before the fetch (workers, concurrently).
	Job(id uint64) (read any, ok bool)
	// Read takes what the fetch of a sitemap job from url gave, resp
	// recorded as rec (on a worker): a fetched file's body is parsed, a
	// redirect moves the sitemap to its target. It returns the job's read
	// after the fetch, the listed URLs that pass the crawl's guards
	// (Loop.Rules().Vet) as links of kind storage.LinkSitemap, and why each
	// refused URL, child sitemap or redirect target was refused.
	Read(ctx context.Context, read any, url string, resp *fetch.Response, rec *storage.Fetch) (
		r any, links []scope.Link, rejects []string)
	// Bound, on the disposer before the listed URLs are interned, returns
	// how many of those kept stay; the record rec of a fetched file keeps
	// why it was cut.
	Bound(id uint64, read any, rec *storage.Fetch) (keep int)
	// Recorded is told, on the disposer after the frontier's Done, of job
	// recorded at url with its links (a page: read is nil; url is "" for
	// a page traversed from storage, whose URL the store gives). It
	// returns links to add to the job's: a sitemap's child sitemaps.
	Recorded(job frontier.Job, url string, status storage.Status, links []storage.Link, read any) ([]storage.Link, error)
}

// sitemapOf reports whether job id is a sitemap to read rather than a
// page, with its read before the fetch.
func (c *Crawler) sitemapOf(id uint64) (any, bool) {
	if c.sm == nil {
		return nil, false
	}
	return c.sm.Job(id)
}

// readSitemap reads a sitemap job's fetch (Sitemaps.Read): the URLs it
// lists that pass the trap guards become the job's links (kind sitemap);
// a sitemap that moved is still a sitemap, at the same depth.
func (c *Crawler) readSitemap(m *fetched, resp *fetch.Response) {
	var rejects []string
	m.sitemap, m.links, rejects = c.sm.Read(c.life.Work(), m.sitemap, m.url, resp, &m.rec)
	m.counts.Rejects = append(m.counts.Rejects, rejects...)
}

// sitemapsOf hands a recorded job to Sitemaps after the frontier's Done
// and returns its links with the ones Sitemaps adds.
func (c *Crawler) sitemapsOf(job frontier.Job, url string, status storage.Status, links []storage.Link, read any) ([]storage.Link, error) {
	if c.sm == nil || c.opts.FedOnly {
		return links, nil // only the Feed's URLs are fetched
	}
	more, err := c.sm.Recorded(job, url, status, links, read)
	c.changes.Flush(&c.journal.Batch)
	return append(links, more...), err
}

// currentCycle is the cycle the crawl's fetches are stored in.
func (c *Crawler) currentCycle() uint32 {
	if c.cyc != nil {
		return c.cyc.N()
	}
	return c.opts.Store.Cycle()
}
