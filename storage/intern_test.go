package storage_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

func TestInternDense(t *testing.T) {
	db, _ := openTest(t, nil)
	res, err := db.Intern([]string{"http://a.test/", "http://b.test/", "http://a.test/", "http://c.test/"}, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []storage.Interned{{0, true}, {1, true}, {0, false}, {2, true}}
	if fmt.Sprint(res) != fmt.Sprint(want) {
		t.Fatalf("Intern = %v, want %v", res, want)
	}
	// Pending URLs are found before the commit.
	ids, err := db.Lookup([]string{"http://b.test/", "http://nope.test/"})
	if err != nil || ids[0] != 1 || ids[1] != storage.NoPage {
		t.Fatalf("Lookup before commit = %v, %v", ids, err)
	}
	if _, err := db.PageByURL("http://b.test/"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("PageByURL before commit: %v, want ErrNotFound", err)
	}
	res, err = db.Intern([]string{"http://c.test/", "http://d.test/"}, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.Interned{{2, false}, {3, true}}; fmt.Sprint(res) != fmt.Sprint(want) {
		t.Fatalf("second Intern = %v, want %v", res, want)
	}
	commit(t, db, &storage.Batch{})
	if got := db.NextID(); got != 4 {
		t.Fatalf("NextID = %d, want 4", got)
	}
	res, err = db.Intern([]string{"http://d.test/", "http://e.test/"}, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.Interned{{3, false}, {4, true}}; fmt.Sprint(res) != fmt.Sprint(want) {
		t.Fatalf("Intern after commit = %v, want %v", res, want)
	}
	p := mustPage(t, db, 3)
	want3 := storage.Page{ID: 3, URL: "http://d.test/", Status: storage.StatusDiscovered, Depth: 1, From: 2, FirstCycle: 1}
	if fmt.Sprint(p) != fmt.Sprint(want3) {
		t.Fatalf("page 3 = %+v, want %+v", p, want3)
	}
	if p := mustPage(t, db, 0); p.From != storage.NoPage || p.Depth != 0 {
		t.Fatalf("seed page = %+v, want From NoPage", p)
	}
}

func TestInternAcrossReopen(t *testing.T) {
	db, path := openTest(t, nil)
	intern(t, db, storage.NoPage, 0, urlsN("a", 5)...)
	commit(t, db, &storage.Batch{})
	lost := urlsN("lost", 3)
	if ids := intern(t, db, 0, 1, lost...); ids[0] != 5 || ids[2] != 7 {
		t.Fatalf("uncommitted ids = %v, want 5..7", ids)
	}
	if err := db.Close(); err != nil { // the 3 pending URLs are dropped
		t.Fatal(err)
	}
	db = openPath(t, path, nil)
	if got := db.NextID(); got != 5 {
		t.Fatalf("NextID after reopen = %d, want 5", got)
	}
	ids, err := db.Lookup(lost)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		if id != storage.NoPage {
			t.Errorf("uncommitted %s has id %d after reopen", lost[i], id)
		}
	}
	if ids := intern(t, db, storage.NoPage, 0, "http://new.test/"); ids[0] != 5 {
		t.Fatalf("first id after reopen = %d, want 5 (reallocated)", ids[0])
	}
}

func TestInternErrors(t *testing.T) {
	db, _ := openTest(t, nil)
	intern(t, db, storage.NoPage, 0, "http://a.test/")
	tests := []struct {
		name string
		urls []string
		from uint64
		want error
	}{
		{"empty url", []string{"http://a.test/x", ""}, storage.NoPage, storage.ErrBadURL},
		{"too long", []string{"http://a.test/" + strings.Repeat("x", storage.MaxURLLen)}, storage.NoPage, storage.ErrBadURL},
		{"unknown source", []string{"http://a.test/y"}, 5, storage.ErrUnknownID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := db.Intern(tc.urls, tc.from, 1); !errors.Is(err, tc.want) {
				t.Fatalf("Intern: %v, want %v", err, tc.want)
			}
			if got := db.NextID(); got != 1 {
				t.Fatalf("failed Intern allocated ids: NextID = %d", got)
			}
		})
	}
}

// TestInternConcurrent interns overlapping URL sets from several goroutines
// while another commits: every URL must end with exactly one id and the
// committed ids must be dense. It runs with the recent URL cache at its
// default size, with a cache of one set (4 URLs, evicting all the time)
// and without one.
func TestInternConcurrent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cache int
	}{{"cache=default", 0}, {"cache=4", 4}, {"cache=off", -1}} {
		t.Run(tc.name, func(t *testing.T) { testInternConcurrent(t, tc.cache) })
	}
}

func testInternConcurrent(t *testing.T, cache int) {
	db, _ := openTest(t, &storage.Options{NoSync: true, URLCache: cache})
	all := urlsN("c", 3000)
	const workers = 4
	var wg sync.WaitGroup
	got := make([]map[string]uint64, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			m := map[string]uint64{}
			for range 150 {
				batch := make([]string, 20)
				for i := range batch {
					batch[i] = all[rng.IntN(len(all))]
				}
				res, err := db.Intern(batch, storage.NoPage, 0)
				if err != nil {
					t.Error(err)
					return
				}
				for i, r := range res {
					if old, ok := m[batch[i]]; ok && old != r.ID {
						t.Errorf("%s: id %d then %d", batch[i], old, r.ID)
					}
					m[batch[i]] = r.ID
				}
			}
			got[w] = m
		}()
	}
	done := make(chan struct{})
	var commits sync.WaitGroup
	commits.Add(1)
	go func() {
		defer commits.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := db.Commit(&storage.Batch{}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	commits.Wait()
	commit(t, db, &storage.Batch{})

	ids := map[string]uint64{}
	for _, m := range got {
		for u, id := range m {
			if old, ok := ids[u]; ok && old != id {
				t.Fatalf("%s got ids %d and %d", u, old, id)
			}
			ids[u] = id
		}
	}
	n := db.NextID()
	if int(n) != len(ids) {
		t.Fatalf("NextID = %d, %d distinct URLs interned", n, len(ids))
	}
	seen := make([]bool, n)
	err := db.EachPage(func(p *storage.Page) error {
		if ids[p.URL] != p.ID {
			return fmt.Errorf("page %d has URL %s, interned as %d", p.ID, p.URL, ids[p.URL])
		}
		seen[p.ID] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, ok := range seen {
		if !ok {
			t.Fatalf("id %d has no page record: ids not dense", id)
		}
	}
}

// URL answers for interned URLs before and after their Commit, and
// ErrNotFound for ids never given.
func TestURLPendingAndCommitted(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://a.test/x")
	check := func(when string) {
		for i, want := range []string{"http://a.test/", "http://a.test/x"} {
			if got, err := db.URL(ids[i]); err != nil || got != want {
				t.Errorf("%s: URL(%d) = %q, %v; want %q", when, ids[i], got, err, want)
			}
		}
		if _, err := db.URL(ids[1] + 1); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: URL of an unknown id: err = %v, want ErrNotFound", when, err)
		}
	}
	check("pending")
	commit(t, db, nil)
	check("committed")
}
