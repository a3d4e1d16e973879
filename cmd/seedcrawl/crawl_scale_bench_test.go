package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/internal/cputime"
)

// Bounds of BenchmarkCrawlScale: a crawl of the largest webs outlasts a
// working session on a shared machine, so it can be cut by time or pages
// and still report the samples taken up to then.
var (
	scaleMaxTime = flag.Duration("scale.maxtime", 0,
		"BenchmarkCrawlScale: stop each crawl after this long (0: crawl the whole web)")
	scaleMaxPages = flag.Int64("scale.maxpages", 0,
		"BenchmarkCrawlScale: stop each crawl after this many page requests (0: no limit)")
	scaleInterval = flag.Duration("scale.interval", 0,
		"BenchmarkCrawlScale: time between samples (0: 2s per 100k pages of the web, from 2s to 30s)")
	scaleSamples = flag.String("scale.samples", "",
		"BenchmarkCrawlScale: also append each sample line to this file as it is taken")
	scaleMaxBody = flag.Int64("scale.maxbody", 0,
		"BenchmarkCrawlScale: --max-body in bytes (0: the default); it sets the crawl's base memory limit")
	scaleKeepDB = flag.String("scale.db", "",
		"BenchmarkCrawlScale: crawl into this file (removed first, kept after for seedcrawl stats) instead of a temporary one")
	scaleHeapProfile = flag.String("scale.heapprofile", "",
		"BenchmarkCrawlScale: write a heap profile to this file when the crawl stops, before the db closes")
)

