package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/internal/cputime"
)

// crawlBenchWeb is a clean test web served by a `seedcrawl testweb` child.
type crawlBenchWeb struct {
	resolve, ca string
	seeds       []string
	pid         int // the testweb child, for its CPU time
}

func crawlStartBenchWeb(b *testing.B, pages, hosts int) crawlBenchWeb {
	b.Helper()
	return crawlStartBenchWebArgs(b, "--preset", "clean", "--pages", strconv.Itoa(pages),
		"--hosts", strconv.Itoa(hosts), "--seed", "9")
}

// crawlStartBenchWebArgs starts a `seedcrawl testweb` child with args (the
// output files are added) and waits until it serves.
func crawlStartBenchWebArgs(b *testing.B, args ...string) crawlBenchWeb {
	b.Helper()
	bin := seedcrawlBinary(b)
	dir := b.TempDir()
	w := crawlBenchWeb{resolve: filepath.Join(dir, "resolve.txt"), ca: filepath.Join(dir, "ca.pem")}
	seedsFile := filepath.Join(dir, "seeds.txt")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"testweb", "--resolve-out", w.resolve, "--ca-out", w.ca,
		"--seeds-out", seedsFile}, args...)...)
	// GOMEMLIMIT, when a benchmark run sets it for the crawler, is not the
	// test web's: its generated web can be gigabytes.
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOMEMLIMIT=") })
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
	w.pid = cmd.Process.Pid
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

// webCPU returns the CPU time (user+system) the testweb child has used so
// far, from /proc/PID/stat (clock ticks of 10 ms: read it around runs of
// a second or more). It is how the benchmarks show what share of the two
// cores the server takes from the crawler.
func (w crawlBenchWeb) webCPU(b *testing.B) time.Duration {
	b.Helper()
	d, err := procCPU(w.pid)
	if err != nil {
		b.Fatalf("testweb CPU time: %v", err)
	}
	return d
}

// procCPU returns the CPU time (user+system) process pid has used so far,
// from /proc/PID/stat, in clock ticks of 10 ms.
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the parenthesized command name: state is field 3,
	// utime and stime are fields 14 and 15.
	i := strings.LastIndexByte(string(data), ')')
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc stat %q", data)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	return time.Duration(utime+stime) * tick, nil
}

