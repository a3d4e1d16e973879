package scheduler

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHistoryWithoutHistoryIsFPR checks the first-cycle case: with no
// History, history downloads in fpr's order and history@M in fpr@M's, with
// bit-for-bit equal priorities.
func TestHistoryWithoutHistoryIsFPR(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 8; i++ {
		g := randomGraph(r, 50+r.IntN(150), []int{0, 2, 7, 30}[i%4], 1+r.IntN(10))
		seeds := []int{0, 3, 3, 9}
		for _, pair := range [][2]string{{"history", "fpr"}, {"history@1", "fpr@1"}, {"history@7", "fpr@7"}, {"history@100", "fpr@100"}} {
			h, err := ByName(pair[0], Options{})
			if err != nil {
				t.Fatal(err)
			}
			f, _ := ByName(pair[1], Options{})
			a, b := replay(t, h, g, seeds), replay(t, f, g, seeds)
			if !slices.Equal(a, b) {
				t.Fatalf("graph %d: %s without history differs from %s", i, pair[0], pair[1])
			}
		}
	}
}

// TestHistoryPerfectPriorIsOmniscient checks that a history that knows
// every page with its true importance orders exactly as omniscient does:
// known pages are ranked by their prior alone.
func TestHistoryPerfectPriorIsOmniscient(t *testing.T) {
	truth := func(id uint64) float64 { return 1e-3 + truthOf(id) }
	r := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 6; i++ {
		g := randomGraph(r, 80+r.IntN(120), []int{0, 3, 20}[i%3], 1+r.IntN(8))
		for _, name := range []string{"history", "history@100"} {
			h, _ := ByName(name, Options{History: truth})
			o, _ := ByName("omniscient", Options{Truth: truth})
			if a, b := ids(replay(t, h, g, []int{0, 1})), ids(replay(t, o, g, []int{0, 1})); !slices.Equal(a, b) {
				t.Fatalf("graph %d: %s with the true importance as history: %v, omniscient %v", i, name, a, b)
			}
		}
	}
}

// TestHistoryShares checks the semantics of Seed and Downloaded event by
// event on hand-computed values (d = 0.5, Π = 2).
func TestHistoryShares(t *testing.T) {
	prior := map[uint64]float64{1: 0.25, 2: 0.125, 4: math.NaN(), 5: -1, 6: math.Inf(1)}
	o := Options{Damping: 0.5, HistoryMass: 2, History: func(id uint64) float64 { return prior[id] }}
	type ev struct {
		name   string
		seed   bool
		page   Link
		in     []Link
		want   []float64
		scheds []string
	}
	events := []ev{
		{name: "seeds: known gets its prior, unknown (1-d)·Π/|S|, Done untouched, queued known keeps a higher prio",
			seed: true,
			in:   []Link{{ID: 1, State: New}, {ID: 3, State: New}, {ID: 2, State: Queued, Prio: 0.5}, {ID: 7, State: Done, Prio: 9}},
			want: []float64{0.25, 0.5*2/4 + 0, 0.5, 9}},
		{name: "seed: NaN, negative and +Inf priors mean unknown",
			seed: true,
			in:   []Link{{ID: 4, State: New}, {ID: 5, State: New}, {ID: 6, State: New}},
			want: []float64{0.5 * 2 / 3, 0.5 * 2 / 3, 0.5 * 2 / 3}},
		{name: "download, M=1: known target takes prior, no share; unknown accumulate d·f/N_p; Done counted",
			page: Link{ID: 1, Prio: 0.25, State: Done},
			in:   []Link{{ID: 2, State: New}, {ID: 3, State: Queued, Prio: 0.1}, {ID: 8, State: New}, {ID: 1, State: Done, Prio: 0.25}},
			want: []float64{0.125, 0.1 + 0.5*0.25/4, 0.5 * 0.25 / 4, 0.25}},
		{name: "download, M=3: inter share is M times intra; D_p = 1 + 3·2",
			page:   Link{ID: 9, Prio: 0.7, State: Done},
			in:     []Link{{ID: 10, State: New, Intra: true}, {ID: 11, State: New}, {ID: 12, State: Queued, Prio: 0.01}},
			want:   []float64{0.5 * 0.7 / 7, 3 * 0.5 * 0.7 / 7, 0.01 + 3*0.5*0.7/7},
			scheds: []string{"history@3"}},
		{name: "download of a page with priority 0 sends nothing, known targets still get their prior",
			page: Link{ID: 13, Prio: 0, State: Done},
			in:   []Link{{ID: 14, State: New}, {ID: 1, State: New}},
			want: []float64{0, 0.25}},
	}
	for _, e := range events {
		names := e.scheds
		if names == nil {
			names = []string{"history", "history@1"}
		}
		for _, name := range names {
			s, err := ByName(name, o)
			if err != nil {
				t.Fatal(err)
			}
			links := slices.Clone(e.in)
			if e.seed {
				s.Seed(links)
			} else {
				s.Downloaded(e.page, links)
			}
			for i, l := range links {
				if math.Abs(l.Prio-e.want[i]) > 1e-15 {
					t.Errorf("%s: %s: link %d (id %d): prio %v, want %v", e.name, name, i, l.ID, l.Prio, e.want[i])
				}
			}
		}
	}
}
