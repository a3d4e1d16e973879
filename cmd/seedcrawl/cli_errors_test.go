package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/version"
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

// TestMissingFileSettingExitCode: a --ca-file or --resolve-file that
// cannot be read exits 1 naming it, as a missing --seeds or --config file
// does; one that holds no certificate or no resolve entries is a bad
// setting (exit 2).
func TestMissingFileSettingExitCode(t *testing.T) {
	dir := t.TempDir()
	missing, notPEM := filepath.Join(dir, "nope.pem"), filepath.Join(dir, "text.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag, path string
		code       int
		want       string
	}{
		{"--ca-file", missing, 1, "read --ca-file"},
		{"--resolve-file", missing, 1, "read --resolve-file"},
		{"--seeds", missing, 1, "nope.pem"},
		{"--ca-file", notPEM, 2, "no PEM certificate"},
	} {
		t.Run(tc.flag+" "+filepath.Base(tc.path), func(t *testing.T) {
			db := filepath.Join(dir, "x.db")
			checkExit(t, []string{"crawl", "--db", db, tc.flag, tc.path, "http://a.test/"}, tc.code, tc.want)
			if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a db was created although the crawl could not start")
			}
		})
	}
}

// TestFlagErrorIsShort checks that a mistyped flag gets its error and a
// pointer to -h, not the whole flag list (over a hundred lines for crawl,
// with the error scrolled away); TestHelpOnStdout checks that -h still
// prints the list.
func TestFlagErrorIsShort(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
		max  int // most stderr lines
	}{
		{[]string{"crawl", "--max-pagse", "5", "http://a.test/"}, 2, []string{"-max-pagse", "seedcrawl crawl -h"}, 2},
		{[]string{"stats", "--max-pages", "x"}, 2, []string{"-max-pages", "seedcrawl stats -h"}, 2},
		{[]string{"crawl", "--max-pages", "x"}, 2, []string{`--max-pages: bad value: "x" is not an integer`, "seedcrawl crawl -h"}, 2},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, stderr := checkExit(t, tc.args, tc.code, tc.want...)
			if lines := strings.Count(stderr, "\n"); lines > tc.max {
				t.Errorf("%d stderr lines, want at most %d:\n%s", lines, tc.max, stderr)
			}
		})
	}
}

// TestListenInUse checks that a --listen address another program holds is
// reported as such with exit 1: the command line was well formed (exit 2
// says otherwise and sends the user looking for a typo).
func TestListenInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	db := filepath.Join(t.TempDir(), "listen.db")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"crawl", "--db", db, "--listen", ln.Addr().String(), "--progress", "0", "http://127.0.0.1:1/"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "address already in use") || strings.Contains(stderr.String(), "usage") {
		t.Errorf("exit %d, stderr %q; want exit 1 saying the address is in use", code, stderr.String())
	}
}

// TestUnknownCommandAndVersion: a mistyped command gets the one it most
// likely meant, as a mistyped flag does, and a pointer to the list rather
// than the list; --version answers as the version command does.
func TestUnknownCommandAndVersion(t *testing.T) {
	_, stderr := checkExit(t, []string{"crawll", "http://a.test/"}, 2, `unknown command "crawll"; did you mean crawl?`, "seedcrawl help")
	if lines := strings.Count(stderr, "\n"); lines > 2 {
		t.Errorf("%d stderr lines for an unknown command, want 2:\n%s", lines, stderr)
	}
	checkExit(t, []string{"xyzzy"}, 2, `unknown command "xyzzy"`)
	for _, arg := range []string{"--version", "version"} {
		if stdout, _ := checkExit(t, []string{arg}, 0); !strings.HasPrefix(stdout, "seedcrawl "+version.Version) {
			t.Errorf("seedcrawl %s printed %q, want the version", arg, stdout)
		}
	}
}
