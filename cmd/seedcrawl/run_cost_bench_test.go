package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRefreshCost compares a refresh cycle with the first crawl on an
// unchanged test web (served over loopback in this process, delays off):
// "nothing-due" stores a revisit interval of 1000h with every fetch of
// cycle 1, so cycle 2 finds no page due and walks the stored graph; "all-due"
// stores none, so cycle 2 refetches every known page with a conditional GET.
// Reported: requests and seconds of cycle 2 as a share of cycle 1's
// (requests-share, time-share), robots.txt included.
//
//	go test -run '^$' -bench RefreshCost -benchtime 1x -count 3 ./cmd/seedcrawl/
func BenchmarkRefreshCost(b *testing.B) {
	const pages = 5000
	w := cleanWeb(b, 4, pages, pages/100)
	for _, mode := range []struct {
		name  string
		extra []string
	}{
		{"nothing-due", []string{"--revisit-initial", "1000h"}},
		{"all-due", []string{"--revisit-initial", "0"}},
	} {
		b.Run(fmt.Sprintf("pages=%d/%s", pages, mode.name), func(b *testing.B) {
			var req1, req2 int
			var t1, t2 time.Duration
			for i := range b.N {
				db := filepath.Join(b.TempDir(), fmt.Sprintf("c%d.db", i))
				args := func(cycles string) []string {
					return append(runArgs(b, w, db, "--scheduler", "history", "--workers", "8", "--commit-interval", "200ms",
						"--seed-algo", "given", "--cycles", cycles), mode.extra...)
				}
				w.log.Reset()
				start := time.Now()
				runCmd(b, append(args("1"), w.site.Seeds()...))
				t1 += time.Since(start)
				req1 += len(w.log.Entries())
				w.log.Reset()
				start = time.Now()
				runCmd(b, args("2"))
				t2 += time.Since(start)
				req2 += len(w.log.Entries())
			}
			b.ReportMetric(float64(req1)/float64(b.N), "requests-cycle1")
			b.ReportMetric(float64(req2)/float64(b.N), "requests-cycle2")
			b.ReportMetric(float64(req2)/float64(req1), "requests-share")
			b.ReportMetric(t2.Seconds()/t1.Seconds(), "time-share")
		})
	}
}
