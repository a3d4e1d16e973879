package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkCrawlScale crawls a large clean test web (default page profile,
// served by a `seedcrawl testweb` child, one host per 1,000 pages so no
// host reaches --host-max-pages) with 8 workers and delays off, in this
// process, and samples every few seconds: pages fetched, URLs discovered,
// pages/s over the last interval, the live Go heap (after the last GC),
// this process's RSS and the db file's size. It prints the samples as a
// table to stderr and reports:
//   - pages/s over the whole crawl, and late/early-rate: the rate of the
//     last third of the samples with every worker busy over that of the
//     first third (below 1 means the crawl slows as the db grows);
//   - heap-B/URL: the largest live heap over URLs discovered at that
//     moment, over samples after the first 10% of the crawl, and
//     heap-slope-B/URL: the heap's growth per URL discovered from then on;
//   - db-B/page: the db's size over pages fetched at the end;
//   - peak RSS.
//
// It is long (a 1M-page web takes minutes to generate and crawl): run one
// size at a time, e.g.
//
//	go test ./cmd/seedcrawl -run '^$' -bench 'CrawlScale/pages=1000000' -benchtime 1x -timeout 2h
func BenchmarkCrawlScale(b *testing.B) {
	const workers = 8
	for _, pages := range []int{100_000, 300_000, 1_000_000} {
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) {
			hosts := max(pages/1000, 10)
			w := crawlStartBenchWebArgs(b, "--preset", "clean", "--pages", strconv.Itoa(pages),
				"--hosts", strconv.Itoa(hosts), "--seed", "9", "--scheme", "http")
			for b.Loop() {
				crawlScaleOnce(b, w, workers, pages)
			}
		})
	}
}

// crawlScaleSample is one sample of BenchmarkCrawlScale.
type crawlScaleSample struct {
	at                time.Duration
	pages, discovered uint64
	queued, inFlight  int
	rate              float64 // pages/s since the previous sample
	liveHeap, rss     uint64
	dbBytes           int64
}

func crawlScaleOnce(b *testing.B, w crawlBenchWeb, workers, size int) {
	db := filepath.Join(b.TempDir(), "scale.db")
	cfg := demoConfigFiles(db, w, workers)
	cfg.HostMaxPages = 0
	sess, err := openCrawl(cfg, crawlExtras{})
	if err != nil {
		b.Fatal(err)
	}
	interval := time.Duration(max(size/50_000, 2)) * time.Second
	stop, done := make(chan struct{}), make(chan []crawlScaleSample)
	start := time.Now()
	go func() {
		var out []crawlScaleSample
		t := time.NewTicker(interval)
		defer t.Stop()
		var prev crawlScaleSample
		for {
			select {
			case <-stop:
				done <- out
				return
			case <-t.C:
			}
			p := sess.c.Progress()
			s := crawlScaleSample{at: time.Since(start), pages: p.Pages, discovered: p.Discovered,
				queued: p.Pending, inFlight: p.InFlight, liveHeap: crawlLiveHeap(), rss: crawlRSS()}
			if st, err := os.Stat(db); err == nil {
				s.dbBytes = st.Size()
			}
			s.rate = float64(s.pages-prev.pages) / (s.at - prev.at).Seconds()
			out = append(out, s)
			prev = s
		}
	}()
	sum, err := sess.run(context.Background(), 0, nil)
	elapsed := time.Since(start)
	close(stop)
	samples := <-done
	if cerr := sess.close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(db)
	if err != nil {
		b.Fatal(err)
	}
	var tab strings.Builder
	fmt.Fprintf(&tab, "%8s %9s %10s %9s %8s %8s %9s %8s %9s %10s %9s\n", "t", "pages", "discovered", "queued",
		"inflight", "pages/s", "heap-MB", "rss-MB", "db-MB", "heap-B/URL", "db-B/page")
	var peakRSS uint64
	var heapPerURL float64
	for _, s := range samples {
		peakRSS = max(peakRSS, s.rss)
		hpu := float64(s.liveHeap) / float64(max(s.discovered, 1))
		if s.pages*10 >= sum.Pages {
			heapPerURL = max(heapPerURL, hpu)
		}
		fmt.Fprintf(&tab, "%7.0fs %9d %10d %9d %8d %8.0f %9.1f %8.1f %9.1f %10.0f %9.0f\n", s.at.Seconds(), s.pages,
			s.discovered, s.queued, s.inFlight, s.rate, float64(s.liveHeap)/1e6, float64(s.rss)/1e6, float64(s.dbBytes)/1e6, hpu,
			float64(s.dbBytes)/float64(max(s.pages, 1)))
	}
	// The table goes to stderr whole (benchmark logs are cut short).
	fmt.Fprintf(os.Stderr, "%s: crawl of a %d-page web: %d fetched, %d discovered in %v\n%s", b.Name(), size,
		sum.Pages, sum.Discovered, elapsed.Round(time.Second), tab.String())
	b.ReportMetric(float64(sum.Pages)/elapsed.Seconds(), "pages/s")
	// Throughput against db growth, over the samples where every worker
	// was busy: at the end of a crawl only the largest hosts have URLs
	// left and per-host concurrency, not the db, sets the pace.
	var busy []crawlScaleSample
	for _, s := range samples {
		if s.inFlight >= workers {
			busy = append(busy, s)
		}
	}
	if n := len(busy) / 3; n > 0 {
		early, late := 0.0, 0.0
		for _, s := range busy[:n] {
			early += s.rate
		}
		for _, s := range busy[len(busy)-n:] {
			late += s.rate
		}
		b.ReportMetric(late/early, "late/early-rate")
	}
	// The heap's growth per URL discovered, from 10% of the crawl to its
	// end: what a larger crawl adds (the first samples carry fixed costs).
	var first, last crawlScaleSample
	for _, s := range samples {
		if first.discovered == 0 && s.pages*10 >= sum.Pages {
			first = s
		}
		last = s
	}
	if last.discovered > first.discovered {
		b.ReportMetric((float64(last.liveHeap)-float64(first.liveHeap))/float64(last.discovered-first.discovered), "heap-slope-B/URL")
	}
	b.ReportMetric(heapPerURL, "heap-B/URL")
	b.ReportMetric(float64(st.Size())/float64(max(sum.Pages, 1)), "db-B/page")
	b.ReportMetric(float64(peakRSS)/1e6, "peak-rss-MB")
	b.ReportMetric(float64(sum.Pages), "pages")
	b.ReportMetric(float64(sum.Discovered), "discovered")
}

// crawlLiveHeap returns the Go heap live after the last GC.
func crawlLiveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	return s[0].Value.Uint64()
}

// crawlRSS returns this process's resident set size (Linux), 0 if unknown.
func crawlRSS() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseUint(f[1], 10, 64)
	return n * uint64(os.Getpagesize())
}
