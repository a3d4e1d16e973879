package crawler

import (
	"context"
	"fmt"

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
	// Handoff passes url (normalized, new to this node's db, in scope) to
	// the node that owns host, with its link depth and the priority share
	// (mass) the discovering page gives it.
	Handoff(url, host string, depth int, mass float64) error
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
}

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

// dispose is the disposer's half of Receive: intern, queue the new URLs
// that pass admission, commit.
func (m *received) dispose(c *Crawler) error {
	if len(m.arrivals) > 0 {
		byDepth := map[int][]Arrival{}
		for _, a := range m.arrivals {
			byDepth[a.Depth] = append(byDepth[a.Depth], a)
		}
		var targets []frontier.Target
		for depth, as := range byDepth {
			urls := make([]string, len(as))
			for i := range as {
				urls[i] = as[i].URL
			}
			ints, err := c.opts.Store.Intern(urls, storage.NoPage, uint32(max(depth, 0)))
			if err != nil {
				return fmt.Errorf("crawler: intern %d URLs from other nodes: %w", len(urls), err)
			}
			for i, in := range ints {
				cd := candidate{url: urls[i], host: urlnorm.Authority(urls[i]), inScope: true}
				status, reason, soft, ok := c.admit(&cd, depth, 0)
				_, wasSoft := c.soft[in.ID]
				switch {
				case !in.New && wasSoft && ok:
					// Known here only beyond MaxDepth (found on this node's
					// own pages), now reached at an allowed depth through
					// another node: queue it now, as targets does.
					delete(c.soft, in.ID)
					c.batch.SetStatus(in.ID, storage.StatusQueued, "")
				case !in.New:
					c.count("cluster/known", 1)
					continue
				case !ok:
					c.batch.SetStatus(in.ID, status, reason)
					if soft {
						c.soft[in.ID] = struct{}{}
					}
					c.count("skip/"+statusReason(status, reason), 1)
					continue
				}
				c.queue(in.ID, &cd, 0)
				c.discovered.Add(1)
				targets = append(targets, frontier.Target{ID: in.ID, Host: cd.host, Depth: depth, New: true})
			}
		}
		if err := c.opts.Frontier.Seed(targets, &c.changes); err != nil {
			return fmt.Errorf("crawler: queue %d URLs from other nodes: %w", len(targets), err)
		}
		c.count("cluster/received", uint64(len(m.arrivals)))
	}
	return c.commit()
}

// route hands a new, admitted URL of another node's host to it; it
// reports whether it did (the URL is then not queued here).
func (c *Crawler) route(cd *candidate, depth int, mass float64) (bool, error) {
	if c.opts.Cluster == nil || c.opts.Cluster.Owns(cd.host) {
		return false, nil
	}
	if err := c.opts.Cluster.Handoff(cd.url, cd.host, depth, mass); err != nil {
		return true, fmt.Errorf("crawler: hand off %s: %w", cd.url, err)
	}
	c.count("cluster/handoff", 1)
	return true, nil
}
