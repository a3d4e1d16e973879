package cluster

import (
	"fmt"
	"math"
	"testing"
)

func hosts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("h%05d.test:8080", i)
	}
	return out
}

// TestRingBalance: every node of a ring owns about 1/K of the hosts.
func TestRingBalance(t *testing.T) {
	hs := hosts(30000)
	for _, k := range []int{1, 2, 3, 7, 16} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			r := NewRingN(k)
			count := make([]int, k)
			for _, h := range hs {
				o := r.Owner(h)
				if o < 0 || o >= k {
					t.Fatalf("Owner(%q) = %d, want 0..%d", h, o, k-1)
				}
				count[o]++
			}
			want := float64(len(hs)) / float64(k)
			for n, c := range count {
				if math.Abs(float64(c)-want) > 0.08*want {
					t.Errorf("node %d owns %d hosts, want %.0f ± 8%%", n, c, want)
				}
			}
		})
	}
}

// TestRingMovement: a node joining takes ≈1/(K+1) of the hosts, all of
// them from the others, and a node leaving gives away only its own.
func TestRingMovement(t *testing.T) {
	hs := hosts(30000)
	tests := []struct {
		name      string
		from, to  []int
		wantShare float64
	}{
		{"join 3->4", []int{0, 1, 2}, []int{0, 1, 2, 3}, 1.0 / 4},
		{"join 9->10", []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 1.0 / 10},
		{"leave 4->3", []int{0, 1, 2, 3}, []int{0, 1, 3}, 1.0 / 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := NewRing(tc.from), NewRing(tc.to)
			inB := map[int]bool{}
			for _, n := range tc.to {
				inB[n] = true
			}
			inA := map[int]bool{}
			for _, n := range tc.from {
				inA[n] = true
			}
			moved := 0
			for _, h := range hs {
				oa, ob := a.Owner(h), b.Owner(h)
				if oa == ob {
					continue
				}
				moved++
				// A host moves only to a node that joined or away from one
				// that left.
				if inA[ob] && inB[oa] {
					t.Fatalf("host %s moved %d -> %d between nodes present in both rings", h, oa, ob)
				}
			}
			share := float64(moved) / float64(len(hs))
			if math.Abs(share-tc.wantShare) > 0.1*tc.wantShare {
				t.Errorf("moved share %.4f, want %.4f ± 10%%", share, tc.wantShare)
			}
		})
	}
}

func TestRingEmpty(t *testing.T) {
	if o := NewRing(nil).Owner("a.test"); o != -1 {
		t.Fatalf("Owner on empty ring = %d, want -1", o)
	}
}
