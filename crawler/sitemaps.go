package crawler

import (
	"context"
	"time"

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
	// Read parses the body of a sitemap job, fetched from url at
	// fetchedAt with date the response's Date header ("" if none) (on a
	// worker). It returns what it read, the listed URLs that pass the
	// crawl's guards (Loop.Vet) as links of kind storage.LinkSitemap, and
	// why each refused URL or child sitemap was refused.
	Read(ctx context.Context, read any, url string, body []byte, truncated bool, date string, fetchedAt time.Time) (
		r any, links []scope.Link, rejects []string)
	// Moved is the read of a sitemap job that redirected to target.
	Moved(read any, target string) any
	// Bound, on the disposer before the listed URLs are interned, returns
	// how many of those kept stay, and why the file was cut ("": not).
	Bound(id uint64, read any) (keep int, reason string)
	// Recorded is told, on the disposer after the frontier's Done, of job
	// recorded at url with its links (a page: read is nil). It returns
	// links to add to the job's: a sitemap's child sitemaps.
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

// readSitemap parses the body of a sitemap job: the URLs it lists that pass
// the trap guards become the job's links (kind sitemap).
func (c *Crawler) readSitemap(m *fetched, resp fetch.Response) {
	var rejects []string
	m.sitemap, m.links, rejects = c.sm.Read(c.workCtx, m.sitemap, m.url, resp.Body, resp.Truncated, m.rec.Date, m.rec.FetchedAt)
	m.rejects = append(m.rejects, rejects...)
}

// sitemapsOf hands a recorded job to Sitemaps after the frontier's Done
// and returns its links with the ones Sitemaps adds.
func (c *Crawler) sitemapsOf(job frontier.Job, url string, status storage.Status, links []storage.Link, read any) ([]storage.Link, error) {
	if c.sm == nil || c.opts.FedOnly {
		return links, nil // only the Feed's URLs are fetched
	}
	more, err := c.sm.Recorded(job, url, status, links, read)
	c.changes.Flush(&c.batch)
	return append(links, more...), err
}

// currentCycle is the cycle the crawl's fetches are stored in.
func (c *Crawler) currentCycle() uint32 {
	if c.cyc != nil {
		return c.cyc.N()
	}
	return c.opts.Store.Cycle()
}
