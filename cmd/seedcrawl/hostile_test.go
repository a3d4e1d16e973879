package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/internal/hostile"
)

// zooRSSBound is the documented memory bound of a crawl with default
// flags: the soft memory limit the crawl sets (crawlMemoryLimit: workers ×
// --max-body twice, plus 128 MiB; its part per URL known is left out, so
// the zoo's URLs get no room of their own), with 10% for what the Go
// runtime does not count (binary text, kernel buffers).
var zooRSSBound = crawlMemoryLimit(config.Default(), 0) * 11 / 10

// zooRun is one crawl of the built binary against the hostile server.
type zooRun struct {
	wall   time.Duration
	rssKB  int64
	stdout string
	stderr string
	err    error
	db     string
}

// hostileCrawl runs `seedcrawl crawl` with default flags plus extra against
// the hostile server, killing it (and failing) after bound. interrupt, when
// set, is called with the process once it runs and may signal it.
func zooCrawl(t *testing.T, bin, resolve string, bound time.Duration, extra []string, seeds []string,
	interrupt func(p *exec.Cmd)) zooRun {
	t.Helper()
	db := filepath.Join(t.TempDir(), "h.db")
	args := append([]string{"crawl", "--db", db, "--resolve-file", resolve, "--scope", "hosts:.test",
		"--progress", "0"}, extra...)
	args = append(args, seeds...)
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak := watchPeakRSS(cmd.Process.Pid)
	if interrupt != nil {
		interrupt(cmd)
	}
	err := cmd.Wait()
	r := zooRun{wall: time.Since(start), stdout: out.String(), stderr: errb.String(), err: err, db: db, rssKB: peak()}
	if ctx.Err() != nil {
		t.Fatalf("crawl still running after %v; killed.\nstderr:\n%s", bound, zooTail(r.stderr, 40))
	}
	if r.rssKB*1024 > zooRSSBound {
		t.Errorf("max RSS %d MiB, above the documented bound %d MiB", r.rssKB>>10, zooRSSBound>>20)
	}
	t.Logf("wall %v, max RSS %d MiB", r.wall.Round(time.Millisecond), r.rssKB>>10)
	return r
}

// zooPages returns the exported page records of a db, by URL.
func zooPages(t *testing.T, bin, db string) map[string]map[string]any {
	t.Helper()
	out, err := exec.Command(bin, "export", "--db", db, "--what", "pages", "--format", "jsonl").Output()
	if err != nil {
		t.Fatalf("export pages: %v", err)
	}
	pages := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p map[string]any
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		pages[p["url"].(string)] = p
	}
	return pages
}

