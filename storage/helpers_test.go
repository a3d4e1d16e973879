package storage_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// openTest opens a fresh database in t.TempDir and closes it at cleanup.
func openTest(t testing.TB, opts *storage.Options) (*storage.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	db := openPath(t, path, opts)
	return db, path
}

// openPath opens path and closes it at cleanup.
func openPath(t testing.TB, path string, opts *storage.Options) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, opts)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// intern interns urls and returns their ids.
func intern(t testing.TB, db *storage.DB, from uint64, depth uint32, urls ...string) []uint64 {
	t.Helper()
	res, err := db.Intern(urls, from, depth)
	if err != nil {
		t.Fatalf("intern %v: %v", urls, err)
	}
	ids := make([]uint64, len(res))
	for i, r := range res {
		ids[i] = r.ID
	}
	return ids
}

func commit(t testing.TB, db *storage.DB, b *storage.Batch) {
	t.Helper()
	if err := db.Commit(b); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

func mustPage(t testing.TB, db *storage.DB, id uint64) storage.Page {
	t.Helper()
	p, err := db.Page(id)
	if err != nil {
		t.Fatalf("page %d: %v", id, err)
	}
	return p
}

// urlsN returns n distinct URLs on a few hosts.
func urlsN(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("http://h%d.%s.test/p/%d", i%7, prefix, i)
	}
	return out
}

// at returns a fixed time plus s seconds, in UTC-free unix form (what the
// store returns).
func at(s int) time.Time { return time.Unix(1_700_000_000+int64(s), 0) }

func links(kind storage.LinkKind, ids ...uint64) []storage.Link {
	out := make([]storage.Link, len(ids))
	for i, id := range ids {
		out[i] = storage.Link{To: id, Kind: kind}
	}
	return out
}
