package crawler

import (
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// admission is the disposer's state of the links it admits (rules
// decide).
type admission struct {
	soft map[uint64]struct{} // URLs not queued for a reason a later link may lift
	hops map[uint64]int      // redirect hops of queued redirect targets
}

// verdict is what admit decided for a link to an interned URL.
type verdict struct {
	status storage.Status // why the URL is not queued (ok false)
	reason string
	ok     bool // the rules admit the link
	// lift: the URL was seen before only where a later link may lift its
	// refusal (beyond MaxDepth), and this link lifts it.
	lift bool
}

// admit decides a link at depth, redirectHops into a redirect chain, to
// id, interned with isNew, as the crawl's own links (Crawler.targets) and
// links from outside (Loop.Offer) are decided: the rules answer, a new URL
// refused is counted as skipped and, when a later link may lift the
// refusal, kept in the soft set. Queueing, and recording the status of a
// URL not queued, are the caller's.
func (c *Crawler) admit(id uint64, cd *scope.Link, depth, redirectHops int, isNew bool) verdict {
	status, reason, soft, ok := c.rules.Admit(cd, depth, redirectHops)
	_, wasSoft := c.soft[id]
	if isNew && !ok {
		if soft {
			c.soft[id] = struct{}{}
		}
		c.count("skip/"+statusReason(status, reason), 1)
	}
	return verdict{status: status, reason: reason, ok: ok, lift: ok && wasSoft && !isNew}
}

// queue notes a URL about to be queued: it leaves the soft set, its host's
// budget counts it, the cycle hears of it, its redirect hops are kept for
// the worker that will take it.
func (c *Crawler) queue(id uint64, cd *scope.Link, redirectHops int) {
	delete(c.soft, id)
	if c.cyc != nil {
		c.cyc.Queued(id)
	}
	c.opts.Frontier.Admit(cd.Host)
	if redirectHops > 0 {
		c.hops[id] = redirectHops
	}
}
