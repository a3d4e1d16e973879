package crawler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Cluster connects a crawl to the other nodes of a cluster that share the
// hosts between them (package cluster's Node implements it). With a
// Cluster, the crawl queues only URLs of the hosts this node owns, hands
// the others to their owners, takes URLs from them through Receive, and
// does not stop when its frontier runs dry: it stops when Done closes.
type Cluster interface {
	// Owns reports whether this node crawls host (the politeness key,
	// urlnorm.Authority of the URL).
	Owns(host string) bool
	// Handoff passes url (normalized, in scope, admitted at depth) to the
	// node that owns host, with its link depth and the priority share
	// (mass) the scheduler gave it as an out-link of the discovering page.
	// from names the contribution: the discovering page's id on this node
	// and the cycle, so a page refetched after a crash repeats it.
	Handoff(url, host string, depth int, mass float64, from string) error
	// Flush returns once every URL handed off is durable with its owner.
	// The crawl commits the pages that linked to them only after, so a
	// crash never loses a handed-off URL.
	Flush(ctx context.Context) error
	// Done is closed when the whole cluster has nothing left to crawl.
	Done() <-chan struct{}
}

// Arrival is a URL handed to this node by the node that discovered it.
type Arrival struct {
	URL   string // normalized
	Depth int    // link depth at the discoverer
	Mass  float64
	// Known: the host's previous owner settled the URL (fetched it,
	// rejected it) before the host moved here; it is recorded as seen,
	// with reason ReasonKnownElsewhere, and never queued.
	Known bool
}

// ReasonKnownElsewhere is the reason stored with a URL received as Known
// (the value of cluster.ReasonKnownElsewhere, which moves such URLs on).
const ReasonKnownElsewhere = "known-elsewhere"

// ReasonMoved is the reason a node stores with a queued URL whose host
// moved to another node (cluster.ReasonMoved): known here, settled
// nowhere, so an arrival queues it again when the host comes back.
const ReasonMoved = "moved"

// Receive queues URLs handed over by other nodes (Options.Cluster) and
// returns once they are committed to the db: interned and in the stored
// frontier, or recorded as not queued. URLs the db already knows are
// dropped: the db is the node's seen-set. It fails with ErrStopped once the
// crawl has stopped.
func (c *Crawler) Receive(ctx context.Context, urls []Arrival) error {
	done := make(chan error, 1)
	c.injectMu.RLock()
	if c.inClosed {
		c.injectMu.RUnlock()
		return ErrStopped
	}
	select {
	case c.in <- &received{arrivals: urls, done: done}:
	case <-ctx.Done():
		c.injectMu.RUnlock()
		return ctx.Err()
	}
	c.injectMu.RUnlock()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Idle reports that the crawl has started, nothing is queued or in
// flight and every result (with the URLs it handed off) is committed.
func (c *Crawler) Idle() bool {
	if !c.seeded.Load() {
		return false
	}
	// The frontier is read first: a job completing after this read leaves
	// dirty set until its commit, which the second read sees.
	st := c.opts.Frontier.Stats()
	return st.Pending == 0 && st.InFlight == 0 && len(c.in) == 0 && !c.dirty.Load()
}

// received: URLs from other nodes of a cluster; the disposer queues and
// commits them, then answers on done.
type received struct {
	arrivals []Arrival
	done     chan<- error
}

// dispose is the disposer's half of Receive: intern, then apply each
// arrival as a local link to it would be applied (frontier.Credit): a new
// URL that passes admission is queued at the mass it carries, a pending
// one gets the mass added and keeps the lesser depth, one known here only
// beyond MaxDepth is queued now; commit.
func (m *received) dispose(c *Crawler) error {
	if len(m.arrivals) > 0 {
		byDepth := map[int][]Arrival{}
		for _, a := range m.arrivals {
			byDepth[a.Depth] = append(byDepth[a.Depth], a)
		}
		// Least depth first: a URL that arrives twice in the batch is
		// interned (its stored depth) with the lesser.
		depths := slices.Sorted(maps.Keys(byDepth))
		targets := make([]frontier.Target, 0, len(m.arrivals))
		for _, depth := range depths {
			as := byDepth[depth]
			urls := make([]string, len(as))
			for i := range as {
				urls[i] = as[i].URL
			}
			ints, err := c.opts.Store.Intern(urls, storage.NoPage, uint32(max(depth, 0)))
			if err != nil {
				return fmt.Errorf("crawler: intern %d URLs from other nodes: %w", len(urls), err)
			}
			for i, in := range ints {
				moved := false
				if !in.New {
					if moved, err = c.unsettled(in.ID); err != nil {
						return err
					}
				}
				if as[i].Known {
					if in.New || moved {
						c.batch.SetStatus(in.ID, storage.StatusDiscovered, ReasonKnownElsewhere)
					}
					c.count("cluster/known-elsewhere", 1)
					continue
				}
				cd := candidate{url: urls[i], host: urlnorm.Authority(urls[i]), inScope: true}
				t := frontier.Target{ID: in.ID, Host: cd.host, Depth: depth, Mass: as[i].Mass}
				status, reason, soft, ok := c.admit(&cd, depth, 0)
				_, wasSoft := c.soft[in.ID]
				switch {
				case moved && ok:
					// Known here from before this node owned its host (or
					// before the host moved away and back): queued now.
					c.batch.SetStatus(in.ID, storage.StatusQueued, "")
				case !in.New && wasSoft && ok:
					// Known here only beyond MaxDepth (found on this node's
					// own pages), now reached at an allowed depth through
					// another node: queue it now, as targets does.
					delete(c.soft, in.ID)
					c.batch.SetStatus(in.ID, storage.StatusQueued, "")
				case !in.New:
					// Pending here: its mass and depth apply; downloaded or
					// in flight: dropped, as a local link's share is.
					c.count("cluster/known", 1)
					targets = append(targets, t)
					continue
				case !ok:
					c.batch.SetStatus(in.ID, status, reason)
					if soft {
						c.soft[in.ID] = struct{}{}
					}
					c.count("skip/"+statusReason(status, reason), 1)
					continue
				}
				t.New = true
				c.queue(in.ID, &cd, 0)
				c.discovered.Add(1)
				targets = append(targets, t)
			}
		}
		c.opts.Frontier.Credit(targets, &c.changes)
		c.count("cluster/received", uint64(len(m.arrivals)))
	}
	return c.commit()
}

// unsettled reports whether id, a URL of a host this node owns that its
// db knows, was never queued nor settled here: stored discovered, because
// this node found it while another node owned its host (it handed it off),
// or queued it and then handed the host over (ReasonMoved). After the
// cluster's membership changed, such a URL arriving from another node is
// queued as a new one would be. A URL received as settled elsewhere
// (ReasonKnownElsewhere) is not unsettled.
func (c *Crawler) unsettled(id uint64) (bool, error) {
	p, err := c.opts.Store.Page(id)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil // interned since the last commit: queued or settled in this batch
	}
	if err != nil {
		return false, fmt.Errorf("crawler: look up page %d from another node: %w", id, err)
	}
	return p.Status == storage.StatusDiscovered && p.Reason != ReasonKnownElsewhere, nil
}

