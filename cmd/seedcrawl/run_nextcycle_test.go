package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunNextCycleShown runs `run --listen --interval 1h` to its wait for
// cycle 2; there, the monitor's status page and `seedcrawl stats` (which
// reads the running run's status) must say which cycle comes next and
// when, as /status does in next_cycle and next_cycle_at.
func TestRunNextCycleShown(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 40, Hosts: 2, Preset: testweb.Clean}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "r.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The writer "cancels" waiting once run says when cycle 2 starts.
	waiting, reached := context.WithCancel(context.Background())
	defer reached()
	stderr := &cancelOn{marker: " starts at ", cancel: reached}
	text := func() string { stderr.mu.Lock(); defer stderr.mu.Unlock(); return stderr.buf.String() }
	args := append([]string{"run"}, runArgs(t, w, db, "--cycles", "2", "--interval", "1h", "--listen", "127.0.0.1:0")...)
	done := make(chan int)
	go func() { done <- run(ctx, append(args, w.site.Seeds()...), io.Discard, stderr) }()
	select {
	case <-waiting.Done():
	case code := <-done:
		t.Fatalf("run ended (exit %d) before waiting for cycle 2:\n%s", code, text())
	}
	defer func() { cancel(); <-done }()
	m := regexp.MustCompile(`status on (\S+)`).FindStringSubmatch(text())
	if m == nil {
		t.Fatalf("no status address on stderr:\n%s", text())
	}
	resp, err := http.Get(strings.TrimSuffix(m[1], "/") + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "status page", string(page), "waiting: cycle 2 starts in ", " UTC)")
	out := cmdOK(t, "stats", "--db", db)
	if !regexp.MustCompile(`(?m)^next +cycle 2 starts at \S+, in (\d+h)?(\d+m)?\d+s$`).MatchString(out) {
		t.Errorf("stats of a run waiting for cycle 2 does not say when it starts:\n%s", out)
	}
}

// TestRunWaitStopNote: a stop after the wait for a cycle began says it
// came before the cycle's start time while that time is ahead, and that
// the cycle was being planned once it has passed (a start time in the
// past read as a clock gone wrong).
func TestRunWaitStopNote(t *testing.T) {
	until := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	p := &recrawl.Pause{Next: 3, Until: until, Interval: time.Hour}
	for _, tc := range []struct {
		name    string
		now     time.Time
		want    string
		notWant string
	}{
		{"in the wait", until.Add(-time.Minute), "interrupted between cycles, before cycle 3 starts at ", "planning"},
		{"just past the start", until.Add(time.Millisecond), "interrupted while planning cycle 3, after its wait ended at ", "starts at"},
		{"at the start", until, "interrupted while planning cycle 3", "starts at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runWaitStopNote(p, tc.now)
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
				t.Errorf("note %q; want %q and no %q", got, tc.want, tc.notWant)
			}
		})
	}
}
