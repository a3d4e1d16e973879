package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/cputime"
	"github.com/seedcrawl/seedcrawl/monitor"
)

// compareBenchSchedulers are the six schedulers the benchmark compares.
const compareBenchSchedulers = "bfs,fpr,fpr@2,fpr@100,opic,backlink"

// BenchmarkCompare measures seedcrawl compare of six schedulers against
// the clean test web with delays off (served by a child process), next to
// one plain crawl of the union of what they downloaded: a crawl whose seeds
// are exactly the union's URLs (--max-depth 0), with the same workers and
// bbolt commits with fsync. compare's time includes everything the command
// does: the crawls, the default frontier sample (a tenth of the union more
// pages, which the plain crawl does not fetch) and the scoring with its
// leave-one-out rescoring. ratio is compare's wall time over the plain
// crawl's; the target is at most 2. cpu-ratio is the same for this
// process's CPU time (the web is served by a child process), steadier on a
// busy machine.
func BenchmarkCompare(b *testing.B) {
	const workers = 8
	for _, size := range []struct{ pages, hosts, budget, window int }{
		{5000, 20, 1000, 1}, {5000, 20, 1000, 8}, {50000, 50, 10000, 1}, {50000, 50, 10000, 8},
	} {
		b.Run(fmt.Sprintf("pages=%d/budget=%d/window=%d", size.pages, size.budget, size.window), func(b *testing.B) {
			w := crawlStartBenchWeb(b, size.pages, size.hosts)
			var cWall, pWall, cCPU, pCPU time.Duration
			var union int
			for b.Loop() {
				dir := b.TempDir()
				db := filepath.Join(dir, "cmp.db")
				args := append([]string{"--db", db, "--resolve-file", w.resolve, "--ca-file", w.ca, "--scope", "hosts:.test",
					"--delay", "0", "--delay-factor", "0", "--workers", fmt.Sprint(workers), "--host-concurrency", "2",
					"--progress", "0", "--schedulers", compareBenchSchedulers, "--budget", fmt.Sprint(size.budget),
					"--window", fmt.Sprint(size.window)}, w.seeds...)
				t0, c0 := time.Now(), cputime.Process()
				var stdout, stderr bytes.Buffer
				// Labels tell the two phases apart in a -cpuprofile:
				// go tool pprof -tagfocus phase=compare.
				var cerr error
				pprof.Do(context.Background(), pprof.Labels("phase", "compare"), func(ctx context.Context) {
					cerr = runCompare(ctx, args, &stdout, &stderr)
				})
				if cerr != nil {
					b.Fatalf("compare: %v\n%s", cerr, stderr.String())
				}
				t1, c1 := time.Now(), cputime.Process()
				seen := map[string]bool{}
				var urls []string
				for _, s := range compareSequences(b, db) {
					for _, u := range s.URLs {
						if !seen[u] {
							seen[u] = true
							urls = append(urls, u)
						}
					}
				}
				union = len(urls)
				cfg := demoConfigFiles(filepath.Join(dir, "plain.db"), w, workers)
				cfg.Seeds = urls
				cfg.MaxDepth = 0
				t2, c2 := time.Now(), cputime.Process()
				sess, err := openCrawl(cfg, crawlExtras{})
				if err != nil {
					b.Fatal(err)
				}
				var sum monitor.Summary
				pprof.Do(context.Background(), pprof.Labels("phase", "plain"), func(ctx context.Context) {
					sum, err = sess.run(ctx, 0, nil)
				})
				if cerr := sess.close(); err == nil {
					err = cerr
				}
				if err != nil {
					b.Fatal(err)
				}
				t3, c3 := time.Now(), cputime.Process()
				if int(sum.Pages) < union {
					b.Fatalf("plain crawl of the union recorded %d pages, want %d", sum.Pages, union)
				}
				cWall += t1.Sub(t0)
				pWall += t3.Sub(t2)
				cCPU += c1 - c0
				pCPU += c3 - c2
				if strings.Count(stdout.String(), "\n") == 0 {
					b.Fatal("compare printed no report")
				}
			}
			b.ReportMetric(cWall.Seconds()/float64(b.N), "compare-s")
			b.ReportMetric(pWall.Seconds()/float64(b.N), "plain-s")
			b.ReportMetric(cWall.Seconds()/pWall.Seconds(), "ratio")
			b.ReportMetric(cCPU.Seconds()/pCPU.Seconds(), "cpu-ratio")
			b.ReportMetric(float64(union), "union-pages")
		})
	}
}
