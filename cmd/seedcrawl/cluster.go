package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/cluster"
	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
)

const nodeUsage = `usage: seedcrawl node --cluster URL --node-id N --nodes K [crawl flags] [SEED_URL...]

Runs one node of a crawl shared by K nodes over NATS JetStream at URL. The
node crawls, politely and into its own --db, the hosts that hash to it;
URLs of other hosts go to their owners through the stream, and theirs come
to it. Every node gets the same seeds (each keeps those of its hosts) and
the same crawl flags. The node stops when the whole cluster has nothing
left: every node idle and no URL in flight. Restarting a killed node with
the same command resumes its hosts from its db and its durable consumer.

To grow or shrink the cluster, stop every node and start them again with
the new --nodes: before crawling, each hands the hosts it no longer owns
(queued URLs, and the ones it settled, so they are not fetched twice) to
their new owners. A removed node runs once with --leave (its --node-id
≥ --nodes) to hand over its hosts and the URLs stored for it, and exits.

flags:
`

const clusterUsage = `usage: seedcrawl cluster [--nodes K] [--cluster nats://...] [--out all.db] [crawl flags] SEED_URL...

Starts an embedded NATS server with JetStream on 127.0.0.1 (or joins the
one at --cluster) and K seedcrawl node processes on this machine, which
crawl into DB-node0.db ... DB-node{K-1}.db (DB is --db without .db), then
merges them into --out if given. Prints one summary per node and the
cluster's totals (--json for a machine).

flags:
`

const mergeUsage = `usage: seedcrawl merge --out ALL.db NODE.db...

Writes the union of node dbs into a new db: one page per URL with ids
remapped, each URL's fetch (from the node that owns its host) and its
links, so rank, seeds, sim, compare and score see the whole crawl.

flags:
`

// nodeOptions say which node of which cluster a crawl is.
type nodeOptions struct {
	url, name   string
	id, nodes   int
	leave       bool // removed from the cluster: hand everything over and exit
	command     string
	progress    time.Duration
	json        bool
	clusterPoll time.Duration
}

// nodeReport is what `seedcrawl node --json` prints.
type nodeReport struct {
	DB      string          `json:"db"`
	Node    int             `json:"node"`
	Nodes   int             `json:"nodes"`
	Cluster cluster.Stats   `json:"cluster"`
	Summary monitor.Summary `json:"summary"`
	// CPUSeconds is the node process's user+system CPU time, filled in by
	// seedcrawl cluster when the process has exited.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
}

// runNode implements `seedcrawl node`.
func runNode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("node", stderr)
	cf := registerCrawlFlags(fs)
	jsonOut := fs.Bool("json", false, "print the final summary as JSON on stdout")
	url := fs.String("cluster", "", "NATS server `URL` of the cluster (required), e.g. nats://127.0.0.1:4222")
	name := fs.String("cluster-name", "seedcrawl", "`NAME` of the crawl on the NATS server: its stream and buckets")
	id := fs.Int("node-id", 0, "this node's id `N`, 0 ≤ N < --nodes")
	nodes := fs.Int("nodes", 1, "number of nodes `K` of the cluster")
	leave := fs.Bool("leave", false, "remove this node from a cluster shrunk to --nodes (its --node-id ≥ --nodes): hand its hosts' URLs and its stored messages to the remaining nodes, then exit")
	if err := parseFlagsUsage(fs, args, nodeUsage); err != nil {
		return err
	}
	if *url == "" {
		return fmt.Errorf("%w: --cluster URL is required (seedcrawl cluster starts a NATS server)", errUsage)
	}
	switch {
	case *leave && (*nodes < 1 || *id < *nodes):
		return fmt.Errorf("%w: --leave: --node-id %d must be ≥ --nodes %d (the nodes that remain)", errUsage, *id, *nodes)
	case !*leave && (*nodes < 1 || *id < 0 || *id >= *nodes):
		return fmt.Errorf("%w: --node-id %d must be in 0..--nodes-1 (--nodes %d)", errUsage, *id, *nodes)
	}
	cfg, err := cf.load(fs, "no seed URLs: give SEED_URL arguments or --seeds FILE (or --db of a node to resume)")
	if err != nil {
		return err
	}
	return nodeCrawl(ctx, cfg, nodeOptions{url: *url, name: *name, id: *id, nodes: *nodes, leave: *leave,
		command: "seedcrawl node " + strings.Join(args, " "), progress: cf.progress, json: *jsonOut}, stdout, stderr)
}