// crawlBenchSeedcrawl crawls the web with delays off into a fresh db and
// returns the pages recorded.
func crawlBenchSeedcrawl(b *testing.B, w crawlBenchWeb, workers int) uint64 {
	return crawlRun(b, demoConfigFiles(filepath.Join(b.TempDir(), "bench.db"), w, workers), crawlExtras{}).Pages
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
	n, err := crawlColly(w, workers, false)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkCrawl measures crawl throughput against the test web with
// delays off, seedcrawl (robots.txt, frontier, bbolt commits with fsync)
// side by side with a bare colly crawler of the same web, the library
// floor. CPU is this process's (the web is served by a child process);
// seedcrawl-web-cpu-µs/page is the test web's CPU during seedcrawl's runs,
// the share of the two cores the server takes.
//
// With SEEDCRAWL_BENCH_BASE=PATH set, each iteration also runs the
// seedcrawl binary at PATH ("base") and this tree's binary ("head") as
// child processes on the same web, one after the other, and reports the
// medians of their pages/s, CPU and the test web's CPU per page, counted
// from the test web's access log as in BenchmarkCrawlDocs.
func BenchmarkCrawl(b *testing.B) {
	const workers = 8
	base := os.Getenv(crawlBenchBaseEnv)
	for _, size := range []struct{ pages, hosts int }{{1000, 10}, {5000, 20}} {
		b.Run(fmt.Sprintf("pages=%d", size.pages), func(b *testing.B) {
			args := []string{"--preset", "clean", "--pages", strconv.Itoa(size.pages),
				"--hosts", strconv.Itoa(size.hosts), "--seed", "9"}
			logPath := filepath.Join(b.TempDir(), "access.log")
			if base != "" {
				args = append(args, "--access-log", logPath)
			}
			w := crawlStartBenchWebArgs(b, args...)
			var sPages, cPages uint64
			var sWall, cWall, sCPU, cCPU, sWeb time.Duration
			runs := map[string][]crawlBenchRun{}
			for b.Loop() {
				t0, c0, w0 := time.Now(), cputime.Process(), w.webCPU(b)
				sPages += crawlBenchSeedcrawl(b, w, workers)
				t1, c1, w1 := time.Now(), cputime.Process(), w.webCPU(b)
				cPages += crawlBenchColly(b, w, workers)
				t2, c2 := time.Now(), cputime.Process()
				sWall, sCPU, sWeb = sWall+t1.Sub(t0), sCPU+c1-c0, sWeb+w1-w0
				cWall, cCPU = cWall+t2.Sub(t1), cCPU+c2-c1
				if base == "" {
					continue
				}
				// Both binaries as children, one after the other: the
				// before/after comparison, free of this process's share.
				for _, name := range []string{"base", "head"} {
					cmd := crawlBenchSeedcrawlCmd(b, w, workers)
					if name == "base" {
						cmd.Path, cmd.Args[0] = base, base
					}
					before, web0 := crawlBenchLogSize(b, logPath), w.webCPU(b)
					r := crawlBenchRunChild(b, name, cmd)
					r.web = w.webCPU(b) - web0
					r.pages = crawlBenchLogPages(b, logPath, before)
					runs[name] = append(runs[name], r)
				}
			}
			sPer := float64(sCPU.Microseconds()) / float64(sPages)
			cPer := float64(cCPU.Microseconds()) / float64(cPages)
			b.ReportMetric(float64(sPages)/sWall.Seconds(), "seedcrawl-pages/s")
			b.ReportMetric(float64(cPages)/cWall.Seconds(), "colly-pages/s")
			b.ReportMetric(sPer, "seedcrawl-cpu-µs/page")
			b.ReportMetric(float64(sWeb.Microseconds())/float64(sPages), "seedcrawl-web-cpu-µs/page")
			b.ReportMetric(cPer, "colly-cpu-µs/page")
			b.ReportMetric(sPer/cPer, "cpu-ratio")
			b.ReportMetric(float64(sPages)/float64(b.N), "seedcrawl-pages")
			b.ReportMetric(float64(cPages)/float64(b.N), "colly-pages")
			for _, name := range []string{"base", "head"} {
				if rs := runs[name]; len(rs) > 0 {
					crawlBenchReport(b, name, rs, 1e6, "µs")
				}
			}
		})
	}
}

// crawlBenchReport reports the medians of a crawler's runs: pages/s, its
// CPU per page and the test web's CPU per page (in unit, scale per
// second), pages, and peak RSS.
func crawlBenchReport(b *testing.B, name string, rs []crawlBenchRun, scale float64, unit string) {
	perPage := func(d time.Duration, r crawlBenchRun) float64 { return d.Seconds() * scale / float64(max(r.pages, 1)) }
	b.ReportMetric(crawlBenchMedian(rs, func(r crawlBenchRun) float64 { return float64(r.pages) / r.wall.Seconds() }), name+"-pages/s")
	b.ReportMetric(crawlBenchMedian(rs, func(r crawlBenchRun) float64 { return perPage(r.cpu, r) }), name+"-cpu-"+unit+"/page")
	b.ReportMetric(crawlBenchMedian(rs, func(r crawlBenchRun) float64 { return perPage(r.web, r) }), name+"-web-cpu-"+unit+"/page")
	b.ReportMetric(crawlBenchMedian(rs, func(r crawlBenchRun) float64 { return float64(r.pages) }), name+"-pages")
	b.ReportMetric(crawlBenchMedian(rs, func(r crawlBenchRun) float64 { return float64(r.maxRSS) / 1024 }), name+"-rss-MB")
}

// BenchmarkCrawlDocs measures what a crawl costs on documentation-site
// pages (testweb --profile docs: about 30 KB and 75 links a page, 10% over
// 100 KB), every host over https or every host over http, with 8 workers,
// delays off and robots.txt obeyed. Every crawler runs in its own child
// process, so its CPU (user+system from its rusage) excludes the test web,
// which is served by another child, and the benchmark itself:
//   - seedcrawl: the binary built from this tree (`seedcrawl crawl`);
//   - colly: a bare colly collector (Async, its own visited set, goquery
//     OnHTML a[href], robots.txt on) over fetch's transport, run by this
//     test binary re-executed (crawlBenchCollyEnv);
//   - wget2, when it is installed: recursive, robots on, 8 threads, bodies
//     deleted after parsing; it reaches the .test hosts through the test
//     web's port as its proxy, since it has no resolve option.
//
// With SEEDCRAWL_BENCH_BASE=PATH set, a "base" column runs the seedcrawl
// binary at PATH the same way (an earlier build, for before/after figures).
//
// Pages are counted from the test web's access log, the same way for every
// crawler: distinct 200 answers other than robots.txt. Each iteration runs
// the crawlers one after the other on the same web, so a slower or busier
// moment affects them alike; the metrics are medians over iterations (use
// -benchtime 3x or more).
func BenchmarkCrawlDocs(b *testing.B) {
	const workers = 8
	wget2, wget2Err := exec.LookPath("wget2")
	for _, scheme := range []string{"https", "http"} {
		for _, size := range []struct{ pages, hosts int }{{2000, 10}, {5000, 20}} {
			b.Run(fmt.Sprintf("scheme=%s/pages=%d", scheme, size.pages), func(b *testing.B) {
				logPath := filepath.Join(b.TempDir(), "access.log")
				w := crawlStartBenchWebArgs(b, "--preset", "clean", "--profile", "docs", "--scheme", scheme,
					"--pages", strconv.Itoa(size.pages), "--hosts", strconv.Itoa(size.hosts), "--seed", "9",
					"--access-log", logPath)
				crawlers := []string{"seedcrawl", "colly"}
				base := os.Getenv(crawlBenchBaseEnv)
				if base != "" {
					crawlers = append([]string{"base"}, crawlers...)
				}
				var proxy string
				if wget2Err == nil {
					crawlers = append(crawlers, "wget2")
					proxy = crawlBenchProxy(b, w, scheme)
				} else {
					b.Logf("wget2 not found (%v): no wget2 column", wget2Err)
				}
				runs := map[string][]crawlBenchRun{}
				for b.Loop() {
					for _, name := range crawlers {
						before, web0 := crawlBenchLogSize(b, logPath), w.webCPU(b)
						var cmd *exec.Cmd
						switch name {
						case "seedcrawl":
							cmd = crawlBenchSeedcrawlCmd(b, w, workers)
						case "base":
							cmd = crawlBenchSeedcrawlCmd(b, w, workers)
							cmd.Path, cmd.Args[0] = base, base
						case "colly":
							cmd = crawlBenchCollyCmd(b, w, workers)
						case "wget2":
							cmd = crawlBenchWget2Cmd(b, wget2, w, scheme, proxy, workers)
						}
						r := crawlBenchRunChild(b, name, cmd)
						r.web = w.webCPU(b) - web0
						r.pages = crawlBenchLogPages(b, logPath, before)
						runs[name] = append(runs[name], r)
					}
				}
				for _, name := range crawlers {
					crawlBenchReport(b, name, runs[name], 1e3, "ms")
				}
				b.ReportMetric(0, "ns/op") // the figures above are per page, not per iteration
			})
		}
	}
}

// crawlBenchBaseEnv names a seedcrawl binary to measure beside this tree's.
const crawlBenchBaseEnv = "SEEDCRAWL_BENCH_BASE"

// crawlBenchRun is one crawler's run in a child process.
type crawlBenchRun struct {
	wall, cpu time.Duration
	web       time.Duration // the test web's CPU time during the run
	maxRSS    int64         // KiB
	pages     int
}

func crawlBenchMedian(rs []crawlBenchRun, f func(crawlBenchRun) float64) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// crawlBenchRunChild runs cmd to completion and returns its wall time and
// the CPU time and peak RSS of the child (its rusage).
func crawlBenchRunChild(b *testing.B, name string, cmd *exec.Cmd) crawlBenchRun {
	b.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	// wget2 exits 8 when some request got an error status (robots-less
	// hosts answer robots.txt with 404): that is not a failed run.
	var ee *exec.ExitError
	if err != nil && !(name == "wget2" && errors.As(err, &ee) && ee.ExitCode() == 8) {
		b.Fatalf("%s: %v\n%s", name, err, crawlBenchTail(out.String()))
	}
	r := crawlBenchRun{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = ru.Maxrss
	}
	return r
}

func crawlBenchTail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

func crawlBenchSeedcrawlCmd(b *testing.B, w crawlBenchWeb, workers int) *exec.Cmd {
	bin := seedcrawlBinary(b)
	args := []string{"crawl", "--db", filepath.Join(b.TempDir(), "bench.db"), "--resolve-file", w.resolve,
		"--ca-file", w.ca, "--scope", "hosts:.test", "--workers", strconv.Itoa(workers),
		"--host-concurrency", "2", "--delay", "0", "--delay-factor", "0", "--progress", "0"}
	return exec.Command(bin, append(args, w.seeds...)...)
}

// crawlBenchCollyEnv, when set in the environment of this test binary,
// makes it crawl with bare colly instead of running tests (see TestMain):
// resolve file, CA file, workers and seeds separated by newlines.
const crawlBenchCollyEnv = "SEEDCRAWL_BENCH_COLLY"

func crawlBenchCollyCmd(b *testing.B, w crawlBenchWeb, workers int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crawlBenchCollyEnv+"="+strings.Join(append([]string{w.resolve, w.ca,
		strconv.Itoa(workers)}, w.seeds...), "\n"))
	return cmd
}

