package storage_test

import (
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestJournal writes a run as the crawl loop does: started, a batch
// committed while it goes on, then closed; after each step the stored run
// record carries the counters given with the commit.
func TestJournal(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/")
	var j storage.Journal
	settings := map[string]int{"workers": 4}
	if err := j.Start(db, at(0), "crawl http://a.test/", settings); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		counters map[string]uint64
		end      time.Time
		fetch    bool // a page's fetch goes into the batch first
	}{
		{name: "a batch while the run goes on", counters: map[string]uint64{"fetch/fetched": 1}, fetch: true},
		{name: "the run closed", counters: map[string]uint64{"fetch/fetched": 1, "stop/exhausted": 1}, end: at(9)},
	}
	for _, s := range steps {
		if s.fetch {
			j.Batch.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, FetchedAt: at(1)}, nil)
			j.Recorded(ids[0])
			if !j.Uncommitted(ids[0]) || j.Uncommitted(ids[0]+1) {
				t.Fatalf("%s: Uncommitted not true for the recorded id alone", s.name)
			}
		}
		if err := j.Commit(db, s.counters, s.end); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if j.Uncommitted(ids[0]) {
			t.Fatalf("%s: id still uncommitted after the commit", s.name)
		}
		if !j.Batch.Empty() {
			t.Fatalf("%s: batch not emptied by the commit", s.name)
		}
		runs, err := db.Runs()
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 {
			t.Fatalf("%s: %d runs stored, want 1", s.name, len(runs))
		}
		r := runs[0]
		if r.ID != j.Run().ID || r.Config != `{"workers":4}` || !r.End.Equal(s.end) || len(r.Counters) != len(s.counters) {
			t.Fatalf("%s: stored run %+v, want config {\"workers\":4}, end %v, counters %v", s.name, r, s.end, s.counters)
		}
		for k, v := range s.counters {
			if r.Counters[k] != v {
				t.Fatalf("%s: counter %s = %d, want %d", s.name, k, r.Counters[k], v)
			}
		}
	}
	p, err := db.Page(ids[0])
	if err != nil || p.Status != storage.StatusFetched {
		t.Fatalf("page = %+v, %v; want it fetched by the journal's batch", p, err)
	}
}
