package storage_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestEachHistoryOfMatchesHistory fetches random pages over four cycles
// (cycle 3 fetches nothing) and checks EachHistoryOf and EachPageOf
// against History and Page, page by page, for a subset of ids given out
// of order with a duplicate and an id that does not exist.
func TestEachHistoryOfMatchesHistory(t *testing.T) {
	db, _ := openTest(t, nil)
	rng := rand.New(rand.NewPCG(7, 8))
	urls := make([]string, 40)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://h%d.test/p%d", i%3, i)
	}
	ids := intern(t, db, storage.NoPage, 0, urls...)
	for c := uint32(1); c <= 4; c++ {
		var b storage.Batch
		b.PutCycle(storage.Cycle{N: c, Start: at(int(c) * 100)})
		if c != 3 {
			for _, id := range ids {
				if rng.IntN(3) > 0 {
					b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetched, Code: 200,
						Hash: storage.HashOf([]byte(fmt.Sprint(id, rng.IntN(2)))), FetchedAt: at(int(c)*100 + int(id))}, nil)
				}
			}
		}
		commit(t, db, &b)
	}
	ask := []uint64{ids[30], ids[2], ids[7], ids[2], 9999, ids[0], ids[39]}
	for _, last := range []uint32{1, 3, 4, 10} {
		got := map[uint64][]storage.FetchRecord{}
		var order []uint64
		if err := db.EachHistoryOf(ask, last, func(id uint64, recs []storage.FetchRecord) error {
			order = append(order, id)
			got[id] = recs
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(order); i++ {
			if order[i] <= order[i-1] {
				t.Errorf("last %d: ids visited in order %v, want increasing", last, order)
			}
		}
		for _, id := range ask {
			full, err := db.History(id)
			if err != nil {
				t.Fatal(err)
			}
			var want []storage.FetchRecord
			for _, r := range full {
				if r.Cycle <= last {
					want = append(want, r)
				}
			}
			if !reflect.DeepEqual(got[id], want) {
				t.Errorf("last %d, page %d: EachHistoryOf = %+v, History = %+v", last, id, got[id], want)
			}
		}
	}
	seen := map[uint64]bool{}
	if err := db.EachPageOf(ask, func(p *storage.Page) error {
		if seen[p.ID] {
			t.Errorf("page %d visited twice", p.ID)
		}
		seen[p.ID] = true
		if want := mustPage(t, db, p.ID); !reflect.DeepEqual(*p, want) {
			t.Errorf("EachPageOf page %d = %+v, Page = %+v", p.ID, *p, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 5 || seen[9999] {
		t.Errorf("EachPageOf visited %v, want the 5 existing ids", seen)
	}
}
