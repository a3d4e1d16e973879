package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRunCyclesCompleteAlready reruns `run --cycles N` on a db whose cycle
// N is done: it must say so on stderr (and exit 0) rather than print
// nothing, and leave the db's cycles as they were.
func TestRunCyclesCompleteAlready(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><a href="/a">a</a> <a href="/b">b</a></body></html>`)
	})
	db := filepath.Join(t.TempDir(), "run.db")
	args := []string{"--db", db, "--allow-private", "--cycles", "2", "--delay", "0", "--delay-factor", "0",
		"--progress", "0", srv.URL + "/"}
	const done = "seedcrawl run: cycle 2 is complete already; nothing to do (raise --cycles to run more: --cycles 3 runs one more cycle)\n"
	for i, want := range []string{"", done} {
		var stdout, stderr bytes.Buffer
		if err := runCycles(context.Background(), args, &stdout, &stderr); err != nil {
			t.Fatalf("run %d: %v\nstderr:\n%s", i+1, err, stderr.String())
		}
		if got := strings.Contains(stderr.String(), done); got != (want != "") {
			t.Errorf("run %d: stderr says it is complete already: %v, want %v\nstderr:\n%s", i+1, got, want != "", stderr.String())
		}
		if want != "" && stdout.Len() != 0 {
			t.Errorf("run %d printed a cycle on stdout:\n%s", i+1, stdout.String())
		}
	}
	cycles := readDB(t, db, (*storage.DB).Cycles)
	if len(cycles) != 2 || cycles[1].End.IsZero() {
		t.Errorf("db holds %d cycles (last complete: %v), want 2 complete", len(cycles), len(cycles) > 0 && !cycles[len(cycles)-1].End.IsZero())
	}
}
