package storage_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestPageOrURL: a committed page comes with its record, a URL interned
// since the last commit with a zero record, an id never handed out fails
// with ErrNotFound.
func TestPageOrURL(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://a.test/x")
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, FetchedAt: at(1)}, nil)
	commit(t, db, &b)
	late := intern(t, db, ids[0], 1, "http://a.test/late")[0]
	for _, tc := range []struct {
		name    string
		id      uint64
		url     string
		status  storage.Status // of the record; 0 and no ID: zero record
		fetched bool
		err     error
	}{
		{name: "fetched", id: ids[0], url: "http://a.test/", status: storage.StatusFetched, fetched: true},
		{name: "committed, not fetched", id: ids[1], url: "http://a.test/x", status: storage.StatusDiscovered},
		{name: "interned since the commit", id: late, url: "http://a.test/late"},
		{name: "unknown", id: late + 10, err: storage.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, p, err := db.PageOrURL(tc.id)
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("PageOrURL(%d): %v, want %v", tc.id, err, tc.err)
			}
			if u != tc.url {
				t.Errorf("url %q, want %q", u, tc.url)
			}
			committed := tc.url != "" && tc.id != late
			if committed && (p.ID != tc.id || p.URL != u || p.Status != tc.status || (p.Fetches > 0) != tc.fetched) {
				t.Errorf("record %+v, want id %d, status %v, fetched %v", p, tc.id, tc.status, tc.fetched)
			}
			if !committed && !reflect.DeepEqual(p, storage.Page{}) {
				t.Errorf("record %+v, want zero", p)
			}
		})
	}
}

// TestOutLinks: a page's newest stored links come with their targets'
// URLs, in stored order.
func TestOutLinks(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://a.test/1", "http://b.test/2", "http://a.test/none")
	var b storage.Batch
	b.PutCycle(storage.Cycle{N: 1, Start: at(0)})
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, FetchedAt: at(1)},
		[]storage.Link{{To: ids[2], Kind: storage.LinkA}, {To: ids[1], Kind: storage.LinkRedirect}})
	b.AddFetch(storage.Fetch{ID: ids[3], Status: storage.StatusFetched, Code: 200, FetchedAt: at(1)}, nil)
	commit(t, db, &b)
	want := []storage.OutLink{{URL: "http://b.test/2", Kind: storage.LinkA}, {URL: "http://a.test/1", Kind: storage.LinkRedirect}}
	if got, err := db.OutLinks(ids[0]); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("OutLinks = %+v, %v; want %+v", got, err, want)
	}
	// A later cycle's fetch stores a new version: OutLinks reads it.
	b = storage.Batch{}
	b.PutCycle(storage.Cycle{N: 2, Start: at(10)})
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, FetchedAt: at(11)},
		[]storage.Link{{To: ids[3], Kind: storage.LinkA}})
	commit(t, db, &b)
	want = []storage.OutLink{{URL: "http://a.test/none", Kind: storage.LinkA}}
	if got, err := db.OutLinks(ids[0]); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("OutLinks after cycle 2 = %+v, %v; want %+v", got, err, want)
	}
	for _, id := range []uint64{ids[3], ids[1]} {
		if got, err := db.OutLinks(id); err != nil || got != nil {
			t.Errorf("OutLinks(%d) of a page without links = %+v, %v; want nil", id, got, err)
		}
	}
}
