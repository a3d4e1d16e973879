package sitemap

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	crawlscope "github.com/seedcrawl/seedcrawl/scope" // package sitemap has a scope type of its own
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Source gives the Sitemap: lines of an origin's robots.txt once it is
// known, without fetching; *robots.Cache implements it.
type Source interface {
	SitemapsOf(origin string) (sitemaps []string, ok bool, err error)
}

// Crawl is the crawl's side of the sites' sitemaps (crawler.Sitemaps):
// when the crawl records the first page of a site, the site's robots.txt
// is known (the frontier asked before handing the page out), so its
// Sitemap: lines and /sitemap.xml are interned, marked
// (storage.Batch.MarkSitemap, so the mark outlives a restart) and queued
// with frontier.Add at that page's priority, ahead of the site's pages (so
// a crawl or cycle whose budget ends before the site's queue does still
// reads them, and a recrawl knows the lastmod values early), bypassing
// the scheduler but not the politeness, the SSRF guard or the fetcher's
// bounds. A sitemap
// job's body is read (Sites.Read) instead of being parsed as HTML: the
// URLs it lists are its links, of kind storage.LinkSitemap, admitted like
// any link, with their lastmod stored (storage.Batch.SetLastMod); an
// index's child sitemaps (and a sitemap's redirect target) are queued as
// sitemaps too. A Crawl serves one crawl; the files read are bounded by
// the default Limits.
type Crawl struct {
	opts  CrawlOptions
	sites *Sites
	l     crawler.Loop
}

// DefaultGoneCycles is CrawlOptions.GoneCycles of NewCrawl: the default of
// seedcrawl run's revisit-gone setting (recrawl.DefaultGoneCycles).
const DefaultGoneCycles = 4

// CrawlOptions are the settings of a Crawl.
type CrawlOptions struct {
	// Source gives the Sitemap: lines of the sites' robots.txt; nil: only
	// /sitemap.xml is read.
	Source Source
	// GoneCycles is the number of cycles between two reads of a sitemap
	// that answered 404 or 410, or 401, 403 or 451, each in the cycles of
	// its phase, as a recrawl refetches any such URL (seedcrawl run's
	// revisit-gone); 0: such a sitemap is read again once
	// the revisit interval stored with its last fetch has passed, in every
	// cycle if none was stored.
	GoneCycles uint32
	// Logger receives warnings (marks or robots.txt sitemaps not read);
	// nil: discard.
	Logger *slog.Logger
}

// NewCrawl returns the sitemap side of a crawl that reads the sitemaps
// src names (nil: only /sitemap.xml), with a missing sitemap read every
// DefaultGoneCycles cycles.
func NewCrawl(src Source) *Crawl {
	return NewCrawlWith(CrawlOptions{Source: src, GoneCycles: DefaultGoneCycles})
}

// NewCrawlWith returns the sitemap side of a crawl with opts.
func NewCrawlWith(opts CrawlOptions) *Crawl {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Crawl{opts: opts}
}

// Start implements crawler.Sitemaps: the marks of earlier runs become
// known, so a sitemap left in the stored frontier by an interrupted run is
// still read as one.
func (c *Crawl) Start(l crawler.Loop) {
	c.l = l
	c.sites = NewSites(Limits{}, l.Cycle())
	c.sites.gone = c.opts.GoneCycles
	if st, ok := l.Store().(Marks); ok {
		if err := c.sites.Load(st); err != nil {
			c.opts.Logger.Warn("sitemap marks of earlier runs not loaded", "err", err)
		}
	}
}

// Job implements crawler.Sitemaps. A sitemap that answered 404 or 410
// (or 401, 403, 451) and is not due again (Sites.Resting) is no sitemap job: a recrawl
// queues it among the known pages, and the crawl then handles it as a
// page, which its revisit policy traverses from storage without a request
// until it is due (a sitemap job is read whatever that policy says).
func (c *Crawl) Job(id uint64) (any, bool) {
	f, ok := c.sites.File(id)
	if !ok {
		return nil, false
	}
	if p, err := c.l.Store().Page(id); err == nil && c.sites.Resting(&p) {
		return nil, false
	}
	return &FileRead{File: f}, true
}

