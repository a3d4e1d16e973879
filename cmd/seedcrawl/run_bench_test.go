package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRecrawlCycle measures a refresh cycle of seedcrawl run over
// loopback against an unchanged test web (served in this process), with
// delays off: "refetch" answers every known page with 304 (conditional GET,
// stored links handed on), "traverse" finds no page due (revisit interval
// not passed) and walks the stored graph without a request. Cycle 1 and the
// copy of its db are not timed; the rest of cycle 2 is (planning: seed
// selection, scheduler replay, the frontier rebuilt; the crawl; closing).
func BenchmarkRecrawlCycle(b *testing.B) {
	for _, pages := range []int{1000, 5000} {
		w := cleanWeb(b, 4, pages, pages/100)
		dir := b.TempDir()
		base := filepath.Join(dir, "c1.db")
		common := func(db string) []string {
			return runArgs(b, w, db, "--scheduler", "fpr", "--workers", "8", "--commit-interval", "200ms", "--seed-algo", "maxweight")
		}
		runCmd(b, append(append(common(base), "--cycles", "1"), w.site.Seeds()...))
		known := len(runReadDB(b, base).fetch[1])
		for _, mode := range []struct {
			name  string
			extra []string
		}{
			{"refetch", nil},
			{"traverse", []string{"--revisit-initial", "1000h"}},
		} {
			b.Run(fmt.Sprintf("pages=%d/%s", pages, mode.name), func(b *testing.B) {
				if mode.name == "traverse" {
					// Cycle 1 must have stored the interval: crawl it again so.
					base2 := filepath.Join(dir, "c1-interval.db")
					runCmd(b, append(append(common(base2), "--cycles", "1", "--revisit-initial", "1000h"), w.site.Seeds()...))
					base = base2
				}
				var elapsed time.Duration
				for i := range b.N {
					b.StopTimer()
					db := filepath.Join(dir, fmt.Sprintf("%s-%d.db", mode.name, i))
					runCopyFile(b, base, db)
					w.log.Reset()
					b.StartTimer()
					start := time.Now()
					runCmd(b, append(common(db), append([]string{"--cycles", "2"}, mode.extra...)...))
					elapsed += time.Since(start)
				}
				b.ReportMetric(float64(known*b.N)/elapsed.Seconds(), "pages/s")
				b.ReportMetric(float64(len(w.log.Entries())), "requests/cycle")
			})
		}
	}
}
