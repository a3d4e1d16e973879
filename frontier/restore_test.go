package frontier

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// randomWeb returns a web of n pages over h hosts with up to maxOut
// distinct out-links per page, biased to the same host, seeded.
func randomWeb(n, h, maxOut int, seed uint64) web {
	r := rand.New(rand.NewPCG(seed, 1))
	hosts := make([]string, h)
	for i := range hosts {
		hosts[i] = "h" + strconv.Itoa(i) + ".test"
	}
	hostOf := make([]string, n)
	for i := range hostOf {
		hostOf[i] = hosts[r.IntN(h)]
	}
	out := make(map[uint64][]uint64, n)
	for p := 0; p < n; p++ {
		k := r.IntN(maxOut + 1)
		seen := map[uint64]bool{}
		for len(out[uint64(p)]) < k {
			q := uint64(r.IntN(n))
			if !seen[q] {
				seen[q] = true
				out[uint64(p)] = append(out[uint64(p)], q)
			}
		}
	}
	return web{host: func(id uint64) string { return hostOf[id] }, out: out}
}

// TestRestoreRoundTrip crawls part of a web, persisting Changes into a
// map, "crashes" with jobs in flight, restores a new frontier from the map,
// and checks it holds the same URLs and hands them out in the same order as
// the original would once its in-flight jobs are requeued.
func TestRestoreRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name             string
		steps, inflight  int
		compact          bool
		hosts, pages, hc int
	}{
		{name: "mid-crawl with jobs in flight", steps: 150, inflight: 5, hosts: 7, pages: 600, hc: 2},
		{name: "compacted batches", steps: 300, inflight: 3, compact: true, hosts: 3, pages: 600, hc: 1},
		{name: "right after seeding", steps: 0, inflight: 0, hosts: 5, pages: 200, hc: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := randomWeb(tc.pages, tc.hosts, 8, 7)
			clk := newFakeClock()
			s1 := &fprSched{d: 0.85}
			f1 := newFrontier(t, s1, clk, tc.hc)
			c := newCrawler(w)
			st := newStore()
			var ch Changes
			if err := f1.Seed(c.seeds(0, 1, 2), &ch); err != nil {
				t.Fatal(err)
			}
			st.apply(&ch)
			for i := 0; i < tc.steps; i++ {
				j := mustNext(t, f1)
				if err := f1.Complete(j, Outcome{Downloaded: true, Links: c.targets(j)}, &ch); err != nil {
					t.Fatal(err)
				}
				if tc.compact && i%7 == 6 {
					ch.Compact()
					st.apply(&ch)
				} else if !tc.compact {
					st.apply(&ch)
				}
			}
			if tc.compact {
				ch.Compact()
				st.apply(&ch)
			}
			var flying []Job
			for i := 0; i < tc.inflight; i++ {
				flying = append(flying, mustNext(t, f1))
			}

			// Crash: a fresh frontier from what was stored.
			s2 := &fprSched{d: 0.85}
			f2 := newFrontier(t, s2, clk, tc.hc)
			if err := f2.Restore(st.snapshot()); err != nil {
				t.Fatal(err)
			}
			if s2.downloads != s1.downloads {
				t.Fatalf("restored scheduler state %d downloads, want %d", s2.downloads, s1.downloads)
			}
			if got, want := f2.Len(), f1.Len()+len(flying); got != want {
				t.Fatalf("restored %d entries, want %d queued + %d in flight", got, f1.Len(), len(flying))
			}
			if err := f2.Restore(st.snapshot()); err == nil {
				t.Fatal("second Restore succeeded, want ErrNotEmpty")
			}
			for _, j := range flying {
				if err := f1.Requeue(j, 0, nil); err != nil {
					t.Fatal(err)
				}
			}
			c2 := &crawler{w: w, seen: map[uint64]bool{}}
			for id, v := range c.seen {
				c2.seen[id] = v
			}
			o1 := drain(t, f1, c, nil)
			o2 := drain(t, f2, c2, nil)
			if len(o1) < 50 {
				t.Fatalf("only %d pages left after the restore; the case tests little", len(o1))
			}
			if !reflect.DeepEqual(o1, o2) {
				t.Fatalf("order after restore differs:\n%v\n%v", o1, o2)
			}
		})
	}
}

// TestRestoreSeqAndHosts checks that sequence numbers continue after the
// largest restored one and stored host ready times are honoured.
func TestRestoreSeqAndHosts(t *testing.T) {
	clk := newFakeClock()
	start := clk.Now()
	f := newFrontier(t, bfsSched{}, clk, 1)
	snap := Snapshot{
		Entries: []Entry{
			{ID: 10, Host: "a", Seq: 41, Depth: 2, Attempt: 2},
			{ID: 11, Host: "b", Seq: 7, Depth: 1},
		},
		Hosts: []HostState{{Host: "b", ReadyAt: start.Add(time.Minute), Reason: "Retry-After"}},
	}
	if err := f.Restore(snap); err != nil {
		t.Fatal(err)
	}
	j, at, err := nextAdvancing(t, f, clk)
	if err != nil || j.ID != 10 || j.Attempt != 2 || j.Depth != 2 || j.Host != "a" || at != start {
		t.Fatalf("first = %+v at %v (%v)", j, at.Sub(start), err)
	}
	var ch Changes
	if err := f.Complete(j, Outcome{Downloaded: true, Links: []Target{{ID: 12, Host: "c", New: true, Depth: 3}}}, &ch); err != nil {
		t.Fatal(err)
	}
	if len(ch.Put) != 1 || ch.Put[0].Seq != 42 {
		t.Fatalf("new entry %+v, want Seq 42", ch.Put)
	}
	// b (seq 7) beats c (seq 42) on FIFO, but b is not ready for a minute.
	j, at, _ = nextAdvancing(t, f, clk)
	if j.ID != 12 || at != start {
		t.Fatalf("second = %d at %v, want 12 at 0", j.ID, at.Sub(start))
	}
	j, at, _ = nextAdvancing(t, f, clk)
	if j.ID != 11 || at.Sub(start) != time.Minute {
		t.Fatalf("third = %d at %v, want 11 at 1m", j.ID, at.Sub(start))
	}
	bad := newFrontier(t, bfsSched{}, clk, 1)
	if err := bad.Restore(Snapshot{Entries: []Entry{{ID: 1, Host: "a"}, {ID: 1, Host: "b"}}}); err == nil {
		t.Fatal("Restore with a duplicate id succeeded")
	}
	bs := &fprSched{}
	bad = newFrontier(t, bs, clk, 1)
	if err := bad.Restore(Snapshot{SchedState: []byte{1}}); err == nil {
		t.Fatal("Restore with bad scheduler state succeeded")
	}
}
