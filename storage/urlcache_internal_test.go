package storage

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

func openCacheTest(t *testing.T, cache int) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "c.db"), &Options{NoSync: true, URLCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// The cache only ever holds URLs a read transaction found committed: not
// those interned and pending, not those committed but never looked up
// again; a URL is cached by its second lookup after its commit.
func TestURLCacheHoldsOnlyCommitted(t *testing.T) {
	db := openCacheTest(t, 0)
	urls := []string{"http://a.test/", "http://a.test/1", "http://a.test/2"}
	steps := []struct {
		name       string
		do         func() error
		wantCached int
	}{
		{"intern new", func() error { _, err := db.Intern(urls, NoPage, 0); return err }, 0},
		{"intern pending again", func() error { _, err := db.Intern(urls, NoPage, 0); return err }, 0},
		{"lookup pending", func() error { _, err := db.Lookup(urls); return err }, 0},
		{"commit", func() error { return db.Commit(nil) }, 0},
		{"intern committed", func() error { _, err := db.Intern(urls[:2], 0, 1); return err }, 0},
		{"lookup committed", func() error { _, err := db.Lookup(urls); return err }, 2},
		{"lookup committed again", func() error { _, err := db.Lookup(urls); return err }, 3},
		{"intern a new one", func() error { _, err := db.Intern([]string{"http://a.test/3"}, 0, 1); return err }, 3},
		{"a failing commit", func() error {
			var b Batch
			b.AddFetch(Fetch{ID: 99, Host: "a.test", Status: StatusFetched}, nil)
			if err := db.Commit(&b); err == nil {
				return fmt.Errorf("commit of unknown page 99 succeeded")
			}
			return nil
		}, 3},
		{"lookup the pending one", func() error {
			ids, err := db.Lookup([]string{"http://a.test/3"})
			if err == nil && ids[0] != 3 {
				err = fmt.Errorf("pending id %d, want 3", ids[0])
			}
			return err
		}, 3},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		db.mu.Lock()
		n := db.recent.len()
		if _, ok := db.recent.get("http://a.test/3", db.recent.hash("http://a.test/3")); ok {
			t.Errorf("%s: the uncommitted URL is cached", s.name)
		}
		db.mu.Unlock()
		if n != s.wantCached {
			t.Errorf("%s: %d URLs cached, want %d", s.name, n, s.wantCached)
		}
	}
}

// A tiny cache under random interning and commits answers exactly what
// the file says, and never holds more than its size.
func TestURLCacheMatchesFile(t *testing.T) {
	for _, size := range []int{1, 4, 16} {
		t.Run(fmt.Sprintf("size=%d", size), func(t *testing.T) {
			db := openCacheTest(t, size)
			rng := rand.New(rand.NewPCG(uint64(size), 1))
			want := map[string]uint64{} // the model: first interned, first id
			for round := range 300 {
				batch := make([]string, 1+rng.IntN(12))
				for i := range batch {
					batch[i] = fmt.Sprintf("http://h%d.test/p%d", rng.IntN(3), rng.IntN(60))
				}
				res, err := db.Intern(batch, NoPage, 0)
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range res {
					id, seen := want[batch[i]]
					if !seen {
						id = uint64(len(want))
						want[batch[i]] = id
					}
					if r.ID != id || r.New == seen && r.New {
						t.Fatalf("round %d: %s = %+v, want id %d (seen before: %v)", round, batch[i], r, id, seen)
					}
				}
				if rng.IntN(3) == 0 {
					if err := db.Commit(nil); err != nil {
						t.Fatal(err)
					}
				}
				db.mu.Lock()
				n, slots := db.recent.len(), len(db.recent.sets)*cacheWays
				db.mu.Unlock()
				if n > slots || slots > max(size, cacheWays) {
					t.Fatalf("round %d: %d URLs cached in %d slots, asked for %d", round, n, slots, size)
				}
			}
		})
	}
}

// CLOCK: a URL hit between insertions survives a stream of URLs looked up
// once, in a set of cacheWays slots.
func TestURLCacheKeepsHotURLs(t *testing.T) {
	c := newURLCache(cacheWays) // one set
	hot := "http://a.test/nav"
	c.put(hot, c.hash(hot), 7)
	for i := range 100 {
		if id, ok := c.get(hot, c.hash(hot)); !ok || id != 7 {
			t.Fatalf("after %d one-off URLs the hot URL is gone (%d, %v)", i, id, ok)
		}
		u := fmt.Sprintf("http://a.test/once/%d", i)
		c.put(u, c.hash(u), uint64(100+i))
	}
	u := "http://a.test/once/99"
	if id, ok := c.get(u, c.hash(u)); !ok || id != 199 {
		t.Fatalf("the last URL cached: %d, %v", id, ok)
	}
	long := "http://a.test/" + string(make([]byte, maxCachedURL))
	c.put(long, c.hash(long), 1)
	if _, ok := c.get(long, c.hash(long)); ok {
		t.Fatalf("a URL over %d bytes was cached", maxCachedURL)
	}
}

// A cache too small for the URLs repeated in rotation turns itself off
// for a while, and one whose URLs repeat keeps answering: both answer
// what the file says.
func TestURLCacheBypass(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cache      int
		distinct   int // URLs looked up in rotation, all committed
		wantBypass bool
	}{
		{"repeated URLs fit", 1024, 40, false},
		{"rotation larger than the cache", 64, 5000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openCacheTest(t, tc.cache)
			urls := make([]string, tc.distinct)
			for i := range urls {
				urls[i] = fmt.Sprintf("http://h%d.test/nav/%d", i%7, i)
			}
			ids, err := db.Intern(urls, NoPage, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Commit(nil); err != nil {
				t.Fatal(err)
			}
			bypassed := false
			for round := 0; round < (cacheWarm+3)*cacheWindow; round += 20 {
				batch := make([]string, 20)
				for i := range batch {
					batch[i] = urls[(round+i)%len(urls)]
				}
				res, err := db.Intern(batch, NoPage, 0)
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range res {
					if want := ids[(round+i)%len(urls)].ID; r.ID != want || r.New {
						t.Fatalf("%s = %+v, want id %d", batch[i], r, want)
					}
				}
				db.mu.Lock()
				bypassed = bypassed || db.recent.bypass > 0
				db.mu.Unlock()
			}
			if bypassed != tc.wantBypass {
				t.Fatalf("bypassed %v, want %v", bypassed, tc.wantBypass)
			}
		})
	}
}