// Read implements crawler.Sitemaps. A sitemap that redirected to a target
// that passes the crawl's guards (Loop.Rules().Vet) is still a sitemap, read at
// the same depth (Moved). Of a fetched file, the URLs it lists and its
// child sitemaps are kept if they pass those guards, the listed ones as
// its links; listed URLs that do not normalize are rejected too. Lastmod
// values later than the server's clock (the response's Date, else the
// fetch time), or before 1990, are dropped (FileRead.ClampLastMod).
func (c *Crawl) Read(ctx context.Context, read any, u string, resp *fetch.Response, rec *storage.Fetch) (
	any, []crawlscope.Link, []string) {
	var links []crawlscope.Link
	var rejects []string
	switch rec.Status {
	case storage.StatusRedirect:
		target, reason, ok := c.l.Rules().Vet(resp.Location, storage.LinkRedirect)
		if !ok {
			return read, nil, []string{reason}
		}
		return Moved(read.(*FileRead).File, target.URL), nil, nil
	case storage.StatusFetched:
	default:
		return read, nil, nil
	}
	r := c.sites.Read(ctx, resp.Body, u, read.(*FileRead).File, resp.Truncated)
	r.ClampLastMod(ServerTime(rec.Date, rec.FetchedAt))
	for range r.BadURLs {
		rejects = append(rejects, "sitemap-bad-url")
	}
	keep := func(listed bool) func(string) bool {
		return func(u string) bool {
			link, reason, ok := c.l.Rules().Vet(u, storage.LinkSitemap)
			if !ok {
				rejects = append(rejects, reason)
			} else if listed {
				links = append(links, link)
			}
			return ok
		}
	}
	r.Keep(keep(true), keep(false))
	return r, links, rejects
}

// Bound implements crawler.Sitemaps: the site's entry bound applies, and
// the reason of a cut, skip or error is the page record's (rec, when the
// file was fetched).
func (c *Crawl) Bound(id uint64, read any, rec *storage.Fetch) (keep int) {
	r := read.(*FileRead)
	n := c.sites.Deliver(id, r)
	if why := r.Reason(); why != "" && rec.Status == storage.StatusFetched {
		rec.Reason = why
	}
	return n
}

// Recorded implements crawler.Sitemaps: for a page (read nil), the
// sitemaps of its site are queued the first time a page of the site is
// recorded in this run (pageURL "": a page traversed from storage, its URL
// read from the store); for a sitemap, the lastmod of its listed URLs
// (links[i] is listed URL i) is stored, it is counted, and its child
// sitemaps are queued and returned as its links. A lastmod the file gave
// that ClampLastMod dropped clears the one stored for the URL.
func (c *Crawl) Recorded(job frontier.Job, pageURL string, status storage.Status, links []storage.Link, read any) ([]storage.Link, error) {
	if read == nil {
		if pageURL == "" {
			u, err := c.l.Store().URL(job.ID)
			if err != nil {
				return nil, fmt.Errorf("sitemap: url of page %d: %w", job.ID, err)
			}
			pageURL = u
		}
		return nil, c.plan(job, pageURL)
	}
	r := read.(*FileRead)
	b := c.l.Batch()
	for i, l := range r.URLs {
		switch {
		case i >= len(links):
		case l.DroppedLastMod:
			b.SetLastMod(links[i].To, time.Time{}) // forget what an earlier read stored
		case !l.LastMod.IsZero():
			b.SetLastMod(links[i].To, l.LastMod)
		}
	}
	r.Counts(status == storage.StatusFetched, func(k string, n uint64) { c.l.Count("sitemap/"+k, n) })
	kind := storage.LinkSitemap
	if r.Redirect {
		kind = storage.LinkRedirect
	}
	ids, err := c.queue(job, r.Children, r.ChildFile(), r.Redirect)
	var out []storage.Link
	for _, id := range ids {
		out = append(out, storage.Link{To: id, Kind: kind})
	}
	return out, err
}

// plan queues the sitemaps of the site of page pageURL (its robots.txt
// Sitemap: lines, then /sitemap.xml) the first time a page of that site
// is recorded in this run, so its robots.txt is known. A sitemap on
// another host (robots.txt may name one) must be in the crawl's scope.
func (c *Crawl) plan(job frontier.Job, pageURL string) error {
	pu, err := url.Parse(pageURL)
	if err != nil || pu.Host == "" {
		return nil
	}
	origin := urlnorm.Origin(pu)
	urls := c.sites.Plan(origin, func() []string {
		if c.opts.Source == nil {
			return nil
		}
		l, _, err := c.opts.Source.SitemapsOf(origin)
		if err != nil {
			c.opts.Logger.Warn("robots.txt sitemaps", "origin", origin, "err", err)
		}
		return l
	})
	var keep []string
	for _, u := range urls {
		link, reason, ok := c.l.Rules().Vet(u, storage.LinkOther)
		switch {
		case !ok:
			c.l.Count("sitemap/reject/"+reason, 1)
		case !link.InScope && urlnorm.Authority(u) != job.Host:
			c.l.Count("sitemap/skip/out-of-scope", 1)
		default:
			keep = append(keep, u)
		}
	}
	_, err = c.queue(job, keep, storage.SitemapFile{Depth: 0, Origin: origin}, false)
	return err
}

