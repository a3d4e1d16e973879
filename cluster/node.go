package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Local is what a node needs from the crawl running on it; the crawler
// implements it (through a small adapter in cmd/seedcrawl).
type Local interface {
	// Inject queues URLs handed over by other nodes and returns once they
	// are committed to the node's db (seen-set and frontier): only then are
	// their messages acknowledged. URLs already known are dropped.
	Inject(ctx context.Context, urls []URL) error
	// Idle reports that nothing is queued, nothing is in flight and
	// nothing is uncommitted (handed-off URLs flushed included).
	Idle() bool
}

// Options configure a Node.
type Options struct {
	// URL is the NATS server URL (required), e.g. nats://127.0.0.1:4222.
	URL string
	// Name prefixes the stream, subjects and key-value buckets, so several
	// crawls can share one NATS; "" means "seedcrawl". Letters, digits,
	// '-' and '_' only.
	Name string
	// NodeID is this node's id, 0 ≤ NodeID < Nodes (or ≥ Nodes when
	// Leaving).
	NodeID int
	// Leaving opens a node removed from the cluster (NodeID ≥ Nodes): it
	// owns no host, and is there to Rebalance its db and Drain its
	// messages to the remaining nodes.
	Leaving bool
	// Nodes is the number of nodes K of the cluster (≥ 1).
	Nodes int
	// Batch is the most URL messages handed to Local.Inject at once; 0
	// means 256.
	Batch int
	// Poll is how often the node reports its idle state and checks for
	// quiescence; 0 means 50ms. The crawl's end is detected within a few
	// Polls.
	Poll time.Duration
	// DupWindow is how long the stream remembers message ids to drop
	// repeats; 0 means 10 minutes. Repeats after it are dropped by the
	// owner's seen-set instead.
	DupWindow time.Duration
	// Logger receives warnings (malformed messages); nil discards them.
	Logger *slog.Logger
}

// Stats counts a node's traffic.
type Stats struct {
	Published  uint64 // URL messages published (stored once: duplicates excluded)
	Duplicates uint64 // publishes the stream dropped as repeats of a message id
	PubBytes   uint64 // payload bytes of the published messages
	Received   uint64 // URL messages consumed and acknowledged
	Malformed  uint64 // messages dropped as undecodable
	// Conn is the NATS connection's own count of every message and byte
	// in and out: URL messages, acknowledgements, pulls, key-value traffic.
	InMsgs, OutMsgs, InBytes, OutBytes uint64
}

// Node is one member of a cluster: it publishes URLs of hosts it does not
// own, consumes the URLs of hosts it owns, and takes part in termination
// detection. Owns, Handoff and Flush may be called from any goroutine.
type Node struct {
	opts   Options
	ring   Ring
	log    *slog.Logger
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	cons   jetstream.Consumer
	nodes  jetstream.KeyValue // per-node idle records and the done flag

	pubMu   sync.Mutex
	futures []jetstream.PubAckFuture

	stateMu  sync.Mutex // serialises state changes and their KV writes
	idle     bool
	epoch    uint64
	inflight int // Inject calls under way

	done     chan struct{}
	doneOnce sync.Once

	published, duplicates, pubBytes, received, malformed atomic.Uint64
}

// record is a node's entry in the nodes bucket.
type record struct {
	Idle  bool   `json:"idle"`
	Epoch uint64 `json:"epoch"`
	// Stopped: the node left the crawl on purpose (a budget, a deadline,
	// SIGINT). The others may finish without it; the URLs sent to it stay
	// in the stream for its next run.
	Stopped bool `json:"stopped,omitempty"`
}

const doneKey = "done"

const (
	// flushAt is how many unacknowledged publishes Handoff lets pile up
	// before it waits for them: a commit batch of pages with thousands of
	// links each must not hit the client's limit on pending publishes.
	flushAt = 1024
	// publishTimeout bounds the wait for one publish acknowledgement.
	publishTimeout = 30 * time.Second
)

// checkEvery is how many Polls apart a node other than node 0 runs the
// full quiescence check itself.
const checkEvery = 16

