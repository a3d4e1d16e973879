package crawler

import (
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// targets interns a page's links (and its redirect target) and decides
// which are queued (scope.Admission.Targets).
func (c *Crawler) targets(job frontier.Job, cands []scope.Link, redirect *scope.Link, hops int) (scope.Targets, error) {
	t, err := c.adm.Targets(scopeCrawl{c}, &scope.Page{ID: job.ID, Depth: job.Depth, Hops: hops, Links: cands, Redirect: redirect, StoreOnly: c.opts.FedOnly})
	if t.SeedRedirect {
		c.count("scope/seed-redirect", 1)
	}
	c.totals.Discovered.Add(uint64(t.Discovered))
	return t, err
}

// scopeCrawl is the crawl as admission sees it (scope.Crawl): a page's links
// are interned in the store, queued in the frontier, noted by the cycle.
type scopeCrawl struct{ c *Crawler }

func (l scopeCrawl) Intern(urls []string, from uint64, depth uint32) ([]storage.Interned, error) {
	return l.c.opts.Store.Intern(urls, from, depth)
}

func (l scopeCrawl) Remote(host string) bool { return l.c.remoteHost(host) }

func (l scopeCrawl) Requeue(id uint64) (bool, error) {
	if l.c.cyc == nil {
		return false, nil
	}
	return l.c.cyc.Requeue(id)
}

// Queue notes a URL queued: its host's budget counts it, the cycle hears
// of it.
func (l scopeCrawl) Queue(id uint64, cd *scope.Link) {
	if l.c.cyc != nil {
		l.c.cyc.Queued(id)
	}
	l.c.opts.Frontier.Admit(cd.Host)
}

func (l scopeCrawl) Refused(status storage.Status, reason string) {
	l.c.count("skip/"+frontier.SkipName(status, reason), 1)
}
