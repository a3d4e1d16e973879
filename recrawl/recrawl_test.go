package recrawl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

func TestRevisitInterval(t *testing.T) {
	h := time.Hour
	v := Revisit{Initial: 10 * h, Min: h, Max: 100 * h}
	alive := storage.Page{Status: storage.StatusFetched, Successes: 1, Interval: 10 * h, Hash: storage.HashOf([]byte("x"))}
	cases := []struct {
		name string
		v    Revisit
		prev storage.Page
		f    storage.Fetch
		want time.Duration
	}{
		{"first fetch", v, storage.Page{}, storage.Fetch{Status: storage.StatusFetched, Code: 200}, 10 * h},
		{"304 grows by inc rate", v, alive, storage.Fetch{Status: storage.StatusNotModified, Code: 304}, 14 * h},
		{"same hash grows", v, alive, storage.Fetch{Status: storage.StatusFetched, Code: 200, Hash: alive.Hash}, 14 * h},
		{"changed shrinks by dec rate", v, alive, storage.Fetch{Status: storage.StatusFetched, Code: 200, Hash: storage.HashOf([]byte("y"))}, 8 * h},
		{"gone goes to 0.9 max", v, alive, storage.Fetch{Status: storage.StatusGone, Code: 410}, 90 * h},
		{"404 as http error too", v, alive, storage.Fetch{Status: storage.StatusHTTPError, Code: 404}, 90 * h},
		{"403 refusal lasts like a 404", v, alive, storage.Fetch{Status: storage.StatusHTTPError, Code: 403}, 90 * h},
		{"451 too", v, alive, storage.Fetch{Status: storage.StatusHTTPError, Code: 451}, 90 * h},
		{"503 is transient: kept", v, alive, storage.Fetch{Status: storage.StatusHTTPError, Code: 503}, 10 * h},
		{"back from a 403 with the old copy: changed, not grown", v,
			storage.Page{Status: storage.StatusHTTPError, Code: 403, Successes: 3, Interval: 90 * h, Hash: alive.Hash},
			storage.Fetch{Status: storage.StatusFetched, Code: 200, Hash: alive.Hash}, 72 * h},
		{"failure keeps it", v, alive, storage.Fetch{Status: storage.StatusFetchError}, 10 * h},
		{"clamped to max", v, storage.Page{Status: storage.StatusFetched, Successes: 3, Interval: 90 * h},
			storage.Fetch{Status: storage.StatusNotModified}, 100 * h},
		{"clamped to min", v, storage.Page{Status: storage.StatusFetched, Successes: 3, Interval: h, Hash: alive.Hash},
			storage.Fetch{Status: storage.StatusFetched, Hash: storage.HashOf([]byte("z"))}, h},
		{"plain crawl page starts from initial", v, storage.Page{Status: storage.StatusFetched, Successes: 1},
			storage.Fetch{Status: storage.StatusNotModified}, 14 * h},
		{"schedule off", Revisit{}, withInterval(alive, 0), storage.Fetch{Status: storage.StatusNotModified}, 0},
		{"custom rates", Revisit{Initial: h, IncRate: 1, DecRate: 0.5, Max: 10 * h}, withInterval(alive, 2*h),
			storage.Fetch{Status: storage.StatusNotModified}, 4 * h},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.v.Interval(&c.prev, &c.f); got != c.want {
				t.Errorf("Interval = %v, want %v", got, c.want)
			}
		})
	}
	now := time.Unix(1_700_000_000, 0)
	for _, c := range []struct {
		p    storage.Page
		want bool
	}{
		{storage.Page{}, true},
		// No stored interval (a plain crawl's page): Initial applies.
		{storage.Page{FetchedAt: now.Add(-h), Interval: 0}, false},
		{storage.Page{FetchedAt: now.Add(-11 * h), Interval: 0}, true},
		{storage.Page{FetchedAt: now.Add(-h), Interval: h}, true},
		{storage.Page{FetchedAt: now.Add(-h), Interval: 2 * h}, false},
	} {
		if got := v.Due(&c.p, now); got != c.want {
			t.Errorf("Due(fetched %v ago, interval %v) = %v", now.Sub(c.p.FetchedAt), c.p.Interval, got)
		}
	}
	if !(Revisit{}).Due(&storage.Page{FetchedAt: now.Add(-h)}, now) {
		t.Error("Due without any interval = false, want true (every known page due every cycle)")
	}
	for _, bad := range []Revisit{{Initial: -1}, {Min: 2 * h, Max: h}, {DecRate: 1}, {IncRate: -1}, {IncRate: math.NaN()}, {DecRate: math.NaN()}} {
		if err := bad.Validate(); !errors.Is(err, ErrOptions) {
			t.Errorf("Validate(%+v) = %v", bad, err)
		}
	}
}

