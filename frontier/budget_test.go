package frontier

import (
	"errors"
	"testing"
)

// TestHostBudget checks the host page budget in the order the crawl loop
// uses it: counts restored from a resumed crawl, URLs admitted one by
// one, and HostFull turning true exactly at the budget, per host.
func TestHostBudget(t *testing.T) {
	type step struct {
		admit string // host to Admit before the check ("" none)
		host  string
		full  bool
		count int64
	}
	tests := []struct {
		name     string
		max      int64
		restored map[string]int64
		steps    []step
	}{
		{
			name: "no budget never fills",
			max:  0,
			steps: []step{
				{admit: "a", host: "a", full: false, count: 0},
				{admit: "a", host: "a", full: false, count: 0},
			},
		},
		{
			name: "fills at the budget, per host",
			max:  2,
			steps: []step{
				{host: "a", full: false, count: 0},
				{admit: "a", host: "a", full: false, count: 1},
				{admit: "a", host: "a", full: true, count: 2},
				{host: "b", full: false, count: 0},
				{admit: "b", host: "b", full: false, count: 1},
			},
		},
		{
			name:     "resumed counts go on",
			max:      3,
			restored: map[string]int64{"a": 2, "c": 5},
			steps: []step{
				{host: "a", full: false, count: 2},
				{host: "c", full: true, count: 5},
				{admit: "a", host: "a", full: true, count: 3},
				{host: "b", full: false, count: 0},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New(Options{Scheduler: bfsSched{}, HostMaxPages: tc.max})
			if err != nil {
				t.Fatal(err)
			}
			if tc.restored != nil {
				if err := f.Restore(Snapshot{Admitted: tc.restored}); err != nil {
					t.Fatal(err)
				}
				tc.restored["a"] = 100 // Restore copied the counts
			}
			for i, s := range tc.steps {
				if s.admit != "" {
					f.Admit(s.admit)
				}
				if got := f.HostFull(s.host); got != s.full {
					t.Errorf("step %d: HostFull(%q) = %v, want %v", i, s.host, got, s.full)
				}
				if got := f.Admitted(s.host); got != s.count {
					t.Errorf("step %d: Admitted(%q) = %d, want %d", i, s.host, got, s.count)
				}
			}
			if st := f.Stats(); st.Hosts != 0 {
				t.Errorf("Stats().Hosts = %d: budget counts must not create hosts", st.Hosts)
			}
		})
	}
}

func TestHostBudgetNegative(t *testing.T) {
	_, err := New(Options{Scheduler: bfsSched{}, HostMaxPages: -1})
	if err == nil || errors.Is(err, ErrNoScheduler) {
		t.Fatalf("New with HostMaxPages -1: %v, want a validation error", err)
	}
}
