package storage_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

var (
	hashA = storage.HashOf([]byte("content A"))
	hashB = storage.HashOf([]byte("content B"))
)

// TestPageRecords applies fetch sequences to one page and checks the
// stored record, covering every field and the merge rules.
func TestPageRecords(t *testing.T) {
	full := storage.Fetch{Status: storage.StatusFetched, Code: 200, ContentType: "text/html; charset=utf-8",
		Length: 1234, Truncated: true, Hash: hashA, ETag: `"v1"`, LastModified: "Mon, 02 Jan 2006 15:04:05 GMT",
		FetchedAt: at(10), Duration: 150 * time.Millisecond, Interval: 24 * time.Hour, Reason: "body limit"}
	base := storage.Page{ID: 1, URL: "http://a.test/p", Depth: 1, From: 0, FirstCycle: 1}
	tests := []struct {
		name    string
		fetches []storage.Fetch
		want    func(p storage.Page) storage.Page
	}{
		{"fetched", []storage.Fetch{full}, func(p storage.Page) storage.Page {
			p.Status, p.Reason, p.Code, p.ContentType, p.Length, p.Truncated = storage.StatusFetched, "body limit", 200, full.ContentType, 1234, true
			p.Hash, p.ETag, p.LastModified, p.FetchedAt, p.Duration, p.Interval = hashA, `"v1"`, full.LastModified, at(10), full.Duration, full.Interval
			p.Novel, p.Cycle, p.Fetches, p.Successes, p.ChangedAt = true, 1, 1, 1, at(10)
			return p
		}},
		{"not modified keeps content", []storage.Fetch{full, {Status: storage.StatusNotModified, Code: 304, FetchedAt: at(20), Duration: time.Millisecond, ETag: `"v2"`}},
			func(p storage.Page) storage.Page {
				p.Status, p.Reason, p.Code, p.ContentType, p.Length, p.Truncated = storage.StatusNotModified, "", 304, full.ContentType, 1234, true
				p.Hash, p.ETag, p.LastModified, p.FetchedAt, p.Duration = hashA, `"v2"`, full.LastModified, at(20), time.Millisecond
				p.Novel, p.Cycle, p.Fetches, p.Successes, p.ChangedAt = true, 1, 2, 2, at(10)
				return p
			}},
		{"fetch error keeps content", []storage.Fetch{full, {Status: storage.StatusFetchError, Reason: "timeout", FetchedAt: at(30), Duration: 5 * time.Second}},
			func(p storage.Page) storage.Page {
				p.Status, p.Reason, p.Code, p.ContentType, p.Length, p.Truncated = storage.StatusFetchError, "timeout", 0, full.ContentType, 1234, true
				p.Hash, p.ETag, p.LastModified, p.FetchedAt, p.Duration = hashA, `"v1"`, full.LastModified, at(30), 5*time.Second
				p.Novel, p.Cycle, p.Fetches, p.Successes, p.ChangedAt = true, 1, 2, 1, at(10)
				return p
			}},
		{"gone replaces content", []storage.Fetch{full, {Status: storage.StatusGone, Code: 410, FetchedAt: at(40)}},
			func(p storage.Page) storage.Page {
				p.Status, p.Code, p.FetchedAt = storage.StatusGone, 410, at(40)
				p.Cycle, p.Fetches, p.Successes, p.ChangedAt = 1, 2, 1, at(40)
				return p
			}},
		{"changed content", []storage.Fetch{full, {Status: storage.StatusFetched, Code: 200, Hash: hashB, Length: 9, FetchedAt: at(50)}},
			func(p storage.Page) storage.Page {
				p.Status, p.Code, p.Hash, p.Length, p.FetchedAt = storage.StatusFetched, 200, hashB, 9, at(50)
				p.Novel, p.Cycle, p.Fetches, p.Successes, p.ChangedAt = true, 1, 2, 2, at(50)
				return p
			}},
		// A page an older build hashed with SHA-256, fetched again with the
		// same content: the hashes cannot show it is the same, so it counts
		// as changed (ChangedAt moves) and its hash is now the new kind.
		{"same content hashed by another kind", []storage.Fetch{sha256Full(full), {Status: storage.StatusFetched, Code: 200, Hash: hashA, Length: 9, FetchedAt: at(50)}},
			func(p storage.Page) storage.Page {
				p.Status, p.Code, p.Hash, p.Length, p.FetchedAt = storage.StatusFetched, 200, hashA, 9, at(50)
				p.Novel, p.Cycle, p.Fetches, p.Successes, p.ChangedAt = true, 1, 2, 2, at(50)
				return p
			}},
		{"same content same kind is unchanged", []storage.Fetch{sha256Full(full), {Status: storage.StatusFetched, Code: 200, Hash: storage.HashSHA256.Of([]byte("content A")), Length: 9, FetchedAt: at(50)}},
			func(p storage.Page) storage.Page {
				p.Status, p.Code, p.Hash, p.Length, p.FetchedAt = storage.StatusFetched, 200, storage.HashSHA256.Of([]byte("content A")), 9, at(50)
				p.Novel, p.Cycle, p.Fetches, p.Successes, p.ChangedAt = true, 1, 2, 2, at(10)
				return p
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := openTest(t, nil)
			intern(t, db, storage.NoPage, 0, "http://a.test/")
			intern(t, db, 0, 1, "http://a.test/p")
			for _, f := range tc.fetches {
				f.ID = 1
				var b storage.Batch
				b.AddFetch(f, nil)
				commit(t, db, &b)
			}
			got := mustPage(t, db, 1)
			want := tc.want(base)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("page\n got %+v\nwant %+v", got, want)
			}
			byURL, err := db.PageByURL("http://a.test/p")
			if err != nil || !reflect.DeepEqual(byURL, got) {
				t.Fatalf("PageByURL = %+v, %v", byURL, err)
			}
		})
	}
}