// withInterval returns p with another interval.
func withInterval(p storage.Page, d time.Duration) storage.Page { p.Interval = d; return p }

// selDB is a small crawl: a hub, live pages, a gone page, a PDF, and
// unfetched URLs with many in-links (the kind of page a selector on the raw
// graph picks although nobody fetched it).
func selDB(t testing.TB) *storage.DB {
	return testDB(t,
		html("http://a.test/", "http://a.test/p1", "http://a.test/p2", "http://a.test/gone", "http://a.test/hot", "http://a.test/p6"), // 0
		html("http://a.test/p1", "http://a.test/p2", "http://a.test/hot", "http://a.test/doc.pdf"),                                    // 1
		html("http://a.test/p2", "http://a.test/p1", "http://a.test/hot"),                                                             // 2
		gone("http://a.test/gone"), // 3
		pg{url: "http://a.test/doc.pdf", status: storage.StatusFetched, code: 200, ct: "application/pdf"}, // 4
		unfetched("http://a.test/hot"),                                   // 5
		html("http://a.test/p6", "http://a.test/hot", "http://a.test/x"), // 6
		unfetched("http://a.test/x"),                                     // 7
		redirect("http://a.test/old", "http://a.test/new"),               // 8
		html("http://a.test/new", "http://a.test/p6"),                    // 9
	)
}

func TestSelectionTakesOnlyLiveHTMLPages(t *testing.T) {
	live := map[string]bool{"http://a.test/": true, "http://a.test/p1": true, "http://a.test/p2": true,
		"http://a.test/p6": true, "http://a.test/new": true}
	for _, algo := range []string{seeds.AlgoPageRank, seeds.AlgoInDegree0, seeds.AlgoOutDegree, seeds.AlgoMaxWeight, seeds.AlgoRandom} {
		t.Run(algo, func(t *testing.T) {
			db := selDB(t)
			r, fc := newTestRunner(t, db, Options{Cycles: 2, SeedAlgo: algo, Select: seeds.Options{K: 3}})
			if err := r.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if len(fc.plans) != 1 || fc.plans[0].Cycle.N != 2 || !fc.plans[0].Start {
				t.Fatalf("plans %+v", fc.plans)
			}
			p := fc.plans[0]
			if len(p.Seeds) == 0 || p.Cycle.SeedAlgo != algo {
				t.Fatalf("cycle 2 plan: %d seeds by %q", len(p.Seeds), p.Cycle.SeedAlgo)
			}
			for _, s := range p.Seeds {
				if !live[s.URL] || !strings.HasPrefix(s.Why, algo+" rank ") {
					t.Errorf("seed %s (%q): want a fetched live HTML page", s.URL, s.Why)
				}
			}
		})
	}
}

// TestGivenSeedsKeptAndVanishedReplaced runs cycles 2 and 3 with the
// seeds given, without a budget (the plan loads the stored graph) and with
// one (the plan reads the seeds' records only, and the Replacer loads the
// graph for the seed that needs a neighbour): the same seeds and
// replacements either way.
func TestGivenSeedsKeptAndVanishedReplaced(t *testing.T) {
	for _, budget := range []int64{0, 50} {
		t.Run(fmt.Sprintf("budget=%d", budget), func(t *testing.T) { testGivenSeedsKept(t, budget) })
	}
}

