package scheduler

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestByName(t *testing.T) {
	tests := []struct {
		name, want string
		o          Options
		err        error
	}{
		{name: "bfs", want: "bfs"},
		{name: " FPR ", want: "fpr"},
		{name: "fpr@1", want: "fpr@1"},
		{name: "fpr@100", want: "fpr@100"},
		{name: "fpr@2.5", want: "fpr@2.5"},
		{name: "opic", want: "opic"},
		{name: "backlink", want: "backlink"},
		{name: "random", want: "random"},
		{name: "random@42", want: "random@42"},
		{name: "random", want: "random", o: Options{Rand: rand.New(rand.NewPCG(1, 2))}},
		{name: "rankmass-window@5", want: "rankmass-window@5"},
		{name: "rankmass-window@100", want: "rankmass-window@100"},
		{name: "omniscient", want: "omniscient", o: Options{Truth: truthOf}},
		{name: "fpr", want: "fpr", o: Options{Damping: 0.5}},

		{name: "fpr@0.5", err: ErrBadParam},
		{name: "fpr@0", err: ErrBadParam},
		{name: "fpr@-3", err: ErrBadParam},
		{name: "fpr@", err: ErrBadParam},
		{name: "fpr@abc", err: ErrBadParam},
		{name: "fpr@inf", err: ErrBadParam},
		{name: "fpr@NaN", err: ErrBadParam},
		{name: "rankmass-window", err: ErrBadParam},
		{name: "rankmass-window@0", err: ErrBadParam},
		{name: "rankmass-window@101", err: ErrBadParam},
		{name: "random@x", err: ErrBadParam},
		{name: "bfs@2", err: ErrBadParam},
		{name: "opic@1", err: ErrBadParam},
		{name: "fpr", o: Options{Damping: 1}, err: ErrBadParam},
		{name: "fpr", o: Options{Damping: -0.1}, err: ErrBadParam},
		{name: "omniscient", err: ErrNoTruth},
		{name: "history", want: "history"},
		{name: "History@100", want: "history@100", o: Options{History: historyOf, HistoryMass: 0.5}},
		{name: "history@0.5", err: ErrBadParam},
		{name: "history@", err: ErrBadParam},
		{name: "history", o: Options{HistoryMass: -1}, err: ErrBadParam},
		{name: "history", o: Options{HistoryMass: math.NaN()}, err: ErrBadParam},
		{name: "pagerank", err: ErrUnknown},
		{name: "", err: ErrUnknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ByName(tc.name, tc.o)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("ByName(%q) error = %v, want %v", tc.name, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ByName(%q): %v", tc.name, err)
			}
			if s.Name() != tc.want {
				t.Errorf("Name() = %q, want %q", s.Name(), tc.want)
			}
		})
	}
}

// TestByNameInterfaces checks which schedulers implement the optional
// interfaces the frontier looks for.
func TestByNameInterfaces(t *testing.T) {
	for _, tc := range []struct {
		name              string
		batcher, stateful bool
	}{
		{"bfs", false, false}, {"fpr", false, false}, {"fpr@3", false, false},
		{"opic", false, true}, {"random", false, true}, {"rankmass-window@5", true, false},
		{"backlink", false, false}, {"omniscient", false, false},
	} {
		s := mustNew(t, tc.name, Options{})
		if _, ok := s.(Batcher); ok != tc.batcher {
			t.Errorf("%s: Batcher = %v, want %v", tc.name, ok, tc.batcher)
		}
		if _, ok := s.(Stateful); ok != tc.stateful {
			t.Errorf("%s: Stateful = %v, want %v", tc.name, ok, tc.stateful)
		}
	}
}