func TestSetStatus(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("s", int(storage.StatusGone)+1)...)
	var b storage.Batch
	for _, st := range storage.Statuses() {
		b.SetStatus(ids[st], st, "why "+st.String())
	}
	commit(t, db, &b)
	for _, st := range storage.Statuses() {
		p := mustPage(t, db, ids[st])
		if p.Status != st || p.Reason != "why "+st.String() || p.Fetches != 0 {
			t.Errorf("page %d = %+v, want status %v", ids[st], p, st)
		}
		if got, err := storage.ParseStatus(st.String()); err != nil || got != st {
			t.Errorf("ParseStatus(%q) = %v, %v", st, got, err)
		}
	}
	if _, err := storage.ParseStatus("bogus"); err == nil {
		t.Error("ParseStatus(bogus) succeeded")
	}
}

func TestOtherRecords(t *testing.T) {
	db, path := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://b.test/")
	run, err := db.StartRun(at(0), "crawl http://a.test/", `{"workers":4}`)
	if err != nil {
		t.Fatal(err)
	}
	if run.ID != 1 {
		t.Fatalf("first run id = %d", run.ID)
	}
	robots := storage.Robots{State: 1, Code: 200, Body: []byte("User-agent: *\nDisallow: /x\n"), FetchedAt: at(1), Expires: at(86401), Failures: 0, Err: ""}
	if err := db.SaveRobots("http://a.test", robots); err != nil {
		t.Fatal(err)
	}
	failed := storage.Robots{State: 3, Code: 503, FetchedAt: at(2), Expires: at(62), Failures: 2, Err: "503 Service Unavailable"}
	if err := db.SaveRobots("http://b.test", failed); err != nil {
		t.Fatal(err)
	}

	var b storage.Batch
	b.PutFrontier(storage.Entry{ID: ids[0], Host: "a.test", Prio: 0.5, Seq: 7, Depth: 0, Attempt: 2, URL: "ignored"})
	b.PutFrontier(storage.Entry{ID: ids[1], Host: "b.test", Prio: -1.25, Seq: 8, Depth: 3})
	b.SetHostReady("a.test", at(100), "crawl-delay 60s > 30s")
	b.Count("reject/url-too-long", 2)
	b.Count("reject/url-too-long", 3)
	b.Count("error/timeout", 1)
	b.SetSchedulerState([]byte{1, 2, 3})
	b.SetState("frontier", []byte("seq=9"))
	run.End = at(500)
	run.Counters = map[string]uint64{"fetched": 10, "bytes": 12345}
	b.PutRun(run)
	b.PutCycle(storage.Cycle{N: 1, Start: at(0), SeedAlgo: "given",
		Seeds:    []storage.Seed{{ID: ids[0], Score: 0, Why: "given"}},
		Replaced: []storage.Replacement{{Old: ids[1], New: storage.NoPage, Reason: "404"}},
		Info:     `{"budget":100}`, Stats: storage.CycleStats{Fetches: 999}})
	commit(t, db, &b)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openPath(t, path, nil) // everything below survives a reopen

	var entries []storage.Entry
	if err := db.LoadFrontier(func(e storage.Entry) error { entries = append(entries, e); return nil }); err != nil {
		t.Fatal(err)
	}
	wantEntries := []storage.Entry{
		{ID: ids[0], Host: "a.test", Prio: 0.5, Seq: 7, Depth: 0, Attempt: 2, URL: "http://a.test/"},
		{ID: ids[1], Host: "b.test", Prio: -1.25, Seq: 8, Depth: 3, URL: "http://b.test/"},
	}
	if !reflect.DeepEqual(entries, wantEntries) {
		t.Errorf("frontier = %+v\nwant %+v", entries, wantEntries)
	}
	for _, id := range ids {
		if p := mustPage(t, db, id); p.Status != storage.StatusQueued {
			t.Errorf("page %d queued in the same batch has status %v", id, p.Status)
		}
	}
	h, ok, err := db.Host("a.test")
	if err != nil || !ok || h != (storage.Host{Name: "a.test", ReadyAt: at(100), Reason: "crawl-delay 60s > 30s"}) {
		t.Errorf("host = %+v, %v, %v", h, ok, err)
	}
	if _, ok, err := db.Host("zzz.test"); ok || err != nil {
		t.Errorf("missing host: ok=%v err=%v", ok, err)
	}
	for host, want := range map[string]storage.Robots{"http://a.test": robots, "http://b.test": failed} {
		got, ok, err := db.LoadRobots(host)
		if err != nil || !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("robots %s = %+v, %v, %v; want %+v", host, got, ok, err, want)
		}
	}
	if _, ok, err := db.LoadRobots("http://c.test"); ok || err != nil {
		t.Errorf("missing robots: ok=%v err=%v", ok, err)
	}
	counters, err := db.Counters()
	if err != nil || !reflect.DeepEqual(counters, map[string]uint64{"reject/url-too-long": 5, "error/timeout": 1}) {
		t.Errorf("counters = %v, %v", counters, err)
	}
	if s, err := db.SchedulerState(); err != nil || !reflect.DeepEqual(s, []byte{1, 2, 3}) {
		t.Errorf("scheduler state = %v, %v", s, err)
	}
	if s, err := db.State("frontier"); err != nil || string(s) != "seq=9" {
		t.Errorf("frontier state = %q, %v", s, err)
	}
	if s, err := db.State("none"); err != nil || s != nil {
		t.Errorf("missing state = %v, %v", s, err)
	}
	runs, err := db.Runs()
	if err != nil || len(runs) != 1 || !reflect.DeepEqual(runs[0], run) {
		t.Errorf("runs = %+v, %v; want %+v", runs, err, run)
	}
	cycles, err := db.Cycles()
	if err != nil || len(cycles) != 1 {
		t.Fatalf("cycles = %+v, %v", cycles, err)
	}
	c := cycles[0]
	if c.N != 1 || c.SeedAlgo != "given" || c.Info != `{"budget":100}` || len(c.Seeds) != 1 || c.Seeds[0].ID != ids[0] ||
		len(c.Replaced) != 1 || c.Replaced[0] != (storage.Replacement{Old: ids[1], New: storage.NoPage, Reason: "404"}) {
		t.Errorf("cycle = %+v", c)
	}
	if c.Stats.Fetches != 0 || c.Stats.Found != 2 || c.Stats.NextID != 2 {
		t.Errorf("cycle stats = %+v, want the store's figures (0 fetches, 2 found)", c.Stats)
	}

	// Deleting state and re-queueing.
	b.Reset()
	b.SetState("frontier", nil)
	b.DeleteFrontier(ids[1])
	commit(t, db, &b)
	if s, err := db.State("frontier"); err != nil || s != nil {
		t.Errorf("deleted state = %v, %v", s, err)
	}
	st, err := db.Stats()
	if err != nil || st.Frontier != 1 {
		t.Errorf("frontier after delete = %d, %v", st.Frontier, err)
	}
}