func testGivenSeedsKept(t *testing.T, budget int64) {
	db := selDB(t)
	var b storage.Batch
	b.PutCycle(storage.Cycle{N: 1, Start: time.Unix(1, 0), End: time.Unix(2, 0), SeedAlgo: AlgoGiven,
		Seeds: []storage.Seed{{ID: 0, Why: "given"}, {ID: 3, Why: "given"}, {ID: 8, Why: "given"}}})
	crawltest.Commit(t, db, &b)
	r, fc := newTestRunner(t, db, Options{Cycles: 2, PagesPerCycle: budget})
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := fc.plans[0]
	got := urlsOf(p.Seeds)
	// The gone page's neighbours: the hub is a seed already, so the
	// replacement is two hops away, the best of p1, p2, p6 by PageRank.
	if len(got) != 3 || got[0] != "http://a.test/" || got[2] != "http://a.test/new" || !slices.Contains([]string{"http://a.test/p1", "http://a.test/p2", "http://a.test/p6"}, got[1]) {
		t.Fatalf("cycle 2 seeds %v", got)
	}
	if !strings.Contains(p.Seeds[1].Why, "replaces seed 3 (404): nearest surviving neighbour, 2 hop(s) away, best of 3 by pagerank") ||
		!strings.Contains(p.Seeds[2].Why, "recorded redirect target") {
		t.Errorf("whys %q", []string{p.Seeds[1].Why, p.Seeds[2].Why})
	}
	want := []storage.Replacement{{Old: 3, New: p.Replacer.mustID(t, got[1]), Reason: "404"}, {Old: 8, New: 9, Reason: "redirect"}}
	if !reflect.DeepEqual(p.Cycle.Replaced, want) {
		t.Errorf("replaced %+v, want %+v", p.Cycle.Replaced, want)
	}
	// Stored with the cycle: the next plan (given again) keeps the
	// replacements.
	r2, fc2 := newTestRunner(t, db, Options{Cycles: 3, PagesPerCycle: budget})
	if err := r2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got3 := urlsOf(fc2.plans[0].Seeds); !reflect.DeepEqual(got3, got) || len(fc2.plans[0].Cycle.Replaced) != 0 {
		t.Errorf("cycle 3 seeds %v (replaced %+v), want cycle 2's %v", got3, fc2.plans[0].Cycle.Replaced, got)
	}
}

// mustID returns the node of URL u in the replacer's graph.
func (x *Replacer) mustID(t testing.TB, u string) uint64 {
	t.Helper()
	v, ok := nodeOf(x.l.g, u)
	if !ok {
		t.Fatalf("%s not in the graph", u)
	}
	return uint64(v)
}

func TestRefreshOrderByPageRank(t *testing.T) {
	db := selDB(t)
	r, fc := newTestRunner(t, db, Options{Cycles: 2, Seeds: []string{"http://a.test/"}, Scheduler: "bfs"})
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Every known page but the seed (id 0), unfetched URLs left out, by
	// PageRank on the stored graph, highest first, ties by id.
	got := fc.plans[0].Refresh
	if want := []uint64{1, 2, 3, 4, 6, 8, 9}; !reflect.DeepEqual(sortedIDs(got), want) {
		t.Fatalf("refresh list %v, want the pages %v", got, want)
	}
	l, err := r.load(1)
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := graph.PageRank(l.g, graph.PageRankOptions{})
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if pr[a] < pr[b] || pr[a] == pr[b] && a > b {
			t.Errorf("refresh order %v: %d (PageRank %g) before %d (%g)", got, a, pr[a], b, pr[b])
		}
	}
}

func sortedIDs(ids []uint64) []uint64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