// nodeCrawl runs one node: the crawl of its hosts and its cluster traffic,
// until the cluster is done or ctx ends. Shutdown order: crawler, node
// (consumer stops; nothing unacknowledged is lost), db.
func nodeCrawl(ctx context.Context, cfg config.Config, o nodeOptions, stdout, stderr io.Writer) error {
	logger := warnLogger(stderr)
	node, err := cluster.Open(ctx, cluster.Options{URL: o.url, Name: o.name, NodeID: o.id, Nodes: o.nodes,
		Poll: o.clusterPoll, Logger: logger, Leaving: o.leave})
	if err != nil {
		return err
	}
	defer node.Close()
	sess, err := openCrawl(cfg, crawlExtras{command: o.command, logger: logger, cluster: node})
	if err != nil {
		return err
	}
	defer sess.close()
	// Hosts that changed owner since this db's last run (a node joined or
	// left) go to their new owners before anything is crawled, and no
	// node crawls until every previous owner has handed its hosts over.
	mv, err := node.Rebalance(ctx, sess.db)
	if err != nil {
		return err
	}
	if mv.FromNodes != mv.ToNodes {
		fmt.Fprintf(stderr, "seedcrawl node %d: %d → %d nodes: %d hosts moved away, %d queued and %d settled URLs handed over\n",
			o.id, mv.FromNodes, mv.ToNodes, mv.Hosts, mv.Queued, mv.Known)
	}
	if o.leave {
		n, err := node.Drain(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "node %d left the cluster of %d nodes: %d hosts, %d queued and %d settled URLs handed over, %d stored messages forwarded\n",
			o.id, o.nodes, mv.Hosts, mv.Queued, mv.Known, n)
		return nil
	}
	if err := node.WaitSettled(ctx, max(o.nodes, mv.FromNodes)); err != nil {
		return err
	}
	if _, err := node.Preload(ctx, func(us []cluster.URL) error { return recordKnown(sess.db, us) }); err != nil {
		return err
	}
	// Every node gets every seed: it queues those of its own hosts, and
	// counts all for the scheduler (FPR gives each seed (1−d)/|S|).
	sum, err := nodeRun(ctx, node, sess, func(ctx context.Context) (monitor.Summary, error) {
		return sess.crawl(ctx, sess.seeds, o.progress, stderr)
	})
	if err != nil {
		return err
	}
	rep := nodeReport{DB: cfg.DB, Node: o.id, Nodes: o.nodes, Cluster: node.Stats(), Summary: sum}
	if o.json {
		return writeJSON(stdout, rep)
	}
	if err := crawlPrintSummary(stdout, cfg.DB, sum, false); err != nil {
		return err
	}
	st := rep.Cluster
	fmt.Fprintf(stdout, "  %-26s node %d of %d: %d URLs handed off (%d repeats dropped), %d received; connection %d msgs / %d bytes out, %d msgs / %d bytes in\n",
		"cluster:", o.id, o.nodes, st.Published, st.Duplicates, st.Received, st.OutMsgs, st.OutBytes, st.InMsgs, st.InBytes)
	return nil
}

// recordKnown stores URLs that their host's previous owner settled
// (cluster.URL.Known) as seen in db, before the crawl starts: the crawl
// then neither seeds nor queues them. The crawler does the same when the
// consumer delivers the same messages later.
func recordKnown(db *storage.DB, us []cluster.URL) error {
	urls := make([]string, len(us))
	for i, u := range us {
		urls[i] = u.URL
	}
	ints, err := db.Intern(urls, storage.NoPage, 0)
	if err != nil {
		return fmt.Errorf("record %d URLs settled by other nodes: %w", len(urls), err)
	}
	var b storage.Batch
	for _, in := range ints {
		if !in.New {
			p, err := db.Page(in.ID)
			if err != nil || p.Status != storage.StatusDiscovered || p.Reason == cluster.ReasonKnownElsewhere {
				continue
			}
		}
		b.SetStatus(in.ID, storage.StatusDiscovered, cluster.ReasonKnownElsewhere)
	}
	if err := db.Commit(&b); err != nil {
		return fmt.Errorf("record %d URLs settled by other nodes: %w", len(urls), err)
	}
	return nil
}

// nodeRun runs crawl (sess's crawler) as a node of the cluster: the
// node's traffic beside it, until the cluster is done or ctx ends. A crawl
// that stops early (a budget, a deadline, SIGINT) leaves the cluster so
// the others can finish; a crawl that fails keeps the node "busy", so the
// others wait for it to be fixed and restarted.
func nodeRun(ctx context.Context, node *cluster.Node, sess *crawlSession, crawl func(context.Context) (monitor.Summary, error)) (monitor.Summary, error) {
	cctx, cancelCrawl := context.WithCancel(ctx)
	defer cancelCrawl()
	nctx, cancelNode := context.WithCancel(ctx)
	nerr := make(chan error, 1)
	go func() {
		err := node.Run(nctx, sess.share)
		if err != nil && nctx.Err() == nil {
			cancelCrawl() // the node cannot go on: stop the crawl, keep what is committed
		}
		nerr <- err
	}()
	sum, err := crawl(cctx)
	cancelNode()
	runErr := <-nerr
	if err != nil {
		return sum, err
	}
	if sum.Stopped != monitor.StopExhausted {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		err := node.Leave(lctx)
		cancel()
		if err != nil {
			return sum, err
		}
	}
	// ErrStopped: URLs arrived after the crawl stopped; they stay in the
	// stream for the next run.
	if runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, crawler.ErrStopped) {
		return sum, fmt.Errorf("node %d: %w", node.ID(), runErr)
	}
	return sum, node.Flush(ctx)
}

