package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/seedcrawl/seedcrawl/recrawl"
)

// Lease is a won election: the node holds the lock for a cycle until the
// bucket's TTL passes without a Renew.
type Lease struct {
	kv    jetstream.KeyValue
	key   string
	rev   uint64
	value []byte
}

// lockTTL is how long a lock outlives its holder's last renewal: a leader
// that dies frees the lock after it.
const lockTTL = 30 * time.Second

func lockKey(cycle uint32) string { return "reseed-" + strconv.FormatUint(uint64(cycle), 10) }

func (n *Node) locks(ctx context.Context) (jetstream.KeyValue, error) {
	kv, err := n.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: n.opts.Name + "_locks", TTL: lockTTL})
	if err != nil {
		return nil, fmt.Errorf("cluster: create bucket %s_locks: %w", n.opts.Name, err)
	}
	return kv, nil
}

// Elect tries to become the node that runs seed selection for cycle: the
// first node to create the cycle's key wins. It returns ErrNotLeader (and
// the leader's id) when another node holds it.
func (n *Node) Elect(ctx context.Context, cycle uint32) (*Lease, int, error) {
	kv, err := n.locks(ctx)
	if err != nil {
		return nil, -1, err
	}
	key := lockKey(cycle)
	val := []byte(strconv.Itoa(n.opts.NodeID))
	rev, err := kv.Create(ctx, key, val)
	if err == nil {
		return &Lease{kv: kv, key: key, rev: rev, value: val}, n.opts.NodeID, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, -1, fmt.Errorf("cluster: elect for cycle %d: %w", cycle, err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		// The holder's key expired between Create and Get: try again later.
		return nil, -1, fmt.Errorf("%w: cycle %d (holder unknown: %v)", ErrNotLeader, cycle, err)
	}
	leader, _ := strconv.Atoi(string(e.Value()))
	return nil, leader, fmt.Errorf("%w: node %d holds cycle %d", ErrNotLeader, leader, cycle)
}

// Renew extends the lease by the lock TTL; it fails when the lease was
// lost (expired and taken by another node).
func (l *Lease) Renew(ctx context.Context) error {
	rev, err := l.kv.Update(ctx, l.key, l.value, l.rev)
	if err != nil {
		return fmt.Errorf("cluster: renew %s: %w", l.key, err)
	}
	l.rev = rev
	return nil
}

// Release frees the lock for the next election of the same cycle (a
// cycle that must be reseeded again).
func (l *Lease) Release(ctx context.Context) error {
	if err := l.kv.Delete(ctx, l.key, jetstream.LastRevision(l.rev)); err != nil {
		return fmt.Errorf("cluster: release %s: %w", l.key, err)
	}
	return nil
}

func (n *Node) seedBucket(ctx context.Context) (jetstream.KeyValue, error) {
	kv, err := n.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: n.opts.Name + "_seeds", MaxValueSize: 8 << 20})
	if err != nil {
		return nil, fmt.Errorf("cluster: create bucket %s_seeds: %w", n.opts.Name, err)
	}
	return kv, nil
}

// PublishSeeds stores the seeds the leader selected for cycle; every node
// reads them with Seeds and queues those of its own hosts. Only the holder
// of the cycle's lease may publish, and only once: the lease is renewed
// first, so a leader that lost it cannot publish, and the seeds of a cycle
// are never replaced (a node elected after the first leader's lock
// expired finds them published: ErrPublished).
func (n *Node) PublishSeeds(ctx context.Context, l *Lease, cycle uint32, seeds []recrawl.Pick) error {
	if l == nil {
		return fmt.Errorf("%w: PublishSeeds without a lease", ErrOptions)
	}
	if err := l.Renew(ctx); err != nil {
		return err
	}
	kv, err := n.seedBucket(ctx)
	if err != nil {
		return err
	}
	b, err := json.Marshal(publishedSeeds{Node: n.opts.NodeID, Seeds: seeds})
	if err != nil {
		return fmt.Errorf("cluster: encode %d seeds: %w", len(seeds), err)
	}
	if _, err := kv.Create(ctx, seedKey(cycle), b); errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("%w: cycle %d", ErrPublished, cycle)
	} else if err != nil {
		return fmt.Errorf("cluster: publish %d seeds of cycle %d: %w", len(seeds), cycle, err)
	}
	return nil
}

func seedKey(cycle uint32) string { return "cycle-" + strconv.FormatUint(uint64(cycle), 10) }

// publishedSeeds is the value stored for a cycle's seeds: the seeds and
// the node that published them (the lock names the leader only while it
// is held, and a later holder may not be the publisher).
type publishedSeeds struct {
	Node  int            `json:"node"`
	Seeds []recrawl.Pick `json:"seeds"`
}

// Seeds returns the seeds published for cycle, or ErrNoSeeds.
func (n *Node) Seeds(ctx context.Context, cycle uint32) ([]recrawl.Pick, error) {
	p, err := n.readSeeds(ctx, cycle)
	return p.Seeds, err
}

// readSeeds reads what was published for cycle, or ErrNoSeeds.
func (n *Node) readSeeds(ctx context.Context, cycle uint32) (publishedSeeds, error) {
	var p publishedSeeds
	kv, err := n.seedBucket(ctx)
	if err != nil {
		return p, err
	}
	e, err := kv.Get(ctx, seedKey(cycle))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return p, fmt.Errorf("%w: cycle %d", ErrNoSeeds, cycle)
	}
	if err != nil {
		return p, fmt.Errorf("cluster: read seeds of cycle %d: %w", cycle, err)
	}
	if err := json.Unmarshal(e.Value(), &p); err != nil {
		return p, fmt.Errorf("cluster: seeds of cycle %d: %w", cycle, err)
	}
	return p, nil
}

// AgreeSeeds returns the seeds of cycle the whole cluster crawls, and the
// node that selected them. The first node to ask wins the cycle's
// election (Elect) and publishes mine; the others wait for its seeds,
// polling every Poll. If the leader dies before publishing, its lock
// expires (lockTTL) and a waiting node is elected in its place.
func (n *Node) AgreeSeeds(ctx context.Context, cycle uint32, mine []recrawl.Pick) ([]recrawl.Pick, int, error) {
	tick := time.NewTicker(n.opts.Poll)
	defer tick.Stop()
	for {
		p, err := n.readSeeds(ctx, cycle)
		if err == nil {
			return p.Seeds, p.Node, nil
		}
		if !errors.Is(err, ErrNoSeeds) {
			return nil, -1, err
		}
		l, _, err := n.Elect(ctx, cycle)
		switch {
		case err == nil:
			err = n.PublishSeeds(ctx, l, cycle, mine)
			if err == nil {
				return mine, n.opts.NodeID, nil
			}
			if !errors.Is(err, ErrPublished) {
				return nil, -1, err
			}
			continue // another leader's seeds came first: read them
		case !errors.Is(err, ErrNotLeader):
			return nil, -1, err
		}
		select {
		case <-ctx.Done():
			return nil, -1, fmt.Errorf("cluster: wait for the seeds of cycle %d: %w", cycle, ctx.Err())
		case <-tick.C:
		}
	}
}