// Open connects to NATS and creates (or joins) the cluster's stream, this
// node's durable consumer and the nodes bucket. The node starts busy.
func Open(ctx context.Context, o Options) (*Node, error) {
	if o.URL == "" || o.Nodes < 1 || o.NodeID < 0 || o.NodeID >= o.Nodes && !o.Leaving {
		return nil, fmt.Errorf("%w: URL %q, node %d of %d", ErrOptions, o.URL, o.NodeID, o.Nodes)
	}
	if o.Name == "" {
		o.Name = "seedcrawl"
	}
	for _, r := range o.Name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return nil, fmt.Errorf("%w: name %q: use letters, digits, '-' and '_'", ErrOptions, o.Name)
		}
	}
	if o.Batch <= 0 {
		o.Batch = 256
	}
	if o.Poll <= 0 {
		o.Poll = 50 * time.Millisecond
	}
	if o.DupWindow <= 0 {
		o.DupWindow = 10 * time.Minute
	}
	n := &Node{opts: o, ring: NewRingN(o.Nodes), log: o.Logger, done: make(chan struct{})}
	if n.log == nil {
		n.log = slog.New(slog.DiscardHandler)
	}
	var err error
	n.nc, err = nats.Connect(o.URL, nats.Name(fmt.Sprintf("%s-node-%d", o.Name, o.NodeID)),
		nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to %s (is a NATS server with JetStream running there? seedcrawl cluster starts one): %w", o.URL, err)
	}
	if err := n.setup(ctx); err != nil {
		n.nc.Close()
		return nil, err
	}
	return n, nil
}

func (n *Node) setup(ctx context.Context) error {
	o := n.opts
	var err error
	// A publish whose ack never comes fails after publishTimeout, so Flush
	// cannot wait forever on a lost server.
	if n.js, err = jetstream.New(n.nc, jetstream.WithPublishAsyncMaxPending(4*flushAt),
		jetstream.WithPublishAsyncTimeout(publishTimeout)); err != nil {
		return fmt.Errorf("cluster: jetstream on %s: %w", o.URL, err)
	}
	// One work-queue stream: a message is removed when its owner
	// acknowledges it, so the stream's message count is the number of URLs
	// in flight between nodes.
	cfg := jetstream.StreamConfig{
		Name:       o.Name + "_urls",
		Subjects:   []string{o.Name + ".urls.*"},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    jetstream.FileStorage,
		Duplicates: o.DupWindow,
	}
	// Create, and update only a stream made with another configuration:
	// CreateOrUpdateStream updates even an identical stream, and the
	// server's update of a stream races (go test -race, nats-server
	// 2.15) with another node creating its consumer on it.
	n.stream, err = n.js.CreateStream(ctx, cfg)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		n.stream, err = n.js.UpdateStream(ctx, cfg)
	}
	if err != nil {
		return fmt.Errorf("cluster: create stream %s_urls: %w", o.Name, err)
	}
	// A new consumer per run: messages the previous run of this node had
	// pulled and not acknowledged (it was killed, or stopped with a batch
	// in hand) are delivered again at once instead of after the ack wait.
	// The work-queue stream keeps every unacknowledged message meanwhile.
	durable := fmt.Sprintf("node-%d", o.NodeID)
	if err := n.stream.DeleteConsumer(ctx, durable); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("cluster: reset consumer %s: %w", durable, err)
	}
	n.cons, err = n.stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       durable,
		FilterSubject: n.subject(o.NodeID),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       2 * time.Minute,
		MaxAckPending: 4 * o.Batch,
	})
	if err != nil {
		return fmt.Errorf("cluster: create consumer node-%d: %w", o.NodeID, err)
	}
	n.nodes, err = n.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: o.Name + "_nodes"})
	if err != nil {
		return fmt.Errorf("cluster: create bucket %s_nodes: %w", o.Name, err)
	}
	// A restarted node continues after the epoch it last reported, so a
	// checker that saw it idle before the crash sees a change.
	if e, err := n.nodes.Get(ctx, n.key(o.NodeID)); err == nil {
		var r record
		if json.Unmarshal(e.Value(), &r) == nil {
			n.epoch = r.Epoch
		}
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("cluster: read node %d record: %w", o.NodeID, err)
	}
	n.epoch++
	if err := n.put(ctx, record{Idle: false, Epoch: n.epoch}); err != nil {
		return err
	}
	// A node (re)joining a finished crawl (new seeds, a resumed budget)
	// reopens it; the check sets the flag again once all are idle.
	if err := n.nodes.Delete(ctx, doneKey); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("cluster: clear done flag: %w", err)
	}
	return nil
}