func TestReplacerNearestSurvivingNeighbour(t *testing.T) {
	db := selDB(t)
	r, _ := newTestRunner(t, db, Options{})
	x := r.newReplacer(nil, 2)
	none := func(uint64) bool { return false }
	hub := func(id uint64) bool { return id == 0 }
	p, ok, err := x.Replace(context.Background(), 3, "404", none)
	if err != nil || !ok || p.URL != "http://a.test/" || !strings.Contains(p.Why, "1 hop(s) away, best of 1") {
		t.Errorf("replace with no seeds: %+v %v %v; want the hub, one hop away", p, ok, err)
	}
	// p1 is found gone since the cycle began: it does not survive.
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: 1, Status: storage.StatusGone, Code: 410, FetchedAt: time.Unix(1_800_000_000, 0)}, nil)
	crawltest.Commit(t, db, &b)
	p, ok, err = x.Replace(context.Background(), 3, "404", hub)
	if err != nil || !ok || (p.URL != "http://a.test/p2" && p.URL != "http://a.test/p6") || !strings.Contains(p.Why, "2 hop(s) away, best of 2") {
		t.Errorf("replace with the hub a seed: %+v %v %v; want p2 or p6", p, ok, err)
	}
	// An island: nothing to replace it with.
	db2 := testDB(t, gone("http://b.test/alone"), html("http://b.test/other"))
	r2, _ := newTestRunner(t, db2, Options{})
	if p, ok, err := r2.newReplacer(nil, 2).Replace(context.Background(), 0, "410", none); ok || err != nil {
		t.Errorf("island: %+v %v %v, want no replacement", p, ok, err)
	}
}

func TestRunnerCyclesResumeAndBudget(t *testing.T) {
	db := testDB(t) // empty
	var reports []storage.Cycle
	now := time.Now
	r, fc := newTestRunner(t, db, Options{Cycles: 3, Seeds: []string{"http://a.test/"}, PagesPerCycle: 10,
		DiscoveryShare: 0.4, Interval: 30 * time.Millisecond, Report: func(c storage.Cycle) { reports = append(reports, c) }, Now: now})
	fc.during = func(_ context.Context, p *Plan) error {
		if p.Cycle.N != 1 {
			return nil
		}
		var b storage.Batch // the seed is fetched in cycle 1
		b.AddFetch(storage.Fetch{ID: 0, Status: storage.StatusFetched, Code: 200, ContentType: "text/html"}, nil)
		return db.Commit(&b)
	}
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(fc.plans) != 3 || len(reports) != 3 {
		t.Fatalf("%d plans, %d reports; want 3 cycles", len(fc.plans), len(reports))
	}
	for i, c := range reports {
		if c.N != uint32(i+1) || c.End.IsZero() || len(c.Seeds) != 1 {
			t.Errorf("report %d: %+v", i, c)
		}
		if p := fc.plans[i]; p.MaxPages != 10 || p.MaxRefresh != 6 {
			t.Errorf("plan %d budget %d, refetch cap %d; want 10 and 6", i+1, p.MaxPages, p.MaxRefresh)
		}
		if i > 0 && fc.plans[i].Cycle.Start.Sub(reports[i-1].End) < 30*time.Millisecond {
			t.Errorf("cycle %d started %v after cycle %d ended, want the 30ms interval", i+1, fc.plans[i].Cycle.Start.Sub(reports[i-1].End), i)
		}
	}
	// Rerunning the same command finds nothing to do.
	if err := r.Run(context.Background()); err != nil || len(fc.plans) != 3 {
		t.Fatalf("rerun: %v, %d plans", err, len(fc.plans))
	}

	// Cycle 4 is interrupted after 4 fetches; the next Run resumes it
	// with what is left of the budget.
	r4, fc4 := newTestRunner(t, db, Options{Cycles: 4, Seeds: []string{"http://a.test/"}, PagesPerCycle: 10, DiscoveryShare: 0.4})
	ctx, cancel := context.WithCancel(context.Background())
	fc4.during = func(ctx context.Context, p *Plan) error {
		urls := []string{"http://a.test/1", "http://a.test/2", "http://a.test/3"}
		ints, err := db.Intern(urls, storage.NoPage, 0)
		if err != nil {
			return err
		}
		var b storage.Batch
		b.AddFetch(storage.Fetch{ID: 0, Status: storage.StatusNotModified, Code: 304}, nil)
		for _, in := range ints {
			b.AddFetch(storage.Fetch{ID: in.ID, Status: storage.StatusFetched, Code: 200}, nil)
		}
		if err := db.Commit(&b); err != nil {
			return err
		}
		cancel()
		return nil
	}
	if err := r4.Run(ctx); err != nil {
		t.Fatal(err)
	}
	cs, _ := db.Cycles()
	if len(cs) != 4 || !cs[3].End.IsZero() {
		t.Fatalf("after the interrupt: %+v", cs)
	}
	fc4.during = nil
	if err := r4.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := fc4.plans[1]
	if p.Start || p.Cycle.N != 4 || p.MaxPages != 6 || p.MaxRefresh != 5 || len(p.Cycle.Seeds) != 1 {
		t.Errorf("resumed plan: start %v cycle %d budget %d cap %d seeds %+v; want cycle 4 resumed, 6 pages, 5 refetches",
			p.Start, p.Cycle.N, p.MaxPages, p.MaxRefresh, p.Cycle.Seeds)
	}
	if cs, _ = db.Cycles(); cs[3].End.IsZero() {
		t.Errorf("resumed cycle 4 not closed")
	}
}

