package warc

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time (user + system) this process has used: on
// a shared machine wall time per op says more about the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriteExchange measures writing one request/response pair (two
// gzip members, digests, index line) at several response sizes, serially
// and from several goroutines. Bodies differ per exchange, so no revisits.
func BenchmarkWriteExchange(b *testing.B) {
	for _, size := range []int{4 << 10, 64 << 10} {
		para := strings.Repeat("<p>Some ordinary documentation text, with a <a href=\"/x\">link</a>.</p>\n", size/70+1)[:size]
		for _, parallel := range []bool{false, true} {
			name := fmt.Sprintf("size=%dKiB", size>>10)
			if parallel {
				name += "/parallel"
			}
			b.Run(name, func(b *testing.B) {
				w := openWriter(b, Options{Dir: b.TempDir()})
				ctx := context.Background()
				req := request("/page")
				b.SetBytes(int64(size))
				b.ReportAllocs()
				start := cpuTime()
				defer func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }()
				if !parallel {
					i := 0
					for b.Loop() {
						i++
						resp := htmlResponse(fmt.Sprintf("%08d", i) + para[8:])
						if _, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/page", Request: req, Response: resp}); err != nil {
							b.Fatal(err)
						}
					}
					return
				}
				var n atomic.Int64
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := n.Add(1)
						resp := htmlResponse(fmt.Sprintf("%08d", i) + para[8:])
						if _, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/page", Request: req, Response: resp}); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