func TestFrontierOrder(t *testing.T) {
	tests := []struct {
		name  string
		ops   func(b *storage.Batch, id uint64)
		queue bool
		prio  float64
	}{
		{"fetch removes", func(b *storage.Batch, id uint64) {
			b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetched, Code: 200}, nil)
		}, false, 0},
		{"skip status removes", func(b *storage.Batch, id uint64) {
			b.SetStatus(id, storage.StatusRobotsDenied, "")
		}, false, 0},
		{"queued status keeps", func(b *storage.Batch, id uint64) {
			b.SetStatus(id, storage.StatusQueued, "")
		}, true, 1},
		{"requeue after fetch", func(b *storage.Batch, id uint64) {
			b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetchError, Reason: "timeout"}, nil)
			b.PutFrontier(storage.Entry{ID: id, Prio: 3, Attempt: 1})
		}, true, 3},
		{"priority update", func(b *storage.Batch, id uint64) {
			b.PutFrontier(storage.Entry{ID: id, Prio: 2})
			b.PutFrontier(storage.Entry{ID: id, Prio: 5})
		}, true, 5},
		{"put then delete", func(b *storage.Batch, id uint64) {
			b.PutFrontier(storage.Entry{ID: id, Prio: 2})
			b.DeleteFrontier(id)
		}, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := openTest(t, nil)
			id := intern(t, db, storage.NoPage, 0, "http://a.test/")[0]
			var b storage.Batch
			b.PutFrontier(storage.Entry{ID: id, Prio: 1})
			commit(t, db, &b)
			b.Reset()
			tc.ops(&b, id)
			commit(t, db, &b)
			var got []storage.Entry
			if err := db.LoadFrontier(func(e storage.Entry) error { got = append(got, e); return nil }); err != nil {
				t.Fatal(err)
			}
			if queued := len(got) == 1; queued != tc.queue || (queued && got[0].Prio != tc.prio) {
				t.Fatalf("frontier = %+v, want queued=%v prio %v", got, tc.queue, tc.prio)
			}
		})
	}
}

