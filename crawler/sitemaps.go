package crawler

import (
	"fmt"
	"net/url"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/sitemap"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The crawl's side of sitemaps: package sitemap (sitemap.Sites) keeps
// which URLs are sitemaps, the bounds per site and run, and reads the
// files; the crawl loop interns, admits and queues what it lets through,
// and records what was read.

// SitemapSource gives the Sitemap: lines of an origin's robots.txt once it
// is known, without fetching; *robots.Cache implements it.
type SitemapSource interface {
	SitemapsOf(origin string) (sitemaps []string, ok bool, err error)
}

// sitemapAdder is the frontier method that queues sitemaps outside the
// scheduler; *frontier.Frontier implements it.
type sitemapAdder interface {
	Add(targets []frontier.Target, prio float64, ch *frontier.Changes) int
}

// sitemapJob is what a worker read from one sitemap job: package
// sitemap's read, and its child sitemaps as checked candidates (parallel
// to read.Children).
type sitemapJob struct {
	read     *sitemap.FileRead
	children []candidate
}

// loadSitemaps makes the marks of earlier runs known, so a sitemap left in
// the stored frontier by an interrupted run is still read as one.
func (c *Crawler) loadSitemaps() {
	if st, ok := c.opts.Store.(sitemap.Marks); ok && c.sm != nil {
		if err := c.sm.Load(st); err != nil {
			c.opts.Logger.Warn("sitemap marks of earlier runs not loaded", "err", err)
		}
	}
}

// sitemapOf reports whether job id is a sitemap to read rather than a page.
func (c *Crawler) sitemapOf(id uint64) (*sitemapJob, bool) {
	if c.sm == nil {
		return nil, false
	}
	f, ok := c.sm.File(id)
	if !ok {
		return nil, false
	}
	return &sitemapJob{read: &sitemap.FileRead{File: f}}, true
}

// readSitemap parses the body of a sitemap job: the URLs it lists that pass
// the trap guards become the job's links (kind sitemap), its child
// sitemaps are kept for the disposer to queue.
func (c *Crawler) readSitemap(m *fetched, resp fetch.Response) {
	r := c.sm.Read(c.workCtx, resp.Body, m.url, m.sitemap.read.File, resp.Truncated)
	for range r.BadURLs {
		m.rejects = append(m.rejects, "sitemap-bad-url")
	}
	keep := func(dst *[]candidate) func(string) bool {
		return func(u string) bool {
			cand, reason, ok := c.candidate(u, storage.LinkSitemap)
			if !ok {
				m.rejects = append(m.rejects, reason)
				return false
			}
			*dst = append(*dst, cand)
			return true
		}
	}
	r.Keep(keep(&m.links), keep(&m.sitemap.children))
	m.sitemap.read = r
}

// sitemapMoved turns a sitemap's redirect into a child sitemap at the same
// depth: a moved sitemap is still a sitemap.
func (m *fetched) sitemapMoved() {
	m.sitemap = &sitemapJob{read: sitemap.Moved(m.sitemap.read.File, m.redirect.url), children: []candidate{*m.redirect}}
	m.redirect = nil
}

// sitemapBound finishes a sitemap job on the disposer before its links
// are interned: the site's entry bound applies, and the page record keeps
// the reason of a cut, skip or error.
func (c *Crawler) sitemapBound(m *fetched) {
	r := m.sitemap.read
	m.links = m.links[:c.sm.Deliver(m.job.ID, r)]
	if why := r.Reason(); why != "" && m.rec.Status == storage.StatusFetched {
		m.rec.Reason = why
	}
}

// sitemapDone records what a sitemap job read, after its listed URLs were
// interned (links[i] is m.links[i]): their lastmod, the counters, and the
// child sitemaps, queued and stored as the job's links.
func (c *Crawler) sitemapDone(m *fetched, links []storage.Link) ([]storage.Link, error) {
	sj := m.sitemap
	for i, l := range sj.read.URLs {
		if !l.LastMod.IsZero() && i < len(links) {
			c.batch.SetLastMod(links[i].To, l.LastMod)
		}
	}
	sj.read.Counts(m.rec.Status == storage.StatusFetched, func(k string, n uint64) { c.count("sitemap/"+k, n) })
	ids, err := c.queueSitemaps(m.job, sj.children, sj.read.ChildFile(), sj.read.Redirect)
	for i, id := range ids {
		links = append(links, storage.Link{To: id, Kind: sj.children[i].kind})
	}
	return links, err
}

// planSitemaps queues the sitemaps of the site of page pageURL (its
// robots.txt Sitemap: lines, then /sitemap.xml) the first time a page of
// that site is recorded in this run, so its robots.txt is known. A sitemap
// on another host (robots.txt may name one) must be in the crawl's scope.
// Disposer only.
func (c *Crawler) planSitemaps(job frontier.Job, pageURL string) error {
	if c.sm == nil || c.opts.FedOnly {
		// Only the Feed's URLs are fetched.
		return nil
	}
	pu, err := url.Parse(pageURL)
	if err != nil || pu.Host == "" {
		return nil
	}
	origin := urlnorm.Origin(pu)
	urls := c.sm.Plan(origin, func() []string {
		if c.opts.Sitemaps == nil {
			return nil
		}
		l, _, err := c.opts.Sitemaps.SitemapsOf(origin)
		if err != nil {
			c.opts.Logger.Warn("robots.txt sitemaps", "origin", origin, "err", err)
		}
		return l
	})
	var cands []candidate
	for _, u := range urls {
		cand, reason, ok := c.candidate(u, storage.LinkSitemap)
		switch {
		case !ok:
			c.count("sitemap/reject/"+reason, 1)
		case !cand.inScope && cand.host != job.Host:
			c.count("sitemap/skip/out-of-scope", 1)
		default:
			cands = append(cands, cand)
		}
	}
	_, err = c.queueSitemaps(job, cands, storage.SitemapFile{Depth: 0, Origin: origin}, false)
	return err
}

// queueSitemaps interns sitemap URLs found by job (a page whose site's
// sitemaps are planned, or an index), and queues those package sitemap
// wants read (sitemap.Sites.Want, Take) in the frontier (frontier.Add) at
// the job's priority, marked as sitemaps (storage.Batch.MarkSitemap). It
// returns their ids, for the index's links.
func (c *Crawler) queueSitemaps(job frontier.Job, cands []candidate, file storage.SitemapFile, redirect bool) ([]uint64, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	urls := make([]string, len(cands))
	for i := range cands {
		urls[i] = cands[i].url
	}
	ints, err := c.opts.Store.Intern(urls, job.ID, uint32(max(job.Depth, 0)))
	if err != nil {
		return nil, fmt.Errorf("crawler: intern %d sitemaps of page %d: %w", len(urls), job.ID, err)
	}
	ids := make([]uint64, len(cands))
	var targets []frontier.Target
	over := 0
	for i, in := range ints {
		ids[i] = in.ID
		host := cands[i].host
		page := func() (storage.Page, error) { return c.opts.Store.Page(in.ID) }
		want, skip, err := c.sm.Want(file.Origin, in.ID, sitemap.Known{New: in.New, Page: page}, redirect)
		if err != nil {
			return nil, fmt.Errorf("crawler: sitemaps of page %d: %w", job.ID, err)
		}
		if skip != "" {
			c.count("sitemap/skip/"+skip, 1)
		}
		switch r, dropped := c.opts.Frontier.Dropped(host); {
		case !want:
			continue
		case c.remoteHost(host):
			// Another node's host: only its owner may request it, and
			// sitemap files are not handed over (a cross-host Sitemap:
			// line of a robots.txt is not read in a cluster).
			c.count("sitemap/skip/other-node", 1)
			continue
		case dropped:
			c.batch.SetStatus(in.ID, storage.StatusDeferred, r)
			continue
		case !c.sm.Take(file.Origin, in.ID, file):
			over++
			continue
		}
		c.batch.MarkSitemap(in.ID, file)
		targets = append(targets, frontier.Target{ID: in.ID, Host: host, Depth: job.Depth})
	}
	if over > 0 {
		c.count("sitemap/skip/sitemaps", uint64(over))
	}
	adder, ok := c.opts.Frontier.(sitemapAdder)
	if !ok {
		return ids, fmt.Errorf("%w: the frontier cannot queue sitemaps (no Add method)", ErrOptions)
	}
	c.count("sitemap/queued", uint64(adder.Add(targets, job.Prio, &c.changes)))
	return ids, nil
}

// currentCycle is the cycle the crawl's fetches are stored in.
func (c *Crawler) currentCycle() uint32 {
	if c.cyc != nil {
		return c.cyc.N()
	}
	if cy, ok := c.opts.Store.(interface{ Cycle() uint32 }); ok {
		return cy.Cycle()
	}
	return 0
}

// lastModStore is the optional part of a Store that gives the lastmod a
// sitemap listed for a page; *storage.DB implements it.
type lastModStore interface {
	LastMod(id uint64) (time.Time, bool, error)
}

// sitemapChanged reports whether a sitemap says page id changed after its
// last fetch (its lastmod is later): the page is then due for a revisit
// whatever the revisit policy estimated (sitemaps.org: lastmod lets a
// crawler skip unchanged pages and find changed ones).
func (c *Crawler) sitemapChanged(id uint64, prev *storage.Page) bool {
	st, ok := c.opts.Store.(lastModStore)
	if !c.opts.Settings.Sitemaps || !ok || prev.FetchedAt.IsZero() {
		return false
	}
	lm, ok, err := st.LastMod(id)
	if err != nil {
		c.opts.Logger.Warn("sitemap lastmod", "page", id, "err", err)
		return false
	}
	return ok && lm.After(prev.FetchedAt)
}
