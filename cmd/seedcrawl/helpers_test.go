package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/cond"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// binDir holds the binary seedcrawlBinary builds; TestMain makes it and
// removes it after the tests.
var binDir string

// builtBinary builds the seedcrawl binary once per test binary run: the
// tests and benchmarks that run it as a separate process (kill -9 resume,
// clusters, a test web in a child process) share one build.
var builtBinary = sync.OnceValues(func() (string, error) {
	if binDir == "" {
		return "", fmt.Errorf("no directory for the binary: TestMain did not run")
	}
	bin := filepath.Join(binDir, "seedcrawl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// seedcrawlBinary returns the path of the seedcrawl binary, failing t if
// it cannot be built.
func seedcrawlBinary(t testing.TB) string {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// runTests runs m with a directory for the built binary, removed after.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "seedcrawl-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	return m.Run()
}

// openDB opens the crawl db at path read-only, failing t if it cannot; the
// caller closes it.
func openDB(t testing.TB, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// readDB opens the crawl db at path read-only, reads it with read and
// closes it, failing t if either fails: readDB(t, db, (*storage.DB).Stats).
func readDB[T any](t testing.TB, path string, read func(*storage.DB) (T, error)) T {
	t.Helper()
	db := openDB(t, path)
	defer db.Close()
	v, err := read(db)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// outBuffer is a command's output, safe to read while the command writes
// it; Wait blocks until a text appears in it.
type outBuffer struct {
	c cond.Cond // guards b; broadcast on each Write
	b bytes.Buffer
}

func (w *outBuffer) Write(p []byte) (int, error) {
	w.c.Lock()
	defer w.c.Unlock()
	n, err := w.b.Write(p)
	w.c.Broadcast()
	return n, err
}

func (w *outBuffer) String() string {
	w.c.Lock()
	defer w.c.Unlock()
	return w.b.String()
}

// Wait blocks until the output contains s or ctx ends.
func (w *outBuffer) Wait(ctx context.Context, s string) error {
	if err := w.c.Wait(ctx, func() bool { return strings.Contains(w.b.String(), s) }); err != nil {
		return fmt.Errorf("waiting for %q in the output: %w", s, err)
	}
	return nil
}

// checkHostGaps checks the politeness of a test web's access log: two
// requests to one host, in the order of entries, arrive at least
// want(host) apart. Entries skip returns true for are left out (nil: none).
// It returns the number of gaps checked and each host's last request.
func checkHostGaps(t testing.TB, entries []testweb.Entry, want func(host string) time.Duration, skip func(testweb.Entry) bool) (int, map[string]time.Duration) {
	t.Helper()
	last := map[string]time.Duration{}
	checked := 0
	for _, e := range entries {
		if skip != nil && skip(e) {
			continue
		}
		if prev, ok := last[e.Host]; ok {
			checked++
			if gap, least := e.Time-prev, want(e.Host); gap < least {
				t.Errorf("%s: %v between requests (…%s), want ≥ %v", e.Host, gap, e.Target, least)
			}
		}
		last[e.Host] = e.Time
	}
	return checked, last
}

// hostileGap is the least gap between two requests to host in the hostile
// web tests: the Crawl-delay of rules.test, --delay elsewhere.
func hostileGap(host string) time.Duration {
	if host == "rules.test" {
		return hostileCrawlDelay
	}
	return hostileDelay
}

// cmdRun runs the command line args in-process, as main does, and returns
// its exit code, stdout and stderr.
func cmdRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// cmdOK runs args as cmdRun does and returns stdout, failing t unless the
// command exits 0.
func cmdOK(t testing.TB, args ...string) string {
	t.Helper()
	code, stdout, stderr := cmdRun(args...)
	if code != 0 {
		t.Fatalf("seedcrawl %s: exit %d\nstderr:\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

// lastRequest returns the time of the latest request in es (0 for none).
func lastRequest(es []testweb.Entry) time.Duration {
	last := time.Duration(0)
	for _, e := range es {
		last = max(last, e.Time)
	}
	return last
}

// binOK runs the seedcrawl binary bin with args, failing t with what was
// being run and the binary's output unless it exits 0.
func binOK(t testing.TB, what, bin string, args ...string) {
	t.Helper()
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, out)
	}
}

// checkExit runs args as cmdRun does and fails t unless the command exits
// with code and its stderr holds every one of wants; it returns the output
// for further checks.
func checkExit(t testing.TB, args []string, code int, wants ...string) (stdout, stderr string) {
	t.Helper()
	got, stdout, stderr := cmdRun(args...)
	if got != code {
		t.Errorf("seedcrawl %s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), got, code, stderr)
	}
	checkContains(t, "stderr", stderr, wants...)
	return stdout, stderr
}

// checkContains fails t for each of wants that out, the output named
// what, lacks.
func checkContains(t testing.TB, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, out)
		}
	}
}

// writeGzFile writes text to path, gzip-compressed (a dataset file).
func writeGzFile(t testing.TB, path, text string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	writeFile(t, path, b.String())
}

// writeFile writes text to path, failing t if it cannot.
func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readCSVFile returns the records of the CSV file at path.
func readCSVFile(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return rows
}

// toEpoch makes the test web serve epoch n from now on.
func (w *crawlWeb) toEpoch(t testing.TB, n int) {
	t.Helper()
	if err := w.web.SetEpoch(n); err != nil {
		t.Fatal(err)
	}
}

// runCycle1Copies runs cycle 1 with the binary into dir/base.db (args
// gives the command line for a db path), copies that db to each of
// copies, and moves the web to epoch 1: the start of the tests that run
// cycle 2 on copies of one db and compare them. It returns base's path.
func runCycle1Copies(t testing.TB, w *crawlWeb, bin, dir string, args func(db string) []string, copies ...string) string {
	t.Helper()
	base := filepath.Join(dir, "base.db")
	binOK(t, "cycle 1", bin, args(base)...)
	for _, p := range copies {
		runCopyFile(t, base, p)
	}
	w.toEpoch(t, 1)
	return base
}

// runCopyFile copies the file from (a closed db) to to, for a test that
// runs the next cycle on copies of one db.
func runCopyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// serve starts a loopback HTTP server running h, closed when the test
// ends.
func serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// serveTLS is serve over https, with a certificate of httptest's own CA.
func serveTLS(t testing.TB, h http.HandlerFunc) *httptest.Server {
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// crawlServer crawls the loopback server srv from its root with
// `seedcrawl crawl` in process: delays off, no sitemaps, no progress
// lines, plus extra flags. It fails the test unless the crawl exits 0 and
// returns the db's path, stdout and stderr. A minute's deadline turns a
// hang into a failure.
func crawlServer(t *testing.T, srv *httptest.Server, extra ...string) (db, stdout, stderr string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "srv.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append([]string{"crawl", "--db", db, "--allow-private", "--progress", "0", "--sitemaps=false",
		"--delay", "0", "--delay-factor", "0"}, extra...)
	var out, errb outBuffer
	if code := run(ctx, append(args, srv.URL+"/"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return db, out.String(), errb.String()
}
