package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/cond"
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
