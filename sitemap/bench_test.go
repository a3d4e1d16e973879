package sitemap

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchSitemap returns a urlset of n URLs with lastmod, changefreq and
// priority, shaped like a CMS's output.
func benchSitemap(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<urlset " + ns + ">\n")
	for i := range n {
		fmt.Fprintf(&b, "  <url>\n    <loc>https://www.example.test/docs/section-%d/page-%d.html</loc>\n"+
			"    <lastmod>2024-%02d-%02dT10:%02d:00+00:00</lastmod>\n    <changefreq>weekly</changefreq>\n"+
			"    <priority>0.%d</priority>\n  </url>\n", i%97, i, 1+i%12, 1+i%28, i%60, i%10)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1_000, 50_000} {
		for _, gzipped := range []bool{false, true} {
			body := benchSitemap(n)
			name := fmt.Sprintf("urls=%d", n)
			if gzipped {
				body = []byte(gz(b, string(body)))
				name += "/gzip"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					res, err := Parse(context.Background(), bytes.NewReader(body), "https://www.example.test/sitemap.xml",
						Options{}, func(Entry) error { return nil })
					if err != nil || res.URLs != n {
						b.Fatalf("parsed %d of %d: %v", res.URLs, n, err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "urls/s")
			})
		}
	}
	text := []byte(strings.Repeat("https://www.example.test/docs/page.html\n", 50_000))
	b.Run("urls=50000/text", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			if res, err := Parse(context.Background(), bytes.NewReader(text), "https://www.example.test/sitemap.txt",
				Options{}, nil); err != nil || res.URLs != 50_000 {
				b.Fatalf("parsed %d: %v", res.URLs, err)
			}
		}
		b.ReportMetric(50_000*float64(b.N)/b.Elapsed().Seconds(), "urls/s")
	})
}
