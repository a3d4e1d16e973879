package scheduler

import (
	"fmt"
	"math"
	"testing"
)

// TestRankMassBatcher checks the Batcher semantics of rankmass-window by
// hand, with both the map and the array store: Due only after a window of
// P% of the frontier, one propagation pass per Flush, emits only for
// undownloaded ids, priorities between flushes left alone.
func TestRankMassBatcher(t *testing.T) {
	for _, nodes := range []int{0, 100} {
		t.Run(fmt.Sprintf("nodes=%d", nodes), func(t *testing.T) {
			s := mustNew(t, "rankmass-window@50", Options{Nodes: nodes})
			b := s.(Batcher)
			seeds := []Link{{ID: 1, State: New}, {ID: 2, State: New}, {ID: 3, State: New}, {ID: 4, State: New}}
			s.Seed(seeds)
			const r = 0.15 / 4
			for _, l := range seeds {
				if math.Abs(l.Prio-r) > 1e-15 {
					t.Fatalf("seed rm %v, want %v", l.Prio, r)
				}
			}
			// Window: 50% of the 4 seeds = 2 downloads.
			out1 := []Link{{ID: 10, State: New}, {ID: 11, State: New}}
			s.Downloaded(Link{ID: 1, State: Done, Prio: r}, out1)
			if out1[0].Prio != 0 || out1[1].Prio != 0 {
				t.Errorf("new targets got priorities %v, %v before the flush", out1[0].Prio, out1[1].Prio)
			}
			if b.Due(5) {
				t.Fatal("Due after 1 of a 2-page window")
			}
			out2 := []Link{{ID: 10, State: Queued}, {ID: 12, State: New}, {ID: 1, State: Done, Prio: r}}
			s.Downloaded(Link{ID: 2, State: Done, Prio: r}, out2)
			if !b.Due(5) {
				t.Fatal("not Due after a full window")
			}
			got := map[uint64]float64{}
			b.Flush(func(id uint64, p float64) {
				if _, dup := got[id]; dup {
					t.Errorf("id %d emitted twice", id)
				}
				got[id] = p
			})
			want := map[uint64]float64{10: 0.85*r/2 + 0.85*r/3, 11: 0.85 * r / 2, 12: 0.85 * r / 3}
			if len(got) != len(want) {
				t.Errorf("emitted %v, want %v", got, want)
			}
			for id, w := range want {
				if math.Abs(got[id]-w) > 1e-15 {
					t.Errorf("id %d emitted %v, want %v", id, got[id], w)
				}
			}
			if b.Due(5) {
				t.Error("Due right after a flush")
			}
			// Next window: 50% of 5 queued = 3 downloads. Page 1 received
			// 0.85·r/3 from page 2 and passes it on at the next flush:
			// mass flows through downloaded pages.
			for i, id := range []uint64{3, 4} {
				s.Downloaded(Link{ID: id, State: Done, Prio: r}, nil)
				if b.Due(5) {
					t.Fatalf("Due after %d of a 3-page window", i+1)
				}
			}
			s.Downloaded(Link{ID: 11, State: Done, Prio: want[11]}, nil)
			if !b.Due(3) {
				t.Fatal("not Due after the second window")
			}
			got = map[uint64]float64{}
			b.Flush(func(id uint64, p float64) { got[id] = p })
			w10 := want[10] + 0.85*(0.85*r/3)/2
			if len(got) != 1 || math.Abs(got[10]-w10) > 1e-15 {
				t.Errorf("second flush emitted %v, want only 10: %v", got, w10)
			}
		})
	}
}

// TestRankMassReplay checks a whole crawl through the checking driver, by
// hand: seeds {A}, A → B, C; B → A, C; C dangling; window 5%.
//
//	A (0.15) → flush: B = C = 0.85·0.15/2 = 0.06375
//	B first (FIFO) → flush: A gets 0.85·0.06375/2, C = 0.06375 + 0.02709375
//	C (0.09084375)
func TestRankMassReplay(t *testing.T) {
	g := testGraph{out: [][]int{{1, 2}, {0, 2}, {}}}
	got := replay(t, mustNew(t, "rankmass-window@5", Options{}), g, []int{0})
	want := []step{{0, 0.15}, {1, 0.06375}, {2, 0.09084375}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].id != want[i].id || math.Abs(got[i].prio-want[i].prio) > 1e-15 {
			t.Errorf("download %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	s := mustNew(t, "rankmass-window@5", Options{}).(*rankMass)
	replay(t, s, g, []int{0})
	// Every unit of mass either left through a dangling page or is the
	// (1−d) share lost at each hop: CRM counts all mass propagated, which
	// here is A's 0.15, B's 0.06375, A's second 0.02709375, and C's total.
	wantCRM := 0.15 + 0.06375 + 0.02709375 + 0.09084375 + 0.85*0.02709375/2
	if math.Abs(s.crm-wantCRM) > 1e-15 {
		t.Errorf("CRM %v, want %v", s.crm, wantCRM)
	}
}
