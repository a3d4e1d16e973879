package frontier

import (
	"fmt"
	"testing"
	"time"
)

// benchHostsFrontier is a frontier with n hosts of 1..8 queued URLs each,
// a tenth of them deferred.
func benchHostsFrontier(b *testing.B, n int) *Frontier {
	b.Helper()
	f := newFrontier(b, bfsSched{}, newFakeClock(), 1)
	var seeds []Target
	id := uint64(0)
	for h := range n {
		host := fmt.Sprintf("h%d.test", h)
		for range 1 + h%8 {
			seeds = append(seeds, Target{ID: id, Host: host, New: true})
			id++
		}
	}
	if err := f.Seed(seeds, nil); err != nil {
		b.Fatal(err)
	}
	now := f.clock.Now()
	for h := 0; h < n; h += 10 {
		f.Defer(fmt.Sprintf("h%d.test", h), now.Add(time.Hour), "robots-deferred", nil)
	}
	return f
}

// BenchmarkHosts measures the status page's host listing (the 1000
// longest queues and the counts per state) and Stats, which a progress
// line and every scrape call, at several host counts.
func BenchmarkHosts(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		f := benchHostsFrontier(b, n)
		b.Run(fmt.Sprintf("list/hosts=%d", n), func(b *testing.B) {
			for b.Loop() {
				hs, _ := f.Hosts(1000)
				if len(hs) != min(n, 1000) {
					b.Fatalf("%d hosts listed", len(hs))
				}
			}
		})
		b.Run(fmt.Sprintf("stats/hosts=%d", n), func(b *testing.B) {
			for b.Loop() {
				if st := f.Stats(); st.Deferred != n/10 {
					b.Fatalf("%d deferred, want %d", st.Deferred, n/10)
				}
			}
		})
	}
}
