package crawler

import (
	"context"
	"fmt"
	"strconv"

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
	// Handoff is given, on the disposer after the frontier's Done, a
	// page's links to other nodes' URLs, each with the priority share the
	// scheduler gave it. from names the page: the cycle and the page's id
	// on this node, so a page refetched after a crash repeats it.
	Handoff(from string, links []Remote) error
	// Flush returns once every URL handed off is durable with its owner.
	// The crawl commits the pages that linked to them only after, so a
	// crash never loses a handed-off URL.
	Flush(ctx context.Context) error
}

// Remote is a link to a URL of a host another node owns.
type Remote struct {
	ID    uint64
	URL   string // normalized, in scope, admitted at Depth
	Host  string
	Depth int
	Mass  float64 // the share the scheduler gave the link
	// New: new to this node (or admitted here for the first time), so the
	// owner must hear of it.
	New bool
}

// remoteHost reports whether another node of the cluster owns host.
func (c *Crawler) remoteHost(host string) bool {
	return c.cluster != nil && !c.cluster.Owns(host)
}

// route notes a link to another node's URL at index i of the page's
// targets; handOff sends it after the frontier's Done.
func (c *Crawler) route(id uint64, cd *scope.Link, depth int, isNew bool, i int) {
	c.routed = append(c.routed, Remote{ID: id, URL: cd.URL, Host: cd.Host, Depth: depth, New: isNew})
	c.routedAt = append(c.routedAt, i)
}

// handOff hands the page's links to other nodes' URLs to the cluster, each
// with the share the scheduler gave it (targets[i].Mass).
func (c *Crawler) handOff(job frontier.Job, targets []frontier.Target) error {
	rs := c.routed
	c.routed = rs[:0]
	if len(rs) == 0 {
		return nil
	}
	for k, i := range c.routedAt {
		rs[k].Mass = targets[i].Mass
	}
	c.routedAt = c.routedAt[:0]
	cycle := uint32(0)
	if c.cyc != nil {
		cycle = c.cyc.N()
	}
	from := strconv.FormatUint(uint64(cycle), 10) + "." + strconv.FormatUint(job.ID, 10)
	if err := c.cluster.Handoff(from, rs); err != nil {
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