func TestLinkRules(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("l", 6)...)
	src := ids[0]
	step := func(f storage.Fetch, ls []storage.Link, want []storage.Link) {
		t.Helper()
		f.ID = src
		var b storage.Batch
		b.AddFetch(f, ls)
		commit(t, db, &b)
		got, err := db.Links(src)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %v: links = %v, want %v", f.Status, got, want)
		}
	}
	mixed := []storage.Link{{ids[3], storage.LinkA}, {ids[1], storage.LinkCanonical}, {ids[3], storage.LinkFrame}, {src, storage.LinkA}, {ids[2], storage.LinkRedirect}}
	dedup := []storage.Link{{ids[3], storage.LinkA}, {ids[1], storage.LinkCanonical}, {src, storage.LinkA}, {ids[2], storage.LinkRedirect}}
	step(storage.Fetch{Status: storage.StatusFetched, Code: 200}, mixed, dedup)
	step(storage.Fetch{Status: storage.StatusNotModified, Code: 304}, links(storage.LinkA, ids[5]), dedup)
	step(storage.Fetch{Status: storage.StatusFetchError, Reason: "reset"}, nil, dedup)
	step(storage.Fetch{Status: storage.StatusRedirect, Code: 301}, links(storage.LinkRedirect, ids[4]), links(storage.LinkRedirect, ids[4]))
	step(storage.Fetch{Status: storage.StatusHTTPError, Code: 500}, links(storage.LinkA, ids[5]), links(storage.LinkA, ids[5]))
	step(storage.Fetch{Status: storage.StatusHTTPError, Code: 404}, nil, nil)

	// Many links (the map path of de-duplication) and far-apart ids.
	var many, wantMany []storage.Link
	for i := range 100 {
		many = append(many, storage.Link{To: ids[i%6], Kind: storage.LinkKind(i % 10)})
	}
	for i := range 6 {
		wantMany = append(wantMany, storage.Link{To: ids[i], Kind: storage.LinkKind(i)})
	}
	step(storage.Fetch{Status: storage.StatusFetched, Code: 200}, many, wantMany)

	for k := storage.LinkA; k <= storage.LinkSitemap; k++ {
		if got, err := storage.ParseLinkKind(k.String()); err != nil || got != k {
			t.Errorf("ParseLinkKind(%q) = %v, %v", k, got, err)
		}
	}
}

