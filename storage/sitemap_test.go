package storage_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

func TestSitemapSideRecords(t *testing.T) {
	db, path := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/sitemap.xml", "http://a.test/p", "http://a.test/q")
	lm := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

	// Nothing stored yet: the buckets do not exist and read as empty.
	if _, ok, err := db.LastMod(ids[1]); ok || err != nil {
		t.Fatalf("LastMod before any write: %v, %v", ok, err)
	}
	if _, ok, err := db.Sitemap(ids[0]); ok || err != nil {
		t.Fatalf("Sitemap before any write: %v, %v", ok, err)
	}

	var b storage.Batch
	b.MarkSitemap(ids[0], storage.SitemapFile{Depth: 1, Origin: "http://a.test"})
	b.SetLastMod(ids[1], lm)
	b.SetLastMod(ids[2], lm)
	b.SetLastMod(ids[2], time.Time{}) // last call wins: removed
	if b.Empty() {
		t.Fatal("batch with sitemap writes reports Empty")
	}
	commit(t, db, &b)
	b.Reset()
	if !b.Empty() {
		t.Fatal("batch not empty after Reset")
	}

	check := func(db *storage.DB) {
		t.Helper()
		s, ok, err := db.Sitemap(ids[0])
		if err != nil || !ok || s != (storage.SitemapFile{Depth: 1, Origin: "http://a.test"}) {
			t.Errorf("Sitemap = %+v, %v, %v", s, ok, err)
		}
		if _, ok, _ := db.Sitemap(ids[1]); ok {
			t.Error("page marked as sitemap")
		}
		got, ok, err := db.LastMod(ids[1])
		if err != nil || !ok || !got.Equal(lm) {
			t.Errorf("LastMod = %v, %v, %v; want %v", got, ok, err, lm)
		}
		if _, ok, _ := db.LastMod(ids[2]); ok {
			t.Error("removed lastmod still stored")
		}
		var marks []uint64
		if err := db.EachSitemap(func(id uint64, _ storage.SitemapFile) error { marks = append(marks, id); return nil }); err != nil || len(marks) != 1 || marks[0] != ids[0] {
			t.Errorf("EachSitemap = %v, %v", marks, err)
		}
	}
	check(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	check(openPath(t, path, &storage.Options{ReadOnly: true}))
}

func TestSitemapSideRecordsRejected(t *testing.T) {
	for _, c := range []struct {
		name string
		fill func(b *storage.Batch, id uint64)
		want error
	}{
		{"unknown id", func(b *storage.Batch, id uint64) { b.SetLastMod(id+10, time.Now()) }, storage.ErrUnknownID},
		{"unknown sitemap id", func(b *storage.Batch, id uint64) { b.MarkSitemap(id+10, storage.SitemapFile{}) }, storage.ErrUnknownID},
		{"too deep", func(b *storage.Batch, id uint64) { b.MarkSitemap(id, storage.SitemapFile{Depth: 256}) }, storage.ErrBadRecord},
		{"long origin", func(b *storage.Batch, id uint64) {
			b.MarkSitemap(id, storage.SitemapFile{Origin: "http://" + strings.Repeat("a", 600)})
		}, storage.ErrBadRecord},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, _ := openTest(t, nil)
			id := intern(t, db, storage.NoPage, 0, "http://a.test/")[0]
			var b storage.Batch
			c.fill(&b, id)
			if err := db.Commit(&b); !errors.Is(err, c.want) {
				t.Fatalf("commit: %v, want %v", err, c.want)
			}
		})
	}
}

// TestSitemapFetchErrorsNotCycleErrors commits failed fetches of two
// sitemaps, one marked in an earlier batch and one in the same batch, and
// of a page: the cycle's Errors count the page alone (the crawl summary
// counts failed sitemaps with the sitemaps), while Fetches and the host's
// errors count all three.
func TestSitemapFetchErrorsNotCycleErrors(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/sitemap.xml", "http://a.test/robots-named.xml", "http://a.test/gone")
	var b storage.Batch
	b.MarkSitemap(ids[0], storage.SitemapFile{Origin: "http://a.test"})
	commit(t, db, &b)
	b.Reset()
	b.MarkSitemap(ids[1], storage.SitemapFile{Origin: "http://a.test"})
	for _, id := range ids {
		b.AddFetch(storage.Fetch{ID: id, Host: "a.test", Status: storage.StatusHTTPError, Code: 404, FetchedAt: at(1)}, nil)
	}
	commit(t, db, &b)
	cycles, err := db.Cycles()
	if err != nil || len(cycles) != 1 {
		t.Fatalf("Cycles = %+v, %v; want one", cycles, err)
	}
	if s := cycles[0].Stats; s.Fetches != 3 || s.Errors != 1 {
		t.Errorf("cycle stats: %d fetches, %d errors; want 3, 1 (the page alone)", s.Fetches, s.Errors)
	}
	if h, _, err := db.Host("a.test"); err != nil || h.Errors != 3 {
		t.Errorf("host a.test: %d errors, %v; want 3", h.Errors, err)
	}
}
