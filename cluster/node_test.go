package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/recrawl"
)

// startServer starts an embedded NATS server in a temp dir for one test.
func startServer(t *testing.T) *Server {
	t.Helper()
	s, err := StartServer(ServerOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// checkStreamAfterEnd fails t unless the URL stream n reads holds want
// messages once the crawl ended.
func checkStreamAfterEnd(t *testing.T, ctx context.Context, n *Node, want uint64) {
	t.Helper()
	info, err := n.stream.Info(ctx)
	if err != nil {
		t.Fatalf("stream after the end: %v", err)
	}
	if info.State.Msgs != want {
		t.Fatalf("stream after the end: %d messages, want %d", info.State.Msgs, want)
	}
}

func openNode(t *testing.T, url string, id, k int) *Node {
	t.Helper()
	ctx := testContext(t, 10*time.Second)
	n, err := Open(ctx, Options{URL: url, NodeID: id, Nodes: k, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// web is a synthetic link graph: H hosts of P pages; page (h,p) links to
// (h,p+1), ((7h+p) mod H, (3p+1) mod P) and ((h+1) mod H, p).
type web struct{ H, P int }

func (w web) url(h, p int) string { return fmt.Sprintf("http://h%d.test/p%d", h, p) }
func (w web) host(h int) string   { return fmt.Sprintf("h%d.test", h) }

func (w web) links(h, p int) [][2]int {
	out := [][2]int{{(7*h + p) % w.H, (3*p + 1) % w.P}, {(h + 1) % w.H, p}}
	if p+1 < w.P {
		out = append(out, [2]int{h, p + 1})
	}
	return out
}

// fakeCrawl is a Local that "fetches" pages of a web in memory: it keeps
// the URLs its node owns and hands the others off, like the crawler.
type fakeCrawl struct {
	w    web
	node *Node

	mu         sync.Mutex
	seen       map[[2]int]bool
	queue      [][2]int
	processing int
	fetched    [][2]int
	injected   int
	wake       chan struct{}
}

func newFakeCrawl(w web, n *Node) *fakeCrawl {
	return &fakeCrawl{w: w, node: n, seen: map[[2]int]bool{}, wake: make(chan struct{}, 1)}
}

func (f *fakeCrawl) parse(u string) [2]int {
	var h, p int
	if _, err := fmt.Sscanf(u, "http://h%d.test/p%d", &h, &p); err != nil {
		panic(err)
	}
	return [2]int{h, p}
}

func (f *fakeCrawl) add(pg [2]int) {
	if !f.seen[pg] {
		f.seen[pg] = true
		f.queue = append(f.queue, pg)
	}
}

func (f *fakeCrawl) Inject(_ context.Context, urls []URL) error {
	f.mu.Lock()
	for _, u := range urls {
		f.add(f.parse(u.URL))
		f.injected++
	}
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
	return nil
}

func (f *fakeCrawl) Idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue) == 0 && f.processing == 0
}

// run fetches queued pages until ctx ends.
func (f *fakeCrawl) run(ctx context.Context) error {
	for {
		f.mu.Lock()
		if len(f.queue) == 0 {
			f.mu.Unlock()
			select {
			case <-ctx.Done():
				return nil
			case <-f.wake:
			}
			continue
		}
		pg := f.queue[0]
		f.queue = f.queue[1:]
		f.processing++
		f.fetched = append(f.fetched, pg)
		f.mu.Unlock()
		var local [][2]int
		for _, l := range f.w.links(pg[0], pg[1]) {
			if f.node.Owns(f.w.host(l[0])) {
				local = append(local, l)
			} else if err := f.node.Handoff(f.w.url(l[0], l[1]), f.w.host(l[0]), 1, 0.5, f.w.url(pg[0], pg[1])); err != nil {
				return err
			}
		}
		if err := f.node.Flush(ctx); err != nil {
			return err
		}
		f.mu.Lock()
		for _, l := range local {
			f.add(l)
		}
		f.processing--
		f.mu.Unlock()
	}
}

// TestClusterCrawlFake: three nodes over one embedded server crawl a
// synthetic web; every reachable page is fetched exactly once, by its
// owner, and every node sees the end.
func TestClusterCrawlFake(t *testing.T) {
	s := startServer(t)
	w := web{H: 23, P: 40}
	const k = 3
	ctx := testContext(t, 60*time.Second)
	nodes := make([]*Node, k)
	crawls := make([]*fakeCrawl, k)
	for i := range nodes {
		nodes[i] = openNode(t, s.URL(), i, k)
		crawls[i] = newFakeCrawl(w, nodes[i])
	}
	// The seed goes to its owner only, as the command line does.
	seed := [2]int{0, 0}
	owner := nodes[0].Owner(w.host(0))
	crawls[owner].mu.Lock()
	crawls[owner].add(seed)
	crawls[owner].mu.Unlock()

	var wg sync.WaitGroup
	errs := make(chan error, 2*k)
	for i := range nodes {
		wg.Add(2)
		cctx, ccancel := context.WithCancel(ctx)
		go func() { defer wg.Done(); errs <- crawls[i].run(cctx) }()
		go func() { defer wg.Done(); defer ccancel(); errs <- nodes[i].Run(ctx, crawls[i]) }()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := map[[2]int]bool{}
	stack := [][2]int{seed}
	want[seed] = true
	for len(stack) > 0 {
		pg := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, l := range w.links(pg[0], pg[1]) {
			if !want[l] {
				want[l] = true
				stack = append(stack, l)
			}
		}
	}
	got := map[[2]int]int{}
	var published, received uint64
	for i, c := range crawls {
		for _, pg := range c.fetched {
			got[pg]++
			if o := nodes[i].Owner(w.host(pg[0])); o != i {
				t.Errorf("node %d fetched %v owned by %d", i, pg, o)
			}
		}
		st := nodes[i].Stats()
		published += st.Published
		received += st.Received
	}
	for pg := range want {
		if got[pg] != 1 {
			t.Errorf("page %v fetched %d times, want 1", pg, got[pg])
		}
	}
	if len(got) != len(want) {
		t.Errorf("fetched %d distinct pages, want %d", len(got), len(want))
	}
	if published != received || published == 0 {
		t.Errorf("published %d URL messages, received %d: want equal and > 0", published, received)
	}
	checkStreamAfterEnd(t, ctx, nodes[0], 0)
}

// TestQuiescenceWaitsForStoredMessages: all nodes idle but a URL stored
// for a node is not the end; its consumption (busy, inject, idle again)
// is.
func TestQuiescenceWaitsForStoredMessages(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 20*time.Second)
	a, b := openNode(t, s.URL(), 0, 2), openNode(t, s.URL(), 1, 2)
	host := ownedHost(b)
	for _, n := range []*Node{a, b} {
		n.stateMu.Lock()
		n.idle = true
		if err := n.put(ctx, record{Idle: true, Epoch: n.epoch}); err != nil {
			t.Fatal(err)
		}
		n.stateMu.Unlock()
	}
	storeHandoff(t, ctx, a, host, 3, 0.25)
	if done, err := a.quiescent(ctx); err != nil || done {
		t.Fatalf("quiescent with a stored message = %v, %v; want false", done, err)
	}
	lb := &recordLocal{}
	bctx, bcancel := context.WithCancel(ctx)
	defer bcancel()
	errc := make(chan error, 1)
	go func() { errc <- b.Run(bctx, lb) }()
	if err := a.Run(ctx, &recordLocal{}); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if len(lb.got) != 1 || lb.got[0] != (URL{URL: "http://" + host + "/", Depth: 3, Mass: 0.25}) {
		t.Fatalf("node 1 got %+v", lb.got)
	}
}

// recordLocal is a Local that records what it gets and is always idle
// between calls.
type recordLocal struct {
	mu  sync.Mutex
	got []URL
}

func (r *recordLocal) Inject(_ context.Context, urls []URL) error {
	r.mu.Lock()
	r.got = append(r.got, urls...)
	r.mu.Unlock()
	return nil
}
func (r *recordLocal) Idle() bool { return true }

func TestElect(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 10*time.Second)
	a, b := openNode(t, s.URL(), 0, 2), openNode(t, s.URL(), 1, 2)
	la, leader, err := a.Elect(ctx, 2)
	if err != nil || leader != 0 {
		t.Fatalf("first Elect = %d, %v; want leader 0", leader, err)
	}
	if _, leader, err := b.Elect(ctx, 2); !errors.Is(err, ErrNotLeader) || leader != 0 {
		t.Fatalf("second Elect = %d, %v; want ErrNotLeader, leader 0", leader, err)
	}
	if _, err := b.Seeds(ctx, 2); !errors.Is(err, ErrNoSeeds) {
		t.Fatalf("Seeds before publication: %v, want ErrNoSeeds", err)
	}
	seeds := []recrawl.Pick{{URL: "http://a.test/", Score: 2, Why: "best"}, {URL: "http://b.test/"}}
	if err := a.PublishSeeds(ctx, la, 2, seeds); err != nil {
		t.Fatal(err)
	}
	got, err := b.Seeds(ctx, 2)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(seeds) {
		t.Fatalf("Seeds = %v, %v; want %v", got, err, seeds)
	}
	if err := la.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, leader, err := b.Elect(ctx, 2); err != nil || leader != 1 {
		t.Fatalf("Elect after release = %d, %v; want leader 1", leader, err)
	}
}

// TestQuiescenceStoppedNode: a node that left (budget, deadline, SIGINT)
// does not hold the others back; the URLs sent to it stay stored.
func TestQuiescenceStoppedNode(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 20*time.Second)
	a, b := openNode(t, s.URL(), 0, 2), openNode(t, s.URL(), 1, 2)
	host := ownedHost(b)
	storeHandoff(t, ctx, a, host, 1, 0)
	if err := b.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Run(ctx, &recordLocal{}); err != nil {
		t.Fatalf("Run with the other node stopped: %v", err)
	}
	checkStreamAfterEnd(t, ctx, a, 1) // the stopped node's URL is kept
}

// TestHandoffMany: more URLs between two Flushes than the client allows
// pending publishes are all stored, once each.
func TestHandoffMany(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 30*time.Second)
	a := openNode(t, s.URL(), 0, 2)
	const n = 5*flushAt + 7
	sent, first, firstHost := 0, "", ""
	for i := 0; sent < n; i++ {
		h := fmt.Sprintf("h%d.test", i%50)
		if a.Owns(h) {
			continue
		}
		u := fmt.Sprintf("http://%s/%d", h, i)
		if err := a.Handoff(u, h, 1, 0, "p"); err != nil {
			t.Fatal(err)
		}
		if sent == 0 {
			first, firstHost = u, h
		}
		sent++
	}
	// The first URL again: dropped by the stream as a repeat.
	if err := a.Handoff(first, firstHost, 1, 0, "p"); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := a.stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := a.Stats()
	if info.State.Msgs != n || st.Published != n || st.Duplicates != 1 {
		t.Fatalf("stream holds %d messages, %d published, %d repeats; want %d, %d, 1", info.State.Msgs, st.Published, st.Duplicates, n, n)
	}
}

