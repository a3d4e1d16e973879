package main

import (
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/cputime"
)

// BenchmarkCrawlPolite measures what a politeness-bound crawl costs while
// it waits: one host of the docs-profile test web, one request per delay,
// so the crawl's CPU is mostly its own idle work (commits, timers) rather
// than pages. It reports CPU per page and per wall second, and commits per
// page; compare with wget2 --wait on the same pages.
func BenchmarkCrawlPolite(b *testing.B) {
	for _, delay := range []time.Duration{100 * time.Millisecond, 300 * time.Millisecond} {
		b.Run("delay="+delay.String(), func(b *testing.B) {
			w := crawlStartBenchWebArgs(b, "--preset", "clean", "--profile", "docs", "--scheme", "http",
				"--pages", "12", "--hosts", "1", "--seed", "9")
			var pages, commits uint64
			var wall, cpu time.Duration
			for b.Loop() {
				cfg := demoConfigFiles(b.TempDir()+"/polite.db", w, 1)
				cfg.Delay = delay
				t0, c0 := time.Now(), cputime.Process()
				sum := crawlRun(b, cfg, crawlExtras{})
				wall, cpu = wall+time.Since(t0), cpu+cputime.Process()-c0
				pages += sum.Pages
				commits += sum.Commits
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(max(pages, 1)), "cpu-ms/page")
			b.ReportMetric(float64(cpu.Microseconds())/1000/wall.Seconds(), "cpu-ms/s")
			b.ReportMetric(float64(commits)/float64(max(pages, 1)), "commits/page")
			b.ReportMetric(float64(pages)/float64(b.N), "pages")
			b.ReportMetric(0, "ns/op")
		})
	}
}
