package cluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// StateNodes is the name of the db state (storage.DB.State) that records
// the number of nodes K for which the node db's hosts were last settled.
const StateNodes = "cluster/nodes"

// ReasonKnownElsewhere is the reason a node stores with a URL it received
// as Known (settled by its host's previous owner): Rebalance moves such
// URLs on as Known too.
const ReasonKnownElsewhere = "known-elsewhere"

// ReasonMoved is the reason a node stores with a queued URL whose host it
// handed to a new owner: the URL is no longer queued here, and if the
// host comes back (the cluster shrinks again) an arrival queues it anew.
const ReasonMoved = "moved"

// Moved counts what Rebalance handed to other nodes.
type Moved struct {
	FromNodes, ToNodes int    // K before and after
	Hosts              int    // hosts this node no longer owns
	Queued             uint64 // pending URLs moved, with their priority and depth
	Known              uint64 // settled URLs moved as Known
}

// Rebalance settles the node db for the cluster's current number of nodes
// K. Rendezvous hashing moves only the hosts whose highest weight changes
// (on a join, about 1/K of every node's hosts, all to the new node; on a
// leave, only the leaving node's). For every host this node owned under
// the K recorded in the db (StateNodes) and no longer owns, it hands the
// pending URLs to their new owner (with their priority as mass and their
// depth: queued there) and the settled ones as Known (recorded there, so
// never fetched twice), waits until the stream stores them all, and only
// then removes them from its frontier and records the new K, in one
// transaction. A crash in between repeats the handover (dropped as
// repeats by the stream within its duplicate window). Call it before the
// crawl restores its frontier; a db without StateNodes is only stamped.
func (n *Node) Rebalance(ctx context.Context, db *storage.DB) (Moved, error) {
	mv := Moved{FromNodes: n.opts.Nodes, ToNodes: n.opts.Nodes}
	v, err := db.State(StateNodes)
	if err != nil {
		return mv, fmt.Errorf("cluster: rebalance: %w", err)
	}
	stamp := func() error {
		var b storage.Batch
		b.SetState(StateNodes, []byte(strconv.Itoa(n.opts.Nodes)))
		if err := db.Commit(&b); err != nil {
			return fmt.Errorf("cluster: rebalance: record %d nodes: %w", n.opts.Nodes, err)
		}
		return nil
	}
	if v == nil {
		if err := stamp(); err != nil {
			return mv, err
		}
		return mv, n.settledUnlessLeaving(ctx)
	}
	old, err := strconv.Atoi(string(v))
	if err != nil || old < 1 {
		return mv, fmt.Errorf("cluster: rebalance: stored node count %q: %w", v, ErrOptions)
	}
	mv.FromNodes = old
	if old == n.opts.Nodes {
		return mv, n.settledUnlessLeaving(ctx)
	}
	before := NewRingN(old)
	movedHost := map[string]bool{}
	moved := func(host string) bool {
		m, ok := movedHost[host]
		if !ok {
			m = before.Owner(host) == n.opts.NodeID && !n.Owns(host)
			movedHost[host] = m
			if m {
				mv.Hosts++
			}
		}
		return m
	}
	pending := map[uint64]storage.Entry{}
	if err := db.LoadFrontier(func(e storage.Entry) error {
		if moved(e.Host) {
			pending[e.ID] = e
		}
		return nil
	}); err != nil {
		return mv, fmt.Errorf("cluster: rebalance: read frontier: %w", err)
	}
	var known []URL
	if err := db.EachPage(func(p *storage.Page) error {
		if _, ok := pending[p.ID]; ok || !moved(urlnorm.Authority(p.URL)) {
			return nil
		}
		// A URL only interned here and never settled is left for the new
		// owner to discover; anything decided here travels as Known.
		if p.Status == storage.StatusDiscovered && p.Fetches == 0 && p.Reason != ReasonKnownElsewhere {
			return nil
		}
		known = append(known, URL{URL: p.URL, Depth: int(p.Depth), Known: true})
		return nil
	}); err != nil {
		return mv, fmt.Errorf("cluster: rebalance: read pages: %w", err)
	}
	from := fmt.Sprintf("move/%d>%d", old, n.opts.Nodes)
	var b storage.Batch
	for id, e := range pending {
		if err := n.Handoff(e.URL, e.Host, int(e.Depth), e.Prio, from); err != nil {
			return mv, err
		}
		b.SetStatus(id, storage.StatusDiscovered, ReasonMoved)
		b.DeleteFrontier(id)
		mv.Queued++
	}
	for _, u := range known {
		if err := n.publish(u, urlnorm.Authority(u.URL), from); err != nil {
			return mv, err
		}
		mv.Known++
	}
	if err := n.Flush(ctx); err != nil {
		return mv, err
	}
	b.SetState(StateNodes, []byte(strconv.Itoa(n.opts.Nodes)))
	if err := db.Commit(&b); err != nil {
		return mv, fmt.Errorf("cluster: rebalance: commit the move of %d URLs: %w", mv.Queued+mv.Known, err)
	}
	return mv, n.settledUnlessLeaving(ctx)
}

func settledKey(node int) string { return "settled-" + strconv.Itoa(node) }

// settledUnlessLeaving records the node settled at the end of Rebalance,
// except for a Leaving node: the messages stored for it must first reach
// their new owners, so Drain records it once the node's subject is empty.
// The other nodes wait for it (WaitSettled) and so never start crawling a
// host while URLs for it still sit on the leaving node's subject.
func (n *Node) settledUnlessLeaving(ctx context.Context) error {
	if n.opts.Leaving {
		return nil
	}
	return n.settled(ctx)
}

