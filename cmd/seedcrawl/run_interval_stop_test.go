package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// cancelOn is a writer that cancels a context once what it was given
// holds a marker: here, the line run prints when a cycle is complete.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.marker) {
		c.cancel()
	}
	return len(p), nil
}

// TestRunStopWhileWaiting stops run (Ctrl-C, here its context) in the
// --interval wait after cycle 1 is complete: stderr must say it stopped
// between cycles, not that cycle 1 was interrupted and has to be resumed.
func TestRunStopWhileWaiting(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 40, Hosts: 2, Preset: testweb.Clean}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "r.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelOn{marker: "cycle 1 done", cancel: cancel}
	var stderr bytes.Buffer
	args := append([]string{"run"}, runArgs(t, w, db, "--cycles", "2", "--interval", "1h")...)
	args = append(args, w.site.Seeds()...)
	if code := run(ctx, args, out, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(out.buf.String(), "cycle 1 done") {
		t.Fatalf("cycle 1 never completed:\n%s\n%s", out.buf.String(), stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "interrupted in cycle") || !strings.Contains(s, "interrupted between cycles") {
		t.Errorf("stderr after a stop in the wait for cycle 2:\n%s", s)
	}
}
