package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Share is what a Crawl needs of its node; *Node implements it.
type Share interface {
	Owns(host string) bool
	Handoff(url, host string, depth int, mass float64, from string) error
	Flush(ctx context.Context) error
	Done() <-chan struct{}
}

// Crawl joins one crawl to its node: it is the crawl's crawler.Cluster
// (links to hosts other nodes own leave through it, URLs from them
// arrive through it) and the node's Local. A Crawl serves one crawl.
type Crawl struct {
	node     Share
	mu       sync.Mutex
	l        *crawler.Loop
	attached chan struct{} // closed by Attach
	// sent is the least depth this crawl handed off per URL id, so a link
	// that brings neither mass nor a shorter path is not sent again
	// (disposer only).
	sent map[uint64]int
}

// NewCrawl returns the Crawl of node's next crawl.
func NewCrawl(node Share) *Crawl {
	return &Crawl{node: node, attached: make(chan struct{}), sent: map[uint64]int{}}
}

// Attach implements crawler.Feed.
func (cr *Crawl) Attach(l crawler.Loop) error {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.l != nil {
		return fmt.Errorf("%w: a cluster.Crawl serves one crawl", crawler.ErrOptions)
	}
	cr.l = &l
	close(cr.attached)
	return nil
}

// Recorded implements crawler.Feed; outcomes stay on this node.
func (cr *Crawl) Recorded(*crawler.Recorded) error { return nil }

// Done implements crawler.Feed: closed when the whole cluster is done.
func (cr *Crawl) Done() <-chan struct{} { return cr.node.Done() }

// Owns implements crawler.Cluster.
func (cr *Crawl) Owns(host string) bool { return cr.node.Owns(host) }

// Flush implements crawler.Cluster.
func (cr *Crawl) Flush(ctx context.Context) error { return cr.node.Flush(ctx) }

// Handoff implements crawler.Cluster: each link to another node's URL
// (a Remote target) goes to its owner with its share. A URL the owner
// knows already is sent again only if the link carries mass (FPR adds
// every in-link's share) or a shorter path than this crawl sent. from,
// the message's origin, names the page by cycle and id.
func (cr *Crawl) Handoff(cycle uint32, page uint64, targets []frontier.Target, links []scope.Link, redirect *scope.Link) error {
	from := ""
	for i := range targets {
		t := &targets[i]
		if !t.Remote {
			continue
		}
		d, sent := cr.sent[t.ID]
		if !t.New && t.Mass == 0 && sent && d <= t.Depth {
			continue
		}
		if !sent || t.Depth < d {
			cr.sent[t.ID] = t.Depth
		}
		u := redirect
		if i < len(links) {
			u = &links[i]
		}
		if from == "" {
			from = strconv.FormatUint(uint64(cycle), 10) + "." + strconv.FormatUint(page, 10)
		}
		if err := cr.node.Handoff(u.URL, t.Host, t.Depth, t.Mass, from); err != nil {
			return err
		}
		cr.l.Count("cluster/handoff", 1)
	}
	return nil
}

// Idle implements Local.
func (cr *Crawl) Idle() bool {
	cr.mu.Lock()
	l := cr.l
	cr.mu.Unlock()
	return l != nil && l.Idle()
}

// Inject implements Local: it queues URLs handed over by other nodes and
// returns once they are committed to the db: interned and in the stored
// frontier, or recorded as not queued. URLs the db already knows are
// dropped: the db is the node's seen-set. It fails with crawler.ErrStopped
// once the crawl has stopped.
func (cr *Crawl) Inject(ctx context.Context, urls []URL) error {
	select {
	case <-cr.attached:
	case <-ctx.Done():
		return ctx.Err()
	}
	l := *cr.l
	done := make(chan error, 1)
	err := l.Post(func() error {
		err := receive(l, urls)
		if err == nil {
			err = l.Commit()
		}
		done <- err
		return err
	})
	if err != nil {
		return err
	}
	select {
	case err := <-done:
		return err
	case <-l.Stopped():
		select {
		case err := <-done:
			return err
		default:
		}
		if err := l.Err(); err != nil {
			return err
		}
		return crawler.ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
}

// receive applies URLs from other nodes on the disposer: intern, then
// apply each as a local link to it would be applied (frontier.Credit): a
// new URL that passes admission is queued at the mass it carries, a
// pending one gets the mass added and keeps the lesser depth, one known
// here only beyond MaxDepth is queued now.
func receive(l crawler.Loop, urls []URL) error {
	if len(urls) == 0 {
		return nil
	}
	byDepth := map[int][]URL{}
	for _, u := range urls {
		byDepth[u.Depth] = append(byDepth[u.Depth], u)
	}
	// Least depth first: a URL that arrives twice in the batch is
	// interned (its stored depth) with the lesser.
	targets := make([]frontier.Target, 0, len(urls))
	for _, depth := range slices.Sorted(maps.Keys(byDepth)) {
		us := byDepth[depth]
		names := make([]string, len(us))
		for i := range us {
			names[i] = us[i].URL
		}
		ints, err := l.Store().Intern(names, storage.NoPage, uint32(max(depth, 0)))
		if err != nil {
			return fmt.Errorf("cluster: intern %d URLs from other nodes: %w", len(names), err)
		}
		for i, in := range ints {
			moved := false
			if !in.New {
				if moved, err = unsettled(l.Store(), in.ID); err != nil {
					return err
				}
			}
			if us[i].Known {
				if in.New || moved {
					l.Batch().SetStatus(in.ID, storage.StatusDiscovered, ReasonKnownElsewhere)
				}
				l.Count("cluster/known-elsewhere", 1)
				continue
			}
			t := frontier.Target{ID: in.ID, Host: urlnorm.Authority(names[i]), Depth: depth, Mass: us[i].Mass}
			// A moved URL, known here from before this node owned its
			// host, is queued as a new one would be.
			switch queued := l.Offer(in.ID, names[i], depth, in.New, moved); {
			case queued:
				t.New = true
			case in.New:
				continue // refused, and recorded so
			default:
				// Pending here: its mass and depth apply; downloaded or
				// in flight: dropped, as a local link's share is.
				l.Count("cluster/known", 1)
			}
			targets = append(targets, t)
		}
	}
	l.Credit(targets)
	l.Count("cluster/received", uint64(len(urls)))
	return nil
}

// unsettled reports whether id, a URL of a host this node owns that its
// db knows, was never queued nor settled here: stored discovered, because
// this node found it while another node owned its host (it handed it off),
// or queued it and then handed the host over (ReasonMoved). After the
// cluster's membership changed, such a URL arriving from another node is
// queued as a new one would be. A URL received as settled elsewhere
// (ReasonKnownElsewhere) is not unsettled.
func unsettled(st crawler.Store, id uint64) (bool, error) {
	p, err := st.Page(id)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil // interned since the last commit: queued or settled in this batch
	}
	if err != nil {
		return false, fmt.Errorf("cluster: look up page %d from another node: %w", id, err)
	}
	return p.Status == storage.StatusDiscovered && p.Reason != ReasonKnownElsewhere, nil
}