// TestMain runs the bare colly crawler of BenchmarkCrawlDocs when this
// binary is its child, and the tests otherwise (see runTests).
func TestMain(m *testing.M) {
	if v := os.Getenv(crawlBenchCollyEnv); v != "" {
		f := strings.Split(v, "\n")
		workers, err := strconv.Atoi(f[2])
		if err == nil {
			_, err = crawlColly(crawlBenchWeb{resolve: f[0], ca: f[1], seeds: f[3:]}, workers, true)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(runTests(m))
}

// crawlColly crawls the web with a bare colly collector (Async, its own
// visited set, Parallelism workers) over fetch's transport, robots.txt
// obeyed or not, and returns the responses it got.
func crawlColly(w crawlBenchWeb, workers int, robots bool) (uint64, error) {
	resolve, err := fetch.LoadResolveFile(w.resolve)
	if err != nil {
		return 0, err
	}
	tr, err := fetch.NewTransport(fetch.Options{Resolve: resolve, CAFile: w.ca, MaxIdlePerHost: 2})
	if err != nil {
		return 0, err
	}
	defer tr.CloseIdleConnections()
	c := colly.NewCollector(colly.Async(true))
	c.IgnoreRobotsTxt = !robots
	c.WithTransport(tr)
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: workers}); err != nil {
		return 0, err
	}
	var pages atomic.Uint64
	c.OnResponse(func(*colly.Response) { pages.Add(1) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	for _, s := range w.seeds {
		c.Visit(s)
	}
	c.Wait()
	return pages.Load(), nil
}

func crawlBenchWget2Cmd(b *testing.B, wget2 string, w crawlBenchWeb, scheme, proxy string, workers int) *exec.Cmd {
	args := []string{"--no-config", "-r", "-l", "0", "--robots=on", "--max-threads=" + strconv.Itoa(workers),
		"-H", "-D", ".test", "--delete-after", "-P", b.TempDir(), "-q", "--tries=1", "--timeout=30",
		"--ca-certificate=" + w.ca, "--no-hsts", "--no-hpkp", "--no-tcp-fastopen"}
	if scheme == "https" {
		args = append(args, "--https-proxy=http://"+proxy)
	} else {
		args = append(args, "--http-proxy=http://"+proxy)
	}
	return exec.Command(wget2, append(args, w.seeds...)...)
}

// crawlBenchProxy returns the address wget2 uses as its proxy: the test
// web's port for scheme, which routes absolute-form requests by host.
// wget2 1.99 speaks TLS to an https proxy itself (no CONNECT), with the
// page's host as the TLS server name, so the https port serves as one too.
func crawlBenchProxy(b *testing.B, w crawlBenchWeb, scheme string) string {
	b.Helper()
	data, err := os.ReadFile(w.resolve)
	if err != nil {
		b.Fatal(err)
	}
	port := ":80 "
	if scheme == "https" {
		port = ":443 "
	}
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, port); i > 0 && !strings.HasPrefix(line, "#") {
			return strings.TrimSpace(line[i+len(port):])
		}
	}
	b.Fatalf("no %s address in %s", scheme, w.resolve)
	return ""
}