// TestAgreeSeeds: three nodes that selected different seeds for a cycle
// agree on one node's selection; a node elected after the seeds were
// published cannot replace them.
func TestAgreeSeeds(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 20*time.Second)
	const k = 3
	type answer struct {
		seeds  []recrawl.Pick
		leader int
		err    error
	}
	answers := make([]answer, k)
	var wg sync.WaitGroup
	nodes := make([]*Node, k)
	for i := range k {
		nodes[i] = openNode(t, s.URL(), i, k)
	}
	for i := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := []recrawl.Pick{{URL: fmt.Sprintf("http://n%d.test/", i), Why: fmt.Sprintf("node %d", i)}}
			seeds, leader, err := nodes[i].AgreeSeeds(ctx, 2, mine)
			answers[i] = answer{seeds, leader, err}
		}()
	}
	wg.Wait()
	leader := answers[0].leader
	if leader < 0 || leader >= k {
		t.Fatalf("leader %d", leader)
	}
	want := fmt.Sprintf("http://n%d.test/", leader)
	for i, a := range answers {
		if a.err != nil || a.leader != leader || len(a.seeds) != 1 || a.seeds[0].URL != want {
			t.Errorf("node %d agreed on %+v (leader %d, %v), want %s from node %d", i, a.seeds, a.leader, a.err, want, leader)
		}
	}
	// The lock released (as when it expires): a new leader of the same
	// cycle finds the seeds published.
	kv, err := nodes[0].locks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := kv.Delete(ctx, lockKey(2)); err != nil {
		t.Fatal(err)
	}
	other := (leader + 1) % k
	l, _, err := nodes[other].Elect(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := nodes[other].PublishSeeds(ctx, l, 2, []recrawl.Pick{{URL: "http://late.test/"}}); !errors.Is(err, ErrPublished) {
		t.Fatalf("second publication: %v, want ErrPublished", err)
	}
	if got, err := nodes[other].Seeds(ctx, 2); err != nil || got[0].URL != want {
		t.Fatalf("seeds after a second election: %+v, %v; want %s", got, err, want)
	}
}
