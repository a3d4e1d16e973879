package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/cluster"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// clusterDelay is the per-host delay of the cluster tests: every gap
// between two requests to one host, whichever node made them, is at least
// this long.
const clusterDelay = 12 * time.Millisecond

// clusterPages and clusterHosts size the cluster tests' web: small by
// default, so the tests run in CI; the 50,000-page correctness and kill
// checks are the same tests run with
// -args -cluster.pages=50000 -cluster.hosts=500 -cluster.flags=--max-depth=-1.
// (At 50,000 pages the default --max-depth 20 cuts a few URLs whose first
// path found depends on the order of fetches, so two single-node crawls
// already differ there; without the limit the crawl is order-free.)
var (
	clusterPages = flag.Int("cluster.pages", 900, "pages of the test web the cluster tests crawl")
	clusterHosts = flag.Int("cluster.hosts", 12, "hosts of the test web the cluster tests crawl")
	clusterFlags = flag.String("cluster.flags", "", "more crawl flags for every crawl of the cluster tests, space-separated")
)

// clusterSetup builds the binary, starts a clean test web and crawls it
// once with a single `seedcrawl crawl` for reference.
type clusterSetup struct {
	bin, dir, ref string
	w             *crawlWeb
	args          func(db string) []string // crawl flags and seeds
	total         int                      // page requests of the reference crawl
}

func newClusterSetup(t *testing.T, extra ...string) *clusterSetup {
	t.Helper()
	s := &clusterSetup{dir: t.TempDir()}
	s.bin = seedcrawlBinary(t)
	s.w = cleanWeb(t, 11, *clusterPages, *clusterHosts)
	s.args = func(db string) []string {
		return append(s.w.flags("--db", db, "--delay", clusterDelay.String(), "--delay-factor", "0", "--workers", "4",
			"--commit-interval", "100ms", "--progress", "0"), append(append(strings.Fields(*clusterFlags), extra...), s.w.site.Seeds()...)...)
	}
	s.ref = filepath.Join(s.dir, "ref.db")
	s.total = crawlReference(t, s.bin, append([]string{"crawl"}, s.args(s.ref)...), s.w)
	return s
}

// checkUnion compares the merged db with the reference: same URLs with
// the same status, same links.
func (s *clusterSetup) checkUnion(t *testing.T, merged string) {
	t.Helper()
	refPages, gotPages := crawlPages(t, s.ref), crawlPages(t, merged)
	if len(refPages) != len(gotPages) {
		t.Errorf("%d URLs in the merged db, %d in the single-node crawl", len(gotPages), len(refPages))
	}
	for u, p := range refPages {
		if q, ok := gotPages[u]; !ok || q.Status != p.Status || q.Hash != p.Hash {
			t.Errorf("%s: single node %v, cluster %v (present %v)", u, p.Status, q.Status, ok)
		}
	}
	if a, b := crawlArcSet(crawlGraph(t, s.ref)), crawlArcSet(crawlGraph(t, merged)); !crawlEqualSets(a, b) {
		t.Errorf("link sets differ: %d arcs single-node, %d merged; missing: %s; extra: %s",
			len(a), len(b), crawlDiffSample(a, b, 5), crawlDiffSample(b, a, 5))
	}
}

// checkLog audits the access log: per-host gaps of at least clusterDelay,
// every URL requested once (allowed returns whether a repeat is excused),
// and as many URLs as the reference.
func (s *clusterSetup) checkLog(t *testing.T, allowed func(u string, first time.Duration) bool) {
	t.Helper()
	entries := s.w.log.Entries()
	gaps, _ := checkHostGaps(t, entries, func(string) time.Duration { return clusterDelay }, nil)
	first := map[string]time.Duration{}
	for _, e := range entries {
		if e.Target == "/robots.txt" {
			continue
		}
		u := e.URL()
		if at, seen := first[u]; seen {
			if !allowed(u, at) {
				t.Errorf("%s requested twice", u)
			}
			continue
		}
		first[u] = e.Time
	}
	if len(first) != s.total {
		t.Errorf("%d distinct URLs requested, the single-node crawl requested %d", len(first), s.total)
	}
	if gaps < s.total/2 {
		t.Errorf("only %d gaps checked", gaps)
	}
}

