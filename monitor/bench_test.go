package monitor

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkRecorder measures the per-event cost the crawler pays: it must
// stay a few atomic adds with no allocation.
func BenchmarkRecorder(b *testing.B) {
	r := NewRecorder()
	r.Reject("max-depth") // a label already seen, as in a running crawl
	b.Run("ObserveFetch", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r.ObserveFetch(200, 4096, time.Duration(i%1000)*time.Millisecond)
		}
	})
	b.Run("ObserveFetch/parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				r.ObserveFetch(200, 4096, 30*time.Millisecond)
			}
		})
	})
	b.Run("Reject", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Reject("max-depth")
		}
	})
	b.Run("Count", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Count("reject/max-depth", 1)
		}
	})
	b.Run("nil", func(b *testing.B) {
		var nr *Recorder
		b.ReportAllocs()
		for b.Loop() {
			nr.ObserveFetch(200, 4096, time.Millisecond)
		}
	})
}

// BenchmarkStatus measures one /status snapshot (poll, sort, cut) at
// several host counts: the cost a page view or scrape adds to a crawl.
func BenchmarkStatus(b *testing.B) {
	for _, n := range []int{100, 10_000, 1_000_000} {
		hosts := make([]Host, n)
		for i := range hosts {
			hosts[i] = Host{Name: fmt.Sprintf("h%d.test", i), Queue: (i * 7919) % 1000}
		}
		h := &handler{opts: Options{Recorder: NewRecorder(), Source: SourceFunc(func() Status {
			return Status{Hosts: append([]Host(nil), hosts...)}
		})}}
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = h.snapshot(defaultHosts)
			}
		})
	}
}
