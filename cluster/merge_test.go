package cluster

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/storage"
)

func openDB(t *testing.T, name string) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), name), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fetchPage interns url's links and records url as fetched with them.
func fetchPage(t *testing.T, db *storage.DB, url string, links ...string) {
	t.Helper()
	src, err := db.Intern([]string{url}, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	ints, err := db.Intern(links, src[0].ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var ls []storage.Link
	for _, in := range ints {
		ls = append(ls, storage.Link{To: in.ID})
	}
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: src[0].ID, Status: storage.StatusFetched, Code: 200, Length: 10,
		FetchedAt: time.Unix(1700000000, 0)}, ls)
	crawltest.Commit(t, db, &b)
}

// graphByURL returns the db's fetched URLs and its links as "src -> dst".
func graphByURL(t *testing.T, db *storage.DB) (fetched, all, links []string) {
	t.Helper()
	url := map[uint64]string{}
	err := db.EachPage(func(p *storage.Page) error {
		url[p.ID] = p.URL
		all = append(all, p.URL)
		if p.Status == storage.StatusFetched {
			fetched = append(fetched, p.URL)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.EachLink(func(src uint64, ls []storage.Link) error {
		for _, l := range ls {
			links = append(links, url[src]+" -> "+url[l.To])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(fetched)
	slices.Sort(all)
	slices.Sort(links)
	return fetched, all, links
}

// TestMerge: two node dbs, each holding the other's URLs as discovered,
// merge into the graph a single db crawling both would hold.
func TestMerge(t *testing.T) {
	a, b, single := openDB(t, "a.db"), openDB(t, "b.db"), openDB(t, "single.db")
	fetchPage(t, a, "http://a.test/", "http://a.test/x", "http://b.test/")
	fetchPage(t, a, "http://a.test/x", "http://a.test/", "http://c.test/never")
	fetchPage(t, b, "http://b.test/", "http://a.test/x", "http://b.test/y")

	fetchPage(t, single, "http://a.test/", "http://a.test/x", "http://b.test/")
	fetchPage(t, single, "http://a.test/x", "http://a.test/", "http://c.test/never")
	fetchPage(t, single, "http://b.test/", "http://a.test/x", "http://b.test/y")

	out := openDB(t, "all.db")
	st, err := Merge(out, []*storage.DB{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != 5 || st.Fetched != 3 || st.Outcomes != 3 || st.Links != 6 || st.Conflicts != 0 {
		t.Errorf("stats %+v, want 5 pages, 3 fetched, 3 outcomes, 6 links, 0 conflicts", st)
	}
	gf, ga, gl := graphByURL(t, out)
	wf, wa, wl := graphByURL(t, single)
	if !slices.Equal(gf, wf) || !slices.Equal(ga, wa) || !slices.Equal(gl, wl) {
		t.Fatalf("merged\n fetched %v\n urls %v\n links %v\nwant\n fetched %v\n urls %v\n links %v", gf, ga, gl, wf, wa, wl)
	}
	n, err := out.Nodes()
	if err != nil || n != 5 {
		t.Fatalf("Nodes = %d, %v; want 5 dense ids", n, err)
	}
	if _, err := Merge(out, []*storage.DB{a}); err == nil {
		t.Fatal("Merge into a non-empty db succeeded")
	}
}

func TestMergeConflict(t *testing.T) {
	a := openDB(t, "a.db")
	fetchPage(t, a, "http://a.test/", "http://a.test/x")
	out := openDB(t, "all.db")
	st, err := Merge(out, []*storage.DB{a, a})
	if err != nil {
		t.Fatal(err)
	}
	if st.Conflicts != 1 || st.Pages != 2 || st.Links != 1 {
		t.Fatalf("stats %+v, want 1 conflict, 2 pages, 1 link", st)
	}
}

// TestMergeOwnerDecides: a node that rejected a URL at its own depth
// (--max-depth) does not override the owner's robots.txt denial,
// whichever db comes first.
func TestMergeOwnerDecides(t *testing.T) {
	disc, owner := openDB(t, "disc.db"), openDB(t, "owner.db")
	fetchPage(t, disc, "http://a.test/", "http://b.test/private")
	fetchPage(t, owner, "http://b.test/", "http://b.test/private")
	setStatus := func(db *storage.DB, u string, s storage.Status, reason string) {
		t.Helper()
		p, err := db.PageByURL(u)
		if err != nil {
			t.Fatal(err)
		}
		var b storage.Batch
		b.SetStatus(p.ID, s, reason)
		crawltest.Commit(t, db, &b)
	}
	setStatus(disc, "http://b.test/private", storage.StatusRejected, "max-depth")
	setStatus(owner, "http://b.test/private", storage.StatusRobotsDenied, "")
	for _, order := range [][]*storage.DB{{disc, owner}, {owner, disc}} {
		out := openDB(t, "all.db")
		if _, err := Merge(out, order); err != nil {
			t.Fatal(err)
		}
		p, err := out.PageByURL("http://b.test/private")
		if err != nil || p.Status != storage.StatusRobotsDenied {
			t.Fatalf("merged b.test/private: %v %q, %v; want robots-denied", p.Status, p.Reason, err)
		}
	}
}

// TestMergeFetchedAsStats: Fetched counts what storage's Stats (seedcrawl
// stats) counts as fetched, in the merged db too; redirects, HTTP errors
// and fetch errors are fetch outcomes, not fetched pages.
func TestMergeFetchedAsStats(t *testing.T) {
	a := openDB(t, "a.db")
	fetchPage(t, a, "http://a.test/", "http://a.test/moved", "http://a.test/missing", "http://a.test/broken")
	outcome := func(url string, f storage.Fetch, links ...storage.Link) {
		t.Helper()
		ids, err := a.Intern([]string{url}, storage.NoPage, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.ID, f.FetchedAt = ids[0].ID, time.Unix(1700000001, 0)
		var b storage.Batch
		b.AddFetch(f, links)
		crawltest.Commit(t, a, &b)
	}
	home, err := a.Intern([]string{"http://a.test/"}, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	outcome("http://a.test/moved", storage.Fetch{Status: storage.StatusRedirect, Code: 301},
		storage.Link{To: home[0].ID, Kind: storage.LinkRedirect})
	outcome("http://a.test/missing", storage.Fetch{Status: storage.StatusHTTPError, Code: 404})
	outcome("http://a.test/broken", storage.Fetch{Status: storage.StatusFetchError, Reason: "timeout"})

	out := openDB(t, "all.db")
	st, err := Merge(out, []*storage.DB{a})
	if err != nil {
		t.Fatal(err)
	}
	in, err := a.Stats()
	if err != nil {
		t.Fatal(err)
	}
	merged, err := out.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Fetched != 1 || st.Fetched != in.Fetched || st.Fetched != merged.Fetched || st.Outcomes != 4 {
		t.Errorf("merge says %d fetched, %d outcomes; stats of the input %d fetched, of the output %d; want 1 fetched as stats, 4 outcomes",
			st.Fetched, st.Outcomes, in.Fetched, merged.Fetched)
	}
}
