package recrawl

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

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
	var oos storage.Batch
	oos.SetStatus(6, storage.StatusOutOfScope, "scope")
	crawltest.Commit(t, db, &oos)
	b, page := openCycle2(t, db)
	nb := intern(t, db, 4, 1, "http://b.test/n1", "http://b.test/n2")
	page(4, "b2", 5, 6, nb[0], nb[1])
	for _, id := range nb {
		page(id, string([]byte{byte(id)}))
	}
	closeCycle2(t, db, b)
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
	if w := p.Seeds[1].Why; got[1] == "http://b.test/" && !strings.Contains(w, "4 fetched in-scope pages") {
		t.Errorf("why %q, want 4 in-scope URLs counted", w)
	}
	if p.Cycle.SeedAlgo != AlgoNewPages {
		t.Errorf("seed algo %q", p.Cycle.SeedAlgo)
	}
}

func TestNewPagesSpreadsOverHosts(t *testing.T) {
	// Before any refetch (cycle 2) every fetched page has its host's
	// prior rate, the same on every host. a.test has two fetched pages,
	// b.test one: with K = 2 one seed goes to each host, since a.test's
	// value does not dominate.
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
	for _, s := range fc.plans[0].Seeds {
		if !strings.HasPrefix(s.Why, "kept") {
			hosts[strings.Split(s.URL, "/")[2]]++
		}
	}
	if hosts["a.test"] != 1 || hosts["b.test"] != 1 {
		t.Fatalf("seeds %v, want one selected per host besides the kept ones", got)
	}
}

// TestNewPageRate: in cycle 2 a.test/2 gained two links on its refetch
// while a.test/1 and b.test/ came back unchanged, and b.test/q, fetched
// for the first time, showed a URL the crawl had not seen. Only a.test/2's links count
// as links the web grew; its rate is the highest, pages never fetched get
// none, and newpages seeds cycle 3 where the links appeared.
func TestNewPageRate(t *testing.T) {
	db := testDB(t,
		html("http://a.test/", "http://a.test/1", "http://a.test/2"),
		html("http://a.test/1", "http://a.test/"),
		html("http://a.test/2", "http://a.test/"),
		html("http://b.test/", "http://b.test/q"),
		unfetched("http://b.test/q"),
	)
	b, page := openCycle2(t, db)
	gained := intern(t, db, 2, 1, "http://a.test/n1", "http://a.test/n2")
	n1, n2, o1 := gained[0], gained[1], intern(t, db, 4, 2, "http://b.test/old")[0]
	page(2, "a2 changed", 0, n1, n2)
	page(1, "http://a.test/1", 0) // testDB's hash: unchanged
	page(4, "q", o1)
	page(3, "http://b.test/", 4) // unchanged, gained nothing
	page(n1, "n1")
	page(n2, "n2")
	page(o1, "o1", 3, 4)
	closeCycle2(t, db, b)
	r, fc := newTestRunner(t, db, Options{Cycles: 3, Seeds: []string{"http://b.test/"}, SeedAlgo: AlgoNewPages})
	r.o.Select.K, r.o.Select.Hops = 1, 1
	l, h := historyAfter2(t, r, db)
	if h.gained[2] != 2 || h.gained[4] != 0 || h.gained[3] != 0 || h.refetches[2] != 1 || h.changes[2] != 1 || h.refetches[1] != 1 || h.changes[1] != 0 {
		t.Fatalf("gained a2 %d (want 2), b.test/q %d (want 0); a2 refetched %d changed %d (want 1, 1); a1 refetched %d changed %d (want 1, 0)",
			h.gained[2], h.gained[4], h.refetches[2], h.changes[2], h.refetches[1], h.changes[1])
	}
	rate := newPageRate(l, h)
	for v, x := range rate {
		if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) || !l.cs.live[v] && x != 0 {
			t.Errorf("rate of %s = %g: want finite, ≥ 0, and 0 for a page not fetched", l.g.URLs[v], x)
		}
	}
	for v, x := range rate {
		if v != 2 && x >= rate[2] {
			t.Errorf("rate of %s = %g, not below a.test/2's %g", l.g.URLs[v], x, rate[2])
		}
	}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := urlsOf(fc.plans[0].Seeds)
	if len(got) != 2 || got[0] != "http://b.test/" || !strings.HasPrefix(got[1], "http://a.test/") {
		t.Fatalf("seeds %v, want the kept b.test/ and one a.test page", got)
	}
}

