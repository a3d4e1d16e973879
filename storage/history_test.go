package storage_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// loadArcs returns the graph of a stream as node count and adjacency lists.
func loadArcs(t *testing.T, s graph.Stream) (int, [][]uint32, []string) {
	t.Helper()
	g, err := graph.Load(s)
	if err != nil {
		t.Fatalf("graph.Load: %v", err)
	}
	adj := make([][]uint32, g.N())
	for v := range adj {
		adj[v] = append([]uint32{}, g.Out(uint32(v))...)
	}
	return g.N(), adj, g.URLs
}

// TestCycles runs two cycles over a small site: cycle 2 changes, keeps,
// 304s, removes and adds pages. Per-cycle figures, fetch histories, and the
// graph as of each cycle must match.
func TestCycles(t *testing.T) {
	db, _ := openTest(t, nil)
	fetch := func(b *storage.Batch, id uint64, st storage.Status, code int, h storage.Hash, s int, to ...uint64) {
		b.AddFetch(storage.Fetch{ID: id, Host: "a.test", Status: st, Code: code, Hash: h, Length: 10, FetchedAt: at(s)}, links(storage.LinkA, to...))
	}
	h := func(s string) storage.Hash { return storage.HashOf([]byte(s)) }

	// Cycle 1 (implicit at first, then recorded): 0 -> 1,2 ; 1 -> 2 ; 2 -> 0 ; 3 unreachable error.
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://a.test/1", "http://a.test/2", "http://a.test/3")
	var b storage.Batch
	b.PutCycle(storage.Cycle{N: 1, Start: at(0), SeedAlgo: "given", Seeds: []storage.Seed{{ID: 0, Why: "given"}}})
	fetch(&b, ids[0], storage.StatusFetched, 200, h("p0"), 1, ids[1], ids[2])
	fetch(&b, ids[1], storage.StatusFetched, 200, h("p1"), 2, ids[2])
	fetch(&b, ids[2], storage.StatusFetched, 200, h("p2"), 3, ids[0])
	fetch(&b, ids[3], storage.StatusFetchError, 0, storage.Hash{}, 4)
	commit(t, db, &b)
	b.Reset()
	b.PutCycle(storage.Cycle{N: 1, Start: at(0), End: at(5), SeedAlgo: "given", Seeds: []storage.Seed{{ID: 0, Why: "given"}}})
	commit(t, db, &b)
	if db.Cycle() != 1 {
		t.Fatalf("Cycle = %d, want 1", db.Cycle())
	}

	// Cycle 2: 0 changes (new link to 4), 1 answers 304, 2 unchanged hash,
	// 3 now fetched (new), 4 new page, then 1 gone on a second visit.
	b.Reset()
	b.PutCycle(storage.Cycle{N: 2, Start: at(10), SeedAlgo: "pagerank", Seeds: []storage.Seed{{ID: 0, Score: 0.3, Why: "pagerank rank 1"}}})
	ids4 := intern(t, db, ids[0], 1, "http://a.test/4")
	fetch(&b, ids[0], storage.StatusFetched, 200, h("p0 v2"), 11, ids[1], ids4[0])
	fetch(&b, ids[1], storage.StatusNotModified, 304, storage.Hash{}, 12)
	fetch(&b, ids[2], storage.StatusFetched, 200, h("p2"), 13, ids[0])
	fetch(&b, ids[3], storage.StatusFetched, 200, h("p3"), 14, ids[0])
	fetch(&b, ids4[0], storage.StatusFetched, 200, h("p4"), 15)
	commit(t, db, &b)
	if db.Cycle() != 2 {
		t.Fatalf("Cycle = %d, want 2", db.Cycle())
	}
	b.Reset()
	fetch(&b, ids[2], storage.StatusGone, 404, storage.Hash{}, 16)
	commit(t, db, &b)

	cycles, err := db.Cycles()
	if err != nil {
		t.Fatal(err)
	}
	if len(cycles) != 2 || cycles[0].N != 1 || cycles[1].N != 2 || cycles[1].SeedAlgo != "pagerank" || !cycles[0].End.Equal(at(5)) {
		t.Fatalf("cycles = %+v", cycles)
	}
	want1 := storage.CycleStats{Fetches: 4, New: 3, Errors: 1, Bytes: 40, Found: 4, NextID: 4, First: at(1), Last: at(4)}
	want2 := storage.CycleStats{Fetches: 6, New: 2, Changed: 1, Unchanged: 2, Gone: 1, Bytes: 60, Found: 1, NextID: 5, First: at(11), Last: at(16)}
	if !reflect.DeepEqual(cycles[0].Stats, want1) {
		t.Errorf("cycle 1 stats = %+v\nwant %+v", cycles[0].Stats, want1)
	}
	if !reflect.DeepEqual(cycles[1].Stats, want2) {
		t.Errorf("cycle 2 stats = %+v\nwant %+v", cycles[1].Stats, want2)
	}

	hist, err := db.History(ids[2])
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Cycle != 1 || hist[0].Change != storage.ChangeNew || hist[1].Cycle != 2 ||
		hist[1].Status != storage.StatusGone || hist[1].Change != storage.ChangeGone || hist[1].Code != 404 {
		t.Errorf("history of page 2 = %+v", hist)
	}
	var c2 []storage.FetchRecord
	if err := db.EachFetch(2, func(r storage.FetchRecord) error { c2 = append(c2, r); return nil }); err != nil {
		t.Fatal(err)
	}
	changes := map[uint64]storage.Change{}
	for _, r := range c2 {
		changes[r.ID] = r.Change
	}
	wantChanges := map[uint64]storage.Change{0: storage.ChangeChanged, 1: storage.ChangeUnchanged, 2: storage.ChangeGone, 3: storage.ChangeNew, 4: storage.ChangeNew}
	if !reflect.DeepEqual(changes, wantChanges) {
		t.Errorf("cycle 2 changes = %v, want %v", changes, wantChanges)
	}

	// Graph as of cycle 1, as of cycle 2, and now.
	n1, adj1, urls1 := loadArcs(t, mustAsOf(t, db, 1))
	if n1 != 4 || !reflect.DeepEqual(adj1, [][]uint32{{1, 2}, {2}, {0}, {}}) || urls1[3] != "http://a.test/3" {
		t.Errorf("graph as of cycle 1: n=%d adj=%v", n1, adj1)
	}
	wantNow := [][]uint32{{1, 4}, {2}, {}, {0}, {}}
	n2, adj2, _ := loadArcs(t, mustAsOf(t, db, 2))
	if n2 != 5 || !reflect.DeepEqual(adj2, wantNow) {
		t.Errorf("graph as of cycle 2: n=%d adj=%v, want %v", n2, adj2, wantNow)
	}
	nNow, adjNow, _ := loadArcs(t, db)
	if nNow != 5 || !reflect.DeepEqual(adjNow, wantNow) {
		t.Errorf("current graph: n=%d adj=%v, want %v", nNow, adjNow, wantNow)
	}
	if _, err := db.AsOf(3); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AsOf(3): %v, want ErrNotFound", err)
	}

	// Node flags as of cycle 1 come from the history.
	v1 := mustAsOf(t, db, 1)
	f1, nv1, err := v1.NodeFlags()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f1, []bool{true, true, true, false}) || !reflect.DeepEqual(nv1, []bool{true, true, true, false}) {
		t.Errorf("flags as of cycle 1 = %v %v", f1, nv1)
	}
	fNow, _, err := db.NodeFlags()
	if err != nil || !reflect.DeepEqual(fNow, []bool{true, true, false, true, true}) {
		t.Errorf("flags now = %v, %v", fNow, err)
	}

	// Cycles only move forward by one.
	b.Reset()
	b.PutCycle(storage.Cycle{N: 1})
	if err := db.Commit(&b); !errors.Is(err, storage.ErrCycleOrder) {
		t.Errorf("going back to cycle 1: %v, want ErrCycleOrder", err)
	}
}

