package main

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
	"github.com/seedcrawl/seedcrawl/warc"
)

// TestCrawlWARCUnrecoverable: a --warc directory holding a file named as
// seedcrawl names its WARC files, without an index, that the crawl cannot
// index does not stop the crawl: it warns once, naming the file once and
// saying it is unchanged, leaves it byte for byte, and archives the crawl
// in a file of its own. The file is a killed run's whose index cannot be
// written (a directory stands where its temporary file goes), or one of
// random bytes, which is no WARC at all.
func TestCrawlWARCUnrecoverable(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 2, Pages: 20, Hosts: 1, Preset: testweb.Clean}, testweb.Options{})
	for _, tc := range []struct {
		name string
		put  func(t *testing.T, dir string) string // the file's path
	}{
		{"index blocked", killedRunFile},
		{"random bytes", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "seedcrawl-mine.warc.gz")
			noise := make([]byte, 5000)
			rand.NewChaCha8([32]byte{7}).Read(noise)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, noise, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "warc")
			old := tc.put(t, dir)
			before, err := os.ReadFile(old)
			if err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(t.TempDir(), "w.db")
			args := append([]string{"crawl"}, w.flags("--db", db, "--delay", "0", "--progress", "0", "--warc", dir)...)
			_, stderr := checkExit(t, append(args, w.site.Seeds()...), 0, "left without an index", "(unchanged)")
			if n := strings.Count(stderr, filepath.Base(old)); n != 1 {
				t.Errorf("stderr names %s %d times, want once:\n%s", filepath.Base(old), n, stderr)
			}
			if after, err := os.ReadFile(old); err != nil || string(after) != string(before) {
				t.Errorf("the unrecovered file changed (%d bytes, was %d; %v)", len(after), len(before), err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.cdxj"))
			if len(files) != 1 {
				t.Errorf("indexes %v, want the new crawl's file's alone\n%s", files, stderr)
			}
		})
	}
}

// killedRunFile writes a WARC file with one exchange into dir and removes
// its index, as a kill before the index would, then puts a directory
// where the index's temporary file goes, so that no one can write it. It
// returns the file's path.
func killedRunFile(t *testing.T, dir string) string {
	old, _ := unindexedWARC(t, dir, "/")
	if err := os.Mkdir(strings.TrimSuffix(old, ".warc.gz")+".cdxj.tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	return old
}

// unindexedWARC writes one exchange per path (of http://x.example) into a
// new WARC file in dir, closes it and removes its index, as a kill before
// the index would. It returns the file's path and the last exchange's
// record pair.
func unindexedWARC(t *testing.T, dir string, paths ...string) (string, warc.Result) {
	t.Helper()
	ww, err := warc.Open(warc.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var last warc.Result
	for _, p := range paths {
		if last, err = ww.WriteExchange(context.Background(), warc.Exchange{URL: "http://x.example" + p,
			Request: []byte("GET " + p + " HTTP/1.1\r\nHost: x.example\r\n\r\n"), Response: []byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, last.File)
	if err := os.Remove(strings.TrimSuffix(old, ".warc.gz") + ".cdxj"); err != nil {
		t.Fatal(err)
	}
	return old, last
}