func crawlBenchLogSize(b *testing.B, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// crawlBenchLogPages counts the distinct pages answered 200 (robots.txt
// aside) in the access log from offset on.
func crawlBenchLogPages(b *testing.B, path string, offset int64) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// time, scheme, host, method, target, status, bytes, user agent
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 6 || f[5] != "200" || f[4] == "/robots.txt" {
			continue
		}
		host := strings.ToLower(f[2])
		host = strings.TrimSuffix(strings.TrimSuffix(host, ":80"), ":443")
		seen[host+f[4]] = true
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return len(seen)
}

// BenchmarkCrawlDocsInProcess crawls the docs-profile test web (the web of
// BenchmarkCrawlDocs, 2,000 pages on 10 hosts) with seedcrawl running in
// this process, so that -cpuprofile and -memprofile show where a page's
// CPU goes; the web is still served by a child process. It reports the
// same per-page figures (this process's CPU, which here includes the
// benchmark's own small share).
func BenchmarkCrawlDocsInProcess(b *testing.B) {
	const workers = 8
	for _, scheme := range []string{"https", "http"} {
		b.Run("scheme="+scheme, func(b *testing.B) {
			w := crawlStartBenchWebArgs(b, "--preset", "clean", "--profile", "docs", "--scheme", scheme,
				"--pages", "2000", "--hosts", "10", "--seed", "9")
			var pages uint64
			var wall, cpu time.Duration
			for b.Loop() {
				t0, c0 := time.Now(), cputime.Process()
				pages += crawlBenchSeedcrawl(b, w, workers)
				wall, cpu = wall+time.Since(t0), cpu+cputime.Process()-c0
			}
			b.ReportMetric(float64(pages)/wall.Seconds(), "pages/s")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(max(pages, 1)), "cpu-ms/page")
			b.ReportMetric(float64(pages)/float64(b.N), "pages")
			b.ReportMetric(0, "ns/op")
		})
	}
}