// queue interns sitemap URLs found by job (a page whose site's sitemaps
// are planned, or an index), and queues those the walk wants read
// (Sites.Want, Take) in the frontier (Loop.Add) at the job's priority,
// ahead of their hosts' pages, marked as sitemaps
// (storage.Batch.MarkSitemap). It returns their ids.
func (c *Crawl) queue(job frontier.Job, urls []string, file storage.SitemapFile, redirect bool) ([]uint64, error) {
	if len(urls) == 0 {
		return nil, nil
	}
	st := c.l.Store()
	ints, err := st.Intern(urls, job.ID, uint32(max(job.Depth, 0)))
	if err != nil {
		return nil, fmt.Errorf("sitemap: intern %d sitemaps of page %d: %w", len(urls), job.ID, err)
	}
	ids := make([]uint64, len(urls))
	var targets []frontier.Target
	over := 0
	for i, in := range ints {
		ids[i] = in.ID
		host := urlnorm.Authority(urls[i])
		page := func() (storage.Page, error) { return st.Page(in.ID) }
		want, skip, err := c.sites.Want(file.Origin, in.ID, Known{New: in.New, Page: page}, redirect)
		if err != nil {
			return nil, fmt.Errorf("sitemap: sitemaps of page %d: %w", job.ID, err)
		}
		if skip != "" {
			c.l.Count("sitemap/skip/"+skip, 1)
		}
		switch r, dropped := c.l.Frontier().Dropped(host); {
		case !want:
			continue
		case c.l.Remote(host):
			// Another node's host: only its owner may request it, and
			// sitemap files are not handed over (a cross-host Sitemap:
			// line of a robots.txt is not read in a cluster).
			c.l.Count("sitemap/skip/other-node", 1)
			continue
		case dropped:
			c.l.Batch().SetStatus(in.ID, storage.StatusDeferred, r)
			continue
		case !c.sites.Take(file.Origin, in.ID, file):
			over++
			continue
		}
		c.l.Batch().MarkSitemap(in.ID, file)
		targets = append(targets, frontier.Target{ID: in.ID, Host: host, Depth: job.Depth})
	}
	if over > 0 {
		c.l.Count("sitemap/skip/sitemaps", uint64(over))
	}
	n := c.l.Add(targets, job.Prio)
	c.l.Count("sitemap/queued", uint64(n))
	return ids, nil
}

// LastModStore is what Lastmods reads: the lastmod a sitemap listed for a
// page, and the record of a page's fetch in a cycle (whose Date is the
// server's clock then); *storage.DB implements it.
type LastModStore interface {
	LastMod(id uint64) (time.Time, bool, error)
	FetchIn(n uint32, id uint64) (storage.FetchRecord, bool, error)
}

// Lastmods tells a recrawl which pages the sites' sitemaps say changed
// (recrawl.CycleOptions.Changed): the lastmod values a Crawl stored.
type Lastmods struct {
	Store LastModStore
	// Logger receives warnings (a failed read); nil: discard.
	Logger *slog.Logger
}

// Changed reports whether a page whose lastmod is later than its last
// fetch (prev) is due for a revisit whatever the revisit policy
// estimated (sitemaps.org: lastmod lets a crawler skip unchanged pages
// and find changed ones). Both times are read on the server's clock: the
// lastmod as listed, the fetch as the Date its answer carried (kept in the
// fetch history), so a server whose clock is hours off the crawler's does
// not make all its pages due, or none. A fetch without a Date (no answer,
// or a server that sends none), or with one more than 30 days from the
// crawler's clock (a lie, see ServerTime), is taken at the crawler's clock.
func (m Lastmods) Changed(id uint64, prev *storage.Page) bool {
	if m.Store == nil || prev.FetchedAt.IsZero() {
		return false
	}
	log := m.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	lm, ok, err := m.Store.LastMod(id)
	if err != nil {
		log.Warn("sitemap lastmod", "page", id, "err", err)
		return false
	}
	if !ok {
		return false
	}
	fetched := prev.FetchedAt
	switch r, ok, err := m.Store.FetchIn(prev.Cycle, id); {
	case err != nil:
		log.Warn("sitemap lastmod: last fetch", "page", id, "err", err)
	case ok && !r.Date.IsZero() && r.Date.Sub(prev.FetchedAt).Abs() <= maxClockSkew:
		fetched = r.Date
	}
	return lm.After(fetched)
}
