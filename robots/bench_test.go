package robots

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// robotsFile builds a robots.txt with n rules in our group plus a star
// group, some with wildcards.
func robotsFile(n int) string {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /\n\nUser-agent: seedcrawl\nCrawl-delay: 0.5\n")
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&sb, "Disallow: /section-%d/\n", i)
		case 1:
			fmt.Fprintf(&sb, "Allow: /section-%d/public\n", i-1)
		default:
			fmt.Fprintf(&sb, "Disallow: /*.ext%d$\n", i)
		}
	}
	return sb.String()
}

// BenchmarkCheckCached measures a decision for an origin whose robots.txt is
// cached, the per-URL cost in the crawl loop, at several file sizes.
func BenchmarkCheckCached(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		body := robotsFile(n)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(body))
		}))
		c, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		u, _ := url.Parse(srv.URL + "/section-3/page/deep.html?x=1")
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Check(context.Background(), u); err != nil {
					b.Fatal(err)
				}
			}
		})
		srv.Close()
	}
}

// BenchmarkParse measures parsing robots.txt files of several sizes.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		body := []byte(robotsFile(n))
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				parse(body).group("seedcrawl")
			}
		})
	}
}
