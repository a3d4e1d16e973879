package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/fetch"
)

// crawlBenchBin builds the seedcrawl binary once per test binary run: the
// benchmarks serve the test web from it in a separate process, so the
// crawler's CPU time (getrusage of this process) excludes the server's.
var crawlBenchBin = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "seedcrawl-bench-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "seedcrawl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// crawlBenchWeb is a clean test web served by a `seedcrawl testweb` child.
type crawlBenchWeb struct {
	resolve, ca string
	seeds       []string
}

func crawlStartBenchWeb(b *testing.B, pages, hosts int) crawlBenchWeb {
	b.Helper()
	bin, err := crawlBenchBin()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	w := crawlBenchWeb{resolve: filepath.Join(dir, "resolve.txt"), ca: filepath.Join(dir, "ca.pem")}
	seedsFile := filepath.Join(dir, "seeds.txt")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "testweb", "--preset", "clean", "--pages", strconv.Itoa(pages),
		"--hosts", strconv.Itoa(hosts), "--seed", "9", "--resolve-out", w.resolve, "--ca-out", w.ca,
		"--seeds-out", seedsFile)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	// The "serving" line on stderr comes after every file is written.
	sc := bufio.NewScanner(errPipe)
	for sc.Scan() && !strings.Contains(sc.Text(), "serving") {
	}
	go func() {
		for sc.Scan() {
		}
	}()
	if w.seeds, err = crawlReadSeedsFile(seedsFile); err != nil || len(w.seeds) == 0 {
		b.Fatalf("seeds of seedcrawl testweb: %v", err)
	}
	return w
}

// cpuTime returns this process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// crawlBenchSeedcrawl crawls the web with delays off into a fresh db and
// returns the pages recorded.
func crawlBenchSeedcrawl(b *testing.B, w crawlBenchWeb, workers int) uint64 {
	cfg := demoConfigFiles(filepath.Join(b.TempDir(), "bench.db"), w, workers)
	sess, err := openCrawl(cfg, crawlExtras{})
	if err != nil {
		b.Fatal(err)
	}
	sum, err := sess.run(context.Background(), 0, nil)
	if cerr := sess.close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	return sum.Pages
}

// demoConfigFiles is demoConfig for a web known by its resolve and CA files,
// with every delay off.
func demoConfigFiles(db string, w crawlBenchWeb, workers int) config.Config {
	cfg := config.Default()
	cfg.DB = db
	cfg.Seeds = w.seeds
	cfg.Scope = "hosts:.test"
	cfg.Workers = workers
	cfg.HostConcurrency = 2
	cfg.Delay = 0
	cfg.DelayFactor = 0
	cfg.ResolveFile = w.resolve
	cfg.CAFile = w.ca
	return cfg
}

// crawlBenchColly crawls the web with a bare colly collector (Async, its
// own queue and visited set, Parallelism workers, no robots.txt), over the
// same transport, and returns the pages fetched.
func crawlBenchColly(b *testing.B, w crawlBenchWeb, workers int) uint64 {
	resolve, err := fetch.LoadResolveFile(w.resolve)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := fetch.NewTransport(fetch.Options{Resolve: resolve, CAFile: w.ca, MaxIdlePerHost: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.CloseIdleConnections()
	c := colly.NewCollector(colly.Async(true))
	c.WithTransport(tr)
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: workers}); err != nil {
		b.Fatal(err)
	}
	var pages atomic.Uint64
	c.OnResponse(func(*colly.Response) { pages.Add(1) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	for _, s := range w.seeds {
		c.Visit(s)
	}
	c.Wait()
	return pages.Load()
}

// BenchmarkCrawl measures crawl throughput against the test web with
// delays off, seedcrawl (robots.txt, frontier, bbolt commits with fsync)
// side by side with a bare colly crawler of the same web, the library
// floor. CPU is this process's (the web is served by a child process).
func BenchmarkCrawl(b *testing.B) {
	const workers = 8
	for _, size := range []struct{ pages, hosts int }{{1000, 10}, {5000, 20}} {
		b.Run(fmt.Sprintf("pages=%d", size.pages), func(b *testing.B) {
			w := crawlStartBenchWeb(b, size.pages, size.hosts)
			var sPages, cPages uint64
			var sWall, cWall, sCPU, cCPU time.Duration
			for b.Loop() {
				t0, c0 := time.Now(), cpuTime()
				sPages += crawlBenchSeedcrawl(b, w, workers)
				t1, c1 := time.Now(), cpuTime()
				cPages += crawlBenchColly(b, w, workers)
				t2, c2 := time.Now(), cpuTime()
				sWall, sCPU = sWall+t1.Sub(t0), sCPU+c1-c0
				cWall, cCPU = cWall+t2.Sub(t1), cCPU+c2-c1
			}
			sPer := float64(sCPU.Microseconds()) / float64(sPages)
			cPer := float64(cCPU.Microseconds()) / float64(cPages)
			b.ReportMetric(float64(sPages)/sWall.Seconds(), "seedcrawl-pages/s")
			b.ReportMetric(float64(cPages)/cWall.Seconds(), "colly-pages/s")
			b.ReportMetric(sPer, "seedcrawl-cpu-µs/page")
			b.ReportMetric(cPer, "colly-cpu-µs/page")
			b.ReportMetric(sPer/cPer, "cpu-ratio")
			b.ReportMetric(float64(sPages)/float64(b.N), "seedcrawl-pages")
			b.ReportMetric(float64(cPages)/float64(b.N), "colly-pages")
		})
	}
}
