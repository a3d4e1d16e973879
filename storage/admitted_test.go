package storage_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// recountAdmitted counts the admitted pages per host from the page records,
// the rule the index keeps.
func recountAdmitted(t *testing.T, db *storage.DB) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	if err := db.EachPage(func(p *storage.Page) error {
		if h := urlnorm.Authority(p.URL); h != "" && (p.Fetches > 0 || p.Status == storage.StatusQueued) {
			out[h]++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkAdmitted(t *testing.T, db *storage.DB, when string) {
	t.Helper()
	got, err := db.AdmittedByHost()
	if err != nil {
		t.Fatalf("%s: AdmittedByHost: %v", when, err)
	}
	want := recountAdmitted(t, db)
	maps.DeleteFunc(got, func(_ string, n int64) bool { return n == 0 })
	if !maps.Equal(got, want) {
		t.Fatalf("%s: AdmittedByHost = %v, the page records count %v", when, got, want)
	}
}

// admittedSteps commits random batches on hosts a..d: new URLs queued or
// only discovered, fetches, status changes in and out of queued.
func admittedSteps(t *testing.T, db *storage.DB, rng *rand.Rand, steps int, check func(step int)) {
	t.Helper()
	now := time.Unix(1_700_000_000, 0)
	for step := range steps {
		var b storage.Batch
		next := db.NextID()
		urls := make([]string, 1+rng.IntN(8))
		for i := range urls {
			urls[i] = fmt.Sprintf("http://%c.test:%d/p%d", 'a'+rng.IntN(4), 80+rng.IntN(2), int(next)+i+step*100)
		}
		ints, err := db.Intern(urls, storage.NoPage, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range ints {
			if rng.IntN(2) == 0 {
				b.PutFrontier(storage.Entry{ID: it.ID, Host: urlnorm.Authority(urls[i])})
			}
		}
		for range rng.IntN(4) {
			if next == 0 {
				break
			}
			id := rng.Uint64N(next)
			switch rng.IntN(3) {
			case 0:
				b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetched, Code: 200, FetchedAt: now}, nil)
			case 1:
				b.SetStatus(id, storage.StatusQueued, "")
			default:
				b.SetStatus(id, storage.StatusRobotsDenied, "robots")
			}
		}
		commit(t, db, &b)
		check(step)
	}
}

// TestAdmittedIndex checks that Commit keeps the admitted index equal to a
// recount of the page records, batch after batch, including pages that
// leave it (queued, then robots-denied before any fetch).
func TestAdmittedIndex(t *testing.T) {
	db, _ := openTest(t, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	admittedSteps(t, db, rng, 60, func(step int) { checkAdmitted(t, db, fmt.Sprintf("after commit %d", step)) })
}

// TestAdmittedIndexBuiltForOlderFile removes the index, as in a file
// written before it existed: the first AdmittedByHost builds it from the
// page records, and Commit keeps it from then on.
func TestAdmittedIndexBuiltForOlderFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	admittedSteps(t, db, rng, 20, func(int) {})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("admitted")) }); err != nil {
		t.Fatal(err)
	}
	if err := bdb.Close(); err != nil {
		t.Fatal(err)
	}
	// A read-only open counts without storing.
	ro := openPath(t, path, &storage.Options{ReadOnly: true})
	checkAdmitted(t, ro, "read-only, no index")
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	db = openPath(t, path, nil)
	// Commits before the index exists do not create it.
	admittedSteps(t, db, rng, 5, func(int) {})
	checkAdmitted(t, db, "built")
	admittedSteps(t, db, rng, 20, func(step int) { checkAdmitted(t, db, fmt.Sprintf("after commit %d of the built index", step)) })
}