// remoteState is the disposer's record of the URLs it hands to other
// nodes of a cluster.
type remoteState struct {
	// routed are the Remote targets of the page being disposed, for
	// handOff once the frontier has computed their shares.
	routed []routed
	// sent is the least depth this run handed off per URL id, so a link
	// that brings neither mass nor a shorter path is not sent again.
	sent map[uint64]int
}

// routed is one link to another node's URL, at index i of the targets.
type routed struct {
	i     int
	id    uint64
	url   string
	host  string
	depth int
	isNew bool // new to this node (or admitted here for the first time): the owner must hear of it
}

// remoteHost reports whether another node of the cluster owns host.
func (c *Crawler) remoteHost(host string) bool {
	return c.opts.Cluster != nil && !c.opts.Cluster.Owns(host)
}

// route notes a link to another node's URL at index i of the page's
// targets; handOff sends it after the frontier's Done.
func (c *Crawler) route(id uint64, cd *candidate, depth int, isNew bool, i int) {
	c.remote.routed = append(c.remote.routed, routed{i: i, id: id, url: cd.url, host: cd.host, depth: depth, isNew: isNew})
}

// handOff hands the page's links to other nodes' URLs to their owners,
// each with the share the scheduler gave it (targets[i].Mass). A URL the
// owner knows already is sent again only if the link carries mass (FPR
// adds every in-link's share) or a shorter path than this run sent.
func (c *Crawler) handOff(job frontier.Job, targets []frontier.Target) error {
	rs := c.remote.routed
	c.remote.routed = rs[:0]
	if len(rs) == 0 {
		return nil
	}
	if c.remote.sent == nil {
		c.remote.sent = map[uint64]int{}
	}
	cycle := uint32(0)
	if c.cyc != nil {
		cycle = c.cyc.N()
	}
	from := strconv.FormatUint(uint64(cycle), 10) + "." + strconv.FormatUint(job.ID, 10)
	for _, r := range rs {
		mass := targets[r.i].Mass
		d, sent := c.remote.sent[r.id]
		if !r.isNew && mass == 0 && sent && d <= r.depth {
			continue
		}
		if !sent || r.depth < d {
			c.remote.sent[r.id] = r.depth
		}
		if err := c.opts.Cluster.Handoff(r.url, r.host, r.depth, mass, from); err != nil {
			return fmt.Errorf("crawler: hand off %s: %w", r.url, err)
		}
		c.count("cluster/handoff", 1)
	}
	return nil
}
