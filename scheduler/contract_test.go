package scheduler

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// allNames is every policy the contract suite runs against, one name per
// kind and parameter style.
func allNames() []string {
	return []string{"bfs", "fpr", "fpr@1", "fpr@2", "fpr@100", "fpr@2.5", "opic", "backlink",
		"random", "random@7", "rankmass-window@5", "rankmass-window@100", "omniscient",
		"history", "history@1", "history@100"}
}

// truthOf is a fixed importance for omniscient: a hash of the id.
func truthOf(id uint64) float64 { return float64((id*2654435761)%1000) / 1000 }

// historyOf is a fixed prior for history: a hash of the id for two ids in
// three, and unknown (0) for the rest, so both kinds of URL occur.
func historyOf(id uint64) float64 {
	if id%3 == 0 {
		return 0
	}
	return float64(1+(id*40503)%997) / 1e5
}

func mustNew(t testing.TB, name string, o Options) Scheduler {
	t.Helper()
	if o.Truth == nil {
		o.Truth = truthOf
	}
	if o.History == nil {
		o.History = historyOf
	}
	s, err := ByName(name, o)
	if err != nil {
		t.Fatalf("ByName(%q): %v", name, err)
	}
	return s
}

// TestContract runs every scheduler through the same policy tests: the
// checks in replay on random graphs with and without hosts, a complete crawl
// of the reachable set, determinism, seeds of every state, and the Stateful
// round trip.
func TestContract(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var graphs []testGraph
	for i := 0; i < 6; i++ {
		hosts := []int{0, 1, 3, 40}[i%4]
		graphs = append(graphs, randomGraph(r, 60+r.IntN(200), hosts, 1+r.IntN(12)))
	}
	for _, name := range allNames() {
		t.Run(name, func(t *testing.T) {
			s := mustNew(t, name, Options{})
			if s.Name() != name {
				t.Errorf("Name() = %q, want %q", s.Name(), name)
			}
			for gi, g := range graphs {
				seeds := []int{0, 1, 2, 1, 5}
				a := replay(t, mustNew(t, name, Options{}), g, seeds)
				b := replay(t, mustNew(t, name, Options{}), g, seeds)
				if !slices.Equal(a, b) {
					t.Fatalf("graph %d: two runs differ", gi)
				}
				if want := reachable(g, seeds); len(a) != want {
					t.Fatalf("graph %d: %d downloads, want the %d reachable pages", gi, len(a), want)
				}
				got := map[int]bool{}
				for _, st := range a {
					if got[st.id] {
						t.Fatalf("graph %d: page %d downloaded twice", gi, st.id)
					}
					got[st.id] = true
				}
			}
		})
	}
}

func reachable(g testGraph, seeds []int) int {
	seen := map[int]bool{}
	q := []int{}
	for _, s := range seeds {
		if !seen[s] {
			seen[s] = true
			q = append(q, s)
		}
	}
	for i := 0; i < len(q); i++ {
		for _, u := range g.out[q[i]] {
			if !seen[u] {
				seen[u] = true
				q = append(q, u)
			}
		}
	}
	return len(q)
}

// TestContractSeedStates checks Seed with seeds that are new, already queued
// and already downloaded: a Done seed's priority is left alone and a queued
// seed's priority does not drop.
func TestContractSeedStates(t *testing.T) {
	for _, name := range allNames() {
		t.Run(name, func(t *testing.T) {
			s := mustNew(t, name, Options{})
			seeds := []Link{
				{ID: 1, State: New},
				{ID: 2, State: Queued, Prio: 0.5},
				{ID: 3, State: Done, Prio: 0.25},
			}
			s.Seed(seeds)
			if seeds[2].Prio != 0.25 {
				t.Errorf("Seed changed the priority of a Done seed to %v", seeds[2].Prio)
			}
			if seeds[1].Prio < 0.5 {
				t.Errorf("Seed lowered a queued seed from 0.5 to %v", seeds[1].Prio)
			}
			if seeds[0].Prio < 0 {
				t.Errorf("Seed gave a new seed priority %v", seeds[0].Prio)
			}
			s.Seed(nil) // no seeds: nothing to do, no panic
		})
	}
}

// TestContractStateful checks every Stateful scheduler: its state survives
// a round trip, and malformed state is refused with ErrState.
func TestContractStateful(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(5, 6)), 80, 3, 6)
	for _, name := range allNames() {
		s := mustNew(t, name, Options{Seed: 99})
		st, ok := s.(Stateful)
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			replay(t, s, g, []int{0, 1})
			b, err := st.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			fresh := mustNew(t, name, Options{Seed: 1}).(Stateful)
			if err := fresh.UnmarshalState(b); err != nil {
				t.Fatal(err)
			}
			b2, err := fresh.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, b2) {
				t.Errorf("state changed in a round trip: %x -> %x", b, b2)
			}
			for _, bad := range [][]byte{nil, {0}, append([]byte{99}, b[1:]...), append(slices.Clone(b), 0)} {
				if err := fresh.UnmarshalState(bad); !errors.Is(err, ErrState) {
					t.Errorf("UnmarshalState(%x) = %v, want ErrState", bad, err)
				}
			}
		})
	}
}