func TestRunnerOptionsValidated(t *testing.T) {
	db := testDB(t)
	crawl := func(context.Context, *Plan) error { return nil }
	for _, o := range []Options{
		{Store: db, Select: seeds.Options{K: 1}},
		{Store: db, Crawl: crawl},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, SeedAlgo: "nope"},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, ReseedEvery: 10},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, DiscoveryShare: 2},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, DiscoveryShare: math.NaN()},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, Scheduler: "nope"},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, Revisit: Revisit{Min: 2, Max: 1}},
		{Store: db, Crawl: crawl, Select: seeds.Options{K: 1}, RefreshPace: "sideways"},
	} {
		if _, err := New(o); !errors.Is(err, ErrOptions) {
			t.Errorf("New(%+v) = %v, want ErrOptions", o, err)
		}
	}
	r, _ := newTestRunner(t, db, Options{Cycles: 1})
	if err := r.Run(context.Background()); !errors.Is(err, ErrNoSeeds) {
		t.Errorf("first cycle without seeds: %v", err)
	}
}

func TestReseederSelectsOnTheCurrentGraph(t *testing.T) {
	db := selDB(t)
	r, _ := newTestRunner(t, db, Options{SeedAlgo: seeds.AlgoOutDegree, Select: seeds.Options{K: 2}, ReseedEvery: 5})
	x := r.newReseeder(2)
	ps, err := x.Reseed(context.Background(), 40, nil)
	if err != nil {
		t.Fatal(err)
	}
	// By out-degree among live HTML pages: the hub (5 links), then p1 (3).
	if got := urlsOf(ps); !reflect.DeepEqual(got, []string{"http://a.test/", "http://a.test/p1"}) || !strings.HasPrefix(ps[0].Why, "reseed 1 after 40 pages: outdegree rank 1") {
		t.Errorf("reseed picked %v (%q)", got, ps[0].Why)
	}
	// The hub is a seed already: the next reseed brings new ones.
	ps, err = x.Reseed(context.Background(), 80, []uint64{0})
	if err != nil {
		t.Fatal(err)
	}
	if got := urlsOf(ps); !reflect.DeepEqual(got, []string{"http://a.test/p1", "http://a.test/p2"}) || !strings.HasPrefix(ps[0].Why, "reseed 2 after 80 pages") {
		t.Errorf("second reseed picked %v (%q)", got, ps[0].Why)
	}
}

func TestSelectionSkipsSpiderTraps(t *testing.T) {
	// A site of four pages and a calendar trap cut off by the host budget:
	// its last fetched page links to many rejected URLs, and so looks like
	// the page with the most uncrawled value. Neither it nor any page of
	// the spent host may become a seed, and rejected URLs are worth nothing.
	pages := []pg{
		html("http://a.test/", "http://a.test/1", "http://a.test/2", "http://trap.test/cal/1"),
		html("http://a.test/1", "http://a.test/2", "http://a.test/3"),
		html("http://a.test/2", "http://a.test/"),
		html("http://a.test/3", "http://a.test/"),
		html("http://trap.test/cal/1", "http://trap.test/cal/2"),
		html("http://trap.test/cal/2", "http://trap.test/cal/3", "http://trap.test/cal/4", "http://trap.test/cal/5",
			"http://trap.test/cal/6", "http://trap.test/cal/7", "http://trap.test/cal/8"),
	}
	for i := 3; i <= 8; i++ {
		pages = append(pages, rejected("http://trap.test/cal/"+string(rune('0'+i)), "host-max-pages"))
	}
	db := testDB(t, pages...)
	r, fc := newTestRunner(t, db, Options{Cycles: 2, SeedAlgo: seeds.AlgoMaxWeight, Select: seeds.Options{K: 3}})
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, s := range fc.plans[0].Seeds {
		if strings.Contains(s.URL, "trap.test") {
			t.Errorf("seed %s (%s) on the spent trap host", s.URL, s.Why)
		}
	}
	l, err := r.load(0)
	if err != nil {
		t.Fatal(err)
	}
	if l.cs.live[4] || l.cs.live[5] || !l.cs.live[0] {
		t.Errorf("candidates %v: want the trap host's pages out, the site's in", l.cs.live[:6])
	}
	val, err := seeds.Values(l.input())
	if err != nil {
		t.Fatal(err)
	}
	if val[6] != 0 || val[5] != 1 {
		t.Errorf("values: rejected URL %g (want 0), calendar page %g (want 1: its links lead nowhere crawlable)", val[6], val[5])
	}
}

