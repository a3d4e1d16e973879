package recrawl

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestNewPagesSeeds: host a.test is large but grew no page in cycle 2;
// b.test is small and grew two. newpages picks its seed on b.test, counts
// only in-scope URLs in its explanation, and keeps cycle 1's seed, which
// the selected seed does not reach.
func TestNewPagesSeeds(t *testing.T) {
	db := testDB(t,
		html("http://a.test/", "http://a.test/1", "http://a.test/2"),
		html("http://a.test/1", "http://a.test/3"),
		html("http://a.test/2", "http://a.test/3"),
		html("http://a.test/3", "http://a.test/", "http://b.test/"),
		html("http://b.test/", "http://b.test/x", "http://c.test/"),
		html("http://b.test/x"),
		unfetched("http://c.test/"),
	)
	var b storage.Batch
	b.SetStatus(6, storage.StatusOutOfScope, "scope")
	b.PutCycle(storage.Cycle{N: 2, Start: time.Unix(2000, 0), SeedAlgo: AlgoGiven})
	if err := db.Commit(&b); err != nil {
		t.Fatal(err)
	}
	ints, err := db.Intern([]string{"http://b.test/n1", "http://b.test/n2"}, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	at := time.Unix(2100, 0)
	b.AddFetch(storage.Fetch{ID: 4, Status: storage.StatusFetched, Code: 200, ContentType: "text/html", FetchedAt: at,
		Hash: storage.HashOf([]byte("b2"))},
		[]storage.Link{{To: 5}, {To: 6}, {To: ints[0].ID}, {To: ints[1].ID}})
	for _, in := range ints {
		b.AddFetch(storage.Fetch{ID: in.ID, Status: storage.StatusFetched, Code: 200, ContentType: "text/html", FetchedAt: at,
			Hash: storage.HashOf([]byte{byte(in.ID)})}, nil)
	}
	b.PutCycle(storage.Cycle{N: 2, Start: time.Unix(2000, 0), End: time.Unix(2200, 0), SeedAlgo: AlgoGiven})
	if err := db.Commit(&b); err != nil {
		t.Fatal(err)
	}
	r, fc := newTestRunner(t, db, Options{Cycles: 3, Seeds: []string{"http://a.test/"}, SeedAlgo: AlgoNewPages})
	r.o.Select.K, r.o.Select.Hops = 1, 1
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(fc.plans) != 1 {
		t.Fatalf("%d plans, want cycle 3 only", len(fc.plans))
	}
	p := fc.plans[0]
	got := urlsOf(p.Seeds)
	if len(got) != 2 || got[0] != "http://a.test/" || !strings.HasPrefix(got[1], "http://b.test/") {
		t.Fatalf("seeds %v (why %+v), want cycle 1's a.test/ kept and one b.test page", got, p.Seeds)
	}
	if !strings.HasPrefix(p.Seeds[0].Why, "kept") {
		t.Errorf("kept seed why %q", p.Seeds[0].Why)
	}
	// b.test/ within 1 hop: itself, x, n1, n2 (c.test/ is out of scope).
	if w := p.Seeds[1].Why; got[1] == "http://b.test/" && !strings.Contains(w, "over 4 in-scope URLs") {
		t.Errorf("why %q, want 4 in-scope URLs counted", w)
	}
	if p.Cycle.SeedAlgo != AlgoNewPages {
		t.Errorf("seed algo %q", p.Cycle.SeedAlgo)
	}
}

func TestNewPagesSpreadsOverHosts(t *testing.T) {
	// Before growth is observed (cycle 2), unfetched URLs are the new
	// pages. Host a.test has many, b.test fewer: with K = 2 one seed goes
	// to each host, since a.test's value does not dominate.
	db := testDB(t,
		html("http://a.test/", "http://a.test/u1", "http://a.test/u2", "http://a.test/u3"),
		html("http://a.test/p", "http://a.test/u4", "http://a.test/u5"),
		html("http://b.test/", "http://b.test/u1", "http://b.test/u2"),
		unfetched("http://a.test/u1"), unfetched("http://a.test/u2"), unfetched("http://a.test/u3"),
		unfetched("http://a.test/u4"), unfetched("http://a.test/u5"),
		unfetched("http://b.test/u1"), unfetched("http://b.test/u2"),
	)
	r, fc := newTestRunner(t, db, Options{Cycles: 2, Seeds: []string{"http://a.test/"}, SeedAlgo: AlgoNewPages})
	r.o.Select.K, r.o.Select.Hops = 2, 1
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := urlsOf(fc.plans[0].Seeds)
	hosts := map[string]int{}
	for _, u := range got {
		hosts[strings.Split(u, "/")[2]]++
	}
	if hosts["a.test"] != 1 || hosts["b.test"] != 1 {
		t.Fatalf("seeds %v, want one per host", got)
	}
}
