package scheduler

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOPICCashConservation stops crawls of random graphs at several points
// and checks Abiteboul et al.'s invariant: the cash is only moved, so the
// queued cash plus the virtual page's equals the cash the seeds got, and
// the history G equals the cash spent by the downloads.
func TestOPICCashConservation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 20; i++ {
		g := randomGraph(r, 30+r.IntN(200), r.IntN(5), r.IntN(9))
		seeds := []int{0, r.IntN(len(g.out)), r.IntN(len(g.out))}
		for _, limit := range []int{0, 1, 5, 20, -1} {
			s := mustNew(t, "opic", Options{}).(*opic)
			order, queued := replayN(t, s, g, seeds, limit)
			if got := queued + s.virtual; math.Abs(got-s.injected) > 1e-12 {
				t.Fatalf("graph %d after %d pages: queued %v + virtual %v = %v, want %v", i, len(order), queued, s.virtual, got, s.injected)
			}
			var spent float64
			for _, st := range order {
				spent += st.prio
			}
			if math.Abs(spent-s.history) > 1e-12 {
				t.Fatalf("graph %d: history %v, want the %v spent", i, s.history, spent)
			}
		}
	}
}

// TestOPICCashRule checks one download by hand: the seeds share 1, and a
// page's cash is split equally over all its distinct out-links, the shares
// of downloaded ones going to the virtual page.
func TestOPICCashRule(t *testing.T) {
	s := mustNew(t, "opic", Options{}).(*opic)
	seeds := []Link{{ID: 1, State: New}, {ID: 2, State: New}, {ID: 3, State: New}, {ID: 4, State: New}}
	s.Seed(seeds)
	for _, l := range seeds {
		if l.Prio != 0.25 {
			t.Fatalf("seed cash %v, want 0.25", l.Prio)
		}
	}
	out := []Link{{ID: 2, State: Queued, Prio: 0.25}, {ID: 5, State: New}, {ID: 1, State: Done, Prio: 0.25}, {ID: 6, State: New}}
	s.Downloaded(Link{ID: 1, State: Done, Prio: 0.25}, out)
	want := []float64{0.25 + 0.0625, 0.0625, 0.25, 0.0625}
	for i, l := range out {
		if math.Abs(l.Prio-want[i]) > 1e-15 {
			t.Errorf("target %d cash %v, want %v", l.ID, l.Prio, want[i])
		}
	}
	if s.virtual != 0.0625 || s.history != 0.25 {
		t.Errorf("virtual %v history %v, want 0.0625 and 0.25", s.virtual, s.history)
	}
	s.Downloaded(Link{ID: 5, State: Done, Prio: 0.0625}, nil)
	if s.virtual != 0.125 {
		t.Errorf("a dangling page's cash went missing: virtual %v, want 0.125", s.virtual)
	}
}