// sha256Full is f as an older build stored it: hashed with SHA-256.
func sha256Full(f storage.Fetch) storage.Fetch {
	f.Hash = storage.HashSHA256.Of([]byte("content A"))
	return f
}

// TestNovelKinds: duplicate content is found among hashes of one kind; a
// page hashed by another kind is not a duplicate of it, since the hashes
// cannot show the content is the same.
func TestNovelKinds(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("n", 4)...)
	old := storage.HashSHA256.Of([]byte("content A"))
	var b storage.Batch
	for i, h := range []storage.Hash{old, old, hashA, hashA} {
		b.AddFetch(storage.Fetch{ID: ids[i], Host: "h", Status: storage.StatusFetched, Code: 200, Hash: h, FetchedAt: at(i)}, nil)
	}
	commit(t, db, &b)
	_, novel, err := db.NodeFlags()
	if want := []bool{true, false, true, false}; err != nil || !reflect.DeepEqual(novel, want) {
		t.Errorf("novel = %v, %v; want %v", novel, err, want)
	}
	for i, want := range []bool{true, false, true, false} {
		if p := mustPage(t, db, ids[i]); p.Novel != want {
			t.Errorf("page %d Novel = %v, want %v", i, p.Novel, want)
		}
	}
}

func TestNovelAndHosts(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("n", 4)...)
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: ids[0], Host: "h0", Status: storage.StatusFetched, Code: 200, Hash: hashA, Length: 100, FetchedAt: at(1), Duration: time.Second}, nil)
	b.AddFetch(storage.Fetch{ID: ids[1], Host: "h0", Status: storage.StatusFetched, Code: 200, Hash: hashA, Length: 50, FetchedAt: at(2), Duration: 2 * time.Second}, nil) // duplicate content
	b.AddFetch(storage.Fetch{ID: ids[2], Host: "h1", Status: storage.StatusFetched, Code: 200, Hash: hashB, FetchedAt: at(3)}, nil)
	b.AddFetch(storage.Fetch{ID: ids[3], Host: "h1", Status: storage.StatusFetchError, Reason: "dns", FetchedAt: at(4)}, nil)
	commit(t, db, &b)
	b.Reset()
	// Refetching the first holder with the same content keeps it novel.
	b.AddFetch(storage.Fetch{ID: ids[0], Host: "h0", Status: storage.StatusFetched, Code: 200, Hash: hashA, Length: 100, FetchedAt: at(5), Duration: time.Millisecond}, nil)
	commit(t, db, &b)

	fetched, novel, err := db.NodeFlags()
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, true, false}; !reflect.DeepEqual(fetched, want) {
		t.Errorf("fetched = %v, want %v", fetched, want)
	}
	if want := []bool{true, false, true, false}; !reflect.DeepEqual(novel, want) {
		t.Errorf("novel = %v, want %v", novel, want)
	}
	h0, _, err := db.Host("h0")
	want0 := storage.Host{Name: "h0", Fetches: 3, Successes: 3, Bytes: 250, LastFetch: at(5), LastDuration: time.Millisecond}
	if err != nil || h0 != want0 {
		t.Errorf("host h0 = %+v, %v; want %+v", h0, err, want0)
	}
	h1, _, err := db.Host("h1")
	want1 := storage.Host{Name: "h1", Fetches: 2, Successes: 1, Errors: 1, LastFetch: at(4)}
	if err != nil || h1 != want1 {
		t.Errorf("host h1 = %+v, %v; want %+v", h1, err, want1)
	}
	var hosts []string
	if err := db.EachHost(func(h storage.Host) error { hosts = append(hosts, h.Name); return nil }); err != nil || fmt.Sprint(hosts) != "[h0 h1]" {
		t.Errorf("EachHost = %v, %v", hosts, err)
	}
}

