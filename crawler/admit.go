package crawler

import (
	"github.com/seedcrawl/seedcrawl/scope"
)

// admit decides a link at depth, redirectHops into a redirect chain, to
// id, interned with isNew, as the crawl's own links (Crawler.targets) and
// links from outside (Loop.Offer) are decided (scope.Admission); a new URL
// refused is counted as skipped. Queueing, and recording the status of a
// URL not queued, are the caller's.
func (c *Crawler) admit(id uint64, cd *scope.Link, depth, redirectHops int, isNew bool) scope.Verdict {
	v := c.adm.Admit(id, cd, depth, redirectHops, isNew)
	if isNew && !v.OK {
		c.count("skip/"+statusReason(v.Status, v.Reason), 1)
	}
	return v
}

// queue notes a URL about to be queued: admission lets it pass (its
// redirect hops kept for the job), its host's budget counts it, the cycle
// hears of it.
func (c *Crawler) queue(id uint64, cd *scope.Link, redirectHops int) {
	c.adm.Pass(id, redirectHops)
	if c.cyc != nil {
		c.cyc.Queued(id)
	}
	c.opts.Frontier.Admit(cd.Host)
}