// clusterOwnFlags are the flags of seedcrawl cluster that are not passed
// on to the nodes (with whether they take a value).
var clusterOwnFlags = map[string]bool{"nodes": true, "cluster": true, "out": true, "nats-dir": true, "json": false, "db": true, "cluster-name": true}

// runCluster implements `seedcrawl cluster`.
func runCluster(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cluster", stderr)
	// The crawl flags are the nodes': parsed here to check them, and
	// passed on as given.
	cf := registerCrawlFlags(fs)
	nodes := fs.Int("nodes", 3, "number of node processes `K`")
	url := fs.String("cluster", "", "join the NATS server at `URL` instead of starting one")
	name := fs.String("cluster-name", "seedcrawl", "`NAME` of the crawl on the NATS server: its stream and buckets")
	natsDir := fs.String("nats-dir", "", "JetStream store `DIR` of the embedded server (default: DB.nats)")
	out := fs.String("out", "", "merge the node dbs into `FILE` when the crawl is done")
	jsonOut := fs.Bool("json", false, "print the summaries as JSON on stdout")
	if err := parseFlagsUsage(fs, args, clusterUsage); err != nil {
		return err
	}
	if *nodes < 1 {
		return fmt.Errorf("%w: --nodes %d: want at least 1", errUsage, *nodes)
	}
	// Check the settings here, before any server or node starts: every
	// node would refuse them, each with the same message.
	if _, err := cf.settings(fs); err != nil {
		return err
	}
	db := cf.cfg.DB
	base := strings.TrimSuffix(db, ".db")
	if *url == "" {
		dir := *natsDir
		if dir == "" {
			dir = base + ".nats"
		}
		srv, err := cluster.StartServer(cluster.ServerOptions{Dir: dir})
		if err != nil {
			return err
		}
		defer srv.Shutdown()
		*url = srv.URL()
		fmt.Fprintf(stderr, "seedcrawl cluster: NATS JetStream at %s (store %s)\n", *url, dir)
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the seedcrawl binary: %w", err)
	}
	pass := clusterPassArgs(args)
	dbs := make([]string, *nodes)
	reps := make([]nodeReport, *nodes)
	errs := make([]error, *nodes)
	var wg sync.WaitGroup
	for i := range *nodes {
		dbs[i] = fmt.Sprintf("%s-node%d.db", base, i)
		cmdArgs := append([]string{"node", "--cluster", *url, "--cluster-name", *name, "--node-id", strconv.Itoa(i),
			"--nodes", strconv.Itoa(*nodes), "--db", dbs[i], "--json"}, pass...)
		cmd := exec.CommandContext(ctx, bin, cmdArgs...)
		// Ctrl-C stops the nodes gracefully (they commit and leave), not
		// with the SIGKILL CommandContext sends by default.
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = time.Minute
		// A profile of the cluster command is its own, not its nodes'
		// (they would all write the one file).
		cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, cpuProfileEnv+"=") })
		var buf bytes.Buffer
		cmd.Stdout = &buf
		cmd.Stderr = &prefixWriter{w: stderr, prefix: fmt.Sprintf("node %d: ", i)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("node %d (%s): %w", i, dbs[i], err)
				return
			}
			if err := json.Unmarshal(buf.Bytes(), &reps[i]); err != nil {
				errs[i] = fmt.Errorf("node %d: read its summary: %w", i, err)
			}
			reps[i].CPUSeconds = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var merged *cluster.MergeStats
	if *out != "" {
		st, err := mergeFiles(*out, dbs)
		if err != nil {
			return err
		}
		merged = &st
	}
	return clusterPrint(stdout, reps, merged, *out, *jsonOut)
}