// settled records in the nodes bucket that this node's db is settled for
// the current K.
func (n *Node) settled(ctx context.Context) error {
	if _, err := n.nodes.Put(ctx, settledKey(n.opts.NodeID), []byte(strconv.Itoa(n.opts.Nodes))); err != nil {
		return fmt.Errorf("cluster: node %d: record settled for %d nodes: %w", n.opts.NodeID, n.opts.Nodes, err)
	}
	return nil
}

// WaitSettled waits until the nodes 0..upto-1 have all Rebalanced for the
// current K: a node must not crawl a host it just took over before the
// previous owner has handed over what it settled there, or it could fetch
// a URL again. Pass upto = max(K, Moved.FromNodes), so a shrinking
// cluster also waits for the removed nodes (their Drain as Leaving); any
// node numbered upto or above with a settled record (a former member) must
// have settled for this K too, which holds a node restarted after its own
// Rebalance (upto = K) until the removed nodes have drained.
func (n *Node) WaitSettled(ctx context.Context, upto int) error {
	want := strconv.Itoa(n.opts.Nodes)
	tick := time.NewTicker(n.opts.Poll)
	defer tick.Stop()
	// Nodes upto, upto+1, ... that have a settled record were members once:
	// each must have settled (drained) for this K too. A node restarted
	// after its own Rebalance passes upto = K, but a removed node may still
	// be draining what it holds of this node's hosts.
	for i := 0; ; {
		e, err := n.nodes.Get(ctx, settledKey(i))
		switch {
		case err == nil && string(e.Value()) == want:
			i++
			continue
		case i >= upto && errors.Is(err, jetstream.ErrKeyNotFound):
			return nil
		case err != nil && !errors.Is(err, jetstream.ErrKeyNotFound):
			return fmt.Errorf("cluster: read node %d settled record: %w", i, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: wait for node %d to settle for %d nodes: %w", i, n.opts.Nodes, ctx.Err())
		case <-tick.C:
		}
	}
}

// Drain hands every URL stored for this node in the stream to the node
// that owns its host now, until none is left: what a node removed from
// the cluster (NodeID ≥ Nodes, so it owns no host) does after Rebalance,
// so that nothing sent to it under the old membership is lost. Once none
// is left it records the node settled, which the others wait for. It
// returns how many it forwarded.
func (n *Node) Drain(ctx context.Context) (int, error) {
	total := 0
	for {
		info, err := n.stream.Info(ctx, jetstream.WithSubjectFilter(n.subject(n.opts.NodeID)))
		if err != nil {
			return total, fmt.Errorf("cluster: drain: stream info: %w", err)
		}
		if info.State.Subjects[n.subject(n.opts.NodeID)] == 0 {
			// Only now may the others crawl (see settledUnlessLeaving).
			return total, n.settled(ctx)
		}
		batch, err := n.cons.Fetch(n.opts.Batch, jetstream.FetchMaxWait(max(n.opts.Poll, 100*time.Millisecond)))
		if err != nil {
			return total, fmt.Errorf("cluster: drain: fetch: %w", err)
		}
		var msgs []jetstream.Msg
		for m := range batch.Messages() {
			msgs = append(msgs, m)
		}
		if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) {
			return total, fmt.Errorf("cluster: drain: fetch: %w", err)
		}
		for _, m := range msgs {
			u, err := decodeURL(m.Data())
			if err != nil {
				n.malformed.Add(1)
				continue
			}
			if err := n.forward(u, m); err != nil {
				return total, err
			}
		}
		if err := n.Flush(ctx); err != nil {
			return total, err
		}
		for _, m := range msgs {
			if err := m.Ack(); err != nil {
				return total, fmt.Errorf("cluster: drain: ack: %w", err)
			}
		}
		total += len(msgs)
	}
}

// forward republishes a message that reached this node for a host it does
// not own (sent under an earlier membership) to the host's owner; the id
// derives from the original's, so a redelivery is not stored twice.
func (n *Node) forward(u URL, m jetstream.Msg) error {
	id := m.Headers().Get(jetstream.MsgIDHeader)
	return n.publish(u, urlnorm.Authority(u.URL), "fwd/"+id)
}

// Preload reads, without consuming them, the messages stored for this
// node when it is called, and passes those marked Known to fn, in batches.
// A node that took hosts over calls it after WaitSettled and before its
// crawl starts, to record what the previous owners settled: otherwise its
// seeds or its own links could queue such a URL before the consumer
// delivers the marker. The consumer delivers the same messages later.
// It reads by sequence (a second consumer on a work-queue stream would
// take the messages away from the node's own).
func (n *Node) Preload(ctx context.Context, fn func([]URL) error) (int, error) {
	subj := n.subject(n.opts.NodeID)
	info, err := n.stream.Info(ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		return 0, fmt.Errorf("cluster: preload: stream info: %w", err)
	}
	if info.State.Subjects[subj] == 0 {
		return 0, nil
	}
	last := info.State.LastSeq
	known := make([]URL, 0, n.opts.Batch)
	total := 0
	flush := func() error {
		if len(known) == 0 {
			return nil
		}
		if err := fn(known); err != nil {
			return err
		}
		total += len(known)
		known = known[:0]
		return nil
	}
	for seq := info.State.FirstSeq; seq <= last; {
		m, err := n.stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break
		}
		if err != nil {
			return total, fmt.Errorf("cluster: preload: message %d: %w", seq, err)
		}
		if m.Sequence > last {
			break
		}
		if u, err := decodeURL(m.Data); err == nil && u.Known {
			known = append(known, u)
			if len(known) == cap(known) {
				if err := flush(); err != nil {
					return total, err
				}
			}
		}
		seq = m.Sequence + 1
	}
	return total, flush()
}
