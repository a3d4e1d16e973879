package frontier

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/scheduler"
)

func TestDefer(t *testing.T) {
	clk := newFakeClock()
	start := clk.Now()
	f := newFrontier(t, fixedSched{map[uint64]float64{1: 2, 2: 1}}, clk, 1)
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "b", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	var ch Changes
	f.Defer("a", start.Add(30*time.Second), "crawl-delay 60s above cap", &ch)
	f.Defer("a", start.Add(10*time.Second), "", &ch) // earlier: kept at 30s
	if len(ch.Hosts) != 1 || !ch.Hosts[0].ReadyAt.Equal(start.Add(30*time.Second)) || ch.Hosts[0].Reason != "crawl-delay 60s above cap" {
		t.Fatalf("Changes.Hosts = %+v", ch.Hosts)
	}
	info, ok := f.Host("a")
	if !ok || info.Reason != "crawl-delay 60s above cap" || !info.ReadyAt.Equal(start.Add(30*time.Second)) || info.Pending != 1 {
		t.Fatalf("Host(a) = %+v, %v", info, ok)
	}
	j, at, err := nextAdvancing(t, f, clk)
	if err != nil || j.ID != 2 || !at.Equal(start) {
		t.Fatalf("first = %d at %v (%v), want 2 at start", j.ID, at.Sub(start), err)
	}
	j, at, err = nextAdvancing(t, f, clk)
	if err != nil || j.ID != 1 || at.Sub(start) != 30*time.Second {
		t.Fatalf("second = %d at %v (%v), want 1 at 30s", j.ID, at.Sub(start), err)
	}
}

func TestRequeue(t *testing.T) {
	clk := newFakeClock()
	start := clk.Now()
	f := newFrontier(t, fixedSched{map[uint64]float64{1: 3, 2: 2, 3: 1}}, clk, 1)
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "a", New: true}, {ID: 3, Host: "b", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	j := mustNext(t, f)
	var ch Changes
	if err := f.Requeue(j, 5*time.Second, &ch); err != nil {
		t.Fatal(err)
	}
	if err := f.Requeue(j, 5*time.Second, &ch); !errors.Is(err, ErrNotInFlight) {
		t.Fatalf("second Requeue err = %v, want ErrNotInFlight", err)
	}
	want := Entry{ID: 1, Host: "a", Prio: 3, Seq: j.Seq, Attempt: 1}
	if len(ch.Put) != 1 || ch.Put[0] != want {
		t.Fatalf("Changes.Put = %+v, want [%+v]", ch.Put, want)
	}
	// Host a waits 5s; b goes first, then 1 again (same place), attempt 1.
	got, at, _ := nextAdvancing(t, f, clk)
	if got.ID != 3 || at != start {
		t.Fatalf("got %d at %v, want 3 at 0", got.ID, at.Sub(start))
	}
	got, at, _ = nextAdvancing(t, f, clk)
	if got.ID != 1 || got.Attempt != 1 || got.Seq != j.Seq || got.Prio != 3 || at.Sub(start) != 5*time.Second {
		t.Fatalf("got %+v at %v, want id 1 attempt 1 at 5s", got, at.Sub(start))
	}
	if err := f.Complete(got, Outcome{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Complete(got, Outcome{}, nil); !errors.Is(err, ErrNotInFlight) {
		t.Fatalf("second Complete err = %v, want ErrNotInFlight", err)
	}
}

func TestDropHost(t *testing.T) {
	f := newFrontier(t, bfsSched{}, newFakeClock(), 1)
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "a", New: true}, {ID: 3, Host: "b", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	var ch Changes
	ids := f.DropHost("a", "crawl-delay above cap", &ch)
	if len(ids) != 2 || len(ch.Delete) != 2 {
		t.Fatalf("DropHost = %v, Deletes %v; want 2 ids", ids, ch.Delete)
	}
	if j := mustNext(t, f); j.ID != 3 {
		t.Fatalf("Next = %d, want 3", j.ID)
	}
	if f.DropHost("nope", "", nil) != nil {
		t.Fatal("DropHost of an unknown host returned ids")
	}
}

func TestCompleteOutcome(t *testing.T) {
	clk := newFakeClock()
	start := clk.Now()
	tests := []struct {
		name      string
		out       Outcome
		wantReady time.Time
		wantCalls int // Downloaded calls
	}{
		{"delay", Outcome{Downloaded: true, Delay: 3 * time.Second}, start.Add(3 * time.Second), 1},
		{"retry-after beyond delay", Outcome{Downloaded: true, Delay: time.Second, ReadyAt: start.Add(time.Minute)}, start.Add(time.Minute), 1},
		{"ready-at before delay", Outcome{Downloaded: true, Delay: time.Minute, ReadyAt: start.Add(time.Second)}, start.Add(time.Minute), 1},
		// Ready time unchanged: no host record to write.
		{"not downloaded: scheduler not told", Outcome{Links: []Target{{ID: 9, Host: "z", New: true}}}, time.Time{}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &countSched{}
			f := newFrontier(t, rec, clk, 1)
			if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}}, nil); err != nil {
				t.Fatal(err)
			}
			var ch Changes
			if err := f.Complete(mustNext(t, f), tc.out, &ch); err != nil {
				t.Fatal(err)
			}
			if rec.calls != tc.wantCalls {
				t.Fatalf("Downloaded called %d times, want %d", rec.calls, tc.wantCalls)
			}
			if tc.wantReady.IsZero() {
				if len(ch.Hosts) != 0 {
					t.Fatalf("Changes.Hosts = %+v, want none", ch.Hosts)
				}
			} else if len(ch.Hosts) != 1 || !ch.Hosts[0].ReadyAt.Equal(tc.wantReady) || ch.Hosts[0].Host != "a" {
				t.Fatalf("Changes.Hosts = %+v, want a ready at %v", ch.Hosts, tc.wantReady.Sub(start))
			}
			if !reflect.DeepEqual(ch.Delete, []uint64{1}) || f.Len() != 0 {
				t.Fatalf("Delete = %v, Len = %d; want [1], 0", ch.Delete, f.Len())
			}
		})
	}
}

type countSched struct{ calls int }

func (s *countSched) Name() string { return "count-test" }

func (s *countSched) Seed([]scheduler.Link) {}

func (s *countSched) Downloaded(scheduler.Link, []scheduler.Link) { s.calls++ }

func TestChangesCompact(t *testing.T) {
	c := Changes{
		Put: []Entry{
			{ID: 1, Prio: 1}, {ID: 2, Prio: 1}, {ID: 1, Prio: 2}, {ID: 3, Prio: 1}, {ID: 2, Prio: 5},
		},
		Delete: []uint64{3},
		Hosts:  []HostState{{Host: "a", Reason: "x"}, {Host: "b"}, {Host: "a", Reason: "y"}},
	}
	c.Compact()
	wantPut := []Entry{{ID: 1, Prio: 2}, {ID: 2, Prio: 5}}
	wantHosts := []HostState{{Host: "b"}, {Host: "a", Reason: "y"}}
	if !reflect.DeepEqual(c.Put, wantPut) || !reflect.DeepEqual(c.Hosts, wantHosts) {
		t.Fatalf("Compact = %+v / %+v, want %+v / %+v", c.Put, c.Hosts, wantPut, wantHosts)
	}
	c.Reset()
	if !c.Empty() {
		t.Fatalf("Reset left %+v", c)
	}
}