// BenchmarkCrawlScale crawls a large clean test web (default page profile,
// served by a `seedcrawl testweb` child, one host per 1,000 pages so no
// host reaches --host-max-pages) with 8 workers and delays off, in this
// process, and samples every few seconds: pages fetched, URLs discovered,
// URLs queued, pages/s over the last interval, pages per CPU-second of
// this process and of the test web over the last interval, the live Go
// heap (after the last GC), both processes' RSS, the db file's size and
// the load average. Each sample line goes to stderr as it is taken (and
// to -scale.samples), so a crawl cut short still leaves its samples.
//
// Pages per CPU-second is the measure of slowing down that holds on a
// loaded machine: wall-clock pages/s falls when other processes take the
// cores, CPU-seconds per page only when the crawl itself does more work
// per page, as it would if a structure's cost grew with the db.
//
// It reports:
//   - pages/s over the whole crawl, and late/early-rate: the rate of the
//     last third of the samples with every worker busy over that of the
//     first third (below 1 means the crawl slows as the db grows);
//     late/early-cpu-rate and late/early-web-cpu-rate the same for pages
//     per CPU-second of the crawler and of the test web;
//   - cpu-over-web-late/early: the crawler's CPU per page over the test
//     web's, last third over first third. The web does the same work per
//     page all along, so its CPU per page moves only with the machine
//     (other processes' load thrashing caches, frequency): this ratio
//     above 1 is work the crawler added as it grew;
//   - heap-B/URL: the largest live heap over URLs discovered at that
//     moment, over samples after the first 10% of the crawl, and
//     heap-slope-B/URL: the heap's growth per URL discovered from then on;
//   - db-B/page: the db's size over pages fetched at the end;
//   - peak RSS of the crawler and of the test web.
//
// It is long (a 1M-page web takes minutes to generate and crawl; a 10M
// one about 1 min and 6.5 GB to generate, and hours to crawl on two busy
// cores): run one size at a time, bounded by -scale.maxtime if need be, e.g.
//
//	go test ./cmd/seedcrawl -run '^$' -bench 'CrawlScale/pages=1000000$' -benchtime 1x -timeout 2h
//	go test ./cmd/seedcrawl -run '^$' -bench 'CrawlScale/pages=10000000$' -benchtime 1x -timeout 3h \
//		-args -scale.maxtime 70m -scale.samples /tmp/scale.txt
func BenchmarkCrawlScale(b *testing.B) {
	const workers = 8
	for _, pages := range []int{100_000, 300_000, 1_000_000, 3_000_000, 10_000_000} {
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
	ready             int     // hosts with a URL that could be handed out now
	rate              float64 // pages/s since the previous sample
	cpu, webCPU       time.Duration
	gc, gcBusy        time.Duration // the collector's and the process's busy CPU time (crawlGCCPU)
	cpuRate, webRate  float64       // pages per CPU-second since the previous sample
	liveHeap, rss     uint64
	webRSS            uint64
	dbBytes           int64
	load              string  // 1-minute load average
	gcCPU             float64 // the collector's share of this process's CPU since the previous sample
	memLimit          int64   // the Go soft memory limit
}

const crawlScaleHeader = "t pages discovered queued inflight ready pages/s cpu-s pages/cpu-s web-cpu-s pages/web-cpu-s heap-MB rss-MB web-rss-MB db-MB heap-B/URL db-B/page load1 gc-cpu% memlimit-MB"

func (s crawlScaleSample) line() string {
	return fmt.Sprintf("%.0f %d %d %d %d %d %.0f %.1f %.0f %.1f %.0f %.1f %.1f %.1f %.1f %.0f %.0f %s %.1f %.0f",
		s.at.Seconds(), s.pages, s.discovered, s.queued, s.inFlight, s.ready, s.rate,
		s.cpu.Seconds(), s.cpuRate, s.webCPU.Seconds(), s.webRate,
		float64(s.liveHeap)/1e6, float64(s.rss)/1e6, float64(s.webRSS)/1e6, float64(s.dbBytes)/1e6,
		float64(s.liveHeap)/float64(max(s.discovered, 1)), float64(s.dbBytes)/float64(max(s.pages, 1)), s.load,
		100*s.gcCPU, float64(s.memLimit)/1e6)
}

func crawlScaleOnce(b *testing.B, w crawlBenchWeb, workers, size int) {
	db := filepath.Join(b.TempDir(), "scale.db")
	if *scaleKeepDB != "" {
		db = *scaleKeepDB
		if err := os.Remove(db); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
	}
	cfg := demoConfigFiles(db, w, workers)
	cfg.HostMaxPages = 0
	cfg.MaxDuration = *scaleMaxTime
	cfg.MaxPages = *scaleMaxPages
	if *scaleMaxBody > 0 {
		cfg.MaxBody = config.ByteSize(*scaleMaxBody)
	}
	sess, err := openCrawl(cfg, crawlExtras{})
	if err != nil {
		b.Fatal(err)
	}
	interval := *scaleInterval
	if interval <= 0 {
		interval = min(time.Duration(max(size/50_000, 2))*time.Second, 30*time.Second)
	}
	out := io.Writer(os.Stderr)
	if *scaleSamples != "" {
		f, err := os.OpenFile(*scaleSamples, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		out = io.MultiWriter(os.Stderr, f)
	}
	fmt.Fprintf(out, "# %s: crawl of a %d-page web, %d workers, sampled every %v (-scale.maxtime %v, -scale.maxpages %d)\n# %s\n",
		b.Name(), size, workers, interval, cfg.MaxDuration, cfg.MaxPages, crawlScaleHeader)
	stop, done := make(chan struct{}), make(chan []crawlScaleSample)
	start := time.Now()
	cpu0 := cputime.Process()
	web0, _ := procCPU(w.pid)
	go func() {
		var samples []crawlScaleSample
		t := time.NewTicker(interval)
		defer t.Stop()
		var prev crawlScaleSample
		for {
			select {
			case <-stop:
				done <- samples
				return
			case <-t.C:
			}
			p := sess.c.Progress()
			s := crawlScaleSample{at: time.Since(start), pages: p.Pages, discovered: p.Discovered,
				queued: p.Pending, inFlight: p.InFlight, ready: p.Ready, liveHeap: crawlLiveHeap(),
				rss: procRSS("self"), webRSS: procRSS(strconv.Itoa(w.pid)), cpu: cputime.Process() - cpu0, load: crawlLoad()}
			s.gc, s.gcBusy = crawlGCCPU()
			s.memLimit = debug.SetMemoryLimit(-1)
			if d := s.gcBusy - prev.gcBusy; d > 0 {
				s.gcCPU = (s.gc - prev.gc).Seconds() / d.Seconds()
			}
			if web, err := procCPU(w.pid); err == nil {
				s.webCPU = web - web0
			}
			if st, err := os.Stat(db); err == nil {
				s.dbBytes = st.Size()
			}
			n := float64(s.pages - prev.pages)
			s.rate = n / (s.at - prev.at).Seconds()
			if d := (s.cpu - prev.cpu).Seconds(); d > 0 {
				s.cpuRate = n / d
			}
			if d := (s.webCPU - prev.webCPU).Seconds(); d > 0 {
				s.webRate = n / d
			}
			fmt.Fprintln(out, s.line())
			samples = append(samples, s)
			prev = s
		}
	}()
	sum, err := sess.run(context.Background(), 0, nil)
	elapsed := time.Since(start)
	close(stop)
	samples := <-done
	if *scaleHeapProfile != "" {
		// While the crawler and its frontier are still reachable, so the
		// profile shows what they hold at the crawl's size.
		if perr := crawlWriteHeapProfile(*scaleHeapProfile); perr != nil {
			b.Error(perr)
		}
		runtime.KeepAlive(sess)
	}
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
	fmt.Fprintf(out, "# %s: %d fetched, %d discovered in %v (stopped by: %s), db %d bytes\n", b.Name(),
		sum.Pages, sum.Discovered, elapsed.Round(time.Second), sum.Stopped, st.Size())
	b.ReportMetric(float64(sum.Pages)/elapsed.Seconds(), "pages/s")
	var peakRSS, peakWebRSS uint64
	var heapPerURL float64
	for _, s := range samples {
		peakRSS = max(peakRSS, s.rss)
		peakWebRSS = max(peakWebRSS, s.webRSS)
		if s.pages*10 >= sum.Pages {
			heapPerURL = max(heapPerURL, float64(s.liveHeap)/float64(max(s.discovered, 1)))
		}
	}
	// Throughput against db growth, over the samples where the workers,
	// not the web, set the pace: at the end of a crawl only the largest
	// hosts have URLs left and per-host concurrency limits the rate. A
	// host ready with no worker to take it, or every worker fetching,
	// says the workers were the limit (the count fetching is a snapshot,
	// often 0 while the workers parse and commit, so it alone drops most
	// samples of a busy crawl).
	var busy []crawlScaleSample
	for _, s := range samples {
		if s.ready > 0 || s.inFlight >= workers {
			busy = append(busy, s)
		}
	}
	crawlScaleLateEarly(b, busy, func(s crawlScaleSample) float64 { return s.rate }, "late/early-rate")
	crawlScaleLateEarly(b, busy, func(s crawlScaleSample) float64 { return s.cpuRate }, "late/early-cpu-rate")
	crawlScaleLateEarly(b, busy, func(s crawlScaleSample) float64 { return s.webRate }, "late/early-web-cpu-rate")
	if n := len(busy) / 3; n > 1 {
		// From the cumulative CPU times, so each third weighs its pages.
		ratio := func(lo, hi crawlScaleSample) float64 {
			return float64(hi.cpu-lo.cpu) / float64(max(hi.webCPU-lo.webCPU, 1))
		}
		if early := ratio(busy[0], busy[n-1]); early > 0 {
			b.ReportMetric(ratio(busy[len(busy)-n], busy[len(busy)-1])/early, "cpu-over-web-late/early")
		}
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
	b.ReportMetric(float64(peakWebRSS)/1e6, "peak-web-rss-MB")
	b.ReportMetric(float64(sum.Pages), "pages")
	b.ReportMetric(float64(sum.Discovered), "discovered")
}

// crawlScaleLateEarly reports the mean of rate over the last third of
// samples over its mean over the first third, as metric unit.
func crawlScaleLateEarly(b *testing.B, samples []crawlScaleSample, rate func(crawlScaleSample) float64, unit string) {
	n := len(samples) / 3
	if n == 0 {
		return
	}
	early, late := 0.0, 0.0
	for _, s := range samples[:n] {
		early += rate(s)
	}
	for _, s := range samples[len(samples)-n:] {
		late += rate(s)
	}
	if early > 0 {
		b.ReportMetric(late/early, unit)
	}
}

// crawlWriteHeapProfile writes a heap profile of live objects to path.
func crawlWriteHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("heap profile %s: %w", path, err)
	}
	return f.Close()
}

// crawlGCCPU returns the CPU time the Go collector has used so far (mark
// workers, assists and pauses) and that of the whole process less idle
// time, both runtime/metrics' estimates: they count time a P held, so
// their ratio, not one of them against getrusage, is the collector's share
// on a machine where the process waits for a core.
func crawlGCCPU() (gc, busy time.Duration) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"},
		{Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindFloat64 {
			return 0, 0
		}
	}
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	return sec(s[0].Value.Float64()), sec(s[1].Value.Float64() - s[2].Value.Float64())
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

// procRSS returns the resident set size of process pid ("self" for this
// one) on Linux, 0 if unknown.
func procRSS(pid string) uint64 {
	data, err := os.ReadFile("/proc/" + pid + "/statm")
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

// crawlLoad returns the 1-minute load average (Linux), "-" if unknown: the
// context of a wall-clock rate on a shared machine.
func crawlLoad() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "-"
}