func (n *Node) subject(node int) string { return n.opts.Name + ".urls." + strconv.Itoa(node) }
func (n *Node) key(node int) string     { return "node-" + strconv.Itoa(node) }

func (n *Node) put(ctx context.Context, r record) error {
	b, _ := json.Marshal(r)
	if _, err := n.nodes.Put(ctx, n.key(n.opts.NodeID), b); err != nil {
		return fmt.Errorf("cluster: node %d: report idle=%v epoch %d: %w", n.opts.NodeID, r.Idle, r.Epoch, err)
	}
	return nil
}

// Close flushes nothing: call Flush first. It closes the connection.
func (n *Node) Close() error {
	n.nc.Close()
	return nil
}

// ID returns this node's id.
func (n *Node) ID() int { return n.opts.NodeID }

// Owns reports whether this node crawls host.
func (n *Node) Owns(host string) bool { return n.ring.Owner(host) == n.opts.NodeID }

// Owner returns the node that crawls host.
func (n *Node) Owner(host string) int { return n.ring.Owner(host) }

// Handoff publishes url (normalized, of host, which another node owns) to
// its owner, with its depth and the priority mass the discovering page
// gives it. from names the contribution on this node (the discovering
// page, and the crawl cycle): a handoff of the same url and from is the
// same contribution repeated (a page refetched after a crash) and the
// stream stores it once within its duplicate window, while handoffs of
// one url from different pages or nodes are each stored, so the owner
// adds every page's mass as one process would. It does not wait for the
// stream (Flush does) unless flushAt publishes are unacknowledged.
func (n *Node) Handoff(url, host string, depth int, mass float64, from string) error {
	return n.publish(URL{URL: url, Depth: depth, Mass: mass}, host, from)
}

// publish sends u (of host) to the host's owner; see Handoff.
func (n *Node) publish(u URL, host string, from string) error {
	url := u.URL
	m := &nats.Msg{Subject: n.subject(n.ring.Owner(host)), Data: u.encode(nil)}
	f, err := n.js.PublishMsgAsync(m, jetstream.WithMsgID(MsgID(url, strconv.Itoa(n.opts.NodeID)+"/"+from)))
	if err != nil {
		return fmt.Errorf("cluster: hand off %s: %w", url, err)
	}
	n.pubMu.Lock()
	n.futures = append(n.futures, f)
	full := len(n.futures) >= flushAt
	n.pubMu.Unlock()
	if full {
		ctx, cancel := context.WithTimeout(context.Background(), 2*publishTimeout)
		defer cancel()
		return n.Flush(ctx)
	}
	return nil
}

// Flush waits until every URL handed off so far is stored by the stream.
// A publish that failed is retried synchronously (same message id, so a
// publish that did land is not stored twice); Flush fails only when the
// retry fails too.
func (n *Node) Flush(ctx context.Context) error {
	n.pubMu.Lock()
	fs := n.futures
	n.futures = nil
	n.pubMu.Unlock()
	for _, f := range fs {
		var ack *jetstream.PubAck
		select {
		case ack = <-f.Ok():
		case err := <-f.Err():
			m := f.Msg()
			ack, err = n.js.PublishMsg(ctx, m, jetstream.WithMsgID(m.Header.Get(jetstream.MsgIDHeader)))
			if err != nil {
				return fmt.Errorf("cluster: publish %s: %w", m.Subject, err)
			}
		case <-ctx.Done():
			return fmt.Errorf("cluster: flush %d URLs: %w", len(fs), ctx.Err())
		}
		if ack.Duplicate {
			n.duplicates.Add(1)
		} else {
			n.published.Add(1)
			n.pubBytes.Add(uint64(len(f.Msg().Data)))
		}
	}
	return nil
}

// Done is closed when the whole cluster has finished: every node idle and
// no URL in flight between nodes.
func (n *Node) Done() <-chan struct{} { return n.done }

