package cluster

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRebalance: node 0's db was settled for two nodes; with three, the
// hosts that now belong to node 2 go there (the queued URL with its
// priority and depth, the fetched one as Known, the one only discovered
// stays), leave node 0's frontier, and the new K is recorded; a second
// call moves nothing.
func TestRebalance(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 20*time.Second)
	before, after := NewRingN(2), NewRingN(3)
	moving, staying := "", ""
	for i := 0; moving == "" || staying == ""; i++ {
		h := fmt.Sprintf("h%d.test", i)
		switch {
		case before.Owner(h) == 0 && after.Owner(h) == 2 && moving == "":
			moving = h
		case before.Owner(h) == 0 && after.Owner(h) == 0 && staying == "":
			staying = h
		}
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "n0.db"), &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	urls := []string{"http://" + moving + "/queued", "http://" + moving + "/fetched", "http://" + moving + "/found",
		"http://" + staying + "/queued"}
	ints, err := db.Intern(urls, storage.NoPage, 3)
	if err != nil {
		t.Fatal(err)
	}
	var b storage.Batch
	b.SetState(StateNodes, []byte("2"))
	b.PutFrontier(storage.Entry{ID: ints[0].ID, Host: moving, Prio: 0.25, Seq: 1, Depth: 3})
	b.SetStatus(ints[0].ID, storage.StatusQueued, "")
	b.AddFetch(storage.Fetch{ID: ints[1].ID, Host: moving, Status: storage.StatusFetched, Code: 200, FetchedAt: time.Now()}, nil)
	b.PutFrontier(storage.Entry{ID: ints[3].ID, Host: staying, Prio: 0.5, Seq: 2, Depth: 3})
	b.SetStatus(ints[3].ID, storage.StatusQueued, "")
	crawltest.Commit(t, db, &b)

	n0, n1, n2 := openNode(t, s.URL(), 0, 3), openNode(t, s.URL(), 1, 3), openNode(t, s.URL(), 2, 3)
	mv, err := n0.Rebalance(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if mv.FromNodes != 2 || mv.ToNodes != 3 || mv.Hosts != 1 || mv.Queued != 1 || mv.Known != 1 {
		t.Fatalf("Rebalance = %+v, want 2 → 3 nodes, 1 host, 1 queued, 1 known", mv)
	}
	var left []string
	if err := db.LoadFrontier(func(e storage.Entry) error { left = append(left, e.URL); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0] != urls[3] {
		t.Errorf("frontier after Rebalance: %v, want only %s", left, urls[3])
	}
	if p, err := db.PageByURL(urls[0]); err != nil || p.Status != storage.StatusDiscovered || p.Reason != ReasonMoved {
		t.Errorf("moved URL stored as %v %q (%v), want discovered, %q", p.Status, p.Reason, err, ReasonMoved)
	}
	if v, _ := db.State(StateNodes); string(v) != "3" {
		t.Errorf("recorded K %q, want 3", v)
	}
	// Node 1 and 2 settle too (nothing to move); then all three are.
	for _, n := range []*Node{n1, n2} {
		ndb, err := storage.Open(filepath.Join(t.TempDir(), "n.db"), &storage.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ndb.Close()
		if _, err := n.Rebalance(ctx, ndb); err != nil {
			t.Fatal(err)
		}
	}
	if err := n2.WaitSettled(ctx, 3); err != nil {
		t.Fatal(err)
	}
	var known []URL
	if _, err := n2.Preload(ctx, func(us []URL) error { known = append(known, us...); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(known) != 1 || known[0].URL != urls[1] {
		t.Errorf("Preload gave %+v, want %s as Known", known, urls[1])
	}
	lr := &notifyLocal{arrived: make(chan struct{}, 16)}
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- n2.Run(rctx, lr) }()
	for {
		lr.mu.Lock()
		got := len(lr.got)
		lr.mu.Unlock()
		if got >= 2 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("node 2 received %d of 2 URLs", got)
		case <-lr.arrived:
		}
	}
	stop()
	<-done
	sort.Slice(lr.got, func(i, j int) bool { return lr.got[i].URL < lr.got[j].URL })
	want := []URL{{URL: urls[1], Depth: 3, Known: true}, {URL: urls[0], Depth: 3, Mass: 0.25}}
	if fmt.Sprint(lr.got) != fmt.Sprint(want) {
		t.Errorf("node 2 received %+v, want %+v", lr.got, want)
	}
	if mv, err := n0.Rebalance(ctx, db); err != nil || mv.Queued+mv.Known != 0 {
		t.Errorf("second Rebalance = %+v, %v; want nothing moved", mv, err)
	}
}

// notifyLocal is a recordLocal that signals every Inject.
type notifyLocal struct {
	recordLocal
	arrived chan struct{}
}

func (l *notifyLocal) Inject(ctx context.Context, urls []URL) error {
	err := l.recordLocal.Inject(ctx, urls)
	l.arrived <- struct{}{}
	return err
}

// TestForwardAndDrain: URLs stored for a node under an old membership
// reach the host's owner under the new one: forwarded by the consumer of a
// node that stays (the cluster grew and the host moved to the new node),
// drained by a node that leaves (the cluster shrank).
func TestForwardAndDrain(t *testing.T) {
	two, three := NewRingN(2), NewRingN(3)
	host := func(old, now Ring, from, to int) string {
		for i := 0; ; i++ {
			if h := fmt.Sprintf("f%d.test", i); old.Owner(h) == from && now.Owner(h) == to {
				return h
			}
		}
	}
	// receive runs node n until local got one URL and returns it.
	receive := func(t *testing.T, ctx context.Context, n *Node, also ...*Node) []URL {
		t.Helper()
		l := &notifyLocal{arrived: make(chan struct{}, 16)}
		rctx, stop := context.WithCancel(ctx)
		errc := make(chan error, 1+len(also))
		go func() { errc <- n.Run(rctx, l) }()
		for _, o := range also {
			go func() { errc <- o.Run(rctx, &recordLocal{}) }()
		}
		defer func() {
			stop()
			for range 1 + len(also) {
				<-errc
			}
		}()
		for {
			l.mu.Lock()
			got := slices.Clone(l.got)
			l.mu.Unlock()
			if len(got) > 0 {
				return got
			}
			select {
			case <-ctx.Done():
				t.Fatal("no URL arrived")
			case <-l.arrived:
			}
		}
	}
	t.Run("grow", func(t *testing.T) {
		s := startServer(t)
		ctx := testContext(t, 20*time.Second)
		h := host(two, three, 0, 2)
		old := openNode(t, s.URL(), 1, 2)
		storeHandoff(t, ctx, old, h, 2, 0.5) // stored for node 0
		n0, n2 := openNode(t, s.URL(), 0, 3), openNode(t, s.URL(), 2, 3)
		got := receive(t, ctx, n2, n0) // node 0 forwards it
		if want := (URL{URL: "http://" + h + "/", Depth: 2, Mass: 0.5}); len(got) != 1 || got[0] != want {
			t.Fatalf("node 2 received %+v, want %+v", got, want)
		}
	})
	t.Run("shrink", func(t *testing.T) {
		s := startServer(t)
		ctx := testContext(t, 20*time.Second)
		h := host(three, two, 2, 1)
		old := openNode(t, s.URL(), 0, 3)
		storeHandoff(t, ctx, old, h, 4, 0.25) // stored for node 2
		leaving, err := Open(ctx, Options{URL: s.URL(), NodeID: 2, Nodes: 2, Leaving: true, Poll: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer leaving.Close()
		// The others may crawl only once the leaving node's subject is
		// empty: it is recorded settled by Drain, not before.
		if e, err := leaving.nodes.Get(ctx, settledKey(2)); err == nil {
			t.Fatalf("leaving node settled (%q) before it drained", e.Value())
		}
		if n, err := leaving.Drain(ctx); err != nil || n != 1 {
			t.Fatalf("Drain = %d, %v; want 1 URL forwarded", n, err)
		}
		if e, err := leaving.nodes.Get(ctx, settledKey(2)); err != nil || string(e.Value()) != "2" {
			t.Fatalf("after Drain the leaving node's settled record is %v, %v; want 2", e, err)
		}
		n1 := openNode(t, s.URL(), 1, 2)
		got := receive(t, ctx, n1)
		if want := (URL{URL: "http://" + h + "/", Depth: 4, Mass: 0.25}); len(got) != 1 || got[0] != want {
			t.Fatalf("node 1 received %+v, want %+v", got, want)
		}
	})
}

// TestWaitSettledFormerMembers: a node of a cluster shrunk from 3 to 2
// (so upto = 2 after its own Rebalance, as on a restart) still waits for
// former node 2, whose settled record names the old K until it drained.
func TestWaitSettledFormerMembers(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t, 10*time.Second)
	n0 := openNode(t, s.URL(), 0, 2)
	for i, v := range []string{"2", "2", "3"} {
		if _, err := n0.nodes.Put(ctx, settledKey(i), []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	short, stop := context.WithTimeout(ctx, 100*time.Millisecond)
	defer stop()
	if err := n0.WaitSettled(short, 2); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitSettled with former node 2 not drained = %v, want a wait until the deadline", err)
	}
	if _, err := n0.nodes.Put(ctx, settledKey(2), []byte("2")); err != nil {
		t.Fatal(err)
	}
	if err := n0.WaitSettled(ctx, 2); err != nil {
		t.Fatalf("WaitSettled once node 2 drained: %v", err)
	}
}
