package frontier

import "testing"

// TestPageBudget runs reservations and releases in the order workers make
// them and checks each answer and whether the budget counts as spent.
func TestPageBudget(t *testing.T) {
	type step struct {
		release bool // Release instead of Reserve
		ok      bool // Reserve's answer
		spent   bool // Spent after the step
	}
	tests := []struct {
		name  string
		max   int64
		steps []step
	}{
		{
			name:  "no budget never refuses",
			max:   0,
			steps: []step{{ok: true}, {ok: true}, {release: true}, {ok: true}},
		},
		{
			name:  "refused past the budget",
			max:   2,
			steps: []step{{ok: true}, {ok: true}, {ok: false, spent: true}, {ok: false, spent: true}},
		},
		{
			name:  "a release gives a page back",
			max:   1,
			steps: []step{{ok: true}, {release: true}, {ok: true}, {ok: false, spent: true}},
		},
		{
			// A worker waiting in Next held a page when another was
			// refused; it got no job and gave the page back: the pages
			// taken no longer fill the budget.
			name:  "refused, then a waiting worker's page released",
			max:   2,
			steps: []step{{ok: true}, {ok: true}, {ok: false, spent: true}, {release: true, spent: false}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewPageBudget(tc.max)
			for i, s := range tc.steps {
				if s.release {
					b.Release()
				} else if ok := b.Reserve(); ok != s.ok {
					t.Fatalf("step %d: Reserve = %v, want %v", i, ok, s.ok)
				}
				if got := b.Spent(); got != s.spent {
					t.Fatalf("step %d: Spent = %v, want %v", i, got, s.spent)
				}
			}
		})
	}
}