// Stats returns the node's traffic counters.
func (n *Node) Stats() Stats {
	cs := n.nc.Stats()
	return Stats{
		Published: n.published.Load(), Duplicates: n.duplicates.Load(), PubBytes: n.pubBytes.Load(),
		Received: n.received.Load(), Malformed: n.malformed.Load(),
		InMsgs: cs.InMsgs, OutMsgs: cs.OutMsgs, InBytes: cs.InBytes, OutBytes: cs.OutBytes,
	}
}

// Run consumes this node's URLs into local, reports its idle state and
// watches for the end of the crawl until Done or ctx ends. It returns nil
// when the cluster is done, ctx.Err() when ctx ends, or the first error of
// local.Inject or of NATS.
func (n *Node) Run(ctx context.Context, local Local) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	go func() { errc <- n.consume(ctx, local) }()
	go func() { errc <- n.watch(ctx, local) }()
	var first error
	for range 2 {
		if err := <-errc; err != nil && first == nil && !errors.Is(err, context.Canceled) {
			first = err
		}
		cancel()
	}
	select {
	case <-n.done:
		return first
	default:
	}
	if first == nil {
		first = ctx.Err()
	}
	if first == nil {
		first = context.Canceled
	}
	return first
}

// consume hands batches of this node's messages to local and acknowledges
// them once local has committed them.
func (n *Node) consume(ctx context.Context, local Local) error {
	it, err := n.cons.Messages(jetstream.PullMaxMessages(n.opts.Batch))
	if err != nil {
		return fmt.Errorf("cluster: node %d: consume: %w", n.opts.NodeID, err)
	}
	defer it.Stop()
	msgs := make([]jetstream.Msg, 0, n.opts.Batch)
	urls := make([]URL, 0, n.opts.Batch)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-n.done:
			return nil
		default:
		}
		msgs, urls = msgs[:0], urls[:0]
		wait := n.opts.Poll
		for len(msgs) < n.opts.Batch {
			m, err := it.Next(jetstream.NextMaxWait(wait))
			if err != nil {
				if errors.Is(err, nats.ErrTimeout) {
					break
				}
				return fmt.Errorf("cluster: node %d: next message: %w", n.opts.NodeID, err)
			}
			msgs = append(msgs, m)
			// Messages already pulled arrive at once; do not hold a batch
			// back waiting for more.
			wait = time.Millisecond
		}
		if len(msgs) == 0 {
			continue
		}
		// Busy before any acknowledgement: see the termination argument in
		// the package documentation.
		if err := n.busy(ctx); err != nil {
			return err
		}
		forwarded := false
		for _, m := range msgs {
			u, err := decodeURL(m.Data())
			if err != nil {
				n.malformed.Add(1)
				n.log.Warn("cluster: dropping malformed URL message", "subject", m.Subject(), "err", err)
				continue
			}
			if !n.Owns(urlnorm.Authority(u.URL)) {
				// Sent under another membership (before a Rebalance).
				if err := n.forward(u, m); err != nil {
					return err
				}
				forwarded = true
				continue
			}
			urls = append(urls, u)
		}
		var err error
		if forwarded {
			err = n.Flush(ctx)
		}
		if err == nil {
			err = local.Inject(ctx, urls)
		}
		if err == nil {
			for _, m := range msgs {
				if err = m.Ack(); err != nil {
					err = fmt.Errorf("cluster: node %d: ack: %w", n.opts.NodeID, err)
					break
				}
			}
			n.received.Add(uint64(len(msgs)))
		} else {
			// Not acknowledged: offer them again at once (to this node's
			// next run) rather than after the ack wait.
			for _, m := range msgs {
				m.Nak()
			}
			err = fmt.Errorf("cluster: node %d: inject %d URLs: %w", n.opts.NodeID, len(urls), err)
		}
		n.stateMu.Lock()
		n.inflight--
		n.stateMu.Unlock()
		if err != nil {
			return err
		}
	}
}

// busy marks the node busy (a new epoch if it was idle) and counts one
// Inject in flight.
func (n *Node) busy(ctx context.Context) error {
	n.stateMu.Lock()
	defer n.stateMu.Unlock()
	n.inflight++
	if !n.idle {
		return nil
	}
	n.idle = false
	n.epoch++
	return n.put(ctx, record{Idle: false, Epoch: n.epoch})
}