func mustAsOf(t *testing.T, db *storage.DB, c uint32) *storage.View {
	t.Helper()
	v, err := db.AsOf(c)
	if err != nil {
		t.Fatalf("AsOf(%d): %v", c, err)
	}
	if v.Cycle() != c {
		t.Fatalf("view cycle = %d", v.Cycle())
	}
	return v
}

// TestHistoryServerDates: the fetch history keeps each fetch's Last-Modified
// and Date on the server's clock, parsed; a 304 without Last-Modified keeps
// the copy's, a fetch without Date stores none, and a header that is not
// an HTTP date is stored as unknown.
func TestHistoryServerDates(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/")
	day := func(d int) time.Time { return time.Date(2025, 1, 1+d, 0, 0, 0, 0, time.UTC) }
	httpDate := func(d int) string { return day(d).Format("Mon, 02 Jan 2006 15:04:05 GMT") }
	h := func(s string) storage.Hash { return storage.HashOf([]byte(s)) }
	steps := []struct {
		f            storage.Fetch
		wantLM, want time.Time
	}{
		{storage.Fetch{Status: storage.StatusFetched, Code: 200, Hash: h("v1"), LastModified: httpDate(0), Date: httpDate(3)}, day(0), day(3)},
		{storage.Fetch{Status: storage.StatusNotModified, Code: 304, Date: httpDate(5)}, day(0), day(5)},
		{storage.Fetch{Status: storage.StatusFetched, Code: 200, Hash: h("v2"), LastModified: httpDate(6)}, day(6), time.Time{}},
		{storage.Fetch{Status: storage.StatusFetched, Code: 200, Hash: h("v2"), LastModified: "last tuesday", Date: "Tue, 07 Jan 2025 00:00:00 GMT"}, time.Time{}, day(6)},
	}
	for i, s := range steps {
		var b storage.Batch
		b.PutCycle(storage.Cycle{N: uint32(i + 1), Start: at(10 * i)})
		s.f.ID, s.f.FetchedAt = ids[0], at(10*i+1)
		b.AddFetch(s.f, nil)
		commit(t, db, &b)
	}
	hist, err := db.History(ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != len(steps) {
		t.Fatalf("history has %d records, want %d", len(hist), len(steps))
	}
	for i, s := range steps {
		if r := hist[i]; !r.LastModified.Equal(s.wantLM) || !r.Date.Equal(s.want) {
			t.Errorf("cycle %d: last-modified %v, date %v; want %v, %v", i+1, r.LastModified, r.Date, s.wantLM, s.want)
		}
		// FetchIn reads the same record with one lookup.
		r, ok, err := db.FetchIn(uint32(i+1), ids[0])
		if err != nil || !ok || r.Cycle != uint32(i+1) || !r.Date.Equal(s.want) || r.Status != s.f.Status {
			t.Errorf("FetchIn(%d) = %+v, %v, %v; want the record of cycle %d", i+1, r, ok, err, i+1)
		}
	}
	if _, ok, err := db.FetchIn(uint32(len(steps)+1), ids[0]); ok || err != nil {
		t.Errorf("FetchIn of a cycle without a fetch: %v, %v; want none", ok, err)
	}
}
