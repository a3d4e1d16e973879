package crawler

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// benchWeb builds a fake web of n pages on hosts hosts, each page linking
// to deg random pages (10% on other hosts).
func benchWeb(n, hosts, deg int) (*fakeweb.Web, string) {
	w := fakeweb.New()
	r := rand.New(rand.NewPCG(1, 2))
	url := func(i int) string {
		return "http://h" + strconv.Itoa(i%hosts) + ".test/p" + strconv.Itoa(i)
	}
	for i := 0; i < n; i++ {
		links := make([]string, deg)
		for j := range links {
			t := r.IntN(n)
			if r.IntN(10) != 0 { // same host
				t = t - t%hosts + i%hosts
				if t >= n {
					t -= hosts
				}
			}
			links[j] = url(t)
		}
		w.HTML(url(i), links...)
	}
	return w, url(0)
}

// BenchmarkLoop measures the crawl loop itself (frontier, link filtering,
// interning, batching, bbolt commits without fsync) with an in-memory
// fetcher, so no HTTP: the loop's own cost per page.
func BenchmarkLoop(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			web, seed := benchWeb(n, 20, 10)
			var pages uint64
			for b.Loop() {
				db, err := storage.Open(filepath.Join(b.TempDir(), "b.db"), &storage.Options{NoSync: true})
				if err != nil {
					b.Fatal(err)
				}
				sched, _ := scheduler.ByName("bfs", scheduler.Options{})
				fr, _ := frontier.New(frontier.Options{Scheduler: sched, Politeness: config.Politeness{HostConcurrency: 2},
					Robots: robots.Gate{Robots: &crawltest.Robots{}, URLs: db}})
				sc, _ := urlnorm.ParseScopeSpec("all", nil)
				c, err := New(Options{Frontier: fr, Store: db, Scope: sc, Settings: config.Config{MaxDepth: -1},
					Fetchers: []Fetcher{web, web, web, web}})
				if err != nil {
					b.Fatal(err)
				}
				s, err := c.Run(context.Background(), []string{seed})
				if err != nil {
					b.Fatal(err)
				}
				pages += s.Pages
				db.Close()
			}
			b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(pages), "µs/page")
		})
	}
}
