package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
	"github.com/seedcrawl/seedcrawl/warc"
)

// TestCrawlWARCUnrecoverable: a --warc directory holding a killed run's
// file that cannot be indexed (a directory stands where its index's
// temporary file goes) does not stop the crawl: it warns naming the
// file, leaves it as it was, and archives the crawl in a file of its own.
func TestCrawlWARCUnrecoverable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "warc")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<p>old</p>")) }))
	defer srv.Close()
	ww, err := warc.Open(warc.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ww.WriteExchange(context.Background(), warc.Exchange{URL: srv.URL + "/",
		Request: []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), Response: []byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")})
	if err != nil {
		t.Fatal(err)
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, res.File)
	index := strings.TrimSuffix(old, ".warc.gz") + ".cdxj"
	if err := os.Remove(index); err != nil { // as a kill before the index
		t.Fatal(err)
	}
	if err := os.Mkdir(index+".tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}

	w := crawlStartWeb(t, testweb.GenOptions{Seed: 2, Pages: 20, Hosts: 1, Preset: testweb.Clean}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "w.db")
	args := append([]string{"crawl"}, w.flags("--db", db, "--delay", "0", "--progress", "0", "--warc", dir)...)
	_, stderr := checkExit(t, append(args, w.site.Seeds()...), 0, "skipped the recovery", res.File)
	if after, err := os.ReadFile(old); err != nil || string(after) != string(before) {
		t.Errorf("the unrecovered file changed (%d bytes, was %d; %v)", len(after), len(before), err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.cdxj"))
	if len(files) != 1 {
		t.Errorf("indexes %v, want the new crawl's file's alone\n%s", files, stderr)
	}
}