// TestSeedsRefetched: a seed fetched before is refetched unless a capped
// refresh share goes to the head of a policy's list (or is 0), the cases
// in which the crawl traverses seeds from storage.
func TestSeedsRefetched(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int64
		share  float64
		policy string
		pace   string
		want   bool
	}{
		{"no budget", 0, 0.5, RefreshOptimal, PaceFront, true},
		{"budget, no cap", 5000, 0, RefreshOptimal, PaceFront, true},
		{"capped, optimal head", 5000, 0.5, RefreshOptimal, PaceFront, false},
		{"capped, uniform head", 5000, 0.5, RefreshUniform, PaceFront, false},
		{"capped, pagerank order", 5000, 0.5, RefreshPageRank, PaceFront, true},
		{"no refetch at all", 5000, 1, RefreshPageRank, PaceFront, false},
		{"capped, optimal head, paced: seeds first", 5000, 0.5, RefreshOptimal, PaceEven, true},
		{"paced, no refetch at all", 5000, 1, RefreshOptimal, PaceEven, false},
	} {
		r := &Runner{o: Options{PagesPerCycle: tc.budget, DiscoveryShare: tc.share, RefreshPolicy: tc.policy, RefreshPace: tc.pace}}
		if got := r.seedsRefetched(); got != tc.want {
			t.Errorf("%s: seedsRefetched %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNewPagesSkipsEarlyRefetches: in cycle 2 a.test/, the page of
// highest PageRank, gained two links and b.test/ one. A paced cycle 3
// refetches a.test/ first of its refresh share anyway, so newpages, which
// would rate a.test/ highest, seeds b.test/ instead: a seed is worth the
// new links the early refetches do not show.
func TestNewPagesSkipsEarlyRefetches(t *testing.T) {
	db := testDB(t,
		html("http://a.test/", "http://a.test/1", "http://a.test/2"),
		html("http://a.test/1", "http://a.test/"),
		html("http://a.test/2", "http://a.test/"),
		html("http://b.test/", "http://a.test/", "http://b.test/1"),
		html("http://b.test/1", "http://b.test/", "http://a.test/"),
	)
	b, page := openCycle2(t, db)
	na := intern(t, db, 0, 1, "http://a.test/n1", "http://a.test/n2")
	nb := intern(t, db, 3, 1, "http://b.test/n1")
	page(0, "a changed", 1, 2, na[0], na[1])
	page(3, "b changed", 0, 4, nb[0])
	page(1, "http://a.test/1", 0) // testDB's hash: unchanged
	for _, id := range append(na, nb...) {
		page(id, "new "+strconv.FormatUint(id, 10))
	}
	closeCycle2(t, db, b)

	r, fc := newTestRunner(t, db, Options{Cycles: 3, Seeds: []string{"http://a.test/2"}, SeedAlgo: AlgoNewPages,
		PagesPerCycle: 20, DiscoveryShare: 0.5, RefreshPace: PaceEven, RefreshPolicy: RefreshPageRank})
	r.o.Select.K, r.o.Select.Hops = 1, 1
	l, h := historyAfter2(t, r, db)
	if rate := newPageRate(l, h); rate[0] <= rate[3] {
		t.Fatalf("rate of a.test/ %g, b.test/ %g: want a.test/ ahead, else the test shows nothing", rate[0], rate[3])
	}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := fc.plans[0]
	var picked []string
	for _, s := range p.Seeds {
		if !strings.HasPrefix(s.Why, "kept") {
			picked = append(picked, s.URL)
		}
	}
	if len(picked) != 1 || picked[0] != "http://b.test/" {
		t.Fatalf("selected seeds %v (all %+v), want b.test/ alone", picked, p.Seeds)
	}
	if len(p.Refresh) == 0 || p.Refresh[0] != 0 {
		t.Fatalf("refresh order %v: want a.test/ (0) first", p.Refresh)
	}
}

// openCycle2 opens cycle 2 on db: URLs interned from now on are first
// found in it. It returns a batch for the cycle's records and page, which
// adds to it a fetch of HTML page id with content body (testDB hashes a
// page's URL, so body = its URL means unchanged) and links.
func openCycle2(t testing.TB, db *storage.DB) (*storage.Batch, func(id uint64, body string, links ...uint64)) {
	t.Helper()
	b := &storage.Batch{}
	b.PutCycle(storage.Cycle{N: 2, Start: time.Unix(2000, 0), SeedAlgo: AlgoGiven})
	crawltest.Commit(t, db, b)
	b.Reset()
	at := time.Unix(2100, 0)
	return b, func(id uint64, body string, links ...uint64) {
		var ls []storage.Link
		for _, to := range links {
			ls = append(ls, storage.Link{To: to})
		}
		b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetched, Code: 200, ContentType: "text/html", FetchedAt: at,
			Hash: storage.HashOf([]byte(body))}, ls)
	}
}

// closeCycle2 ends cycle 2 with b's records.
func closeCycle2(t testing.TB, db *storage.DB, b *storage.Batch) {
	t.Helper()
	b.PutCycle(storage.Cycle{N: 2, Start: time.Unix(2000, 0), End: time.Unix(2200, 0), SeedAlgo: AlgoGiven})
	crawltest.Commit(t, db, b)
}

// intern adds urls to db, found on page from at depth, and returns their ids.
func intern(t testing.TB, db *storage.DB, from uint64, depth uint32, urls ...string) []uint64 {
	t.Helper()
	got, err := db.Intern(urls, from, depth)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]uint64, len(got))
	for i, g := range got {
		ids[i] = g.ID
	}
	return ids
}

// historyAfter2 loads the graph as of cycle 2 and the fetch history of
// cycles 1 and 2 newpages learns from.
func historyAfter2(t testing.TB, r *Runner, db *storage.DB) (*loaded, *newPageHistory) {
	t.Helper()
	l, err := r.load(2)
	if err != nil {
		t.Fatal(err)
	}
	h, err := readNewPageHistory(db, 2, l.g.N())
	if err != nil {
		t.Fatal(err)
	}
	return l, h
}
