package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCompareProgressSaysWhatItWaitsFor stalls a comparison on the two
// causes a new user met on the test web, over loopback: one host whose
// robots.txt answers 503 (deferred for an hour) and one whose page never
// answers. The progress line must name both hosts and why each holds the
// comparison back, instead of repeating unchanged counts, and count the
// two URLs as asked, apart from the requests answered (none).
func TestCompareProgressSaysWhatItWaitsFor(t *testing.T) {
	deferred := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	release := make(chan struct{})
	hanging := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) }) // runs first: the handler returns before Close waits for it

	db := filepath.Join(t.TempDir(), "wait.db")
	args := []string{"--db", db, "--allow-private", "--schedulers", "bfs", "--budget", "2", "--window", "2",
		"--delay", "0", "--delay-factor", "0", "--robots-backoff", "1h", "--fetch-timeout", "1h",
		"--progress", "5ms", "--commit-interval", "50ms", deferred.URL + "/", hanging.URL + "/"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr outBuffer
	done := make(chan error, 1)
	go func() { done <- runCompare(ctx, args, io.Discard, &stderr) }()

	host := func(u string) string { return regexp.QuoteMeta(strings.TrimPrefix(u, "http://")) }
	want := regexp.MustCompile(`requests 0 \(\+2 asked\)  downloaded: [^\n]*waiting for 2 URLs: ` + host(deferred.URL) + ` deferred until \d\d:\d\d:\d\d \(robots-deferred[^)]*\); ` +
		host(hanging.URL) + ` fetch in flight \d+s`)
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	err := stderr.c.Wait(wctx, func() bool { return want.Match(stderr.b.Bytes()) })
	cancel()
	if err != nil {
		t.Errorf("no progress line matches %q: %v\nstderr:\n%s", want, err, stderr.String())
	}
	if err := <-done; err != nil {
		t.Errorf("compare after Ctrl-C: %v", err)
	}
}

// TestCompareRequestsCountsOnlyRequests checks the fetch cost over
// loopback: a URL robots.txt denies is downloaded by every logical crawl
// (a failed page) but never requested from the server, so the report's
// requests are the server's page requests, in the run and in --report,
// which reads the stored pages back.
func TestCompareRequestsCountsOnlyRequests(t *testing.T) {
	var mu sync.Mutex
	served := 0
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
			return
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body><a href="/private">p</a> <a href="/a">a</a></body></html>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body>leaf</body></html>`)
		}
		mu.Lock()
		served++
		mu.Unlock()
	})
	db := filepath.Join(t.TempDir(), "req.db")
	args := []string{"--db", db, "--allow-private", "--schedulers", "bfs,fpr", "--budget", "3", "--score-frontier-share", "0",
		"--delay", "0", "--delay-factor", "0", "--progress", "0", "--json", srv.URL + "/"}
	type report struct {
		Downloaded int `json:"union_downloaded"`
		Requests   int `json:"requests"`
	}
	read := func(out string) report {
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("report: %v\n%s", err, out)
		}
		return r
	}
	got := read(compareCmd(t, args))
	mu.Lock()
	want := served
	mu.Unlock()
	if want != 2 || got.Downloaded != 3 || got.Requests != want {
		t.Errorf("run: %d downloaded, %d requests; the server answered %d page requests; want 3 downloaded, 2 requests", got.Downloaded, got.Requests, want)
	}
	if again := read(compareCmd(t, []string{"--db", db, "--report", "--json"})); again != got {
		t.Errorf("--report: %+v, the run said %+v", again, got)
	}
}
