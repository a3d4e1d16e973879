package storage_test

import (
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestLastFull fetches a page over three cycles (content, 304, error)
// and checks, after each, which fetch LastFull names as the last one with
// content.
func TestLastFull(t *testing.T) {
	db, _ := openTest(t, nil)
	id := intern(t, db, storage.NoPage, 0, "http://a.test/")[0]
	events := []struct {
		name   string
		cycle  uint32
		status storage.Status
		code   int
		at     int
		want   time.Time
	}{
		{name: "fetched in cycle 1", cycle: 1, status: storage.StatusFetched, code: 200, at: 1, want: at(1)},
		{name: "304 in cycle 2", cycle: 2, status: storage.StatusNotModified, code: 304, at: 11, want: at(1)},
		{name: "fetched again in cycle 3", cycle: 3, status: storage.StatusFetched, code: 200, at: 21, want: at(21)},
		{name: "error in cycle 4", cycle: 4, status: storage.StatusFetchError, at: 31, want: at(21)},
	}
	for _, ev := range events {
		var b storage.Batch
		b.PutCycle(storage.Cycle{N: ev.cycle, Start: at(int(ev.cycle-1) * 10)})
		f := storage.Fetch{ID: id, Host: "a.test", Status: ev.status, Code: ev.code, FetchedAt: at(ev.at)}
		if ev.code == 200 {
			f.Hash, f.Length = storage.HashOf([]byte("body")), 4
		}
		b.AddFetch(f, nil)
		commit(t, db, &b)
		prev := mustPage(t, db, id)
		if got := db.LastFull(id, &prev); !got.Equal(ev.want) {
			t.Errorf("%s: LastFull = %v, want %v", ev.name, got, ev.want)
		}
	}
	// A page with no stored fetch: when its content last changed.
	prev := storage.Page{Status: storage.StatusNotModified, ChangedAt: at(99)}
	if got := db.LastFull(id+1, &prev); !got.Equal(at(99)) {
		t.Errorf("page without history: LastFull = %v, want %v", got, at(99))
	}
}
