package warc

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/cputime"
)

// pageText returns size bytes of HTML-like text that compresses about as
// well as real pages (4-5x with gzip): words drawn at random from a
// vocabulary, links with varying targets.
func pageText(size int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := make([]string, 2000)
	for i := range words {
		w := make([]byte, 3+rng.IntN(8))
		for j := range w {
			w[j] = byte('a' + rng.IntN(26))
		}
		words[i] = string(w)
	}
	var sb strings.Builder
	for sb.Len() < size {
		sb.WriteString("<p>")
		for k := 0; k < 12; k++ {
			sb.WriteString(words[rng.IntN(len(words))] + " ")
		}
		fmt.Fprintf(&sb, "<a href=\"/doc/%s/%d.html\">%s</a></p>\n", words[rng.IntN(len(words))], rng.IntN(10000), words[rng.IntN(len(words))])
	}
	return sb.String()[:size]
}

// stamp writes i into the first 10 bytes of resp's body, in place, so each
// exchange has its own payload without the benchmark allocating it.
func stamp(resp []byte, i int) {
	body := bytes.Index(resp, []byte("\r\n\r\n")) + 4
	copy(resp[body:body+10], fmt.Appendf(nil, "%010d", i))
}

// BenchmarkWriteExchange measures writing one request/response pair (two
// gzip members, digests, index line) at several response sizes, serially
// and from several goroutines. Bodies differ per exchange, so no revisits.
func BenchmarkWriteExchange(b *testing.B) {
	for _, size := range []int{4 << 10, 64 << 10} {
		para := pageText(size)
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
				start := cputime.Process()
				defer func() { b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op") }()
				if !parallel {
					resp := htmlResponse(para)
					i := 0
					for b.Loop() {
						i++
						stamp(resp, i)
						if _, err := w.WriteExchange(ctx, Exchange{URL: "http://example.com/page", Request: req, Response: resp}); err != nil {
							b.Fatal(err)
						}
					}
					return
				}
				var n atomic.Int64
				b.RunParallel(func(pb *testing.PB) {
					resp := htmlResponse(para)
					for pb.Next() {
						stamp(resp, int(n.Add(1)))
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
