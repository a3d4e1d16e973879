package cluster

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRebalance: node 0's db was settled for two nodes; with three, the
// hosts that now belong to node 2 go there (the queued URL with its
// priority and depth, the fetched one as Known, the one only discovered
// stays), leave node 0's frontier, and the new K is recorded; a second
// call moves nothing.
func TestRebalance(t *testing.T) {
	s := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
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
	if err := db.Commit(&b); err != nil {
		t.Fatal(err)
	}

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