// TestCommitAtomic: a batch that fails anywhere stores nothing, and the
// URLs interned for it stay pending for the next commit.
func TestCommitAtomic(t *testing.T) {
	tests := []struct {
		name string
		bad  func(b *storage.Batch)
		want error
	}{
		{"link to unknown id", func(b *storage.Batch) {
			b.AddFetch(storage.Fetch{ID: 1, Status: storage.StatusFetched, Code: 200}, links(storage.LinkA, 99))
		}, storage.ErrUnknownID},
		{"fetch of unknown id", func(b *storage.Batch) { b.AddFetch(storage.Fetch{ID: 50, Status: storage.StatusFetched}, nil) }, storage.ErrUnknownID},
		{"status of unknown id", func(b *storage.Batch) { b.SetStatus(50, storage.StatusRejected, "x") }, storage.ErrUnknownID},
		{"frontier unknown id", func(b *storage.Batch) { b.PutFrontier(storage.Entry{ID: 50}) }, storage.ErrUnknownID},
		{"cycle skipped", func(b *storage.Batch) { b.PutCycle(storage.Cycle{N: 3}) }, storage.ErrCycleOrder},
		{"unknown seed", func(b *storage.Batch) { b.PutCycle(storage.Cycle{N: 2, Seeds: []storage.Seed{{ID: 77}}}) }, storage.ErrUnknownID},
		{"run not started", func(b *storage.Batch) { b.PutRun(storage.Run{ID: 5}) }, nil},
		{"fetch with a non-fetch status", func(b *storage.Batch) {
			b.AddFetch(storage.Fetch{ID: 1, Status: storage.StatusRobotsDenied}, nil)
		}, storage.ErrBadStatus},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := openTest(t, nil)
			ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://a.test/1")
			var b storage.Batch
			b.PutFrontier(storage.Entry{ID: ids[0], Prio: 1})
			commit(t, db, &b)

			newIDs := intern(t, db, ids[0], 1, "http://a.test/2", "http://a.test/3")
			b.Reset()
			b.AddFetch(storage.Fetch{ID: ids[0], Host: "a.test", Status: storage.StatusFetched, Code: 200, Hash: hashA, FetchedAt: at(1)}, links(storage.LinkA, newIDs...))
			b.PutFrontier(storage.Entry{ID: newIDs[0], Prio: 1})
			b.SetHostReady("a.test", at(9), "")
			b.Count("error/x", 1)
			b.SetSchedulerState([]byte("s"))
			tc.bad(&b)
			err := db.Commit(&b)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("commit: %v, want %v", err, tc.want)
			}

			// Nothing of the batch is stored.
			if p := mustPage(t, db, ids[0]); p.Status != storage.StatusQueued || p.Fetches != 0 {
				t.Errorf("page after failed commit = %+v", p)
			}
			st, err := db.Stats()
			if err != nil {
				t.Fatal(err)
			}
			if st.Pages != 2 || st.Links != 0 || st.Hosts != 0 || len(st.Counters) != 0 || st.Frontier != 1 {
				t.Errorf("stats after failed commit = %+v", st)
			}
			if s, _ := db.SchedulerState(); s != nil {
				t.Errorf("scheduler state stored by a failed commit")
			}
			if _, err := db.PageByURL("http://a.test/2"); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("new URL stored by a failed commit: %v", err)
			}
			// The interned URLs are still pending with the same ids.
			if got, _ := db.Lookup([]string{"http://a.test/2", "http://a.test/3"}); !reflect.DeepEqual(got, newIDs) {
				t.Errorf("pending ids after failed commit = %v, want %v", got, newIDs)
			}
			// The same work without the bad part commits.
			b.Reset()
			b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200}, links(storage.LinkA, newIDs...))
			b.PutFrontier(storage.Entry{ID: newIDs[0], Prio: 1})
			commit(t, db, &b)
			if p, err := db.PageByURL("http://a.test/3"); err != nil || p.ID != newIDs[1] {
				t.Errorf("retried commit: %+v, %v", p, err)
			}
		})
	}
}

