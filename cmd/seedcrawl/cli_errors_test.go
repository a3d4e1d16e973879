package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingDBExitCode checks that every command reading a db says which
// file is missing and exits 1: a file that cannot be read is not a
// malformed command line (exit 2), as the README promises.
func TestMissingDBExitCode(t *testing.T) {
	db := filepath.Join(t.TempDir(), "nope.db")
	for _, args := range [][]string{
		{"stats", "--db", db},
		{"export", "--db", db, "--what", "pages"},
		{"rank", "--db", db, "--algo", "pagerank"},
		{"seeds", "--db", db},
		{"sim", "--db", db},
		{"score", "--db", db},
		{"compare", "--db", db, "--report"},
	} {
		t.Run(args[0], func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), "nope.db") || strings.Contains(stderr.String(), "usage") {
				t.Errorf("seedcrawl %s: exit %d, stderr %q; want exit 1 naming the missing file, no usage error", strings.Join(args, " "), code, stderr.String())
			}
		})
	}
}