// clusterPassArgs returns args without the flags seedcrawl cluster keeps
// for itself.
func clusterPassArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if takes, own := clusterOwnFlags[name]; own && strings.HasPrefix(a, "-") {
			if takes && !hasValue {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// clusterPrint writes the per-node summaries and the totals.
func clusterPrint(w io.Writer, reps []nodeReport, merged *cluster.MergeStats, out string, asJSON bool) error {
	var tot struct {
		Pages, Fetches, Published, Duplicates, Received uint64
		PubBytes, OutBytes, InBytes, OutMsgs, InMsgs    uint64
		Seconds                                         float64
	}
	for _, r := range reps {
		tot.Pages += r.Summary.Pages
		tot.Fetches += r.Summary.Fetches
		tot.Published += r.Cluster.Published
		tot.Duplicates += r.Cluster.Duplicates
		tot.Received += r.Cluster.Received
		tot.PubBytes += r.Cluster.PubBytes
		tot.OutBytes += r.Cluster.OutBytes
		tot.InBytes += r.Cluster.InBytes
		tot.OutMsgs += r.Cluster.OutMsgs
		tot.InMsgs += r.Cluster.InMsgs
		tot.Seconds = max(tot.Seconds, r.Summary.Seconds)
	}
	if asJSON {
		return writeJSON(w, struct {
			Nodes  []nodeReport        `json:"nodes"`
			Total  any                 `json:"total"`
			Out    string              `json:"out,omitempty"`
			Merged *cluster.MergeStats `json:"merged,omitempty"`
		}{reps, tot, out, merged})
	}
	for _, r := range reps {
		fmt.Fprintf(w, "node %d (%s): %s, %.1fs, %d pages, %d URLs handed off, %d received\n", r.Node, r.DB,
			r.Summary.Stopped, r.Summary.Seconds, r.Summary.Pages, r.Cluster.Published, r.Cluster.Received)
	}
	rate := 0.0
	if tot.Seconds > 0 {
		rate = float64(tot.Pages) / tot.Seconds
	}
	fmt.Fprintf(w, "cluster of %d nodes: %d pages in %.1fs (%.1f pages/s); %d URL messages (%d payload bytes), %d repeats dropped; connections %d msgs / %d bytes out\n",
		len(reps), tot.Pages, tot.Seconds, rate, tot.Published, tot.PubBytes, tot.Duplicates, tot.OutMsgs, tot.OutBytes)
	if merged != nil {
		fmt.Fprintf(w, "merged into %s: %d URLs, %d fetched (%d fetch outcomes with redirects and errors), %d links\n",
			out, merged.Pages, merged.Fetched, merged.Outcomes, merged.Links)
	}
	return nil
}

// prefixWriter prefixes every line written to w; one per node process.
type prefixWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	part   []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.part = append(p.part, b...)
	for {
		i := bytes.IndexByte(p.part, '\n')
		if i < 0 {
			return len(b), nil
		}
		if _, err := fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.part[:i]); err != nil {
			return len(b), err
		}
		p.part = p.part[i+1:]
	}
}

// runMerge implements `seedcrawl merge`.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", stderr)
	out := fs.String("out", "", "the merged db `FILE` to create (required; must not exist)")
	jsonOut := fs.Bool("json", false, "print the merge counts as JSON")
	if err := parseFlagsUsage(fs, args, mergeUsage); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return fmt.Errorf("%w: give --out FILE and at least one node db", errUsage)
	}
	st, err := mergeFiles(*out, fs.Args())
	if err != nil {
		return err
	}
	if *jsonOut {
		return json.NewEncoder(stdout).Encode(st)
	}
	fmt.Fprintf(stdout, "merged %d dbs into %s: %d URLs, %d fetched (%d fetch outcomes with redirects and errors), %d links, %d URLs fetched by more than one node\n",
		fs.NArg(), *out, st.Pages, st.Fetched, st.Outcomes, st.Links, st.Conflicts)
	return nil
}

// mergeFiles merges the dbs at paths into a new db at out.
func mergeFiles(out string, paths []string) (cluster.MergeStats, error) {
	if _, err := os.Stat(out); err == nil {
		return cluster.MergeStats{}, fmt.Errorf("%w: merge: %s exists; give a new file", errUsage, out)
	}
	var in []*storage.DB
	defer func() {
		for _, db := range in {
			db.Close()
		}
	}()
	for _, p := range paths {
		if filepath.Clean(p) == filepath.Clean(out) {
			return cluster.MergeStats{}, fmt.Errorf("%w: merge: %s is both input and output", errUsage, p)
		}
		db, err := storage.Open(p, &storage.Options{ReadOnly: true})
		if err != nil {
			return cluster.MergeStats{}, fmt.Errorf("merge: open %s: %w", p, err)
		}
		in = append(in, db)
	}
	db, err := storage.Open(out, nil)
	if err != nil {
		return cluster.MergeStats{}, fmt.Errorf("merge: create %s: %w", out, err)
	}
	st, err := cluster.Merge(db, in)
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("merge: close %s: %w", out, cerr)
	}
	return st, err
}