func TestCallbacks(t *testing.T) {
	db, _ := openTest(t, nil)
	intern(t, db, storage.NoPage, 0, urlsN("cb", 3)...)
	commit(t, db, &storage.Batch{})
	stop := errors.New("stop")
	calls := 0
	err := db.EachPage(func(*storage.Page) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("EachPage error: %v after %d calls", err, calls)
	}
	// A panic in a callback is the caller's, not a corrupt database.
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the callback's panic", r)
		}
	}()
	_ = db.EachNode(func(uint32, string) error { panic("boom") })
	t.Error("EachNode returned after a panicking callback")
}

// TestSamePageTwice: the later of two fetches of one page in a batch wins,
// for the record, the link list and the history.
func TestSamePageTwice(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("twice", 4)...)
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, Hash: hashA, FetchedAt: at(1)}, links(storage.LinkA, ids[1]))
	commit(t, db, &b)
	b.Reset()
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, Hash: hashB, FetchedAt: at(2)}, links(storage.LinkA, ids[2], ids[3]))
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, Hash: hashA, FetchedAt: at(3)}, links(storage.LinkA, ids[1]))
	commit(t, db, &b)
	if ls, err := db.Links(ids[0]); err != nil || !reflect.DeepEqual(ls, links(storage.LinkA, ids[1])) {
		t.Errorf("links = %v, %v; want the stored list back", ls, err)
	}
	p := mustPage(t, db, ids[0])
	if p.Hash != hashA || p.Fetches != 3 || !p.FetchedAt.Equal(at(3)) {
		t.Errorf("page = %+v", p)
	}
	hist, err := db.History(ids[0])
	if err != nil || len(hist) != 1 || !hist[0].FetchedAt.Equal(at(3)) {
		t.Errorf("history = %+v, %v; want the last fetch of cycle 1", hist, err)
	}
}

func TestStats(t *testing.T) {
	db, _ := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("st", 6)...)
	if _, err := db.StartRun(at(0), "crawl", "{}"); err != nil {
		t.Fatal(err)
	}
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: ids[0], Host: "h", Status: storage.StatusFetched, Code: 200, Hash: hashA}, links(storage.LinkA, ids[1], ids[2]))
	b.AddFetch(storage.Fetch{ID: ids[1], Host: "h", Status: storage.StatusFetched, Code: 200, Hash: hashA}, links(storage.LinkA, ids[0]))
	b.AddFetch(storage.Fetch{ID: ids[2], Host: "h", Status: storage.StatusFetchError, Reason: "timeout"}, nil)
	b.AddFetch(storage.Fetch{ID: ids[3], Host: "g", Status: storage.StatusFetchError, Reason: "timeout"}, nil)
	b.SetStatus(ids[4], storage.StatusRejected, "url-too-long")
	b.PutFrontier(storage.Entry{ID: ids[5]})
	b.Count("reject/url-too-long", 3)
	commit(t, db, &b)
	st, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	want := map[storage.Status]uint64{storage.StatusFetched: 2, storage.StatusFetchError: 2, storage.StatusRejected: 1, storage.StatusQueued: 1}
	if !reflect.DeepEqual(st.ByStatus, want) {
		t.Errorf("ByStatus = %v, want %v", st.ByStatus, want)
	}
	if want := map[string]uint64{"fetch-error/timeout": 2, "rejected/url-too-long": 1}; !reflect.DeepEqual(st.Reasons, want) {
		t.Errorf("Reasons = %v, want %v", st.Reasons, want)
	}
	if st.Pages != 6 || st.Fetched != 2 || st.Novel != 1 || st.Hosts != 2 || st.Links != 3 || st.LinkSources != 2 ||
		st.Frontier != 1 || st.Counters["reject/url-too-long"] != 3 || len(st.Runs) != 1 || len(st.Cycles) != 1 ||
		st.Cycle != 1 || st.Schema != storage.SchemaVersion || st.Size == 0 {
		t.Errorf("stats = %+v", st)
	}
}

