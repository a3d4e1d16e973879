package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/seedcrawl/seedcrawl/cluster"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/storage"
)

// cycleNode makes `seedcrawl run` one node of a cluster (--cluster): the K
// nodes crawl every cycle together, each its own hosts into its own db.
// Cycle 1 starts from the seeds given to all; for every later cycle each
// node plans as usual, then the first to ask is elected through the
// crawl's key-value lock and publishes its selection, which every node
// crawls (cluster.Node.AgreeSeeds). Each cycle has its own stream and
// termination records (the crawl's name with "-cN"), so a node that
// finished cycle n cannot mistake cycle n+1's traffic for cycle n's, and
// no node ends a cycle before all K have started it.
type cycleNode struct {
	o      nodeOptions
	log    *slog.Logger
	stderr io.Writer
	elect  *cluster.Node // under the crawl's own name: elections and seeds
	cycle  *cluster.Node // the current cycle's, nil between cycles
}

// openCycleNode connects to the cluster for elections; nil options (no
// --cluster) give a nil *cycleNode, whose methods do nothing.
func openCycleNode(ctx context.Context, o *nodeOptions, log *slog.Logger, stderr io.Writer) (*cycleNode, error) {
	if o == nil {
		return nil, nil
	}
	n, err := cluster.Open(ctx, cluster.Options{URL: o.url, Name: o.name, NodeID: o.id, Nodes: o.nodes,
		Poll: o.clusterPoll, Logger: log})
	if err != nil {
		return nil, err
	}
	return &cycleNode{o: *o, log: log, stderr: stderr, elect: n}, nil
}

func (r *cycleNode) close() {
	if r == nil {
		return
	}
	if r.cycle != nil {
		r.cycle.Close()
	}
	r.elect.Close()
}

// agreeFunc is recrawl.Options.Agree for this node, nil without a cluster.
func (r *cycleNode) agreeFunc() func(context.Context, uint32, []recrawl.Pick) ([]recrawl.Pick, error) {
	if r == nil {
		return nil
	}
	return r.agree
}

// agree returns the seeds of cycle n the cluster agreed on: this node's
// picks if it was elected, else the elected node's.
func (r *cycleNode) agree(ctx context.Context, n uint32, picks []recrawl.Pick) ([]recrawl.Pick, error) {
	seeds, leader, err := r.elect.AgreeSeeds(ctx, n, picks)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(r.stderr, "seedcrawl run: node %d: the %d seeds of cycle %d were selected by node %d\n", r.o.id, len(seeds), n, leader)
	return seeds, nil
}

// prepare joins cycle n (before its crawler is built: the crawler takes
// the node, through a cluster.Crawl).
func (r *cycleNode) prepare(ctx context.Context, sess *crawlSession, n uint32) error {
	if r == nil {
		return nil
	}
	// The hosts of a run's db are those of the K it started with: the
	// cycle's refresh list is planned from them. Moving hosts between
	// cycles is not written (seedcrawl node does it for a crawl).
	if v, err := sess.db.State(cluster.StateNodes); err != nil {
		return fmt.Errorf("read the cluster size of %s: %w", sess.cfg.DB, err)
	} else if v != nil && string(v) != strconv.Itoa(r.o.nodes) {
		return fmt.Errorf("%w: %s was crawled by a cluster of %s nodes; run --cluster cannot change --nodes (%d)", errUsage, sess.cfg.DB, v, r.o.nodes)
	} else if v == nil {
		var b storage.Batch
		b.SetState(cluster.StateNodes, []byte(strconv.Itoa(r.o.nodes)))
		if err := sess.db.Commit(&b); err != nil {
			return fmt.Errorf("record the cluster size in %s: %w", sess.cfg.DB, err)
		}
	}
	node, err := cluster.Open(ctx, cluster.Options{URL: r.o.url, Name: fmt.Sprintf("%s-c%d", r.o.name, n),
		NodeID: r.o.id, Nodes: r.o.nodes, Poll: r.o.clusterPoll, Logger: r.log})
	if err != nil {
		return fmt.Errorf("join cycle %d: %w", n, err)
	}
	r.cycle = node
	sess.x.cluster = node
	return nil
}

// crawl runs the cycle's crawl, as a node of the cycle's cluster when
// there is one, and leaves the cycle.
func (r *cycleNode) crawl(ctx context.Context, sess *crawlSession, crawl func(context.Context) (monitor.Summary, error)) (monitor.Summary, error) {
	if r == nil {
		return crawl(ctx)
	}
	node := r.cycle
	defer func() {
		node.Close()
		r.cycle = nil
		sess.x.cluster = nil
	}()
	return nodeRun(ctx, node, sess, crawl)
}
