package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCrawlBadPathsCreateNoDB gives crawl a --warc directory that cannot
// be made (under a regular file): the error names it, and no db is left
// behind for a later run to mistake for a crawl to resume.
func TestCrawlBadPathsCreateNoDB(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x")
	db := filepath.Join(dir, "x.db")
	checkExit(t, []string{"crawl", "--db", db, "--warc", filepath.Join(file, "warc"), "http://a.test/"}, 1, "open warc", file)
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a db was created despite the bad --warc: %v", err)
	}
}
