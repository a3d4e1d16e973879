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
	// scheduler gave it, in a slice the crawl reuses after the call. from
	// names the page: the cycle and the page's id on this node, so a page
	// refetched after a crash repeats it.
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

// handOff hands the page's links to other nodes' URLs (its Remote
// targets, after the frontier's Done set their shares) to the cluster.
// targets follow the page's links cands in order, then its redirect
// target.
func (c *Crawler) handOff(job frontier.Job, targets []frontier.Target, cands []scope.Link, redirect *scope.Link) error {
	rs := c.remotes[:0] // reused page after page: Handoff does not keep it
	for i, t := range targets {
		if !t.Remote {
			continue
		}
		cd := redirect
		if i < len(cands) {
			cd = &cands[i]
		}
		rs = append(rs, Remote{ID: t.ID, URL: cd.URL, Host: t.Host, Depth: t.Depth, Mass: t.Mass, New: t.New})
	}
	c.remotes = rs
	if len(rs) == 0 {
		return nil
	}
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