// TestNovelOlderKind: a page fetched after an upgrade whose content equals
// a page an older build stored with SHA-256 is a duplicate of it when the
// fetch carries the body's SHA-256 (Fetch.OlderHash, given because
// DB.OlderHashes finds such hashes); later copies are found by their XXH3
// hash alone, and other content stays novel.
func TestNovelOlderKind(t *testing.T) {
	db, _ := openTest(t, nil)
	if older, err := db.OlderHashes(); older || err != nil {
		t.Fatalf("OlderHashes of an empty db = %v, %v; want false", older, err)
	}
	ids := intern(t, db, storage.NoPage, 0, urlsN("o", 6)...)
	body := []byte("content A")
	fetch := func(i int, h, older storage.Hash) storage.Fetch {
		return storage.Fetch{ID: ids[i], Host: "h", Status: storage.StatusFetched, Code: 200, Hash: h, OlderHash: older, FetchedAt: at(i)}
	}
	var b storage.Batch
	b.AddFetch(fetch(0, storage.HashSHA256.Of(body), storage.Hash{}), nil) // what an older build stored
	b.AddFetch(fetch(5, storage.HashOf([]byte("other")), storage.Hash{}), nil)
	commit(t, db, &b)
	if older, err := db.OlderHashes(); !older || err != nil {
		t.Fatalf("OlderHashes with a SHA-256 hash stored = %v, %v; want true", older, err)
	}

	b.Reset()
	h, older := storage.HashesOf(body, storage.Hash{}, true)
	if h.Kind() != storage.HashXXH3 || older != storage.HashSHA256.Of(body) {
		t.Fatalf("HashesOf = %v, %v; want XXH3 and SHA-256 of the body", h, older)
	}
	b.AddFetch(fetch(1, h, older), nil) // the same content, found by its SHA-256
	b.AddFetch(fetch(2, h, older), nil) // and again in the same batch
	other, otherOld := storage.HashesOf([]byte("content B"), storage.Hash{}, true)
	b.AddFetch(fetch(3, other, otherOld), nil)
	commit(t, db, &b)
	b.Reset()
	b.AddFetch(fetch(4, h, storage.Hash{}), nil) // a later copy, by XXH3 alone
	commit(t, db, &b)

	want := []bool{true, false, false, true, false, true}
	for i, w := range want {
		if p := mustPage(t, db, ids[i]); p.Novel != w {
			t.Errorf("page %d Novel = %v, want %v", i, p.Novel, w)
		}
	}
	if _, novel, err := db.NodeFlags(); err != nil || !reflect.DeepEqual(novel, want) {
		t.Errorf("NodeFlags novel = %v, %v; want %v", novel, err, want)
	}
}

// TestHashesOf: a page an older build hashed keeps its hash when refetched
// unchanged (and needs no older hash); otherwise the current kind, with
// the SHA-256 of the body only when the db holds that kind.
func TestHashesOf(t *testing.T) {
	v1, v2 := []byte("v1"), []byte("v2")
	sha1 := storage.HashSHA256.Of(v1)
	for _, tc := range []struct {
		name             string
		body             []byte
		prev             storage.Hash
		olderKinds       bool
		wantHash, wantOl storage.Hash
	}{
		{"new page", v1, storage.Hash{}, false, storage.HashOf(v1), storage.Hash{}},
		{"new page, older kinds", v1, storage.Hash{}, true, storage.HashOf(v1), sha1},
		{"older kind, unchanged", v1, sha1, true, sha1, storage.Hash{}},
		{"older kind, changed", v2, sha1, true, storage.HashOf(v2), storage.HashSHA256.Of(v2)},
		{"older kind, changed, none left", v2, sha1, false, storage.HashOf(v2), storage.Hash{}},
		{"current kind", v2, storage.HashOf(v1), true, storage.HashOf(v2), storage.HashSHA256.Of(v2)},
	} {
		h, o := storage.HashesOf(tc.body, tc.prev, tc.olderKinds)
		if h != tc.wantHash || o != tc.wantOl {
			t.Errorf("%s: HashesOf = %v, %v; want %v, %v", tc.name, h, o, tc.wantHash, tc.wantOl)
		}
	}
}