// TestClusterCommand: `seedcrawl cluster --nodes 3` (embedded NATS, three
// node processes, merge) crawls what one node crawls, each URL once,
// politely.
func TestClusterCommand(t *testing.T) {
	s := newClusterSetup(t)
	merged := filepath.Join(s.dir, "all.db")
	args := append([]string{"cluster", "--nodes", "3", "--out", merged, "--json"}, s.args(filepath.Join(s.dir, "c.db"))...)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cluster: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Nodes []nodeReport `json:"nodes"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("cluster summary: %v\n%s", err, stdout.String())
	}
	var pages, published, received uint64
	for _, n := range rep.Nodes {
		if n.Summary.Stopped != "exhausted" {
			t.Errorf("node %d stopped %q, want exhausted", n.Node, n.Summary.Stopped)
		}
		if n.Summary.Pages == 0 {
			t.Errorf("node %d crawled nothing", n.Node)
		}
		pages += n.Summary.Pages
		published += n.Cluster.Published
		received += n.Cluster.Received
	}
	if len(rep.Nodes) != 3 || published == 0 || published != received {
		t.Errorf("%d nodes, %d URLs handed off, %d received: want 3 nodes and equal, non-zero counts", len(rep.Nodes), published, received)
	}
	t.Logf("3 nodes: %d pages, %d URL messages", pages, published)
	s.checkUnion(t, merged)
	s.checkLog(t, func(string, time.Duration) bool { return false })
}

// TestClusterMaxDepth: with a small --max-depth, where many URLs are
// reached first by a longer path through one node and then by a shorter
// one through another, the union of three nodes still equals one crawl:
// a pending URL takes the least depth of the links found to it, wherever
// they were found.
func TestClusterMaxDepth(t *testing.T) {
	s := newClusterSetup(t, "--max-depth", "3", "--scheduler", "fpr")
	merged := filepath.Join(s.dir, "all.db")
	args := append([]string{"cluster", "--nodes", "3", "--out", merged, "--json"}, s.args(filepath.Join(s.dir, "c.db"))...)
	binOK(t, "cluster", s.bin, args...)
	rejected := 0
	for _, p := range crawlPages(t, s.ref) {
		if p.Reason == "max-depth" {
			rejected++
		}
	}
	if rejected == 0 {
		t.Fatal("no URL beyond --max-depth: the limit does not bite")
	}
	t.Logf("%d URLs beyond --max-depth in the single crawl", rejected)
	s.checkUnion(t, merged)
	s.checkLog(t, func(string, time.Duration) bool { return false })
}

// TestClusterNodeKilled: three `seedcrawl node` processes on a NATS server
// of this test; one is killed with SIGKILL mid-crawl and restarted with
// the same command. The merged result equals the single-node crawl and no
// URL is lost; a URL is requested twice only if the killed node requested
// it shortly before its death (its result not committed yet).
func TestClusterNodeKilled(t *testing.T) {
	s := newClusterSetup(t)
	srv, err := cluster.StartServer(cluster.ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	const k, victim = 3, 1
	dbs := make([]string, k)
	start := func(i int) (*exec.Cmd, *bytes.Buffer) {
		dbs[i] = filepath.Join(s.dir, fmt.Sprintf("n%d.db", i))
		args := append([]string{"node", "--cluster", srv.URL(), "--node-id", strconv.Itoa(i), "--nodes", strconv.Itoa(k), "--json"},
			s.args(dbs[i])...)
		cmd := exec.Command(s.bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	cmds := make([]*exec.Cmd, k)
	outs := make([]*bytes.Buffer, k)
	for i := range k {
		cmds[i], outs[i] = start(i)
	}
	// Kill the victim once a third of the reference's requests were made.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if n, err := s.w.log.Wait(ctx, s.total/3); err != nil {
		t.Fatalf("no progress: %d requests", n)
	}
	if err := cmds[victim].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmds[victim].Wait()
	es := s.w.log.Entries()
	killAt := es[len(es)-1].Time
	t.Logf("killed node %d after %d of %d requests", victim, len(es), s.total)
	cmds[victim], outs[victim] = start(victim)
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s", i, err, outs[i])
		}
		if !strings.Contains(outs[i].String(), `"stopped": "exhausted"`) {
			t.Errorf("node %d summary:\n%s", i, outs[i])
		}
	}
	merged := filepath.Join(s.dir, "all.db")
	if _, err := mergeFiles(merged, dbs); err != nil {
		t.Fatal(err)
	}
	s.checkUnion(t, merged)
	ring := cluster.NewRingN(k)
	dups := 0
	defer func() { t.Logf("%d URLs requested again after the kill", dups) }()
	s.checkLog(t, func(u string, first time.Duration) bool {
		dups++
		return ring.Owner(urlnorm.Authority(u)) == victim && killAt-first <= crawlKillWindow
	})
}

// TestCrawlClusterSingleNode: `crawl --cluster URL` is one node owning
// every host; it ends when its frontier is empty, like a plain crawl.
func TestCrawlClusterSingleNode(t *testing.T) {
	w := cleanWeb(t, 3, 120, 3)
	srv, err := cluster.StartServer(cluster.ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	dir := t.TempDir()
	args := append(w.flags("--cluster", srv.URL(), "--db", filepath.Join(dir, "one.db"), "--delay", "0", "--delay-factor", "0",
		"--progress", "0", "--sitemaps=false", "--json"), w.site.Seeds()...)
	var stdout, stderr bytes.Buffer
	if err := runCrawl(t.Context(), args, &stdout, &stderr); err != nil {
		t.Fatalf("crawl --cluster: %v\n%s", err, stderr.String())
	}
	var rep nodeReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout.String())
	}
	reach, err := w.web.Truth().Reachable(w.site.Seeds(), version.Token)
	if err != nil {
		t.Fatal(err)
	}
	if d := reach.Compare(crawlGraph(t, filepath.Join(dir, "one.db"))); !d.Empty() {
		t.Fatalf("crawl --cluster differs from the ground truth: %s", d)
	}
	if rep.Summary.Stopped != "exhausted" || rep.Cluster.Published != 0 || rep.Nodes != 1 {
		t.Fatalf("report %+v: want exhausted, 1 node, nothing handed off", rep)
	}
}

// TestClusterMembership: a crawl whose cluster grows from two nodes to
// three and shrinks back to two, each run stopped by a page budget until
// the last, crawls what one crawl does, each URL once: at every change
// the nodes hand the hosts they no longer own (queued URLs and settled
// ones) to the new owners before anyone crawls, and the removed node
// (seedcrawl node --leave) hands over its hosts and its stored messages.
func TestClusterMembership(t *testing.T) {
	// Without sitemaps: every run reads a host's sitemaps again, a node
	// that took a host over too.
	s := newClusterSetup(t, "--sitemaps=false")
	srv, err := cluster.StartServer(cluster.ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	dbs := []string{filepath.Join(s.dir, "n0.db"), filepath.Join(s.dir, "n1.db"), filepath.Join(s.dir, "n2.db")}
	phase := func(k int, ids []int, extra ...string) {
		t.Helper()
		cmds := make([]*exec.Cmd, len(ids))
		outs := make([]*bytes.Buffer, len(ids))
		for j, i := range ids {
			args := append([]string{"node", "--cluster", srv.URL(), "--node-id", strconv.Itoa(i), "--nodes", strconv.Itoa(k)}, extra...)
			if i >= k {
				args = append(args, "--leave")
			}
			cmds[j] = exec.Command(s.bin, append(args, s.args(dbs[i])...)...)
			outs[j] = &bytes.Buffer{}
			cmds[j].Stdout, cmds[j].Stderr = outs[j], outs[j]
			if err := cmds[j].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for j, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("%d nodes, node %d: %v\n%s", k, ids[j], err, outs[j])
			}
			t.Logf("%d nodes, node %d: %s", k, ids[j], strings.TrimSpace(lastLines(outs[j].String(), 2)))
		}
	}
	budget := strconv.Itoa(s.total / 8)
	phase(2, []int{0, 1}, "--max-pages", budget)
	phase(3, []int{0, 1, 2}, "--max-pages", budget)
	if n := len(s.w.log.Entries()); n >= s.total {
		t.Fatalf("%d requests before the last run: the budgets did not stop the crawl early", n)
	}
	phase(2, []int{0, 1, 2})
	merged := filepath.Join(s.dir, "all.db")
	if _, err := mergeFiles(merged, dbs); err != nil {
		t.Fatal(err)
	}
	s.checkUnion(t, merged)
	s.checkLog(t, func(string, time.Duration) bool { return false })
	if t.Failed() {
		// Where each URL the merge got wrong stands in each node db.
		ref, got := crawlPages(t, s.ref), crawlPages(t, merged)
		for u, p := range ref {
			if q, ok := got[u]; ok && q.Status == p.Status {
				continue
			}
			for i, db := range dbs {
				st := runReadDB(t, db)
				if q, ok := st.pages[u]; ok {
					t.Logf("%s in node %d db: %v %q, depth %d, %d fetches", u, i, q.Status, q.Reason, q.Depth, q.Fetches)
				}
			}
		}
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