// TestRunnerResumesOwedRefetches: the refetches an interrupted paced
// cycle stored as owed come back in the resumed plan with each page's
// frontier host and depth, except a page refetched in the cycle since;
// once the resumed cycle closes, none is stored.
func TestRunnerResumesOwedRefetches(t *testing.T) {
	db := testDB(t, html("http://a.test/", "http://a.test:8080/b", "http://a.test/c"), html("http://a.test:8080/b"),
		html("http://a.test/c"))
	r, fc := newTestRunner(t, db, Options{Cycles: 2, PagesPerCycle: 10, DiscoveryShare: 0.5})
	p := stopThenResume(t, r, fc, func(p *Plan) error {
		// Cycle 2 owes b and c; c is refetched and its deletion lost
		// (the commit that deleted it never came).
		var b storage.Batch
		b.PutOwed(p.Cycle.N, storage.Owed{ID: 1, Weight: 0.25, Seq: 0})
		b.PutOwed(p.Cycle.N, storage.Owed{ID: 2, Weight: 0.5, Seq: 1})
		b.AddFetch(storage.Fetch{ID: 2, Status: storage.StatusNotModified, Code: 304}, nil)
		return db.Commit(&b)
	})
	if got, want := fmt.Sprintf("%+v", p.Owed), "[{ID:1 Host:a.test:8080 Depth:0 Weight:0.25 Seq:0}]"; got != want {
		t.Errorf("resumed plan owes %s, want %s", got, want)
	}
	if rc := p.Recrawl(); len(rc.Owed) != 1 {
		t.Errorf("cycle options owe %d refetches, want the plan's 1", len(rc.Owed))
	}
	if left, err := db.Owed(2); err != nil || len(left) > 0 {
		t.Errorf("after cycle 2 closed: %d owed refetches stored (%v), want none", len(left), err)
	}
}

// TestRunnerResumeCountsRetries: the page budget counts every request, and
// a retried request leaves no fetch record, only its count in the cycle's
// figures. A cycle stopped after 4 fetch records and 2 retries resumes
// with 10 − 6 pages left.
func TestRunnerResumeCountsRetries(t *testing.T) {
	db := testDB(t)
	r, fc := newTestRunner(t, db, Options{Cycles: 1, Seeds: []string{"http://a.test/"}, PagesPerCycle: 10})
	p := stopThenResume(t, r, fc, func(*Plan) error {
		ints, err := db.Intern([]string{"http://a.test/1", "http://a.test/2", "http://a.test/3"}, storage.NoPage, 0)
		if err != nil {
			return err
		}
		var b storage.Batch
		b.AddFetch(storage.Fetch{ID: 0, Status: storage.StatusFetched, Code: 200}, nil)
		for _, in := range ints {
			b.AddFetch(storage.Fetch{ID: in.ID, Status: storage.StatusFetched, Code: 200}, nil)
		}
		b.AddRetries(2)
		return db.Commit(&b)
	})
	if p.MaxPages != 4 || p.Cycle.Stats.Retries != 2 {
		t.Errorf("resumed plan: budget %d, %d retries stored; want 10 − 4 fetches − 2 retries = 4", p.MaxPages, p.Cycle.Stats.Retries)
	}
}
