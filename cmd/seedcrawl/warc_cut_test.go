package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestCrawlWARCCutWarns: a --warc directory holding a file of a killed
// run, without its index, whose last record pair was cut short in its
// request: the crawl cuts that request, keeps and indexes the pair's
// whole response and the rest of the file, and warns once, naming the file
// once and the bytes cut, so that no bytes leave the disk unsaid.
func TestCrawlWARCCutWarns(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 2, Pages: 20, Hosts: 1, Preset: testweb.Clean}, testweb.Options{})
	dir := filepath.Join(t.TempDir(), "warc")
	old, last := unindexedWARC(t, dir, "/a", "/b")
	st, err := os.Stat(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(old, st.Size()-20); err != nil { // a kill inside the last request's write
		t.Fatal(err)
	}
	kept := last.Offset + last.Length // the last pair's response, whole, stays
	cut := st.Size() - 20 - kept

	db := filepath.Join(t.TempDir(), "w.db")
	args := append([]string{"crawl"}, w.flags("--db", db, "--delay", "0", "--progress", "0", "--warc", dir)...)
	_, stderr := checkExit(t, append(args, w.site.Seeds()...), 0, "cut a partial last record pair", fmt.Sprintf("bytes=%d", cut))
	if n := strings.Count(stderr, filepath.Base(old)); n != 1 {
		t.Errorf("stderr names %s %d times, want once:\n%s", filepath.Base(old), n, stderr)
	}
	if after, err := os.Stat(old); err != nil || after.Size() != kept {
		t.Errorf("the killed run's file: %v, %v; want it cut to %d bytes", after, err, kept)
	}
	if _, err := os.Stat(strings.TrimSuffix(old, ".warc.gz") + ".cdxj"); err != nil {
		t.Errorf("the killed run's file has no index: %v", err)
	}
}
