package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCompareProgressSaysWhatItWaitsFor stalls a comparison on the two
// causes a new user met on the test web, over loopback: one host whose
// robots.txt answers 503 (deferred for an hour) and one whose page never
// answers. The progress line must name both hosts and why each holds the
// comparison back, instead of repeating unchanged counts.
func TestCompareProgressSaysWhatItWaitsFor(t *testing.T) {
	deferred := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	t.Cleanup(deferred.Close)
	release := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hanging.Close)
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
	want := regexp.MustCompile(`waiting for 2 URLs: ` + host(deferred.URL) + ` deferred until \d\d:\d\d:\d\d \(robots-deferred[^)]*\); ` +
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