func zooTail(s string, lines int) string {
	l := strings.Split(s, "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

// TestHostileServers crawls each hostile behaviour with default flags (plus
// the few a case names) and checks that the crawl ends by itself in bounded
// time, within the documented memory bound, with the outcome recorded.
func TestHostileServers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := seedcrawlBinary(t)
	srv, err := hostile.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	resolve := filepath.Join(dir, "resolve.txt")
	if err := srv.WriteResolve(resolve); err != nil {
		t.Fatal(err)
	}
	u := srv.URL
	reasonOf := func(t *testing.T, pages map[string]map[string]any, url string) string {
		t.Helper()
		p, ok := pages[url]
		if !ok {
			t.Fatalf("%s not in the db", url)
		}
		return fmt.Sprintf("%v/%v", p["status"], p["reason"])
	}

	t.Run("group", func(t *testing.T) {
		t.Run("slow bodies and lying lengths", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 90*time.Second, []string{"--fetch-timeout", "3s", "--max-retries", "1"},
				[]string{u("slowloris", "/"), u("cl-short", "/"), u("cl-long", "/")}, nil)
			pages := zooPages(t, bin, r.db)
			for _, h := range []string{"slowloris", "cl-short"} {
				if got := reasonOf(t, pages, u(h, "/")); !strings.Contains(got, "timeout") {
					t.Errorf("%s: recorded %q, want a timeout", h, got)
				}
			}
			if got := reasonOf(t, pages, u("cl-long", "/")); !strings.HasPrefix(got, "fetched") {
				t.Errorf("cl-long: recorded %q, want fetched (the first 10 bytes)", got)
			}
		})
		t.Run("endless and link-dense bodies on 17 hosts", func(t *testing.T) {
			t.Parallel()
			seeds := []string{u("chunked", "/")}
			for i := range hostile.DenseHosts {
				seeds = append(seeds, u(fmt.Sprintf("dense%d", i), "/"))
			}
			r := zooCrawl(t, bin, resolve, 120*time.Second, []string{"--max-depth", "0"}, seeds, nil)
			pages := zooPages(t, bin, r.db)
			for _, s := range seeds {
				if p := pages[s]; p == nil || p["truncated"] != true {
					t.Errorf("%s: %v, want fetched and truncated at --max-body", s, p)
				}
			}
		})
		t.Run("huge and binary robots.txt", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 90*time.Second, []string{"--max-depth", "0"},
				[]string{u("bigrobots", "/"), u("bigrobots", "/private"), u("binrobots", "/")}, nil)
			pages := zooPages(t, bin, r.db)
			if got := reasonOf(t, pages, u("bigrobots", "/private")); !strings.HasPrefix(got, "robots-denied") {
				t.Errorf("bigrobots /private: %q, want robots-denied by the first rules of the file", got)
			}
			if got := reasonOf(t, pages, u("binrobots", "/")); strings.HasPrefix(got, "robots-denied") || strings.HasPrefix(got, "deferred") {
				t.Errorf("binrobots /: %q; a robots.txt of noise has no rules, so the page may be fetched", got)
			}
		})
		t.Run("1000-hop cross-host redirect chain", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 90*time.Second, nil, []string{u("r0", "/hop")}, nil)
			if n := srv.Hits("r7", "/hop"); n != 0 {
				t.Errorf("hop 7 fetched %d times; --max-redirects 5 should stop the chain", n)
			}
			_ = r
		})
		t.Run("100k links and 100k nested tags", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 90*time.Second, []string{"--max-depth", "1", "--max-pages", "5"},
				[]string{u("links", "/"), u("nested", "/")}, nil)
			out, err := exec.Command(bin, "stats", "--db", r.db, "--json").Output()
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Links int `json:"links"`
			}
			json.Unmarshal(out, &st)
			if st.Links < 10_000 {
				t.Errorf("%d links stored; a long real page keeps at least 10,000", st.Links)
			}
			if srv.Hits("nested", "/deep") != 1 {
				t.Errorf("the link under 100,000 nested tags was not followed")
			}
		})
		t.Run("private-address links", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 60*time.Second, []string{"--scope", "all"}, []string{u("private", "/")}, nil)
			if n := srv.Hits("127.0.0.1", "/secret") + srv.Hits("localhost", "/secret") + srv.Hits("::1", "/secret") +
				srv.Hits("127.1", "/secret") + srv.Hits("2130706433", "/secret"); n != 0 {
				t.Errorf("a private address was fetched %d times:\n%s", n, srv.Log())
			}
			if r.wall > 30*time.Second {
				t.Errorf("took %v: private-address refusals must be recorded at once, not retried", r.wall)
			}
			pages := zooPages(t, bin, r.db)
			private := 0
			for url, p := range pages {
				if strings.Contains(url, "/secret") && strings.Contains(fmt.Sprint(p["reason"]), "private-address") {
					private++
				}
			}
			if private == 0 {
				t.Errorf("no page recorded with reason private-address")
			}
		})
		t.Run("legacy encodings", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 60*time.Second, []string{"--max-depth", "0"},
				[]string{u("latin1", "/"), u("sjis", "/"), u("cp1251", "/")}, nil)
			pages := zooPages(t, bin, r.db)
			for _, want := range []string{
				u("latin1", "/na%C3%AFve.html"), u("latin1", "/search?q=%E9"), // UTF-8 path, query in the page's encoding
				u("sjis", "/%E6%97%A5%E6%9C%AC.html"), u("sjis", "/search?q=%93%FA"),
				u("cp1251", "/%D0%BC%D0%B8%D1%80.html"), u("cp1251", "/search?q=%EC"),
			} {
				if _, ok := pages[want]; !ok {
					t.Errorf("no URL %s was found", want)
				}
			}
		})
		t.Run("unsolicited bytes after every page", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 90*time.Second, nil, []string{u("unsolicited", "/")}, nil)
			pages := zooPages(t, bin, r.db)
			for i := range hostile.Unsolicited {
				if got := reasonOf(t, pages, u("unsolicited", fmt.Sprintf("/u%d", i))); !strings.HasPrefix(got, "fetched") {
					t.Errorf("/u%d: %q, want fetched", i, got)
				}
			}
			// net/http logs each page's stray bytes; stderr shows the
			// first few, marked as the library's, then says the rest are
			// dropped.
			lines := strings.Count(r.stderr, "Unsolicited response")
			if lines == 0 || lines > libraryLogLines || !strings.Contains(r.stderr, "seedcrawl: library log: more lines dropped") {
				t.Errorf("%d library log lines on stderr, want 1 to %d and a line saying the rest were dropped:\n%s",
					lines, libraryLogLines, zooTail(r.stderr, 20))
			}
		})
		t.Run("robots.txt connection refused", func(t *testing.T) {
			t.Parallel()
			r := zooCrawl(t, bin, resolve, 150*time.Second, nil, []string{u("refused", "/")}, nil)
			if !strings.Contains(r.stderr, "refused") {
				t.Errorf("stderr never says the connection was refused:\n%s", zooTail(r.stderr, 20))
			}
			pages := zooPages(t, bin, r.db)
			if got := reasonOf(t, pages, u("refused", "/")); !strings.Contains(got, "refused") {
				t.Errorf("recorded %q, want the refusal as the reason", got)
			}
		})
		t.Run("hanging fetch and SIGINT", func(t *testing.T) {
			t.Parallel()
			var signalled time.Time
			r := zooCrawl(t, bin, resolve, 30*time.Second, nil, []string{u("hang", "/")}, func(p *exec.Cmd) {
				select {
				case <-srv.Requested("hang", "/"):
				case <-time.After(20 * time.Second):
					t.Error("the hanging page was never requested")
				}
				signalled = time.Now()
				p.Process.Signal(syscall.SIGINT)
			})
			if d := time.Since(signalled); d > 2*time.Second {
				t.Errorf("exited %v after SIGINT; a fetch in flight must be cancelled within 1 s", d)
			}
			if r.err != nil || !strings.Contains(r.stdout+r.stderr, "interrupted") {
				t.Errorf("exit %v, output:\n%s\n%s", r.err, r.stdout, zooTail(r.stderr, 10))
			}
		})
	})
}

// watchPeakRSS follows the peak resident set of process pid (VmHWM in
// /proc/PID/status, a high-water mark, so polling misses nothing but what
// happens after the last read) until the returned function is called, which
// returns it in KiB. The child's rusage cannot be used: Go starts children
// with vfork, and Linux charges the parent's peak at exec to the child's
// ru_maxrss, so a large test process (-race) would count as the crawl's.
func watchPeakRSS(pid int) func() int64 {
	var mu sync.Mutex
	var peak int64
	read := func() bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return false
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				mu.Lock()
				peak = max(peak, kb)
				mu.Unlock()
				return true
			}
		}
		return false // exited: a zombie has no memory
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if !read() {
					return
				}
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
