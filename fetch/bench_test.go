package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gocolly/colly/v2"
	"github.com/seedcrawl/seedcrawl/internal/cputime"
)

// benchServer serves one HTML page of the given size, plain or gzipped.
func benchServer(b *testing.B, size int, gz bool) *httptest.Server {
	var sb bytes.Buffer
	sb.WriteString("<!doctype html><html><head><title>bench</title></head><body>")
	for i := 0; sb.Len() < size-20; i++ {
		fmt.Fprintf(&sb, `<p><a href="/page/%d">link %d</a> some text around it</p>`+"\n", i, i)
	}
	sb.WriteString("</body></html>")
	body := sb.Bytes()
	if gz {
		body = compress("gzip", body)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if gz {
			w.Header().Set("Content-Encoding", "gzip")
		}
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkFetch compares one Fetch with a bare colly collector fetching
// the same loopback page (the library floor), at several body sizes. Both
// client and server run in this process, so cpu-ns/op counts both sides;
// the server's share is the same for both variants.
func BenchmarkFetch(b *testing.B) {
	for _, c := range []struct {
		size int
		gz   bool
	}{{4 << 10, false}, {64 << 10, false}, {512 << 10, false}, {64 << 10, true}} {
		srv := benchServer(b, c.size, c.gz)
		name := fmt.Sprintf("size=%dKiB", c.size>>10)
		if c.gz {
			name += "-gzip"
		}
		for _, v := range []struct {
			name    string
			record  bool // with the wire capture a WARC writer needs
			release bool // each body handed back, as the crawler does
		}{{"/seedcrawl", false, false}, {"/seedcrawl-record", true, false}, {"/seedcrawl-release", false, true}} {
			record := v.record
			b.Run(name+v.name, func(b *testing.B) {
				f := newFetcher(b, Options{Record: record})
				ctx := context.Background()
				b.ReportAllocs()
				start := cputime.Process()
				for b.Loop() {
					r := f.Fetch(ctx, Request{URL: srv.URL + "/"})
					if r.Err != nil || r.Code != 200 || len(r.Body) == 0 || (record && r.Capture == nil) {
						b.Fatalf("code %d err %v", r.Code, r.Err)
					}
					if v.release {
						f.Release(r.Body)
					}
				}
				b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
			})
		}
		b.Run(name+"/colly", func(b *testing.B) {
			col := colly.NewCollector(colly.AllowURLRevisit())
			var got int
			col.OnResponse(func(r *colly.Response) { got = len(r.Body) })
			b.ReportAllocs()
			start := cputime.Process()
			for b.Loop() {
				got = 0
				if err := col.Visit(srv.URL + "/"); err != nil || got == 0 {
					b.Fatalf("visit: %v, %d bytes", err, got)
				}
			}
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
