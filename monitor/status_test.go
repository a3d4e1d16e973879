package monitor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestTopHosts checks the heap selection against a full sort, with ties
// in queue length broken by name.
func TestTopHosts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 100, 2000} {
		all := make([]Host, n)
		for i := range all {
			all[i] = Host{Name: fmt.Sprintf("h%04d", rng.IntN(n+1)), Queue: rng.IntN(20)}
		}
		want := slices.Clone(all)
		slices.SortFunc(want, cmpHosts)
		for _, k := range []int{-1, 0, 1, 3, 10, 100, 499, 500, 501, 5000} {
			got := topHosts(slices.Clone(all), k)
			w := want
			if k >= 0 && k < len(w) {
				w = w[:k]
			}
			if !slices.Equal(got, w) {
				t.Errorf("n=%d k=%d: got %d hosts, differ from the sorted prefix of %d", n, k, len(got), len(w))
			}
		}
	}
}

func TestDerive(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		h    Host
		want string
	}{
		{"in flight wins", Host{Queue: 3, InFlight: 1, ReadyAt: now.Add(time.Hour), Reason: "x"}, StateBusy},
		{"nothing queued", Host{}, StateIdle},
		{"nothing queued, deferred", Host{ReadyAt: now.Add(time.Hour), Reason: "robots-5xx"}, StateIdle},
		{"future with reason", Host{Queue: 1, ReadyAt: now.Add(time.Second), Reason: "retry-after"}, StateDeferred},
		{"future, politeness delay", Host{Queue: 1, ReadyAt: now.Add(time.Second)}, StateWaiting},
		{"ready time now", Host{Queue: 1, ReadyAt: now}, StateReady},
		{"ready time past, old reason", Host{Queue: 1, ReadyAt: now.Add(-time.Hour), Reason: "retry-after"}, StateReady},
	}
	for _, tc := range tests {
		if got := tc.h.Derive(now); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
