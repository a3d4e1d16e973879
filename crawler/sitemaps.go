package crawler

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/sitemap"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// SitemapSource gives the Sitemap: lines of an origin's robots.txt once it
// is known, without fetching; *robots.Cache implements it.
type SitemapSource interface {
	SitemapsOf(origin string) (sitemaps []string, ok bool, err error)
}

// sitemapMarks is the optional part of a Store that remembers which URLs
// are sitemaps across runs; *storage.DB implements it.
type sitemapMarks interface {
	EachSitemap(fn func(id uint64, s storage.SitemapFile) error) error
}

// sitemaps is the crawl's sitemap state. files is read by workers (is this
// job a sitemap?) and written by the disposer; sites is the disposer's.
type sitemaps struct {
	mu     sync.RWMutex
	files  map[uint64]storage.SitemapFile // sitemap URLs: this run's, and earlier runs' marks
	loaded sync.Once
	sites  map[string]*sitemapSite // by origin
}

// sitemapSite is one site's walk in this run (sitemap.Walker's bounds, kept
// across the jobs of the walk).
type sitemapSite struct {
	planned bool                // robots.txt sitemaps and /sitemap.xml queued
	files   int                 // sitemap files queued (Limits.MaxSitemaps)
	urls    int                 // entries delivered (Limits.MaxWalkURLs)
	seen    map[uint64]struct{} // sitemap files queued, each once per run
}

// sitemapRead is what a worker read from one sitemap file.
type sitemapRead struct {
	file     storage.SitemapFile
	lastmod  []time.Time // parallel to fetched.links
	children []candidate // child sitemaps of an index (and a redirect target)
	result   sitemap.Result
	cut      string // why reading stopped early, "" if it did not
	skipped  string // why child sitemaps were not queued
	err      error  // not a sitemap, malformed, bad charset
	// redirect: the sitemap answered with a redirect, whose target is
	// children[0], a sitemap at the same depth.
	redirect bool
}

// sitemapLimits returns the sitemap bounds with the package's defaults filled in.
func (o *Options) sitemapLimits() sitemap.Limits {
	l := o.SitemapLimits
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxDepth, sitemap.DefaultMaxDepth)
	def(&l.MaxSitemaps, sitemap.DefaultMaxSitemaps)
	def(&l.MaxWalkURLs, sitemap.DefaultMaxWalkURLs)
	return l
}

// sitemapOf reports whether job id is a sitemap to read rather than a page.
// The marks of earlier runs are loaded once, so a sitemap left in the
// stored frontier by an interrupted run is still read as one.
func (c *Crawler) sitemapOf(id uint64) (storage.SitemapFile, bool) {
	if !c.opts.Settings.Sitemaps {
		return storage.SitemapFile{}, false
	}
	c.sm.loaded.Do(func() {
		st, ok := c.opts.Store.(sitemapMarks)
		if !ok {
			return
		}
		err := st.EachSitemap(func(id uint64, s storage.SitemapFile) error {
			c.sm.mu.Lock()
			if _, ok := c.sm.files[id]; !ok {
				c.setSitemapLocked(id, s)
			}
			c.sm.mu.Unlock()
			return nil
		})
		if err != nil {
			c.opts.Logger.Warn("sitemap marks of earlier runs not loaded", "err", err)
		}
	})
	c.sm.mu.RLock()
	defer c.sm.mu.RUnlock()
	s, ok := c.sm.files[id]
	return s, ok
}

func (c *Crawler) setSitemapLocked(id uint64, s storage.SitemapFile) {
	if c.sm.files == nil {
		c.sm.files = map[uint64]storage.SitemapFile{}
	}
	c.sm.files[id] = s
}

// readSitemap parses the body of a sitemap job: the URLs it lists become
// the job's links (kind sitemap, with their lastmod), the child sitemaps of
// an index are kept for the disposer to queue. The body was bounded by the
// fetcher (max-body, decompression ratio); package sitemap bounds the
// entries, the uncompressed bytes and the expansion of a .gz file.
func (c *Crawler) readSitemap(m *fetched, resp fetch.Response) {
	sr := m.sitemap
	lim := c.opts.sitemapLimits()
	rawSeen := map[string]struct{}{}
	seen := map[string]struct{}{}
	res, err := sitemap.Parse(c.workCtx, bytes.NewReader(resp.Body), m.url,
		sitemap.Options{Limits: lim, Scope: []string{sr.file.Origin + "/"}},
		func(e sitemap.Entry) error {
			if _, dup := rawSeen[e.URL]; dup {
				return nil
			}
			rawSeen[e.URL] = struct{}{}
			u, err := urlnorm.Normalize(e.URL)
			if err != nil {
				m.rejects = append(m.rejects, "sitemap-bad-url")
				return nil
			}
			if _, dup := seen[u]; dup {
				return nil
			}
			seen[u] = struct{}{}
			cand, reason, ok := c.candidate(u, storage.LinkSitemap)
			if !ok {
				m.rejects = append(m.rejects, reason)
				return nil
			}
			m.links = append(m.links, cand)
			sr.lastmod = append(sr.lastmod, e.LastMod)
			return nil
		})
	sr.result, sr.cut = res, res.Cut
	if resp.Truncated && sr.cut == "" {
		// The fetcher kept max-body bytes: what was read is used and the
		// rest of the file is lost, as for a cut.
		sr.cut = fmt.Sprintf("max-body: file longer than %d bytes", len(resp.Body))
		err = nil
	}
	if err != nil && !(resp.Truncated && errors.Is(err, sitemap.ErrSyntax)) {
		sr.err = err
	}
	if len(res.Sitemaps) == 0 {
		return
	}
	depth := sr.file.Depth + 1
	if depth > lim.MaxDepth {
		sr.skipped = fmt.Sprintf("depth: %d child sitemaps beyond depth %d", len(res.Sitemaps), lim.MaxDepth)
		return
	}
	for _, e := range res.Sitemaps {
		u, err := urlnorm.Normalize(e.URL)
		if err != nil {
			m.rejects = append(m.rejects, "sitemap-bad-url")
			continue
		}
		cand, reason, ok := c.candidate(u, storage.LinkSitemap)
		if !ok {
			m.rejects = append(m.rejects, reason)
			continue
		}
		sr.children = append(sr.children, cand)
	}
}