// watch reports the node idle when local is, and checks for quiescence.
func (n *Node) watch(ctx context.Context, local Local) error {
	tick := time.NewTicker(n.opts.Poll)
	defer tick.Stop()
	for polls := 1; ; polls++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		if err := n.report(ctx, local); err != nil {
			return err
		}
		// Node 0 runs the check (2K+1 reads) every Poll, the others read
		// the done flag it sets (one read) and run the check only every
		// checkEvery-th Poll, for when node 0 has left or exited: K nodes
		// checking every Poll would cost O(K²) reads per Poll.
		check := n.quiescent
		if n.opts.NodeID != 0 && polls%checkEvery != 0 {
			check = n.doneFlag
		}
		done, err := check(ctx)
		if err != nil {
			return err
		}
		if done {
			n.doneOnce.Do(func() { close(n.done) })
			return nil
		}
	}
}

// report writes the node's record when it turns idle.
func (n *Node) report(ctx context.Context, local Local) error {
	n.stateMu.Lock()
	defer n.stateMu.Unlock()
	idle := n.inflight == 0 && local.Idle()
	switch {
	case idle && !n.idle:
		n.idle = true
		return n.put(ctx, record{Idle: true, Epoch: n.epoch})
	case !idle && n.idle:
		n.idle = false
		n.epoch++
		return n.put(ctx, record{Idle: false, Epoch: n.epoch})
	}
	return nil
}

// Leave records that this node stopped before the end of the crawl (a
// budget, a deadline, an interrupt): the others may finish without it. Its
// unread URLs stay in the stream for its next run, which rejoins.
func (n *Node) Leave(ctx context.Context) error {
	n.stateMu.Lock()
	defer n.stateMu.Unlock()
	n.epoch++
	return n.put(ctx, record{Stopped: true, Epoch: n.epoch})
}

// quiescent reports whether the crawl is done (see the package
// documentation): the done flag is set, or two reads of every node's
// record around a read of the stream see every node idle or stopped, the
// same records twice, and no message stored for a node that is not
// stopped.
func (n *Node) quiescent(ctx context.Context) (bool, error) {
	if done, err := n.doneFlag(ctx); done || err != nil {
		return done, err
	}
	first, ok, err := n.records(ctx)
	if err != nil || !ok {
		return false, err
	}
	info, err := n.stream.Info(ctx, jetstream.WithSubjectFilter(n.opts.Name+".urls.*"))
	if err != nil {
		return false, fmt.Errorf("cluster: stream info: %w", err)
	}
	for i, r := range first {
		if !r.Stopped && info.State.Subjects[n.subject(i)] > 0 {
			return false, nil
		}
	}
	second, ok, err := n.records(ctx)
	if err != nil || !ok {
		return false, err
	}
	if !slices.Equal(first, second) {
		return false, nil
	}
	if _, err := n.nodes.Put(ctx, doneKey, []byte(strconv.Itoa(n.opts.NodeID))); err != nil {
		return false, fmt.Errorf("cluster: set done flag: %w", err)
	}
	return true, nil
}

// doneFlag reports whether node 0 found the crawl done.
func (n *Node) doneFlag(ctx context.Context) (bool, error) {
	_, err := n.nodes.Get(ctx, doneKey)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return false, nil
	}
	return false, fmt.Errorf("cluster: read done flag: %w", err)
}

// records reads every node's record; ok is false unless all K exist and
// are idle or stopped.
func (n *Node) records(ctx context.Context) ([]record, bool, error) {
	recs := make([]record, n.opts.Nodes)
	for i := range recs {
		e, err := n.nodes.Get(ctx, n.key(i))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("cluster: read node %d record: %w", i, err)
		}
		var r record
		if err := json.Unmarshal(e.Value(), &r); err != nil {
			return nil, false, fmt.Errorf("cluster: node %d record %q: %w", i, e.Value(), err)
		}
		if !r.Idle && !r.Stopped {
			return nil, false, nil
		}
		recs[i] = r
	}
	return recs, true, nil
}
