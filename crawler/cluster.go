package crawler

import (
	"context"
	"fmt"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
)

// Cluster is a Feed that shares the crawl's hosts with other nodes
// (package cluster's Crawl): the crawl queues only URLs of the hosts this
// node Owns, hands links to the others' URLs to Handoff, and takes URLs
// from them through the Feed. Give it as Options.Feed.
type Cluster interface {
	Feed
	// Owns reports whether this node crawls host (the politeness key,
	// urlnorm.Authority of the URL).
	Owns(host string) bool
	// Handoff is given, on the disposer after the frontier's Done, the
	// targets of page (its id on this node, fetched in cycle): those with
	// Remote set are links to other nodes' URLs, admitted at their Depth,
	// each with the priority share the scheduler gave it (Mass) and New
	// when this node had not admitted it before. targets follow the
	// page's links in order, then redirect's target (nil: none), which
	// give their URLs. Nothing given is kept after the call; a page
	// refetched after a crash repeats it.
	Handoff(cycle uint32, page uint64, targets []frontier.Target, links []scope.Link, redirect *scope.Link) error
	// Flush returns once every URL handed off is durable with its owner.
	// The crawl commits the pages that linked to them only after, so a
	// crash never loses a handed-off URL.
	Flush(ctx context.Context) error
}

// remoteHost reports whether another node of the cluster owns host.
func (c *Crawler) remoteHost(host string) bool {
	return c.cluster != nil && !c.cluster.Owns(host)
}

// handOff gives the cluster a page's targets once the frontier's Done set
// the shares of its Remote ones; targets follow the page's links cands in
// order, then its redirect target.
func (c *Crawler) handOff(job frontier.Job, targets []frontier.Target, cands []scope.Link, redirect *scope.Link) error {
	if c.cluster == nil {
		return nil
	}
	cycle := uint32(0)
	if c.cyc != nil {
		cycle = c.cyc.N()
	}
	if err := c.cluster.Handoff(cycle, job.ID, targets, cands, redirect); err != nil {
		return fmt.Errorf("crawler: hand off the links of page %d: %w", job.ID, err)
	}
	return nil
}

// idle reports that the crawl has started, nothing is queued or in flight
// and every result (with the URLs it handed off) is committed.
func (c *Crawler) idle() bool {
	if !c.seeded.Load() {
		return false
	}
	// The frontier is read first: a job completing after this read leaves
	// dirty set until its commit, which the second read sees.
	st := c.opts.Frontier.Stats()
	return st.Pending == 0 && st.InFlight == 0 && len(c.in) == 0 && c.mail.Empty() && !c.dirty.Load()
}
