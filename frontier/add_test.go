package frontier

import (
	"testing"
)

func TestAdd(t *testing.T) {
	clk := newFakeClock()
	f := newFrontier(t, bfsSched{}, clk, 1)
	// Seeds 1 and 2; 1 goes in flight, 2 stays queued. Add then offers 1
	// (busy), 2 (queued: moved to the front, recorded with its priority),
	// 3 (known to storage: not New) and 4 (Skip ignored).
	if err := f.Seed([]Target{{ID: 1, Host: "a.test", New: true}, {ID: 2, Host: "b.test", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	flying := mustNext(t, f)
	if flying.ID != 1 {
		t.Fatalf("first job %d, want 1", flying.ID)
	}
	var ch Changes
	n := f.Add([]Target{{ID: 1, Host: "a.test"}, {ID: 2, Host: "b.test"}, {ID: 3, Host: "a.test"}, {ID: 4, Host: "c.test", New: true, Skip: true}}, 7, &ch)
	if n != 2 {
		t.Fatalf("Add enqueued %d, want 2 (ids 3 and 4)", n)
	}
	if len(ch.Put) != 3 || ch.Put[0].ID != 2 || ch.Put[0].Prio != 0 || ch.Put[1].ID != 3 || ch.Put[1].Prio != 7 || ch.Put[2].ID != 4 {
		t.Fatalf("Add changes = %+v, want puts of 2 at prio 0, 3 and 4 at prio 7", ch.Put)
	}
	if got := f.Len(); got != 3 {
		t.Fatalf("Len = %d, want 3 (2, 3, 4)", got)
	}
	if _, err := f.Done(flying, Result{}, nil); err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for range 3 {
		j, _, err := nextAdvancing(t, f, clk)
		if err != nil {
			t.Fatal(err)
		}
		seen[j.ID] = true
		if _, err := f.Done(j, Result{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []uint64{2, 3, 4} {
		if !seen[id] {
			t.Errorf("id %d not handed out; got %v", id, seen)
		}
	}
}