// sitemapReason is the reason stored with a sitemap's page record: why it
// was cut, why it could not be read, or why its child sitemaps were not
// all followed. "" for a file read whole.
func (sr *sitemapRead) reason() string {
	switch {
	case sr.err != nil:
		return "sitemap-invalid: " + sr.err.Error()
	case sr.cut != "":
		return "sitemap-cut: " + sr.cut
	case sr.skipped != "":
		return "sitemap-skipped: " + sr.skipped
	}
	return ""
}

// boundName is the bound a cut or skip names: the text before the colon.
func boundName(s string) string {
	name, _, _ := strings.Cut(s, ":")
	return name
}

// sitemapSite returns the walk state of origin, creating it.
func (c *Crawler) sitemapSite(origin string) *sitemapSite {
	if c.sm.sites == nil {
		c.sm.sites = map[string]*sitemapSite{}
	}
	s := c.sm.sites[origin]
	if s == nil {
		s = &sitemapSite{seen: map[uint64]struct{}{}}
		c.sm.sites[origin] = s
	}
	return s
}

// planSitemaps queues the sitemaps of the site of page pageURL (its
// robots.txt Sitemap: lines, then /sitemap.xml), once per run (and
// cycle: see queueSitemaps): the first time a page of that site is
// fetched, so its robots.txt is known. They are
// queued in the frontier (frontier.Add) at the page's priority and fetched
// like pages, under the frontier's politeness; a sitemap on another host
// (robots.txt may name one) must be in the crawl's scope. Disposer only.
func (c *Crawler) planSitemaps(job frontier.Job, pageURL string) error {
	if !c.opts.Settings.Sitemaps || c.opts.Inject != nil {
		// In injection mode (compare) only the injected URLs are fetched.
		return nil
	}
	pu, err := url.Parse(pageURL)
	if err != nil || pu.Host == "" {
		return nil
	}
	origin := urlnorm.Origin(pu)
	site := c.sitemapSite(origin)
	if site.planned {
		return nil
	}
	site.planned = true
	var lines []string
	if c.opts.Sitemaps != nil {
		l, _, err := c.opts.Sitemaps.SitemapsOf(origin)
		if err != nil {
			c.opts.Logger.Warn("robots.txt sitemaps", "origin", origin, "err", err)
		}
		lines = l
	}
	lines = append(lines, origin+"/sitemap.xml")
	var cands []candidate
	seen := map[string]bool{}
	for _, l := range lines {
		u, err := urlnorm.Normalize(l)
		if err != nil || seen[u] {
			continue
		}
		seen[u] = true
		cand, reason, ok := c.candidate(u, storage.LinkSitemap)
		switch {
		case !ok:
			c.count("sitemap/reject/"+reason, 1)
			continue
		case !cand.inScope && cand.host != job.Host:
			c.count("sitemap/skip/out-of-scope", 1)
			continue
		}
		cands = append(cands, cand)
	}
	_, err = c.queueSitemaps(job, site, cands, storage.SitemapFile{Depth: 0, Origin: origin}, false)
	return err
}

