package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
)

// TestRunInterruptedPrintsPartialCycle stops run (as Ctrl-C does) while
// a page of cycle 1 hangs: stdout gets the crawl summary of the cycle so
// far, as crawl prints when interrupted, marked incomplete (text and
// JSON), and stderr says the cycle is incomplete and how to resume it.
// run printed nothing on stdout here, and stderr only said to rerun.
func TestRunInterruptedPrintsPartialCycle(t *testing.T) {
	for _, tc := range []struct {
		name string
		json bool
	}{
		{"text", false},
		{"json", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arrived, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			site := newLinkSite(t, 2, map[string]http.HandlerFunc{
				"/p1": func(w http.ResponseWriter, r *http.Request) {
					once.Do(func() { close(arrived) })
					select {
					case <-release:
					case <-r.Context().Done():
					}
				},
			})
			t.Cleanup(func() { close(release) }) // runs first: the handler returns before Close waits for it
			db := filepath.Join(t.TempDir(), "interrupted.db")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			go func() {
				select {
				case <-arrived:
					cancel()
				case <-ctx.Done():
				}
			}()
			args := []string{"run", "--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--progress", "0",
				"--sitemaps=false", "--cycles", "1", "--workers", "1"}
			if tc.json {
				args = append(args, "--json")
			}
			var stdout, stderr bytes.Buffer
			if code := run(ctx, append(args, site.srv.URL+"/"), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if !errors.Is(ctx.Err(), context.Canceled) {
				t.Fatalf("the run ended before the hanging page was asked for:\n%s\n%s", stdout.String(), stderr.String())
			}
			checkContains(t, "stderr", stderr.String(), "seedcrawl run: interrupted in cycle 1, which is incomplete; rerun the same command to resume it")
			if !tc.json {
				checkContains(t, "stdout", stdout.String(), "cycle 1 incomplete (interrupted)", "crawl of "+db+" stopped (interrupted) after ",
					"fetch outcomes:")
				return
			}
			var got struct {
				Cycle      uint32 `json:"cycle"`
				Incomplete bool   `json:"incomplete"`
				monitor.Summary
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("stdout %q: %v", stdout.String(), err)
			}
			// The home page and /p0 (one worker: in order) are done; /p1
			// hangs and stays pending for the rerun.
			if got.Cycle != 1 || !got.Incomplete || got.Stopped != monitor.StopInterrupted || got.ByStatus["fetched"] < 1 || got.Pending < 1 {
				t.Errorf("partial cycle: cycle %d, incomplete %v, stopped %q, fetched %d, pending %d; want 1, true, %q, ≥1, ≥1:\n%s",
					got.Cycle, got.Incomplete, got.Stopped, got.ByStatus["fetched"], got.Pending, monitor.StopInterrupted, stdout.String())
			}
		})
	}
}