// queueSitemaps interns sitemap URLs found by job (a page whose site's
// sitemaps are planned, or an index), marks them as sitemaps and queues
// them in the frontier, within the site's MaxSitemaps. It returns their
// ids (for the index's links) and notes a skip when the bound cut them.
//
// A URL the crawl already knows as a page is not read as a sitemap: one
// fetched as a page (a site that answers every path, or an HTML sitemap
// page), and, for the target of a sitemap's redirect, any URL seen before
// (sites often redirect unknown paths to their home page).
func (c *Crawler) queueSitemaps(job frontier.Job, site *sitemapSite, cands []candidate, file storage.SitemapFile, redirect bool) ([]uint64, error) {
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
	lim := c.opts.sitemapLimits()
	ids := make([]uint64, len(cands))
	var targets []frontier.Target
	over := 0
	for i, in := range ints {
		ids[i] = in.ID
		if _, dup := site.seen[in.ID]; dup {
			continue
		}
		if !in.New {
			c.sm.mu.RLock()
			_, marked := c.sm.files[in.ID]
			c.sm.mu.RUnlock()
			if !marked && redirect {
				c.count("sitemap/skip/known-page", 1)
				continue
			}
			p, err := c.opts.Store.Page(in.ID)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return nil, fmt.Errorf("crawler: sitemap %d: %w", in.ID, err)
			}
			switch {
			case err != nil || p.Fetches == 0:
			case !marked:
				c.count("sitemap/skip/known-page", 1)
				continue
			case p.Cycle == c.currentCycle():
				// Read in this cycle by an earlier run that was
				// interrupted: once per cycle is enough.
				continue
			}
		}
		if c.opts.Cluster != nil && !c.opts.Cluster.Owns(cands[i].host) {
			// Another node's host: only its owner may request it, and
			// sitemap files are not handed over (a cross-host Sitemap:
			// line of a robots.txt is not read in a cluster).
			c.count("sitemap/skip/other-node", 1)
			continue
		}
		if r, dropped := c.opts.Frontier.Dropped(cands[i].host); dropped {
			c.batch.SetStatus(in.ID, storage.StatusDeferred, r)
			continue
		}
		if site.files >= lim.MaxSitemaps {
			over++
			continue
		}
		site.files++
		site.seen[in.ID] = struct{}{}
		c.sm.mu.Lock()
		c.setSitemapLocked(in.ID, file)
		c.sm.mu.Unlock()
		c.batch.MarkSitemap(in.ID, file)
		targets = append(targets, frontier.Target{ID: in.ID, Host: cands[i].host, Depth: job.Depth})
	}
	if over > 0 {
		c.count("sitemap/skip/sitemaps", uint64(over))
	}
	adder, ok := c.opts.Frontier.(sitemapAdder)
	if !ok {
		return ids, fmt.Errorf("%w: the frontier cannot queue sitemaps (no Add method)", ErrOptions)
	}
	n := adder.Add(targets, job.Prio, &c.changes)
	c.count("sitemap/queued", uint64(n))
	return ids, nil
}

// sitemapAdder is the frontier method that queues sitemaps;
// *frontier.Frontier implements it.
type sitemapAdder interface {
	Add(targets []frontier.Target, prio float64, ch *frontier.Changes) int
}

// sitemapBound finishes a sitemap job on the disposer before its
// targets are interned: it applies the site's entry bound (MaxWalkURLs) to
// the listed URLs and stores the reason of a cut, skip or error.
func (c *Crawler) sitemapBound(m *fetched) {
	sr := m.sitemap
	site := c.sitemapSite(sr.file.Origin)
	// Read in this run: not queued again, even before its fetch is
	// committed (a sitemap restored from the stored frontier was queued
	// by an earlier run, so its site has not seen it).
	site.seen[m.job.ID] = struct{}{}
	left := c.opts.sitemapLimits().MaxWalkURLs - site.urls
	if len(m.links) > left {
		cut := len(m.links) - max(left, 0)
		m.links = m.links[:max(left, 0)]
		sr.lastmod = sr.lastmod[:len(m.links)]
		if sr.cut == "" {
			sr.cut = fmt.Sprintf("walk-urls: %d entries of the site delivered, the bound per run; %d dropped", site.urls+len(m.links), cut)
		}
	}
	site.urls += len(m.links)
	if m.rec.Status == storage.StatusFetched {
		if r := sr.reason(); r != "" {
			m.rec.Reason = r
		}
	}
}

// sitemapDone records what a sitemap job read, after its listed URLs were
// interned (links[i] is m.links[i]): their lastmod, the child sitemaps
// (queued, and stored as the job's links), and the counters.
func (c *Crawler) sitemapDone(m *fetched, links []storage.Link) ([]storage.Link, error) {
	sr := m.sitemap
	for i, t := range sr.lastmod {
		if !t.IsZero() && i < len(links) {
			c.batch.SetLastMod(links[i].To, t)
		}
	}
	if m.rec.Status == storage.StatusFetched {
		c.count("sitemap/files", 1)
		c.count("sitemap/urls", uint64(len(m.links)))
	}
	if sr.err != nil {
		c.count("sitemap/invalid", 1)
	}
	if sr.cut != "" {
		c.count("sitemap/cut/"+boundName(sr.cut), 1)
	}
	if sr.skipped != "" {
		c.count("sitemap/skip/"+boundName(sr.skipped), 1)
	}
	if len(sr.children) == 0 {
		return links, nil
	}
	site := c.sitemapSite(sr.file.Origin)
	child := sr.file
	if !sr.redirect {
		child.Depth++
	}
	ids, err := c.queueSitemaps(m.job, site, sr.children, child, sr.redirect)
	if err != nil {
		return links, err
	}
	for i, id := range ids {
		links = append(links, storage.Link{To: id, Kind: sr.children[i].kind})
	}
	return links, nil
}

// currentCycle is the cycle the crawl's fetches are stored in.
func (c *Crawler) currentCycle() uint32 {
	if c.rc != nil {
		return c.rc.Cycle.N
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
