package recrawl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/changerate"
	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

func TestPageRankStoredOncePerCycle(t *testing.T) {
	db := selDB(t)
	r, fc := newTestRunner(t, db, Options{Cycles: 3, Seeds: []string{"http://a.test/"}, Scheduler: "history"})
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The plain crawl's db has no stored rank: planning cycle 2 ranks it;
	// closing cycles 2 and 3 ranks what they leave.
	if len(fc.plans) != 2 || r.ranked != 3 {
		t.Fatalf("%d plans, %d PageRank computations; want 2 and 3 (one per cycle)", len(fc.plans), r.ranked)
	}
	if stored, err := StoredRank(db, 3); err != nil || stored == nil {
		t.Fatalf("stored rank of cycle 3: %v, %v", stored, err)
	}
	// Cycle 3 was planned on the rank cycle 2's close stored.
	l, err := r.load(2)
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := graph.PageRank(l.g, graph.PageRankOptions{})
	for i := range pr {
		if math.Abs(pr[i]-fc.plans[1].Rank[i]) > 1e-15 {
			t.Fatalf("page %d: plan of cycle 3 has rank %g, want %g", i, fc.plans[1].Rank[i], pr[i])
		}
	}
	// Asking again for the stored cycle reads it back.
	if _, err := r.rank(3, nil); err != nil || r.ranked != 3 {
		t.Fatalf("rank again: %v, %d computations", err, r.ranked)
	}
	if old, err := StoredRank(db, 2); err != nil || old != nil {
		t.Fatalf("rank of cycle 2 after cycle 3 closed: %v, %v; want none (one cycle is kept)", old, err)
	}
}

func TestRevisitGoneCycles(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	v := Revisit{Initial: time.Hour, GoneCycles: 4}
	for _, tc := range []struct {
		name  string
		p     storage.Page
		cycle uint32
		want  bool
	}{
		{"404 fetched last cycle", storage.Page{Status: storage.StatusGone, Code: 404, Cycle: 5}, 6, false},
		{"404 three cycles ago", storage.Page{Status: storage.StatusHTTPError, Code: 404, Cycle: 3}, 6, false},
		// Four cycles since the fetch: due in the cycles of the URL's
		// phase (6 + id ≡ 0 mod 4), from seven cycles on in every one.
		{"410 four cycles ago, its phase", storage.Page{ID: 2, Status: storage.StatusGone, Code: 410, Cycle: 2}, 6, true},
		{"410 four cycles ago, another phase", storage.Page{ID: 3, Status: storage.StatusGone, Code: 410, Cycle: 2}, 6, false},
		{"410 seven cycles ago, any phase", storage.Page{ID: 3, Status: storage.StatusGone, Code: 410, Cycle: 2}, 9, true},
		{"redirect last cycle", storage.Page{Status: storage.StatusRedirect, Code: 301, Cycle: 5}, 6, false},
		{"robots-denied last cycle", storage.Page{Status: storage.StatusRobotsDenied, Cycle: 5}, 6, false},
		{"403 last cycle", storage.Page{Status: storage.StatusHTTPError, Code: 403, Cycle: 5}, 6, false},
		{"401 three cycles ago", storage.Page{Status: storage.StatusHTTPError, Code: 401, Cycle: 3}, 6, false},
		{"451 four cycles ago, another phase", storage.Page{ID: 3, Status: storage.StatusHTTPError, Code: 451, Cycle: 2}, 6, false},
		{"403 four cycles ago, its phase", storage.Page{ID: 2, Status: storage.StatusHTTPError, Code: 403, Cycle: 2}, 6, true},
		// Transient failures are tried again whenever due by the interval
		// (none stored here: Initial, an hour, has passed).
		{"503 last cycle", storage.Page{Status: storage.StatusHTTPError, Code: 503, Cycle: 5,
			FetchedAt: now.Add(-2 * time.Hour)}, 6, true},
		{"429 last cycle", storage.Page{Status: storage.StatusHTTPError, Code: 429, Cycle: 5,
			FetchedAt: now.Add(-2 * time.Hour)}, 6, true},
		{"network failure last cycle", storage.Page{Status: storage.StatusFetchError, Cycle: 5,
			FetchedAt: now.Add(-2 * time.Hour)}, 6, true},
		{"live page due by its interval", storage.Page{Status: storage.StatusFetched, Code: 200, Cycle: 5,
			FetchedAt: now.Add(-2 * time.Hour), Interval: time.Hour}, 6, true},
		{"404 with the cycle unknown: by interval", storage.Page{Status: storage.StatusGone, Code: 404, Cycle: 5}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := v.at(tc.cycle).Due(&tc.p, now); got != tc.want {
				t.Errorf("Due = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRefreshAllocation(t *testing.T) {
	// Four known pages, ids 0..3, all last fetched in cycle 1, planned for
	// cycle 2 with 2 refetches. Page 0 is important and changes slowly, 1
	// important and changes every cycle, 2 and 3 unimportant.
	known := []uint64{0, 1, 2, 3}
	last := []uint32{1, 1, 1, 1}
	pr := []float64{0.4, 0.4, 0.1, 0.1}
	rate := []float64{0.2, 20, 0.2, 0.2}
	for _, tc := range []struct {
		policy string
		head   []uint64 // the two pages refetched
	}{
		{RefreshUniform, []uint64{0, 1}},    // equal shares: PageRank breaks the tie
		{RefreshImportance, []uint64{0, 1}}, // the important ones
		// The fast page has certainly changed: refetching it gains its
		// whole weight at the end of the cycle, the slow one 0.4·(1−e^−0.2).
		{RefreshOptimal, []uint64{1, 0}},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			got, err := refreshList(tc.policy, known, last, 2, pr, rate, 2)
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != tc.head[0] || got[1] != tc.head[1] {
				t.Errorf("order %v, want %v first", got, tc.head)
			}
		})
	}
	// The allocating policies spend exactly the budget.
	for _, policy := range []string{RefreshUniform, RefreshImportance} {
		f, err := allocate(policy, known, pr, 2)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, x := range f {
			sum += x
		}
		if math.Abs(sum-2) > 1e-9 {
			t.Errorf("%s: frequencies %v sum to %g, want the budget 2", policy, f, sum)
		}
	}
	// Time since the last fetch counts: of two equal pages, the one
	// fetched longer ago more likely changed.
	got, err := refreshList(RefreshOptimal, []uint64{0, 1}, []uint32{4, 2}, 5, []float64{0.5, 0.5}, []float64{0.3, 0.3}, 1)
	if err != nil || got[0] != 1 {
		t.Errorf("equal pages fetched in cycles 4 and 2: order %v, %v; want the older first", got, err)
	}
}

// fetchAt commits one fetch of page id in cycle c of db, with the server's
// Date and Last-Modified as HTTP dates ("" for none).
func fetchAt(t *testing.T, db *storage.DB, c uint32, id uint64, content string, date, lm time.Time) {
	t.Helper()
	hd := func(x time.Time) string {
		if x.IsZero() {
			return ""
		}
		return x.UTC().Format(http.TimeFormat)
	}
	var b storage.Batch
	b.PutCycle(storage.Cycle{N: c, Start: time.Unix(int64(c)*1000, 0)})
	b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetched, Code: 200, ContentType: "text/html",
		Hash: storage.HashOf([]byte(content)), FetchedAt: time.Unix(int64(c)*1000, 0),
		Date: hd(date), LastModified: hd(lm)}, nil)
	crawltest.Commit(t, db, &b)
}

func TestChangeRatesFromHistory(t *testing.T) {
	db := testDB(t, html("http://a.test/"), html("http://a.test/b"), html("http://b.test/"))
	// Cycles 2..5: page 0 changes every time, page 1 never; page 2 is
	// never refetched and takes its host's mean (none) then the db's.
	// No server sends a Date.
	for c := uint32(2); c <= 5; c++ {
		var b storage.Batch
		b.PutCycle(storage.Cycle{N: c, Start: time.Unix(int64(c)*1000, 0)})
		b.AddFetch(storage.Fetch{ID: 0, Status: storage.StatusFetched, Code: 200, ContentType: "text/html",
			Hash: storage.HashOf([]byte{byte(c)}), FetchedAt: time.Unix(int64(c)*1000, 0)}, nil)
		b.AddFetch(storage.Fetch{ID: 1, Status: storage.StatusNotModified, Code: 304, FetchedAt: time.Unix(int64(c)*1000, 0)}, nil)
		crawltest.Commit(t, db, &b)
	}
	hs, err := changeStats(db, 5, 3, []uint64{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if hs[0].obs != 4 || hs[0].x != 4 || hs[1].obs != 4 || hs[1].x != 0 || hs[2].obs != 0 || hs[0].gaps != 4 || hs[0].dated() {
		t.Fatalf("histories %+v", hs)
	}
	r := rates([]string{"a.test", "a.test", "b.test"}, hs, 6000)
	// Host a.test: 4 changes in 4 refetches and none in 4, a spread as
	// wide as it gets, so its prior has the least weight (one access) at
	// the pooled chance 1/2: page 0 −ln((0.5+0.5)/(1+4+0.5)) = ln 5.5,
	// page 1 −ln((0.5+4+0.5)/5.5) = ln 1.1, below changerate.Unseen's
	// floor for no change in 4 refetches, ln(4.5/4). Page 2 (b.test, no refetch,
	// no prior of its own) takes the rate of all pages pooled:
	// −ln((8−4+0.5)/(8+0.5)).
	want0, want1, want2 := math.Log(5.5), math.Log(4.5/4), math.Log(8.5/4.5)
	if math.Abs(r[0]-want0) > 1e-9 || math.Abs(r[1]-want1) > 1e-9 || math.Abs(r[2]-want2) > 1e-12 {
		t.Errorf("rates %v, want %g, %g, %g", r, want0, want1, want2)
	}
}

// TestChangeRatesFromDates: pages whose server sends Date and
// Last-Modified are estimated on the server's clock, which here runs a day
// per cycle while the crawler's runs 1000 s per cycle.
func TestChangeRatesFromDates(t *testing.T) {
	db := testDB(t, unfetched("http://a.test/fast"), unfetched("http://a.test/slow"), unfetched("http://a.test/stamped"),
		unfetched("http://b.test/once"))
	day := 24 * time.Hour
	epoch := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func(c uint32) time.Time { return epoch.Add(time.Duration(c) * day) }
	// fast: changes before every fetch, 6 hours before it; slow: last
	// changed 40 days before cycle 1, never since; stamped: Last-Modified
	// is always the Date while the content never changes (a server that
	// stamps answers with the time); once: fetched in cycle 1 only, 2 days
	// after its last change.
	for c := uint32(1); c <= 4; c++ {
		fetchAt(t, db, c, 0, fmt.Sprint("fast ", c), clock(c), clock(c).Add(-6*time.Hour))
		fetchAt(t, db, c, 1, "slow", clock(c), clock(1).Add(-40*day))
		fetchAt(t, db, c, 2, "stamped", clock(c), clock(c))
		if c == 1 {
			fetchAt(t, db, c, 3, "once", clock(1), clock(1).Add(-2*day))
		}
	}
	hs, err := changeStats(db, 4, 4, []uint64{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	d := day.Seconds()
	if x, tt := hs[0].lm.X, hs[0].lm.T; x != 4 || math.Abs(tt-4*0.25*d) > 1e-9 {
		t.Errorf("fast: X=%d T=%g; want 4 changes over 4 quarter-days", x, tt)
	}
	if x, tt := hs[1].lm.X, hs[1].lm.T; x != 1 || math.Abs(tt-43*d) > 1e-9 {
		t.Errorf("slow: X=%d T=%g; want 1 change (the first fetch's age) over 40+3 days", x, tt)
	}
	if !hs[2].lmBad || hs[2].dated() || hs[2].obs != 3 || hs[2].x != 0 {
		t.Errorf("stamped: %+v; want Last-Modified distrusted and the 3 unchanged refetches counted", hs[2])
	}
	if hs[0].spanCycles != 3 || math.Abs(hs[0].span-3*d) > 1e-9 {
		t.Errorf("fast: %g server seconds over %d cycles; want 3 days over 3", hs[0].span, hs[0].spanCycles)
	}
	r := rates([]string{"a.test", "a.test", "a.test", "b.test"}, hs, 5000)
	// a.test's prior: mean (4+1)/(1+43) per day. Rates per day
	// times one day per cycle (the server's clock, not the crawler's).
	mean := 5.0 / 44
	g := changerate.Gamma{Shape: lmPriorShape, Rate: lmPriorShape / mean}
	wantFast, wantSlow := (g.Shape+4)/(g.Rate+1), (g.Shape+1)/(g.Rate+43)
	// b.test has a single page, whose prior is its own mean (1 change in
	// 2 days): (s+1)/(2s+2) = ½ for any shape s.
	wantOnce := 0.5
	if math.Abs(r[0]-wantFast) > 1e-9 || math.Abs(r[1]-wantSlow) > 1e-9 || math.Abs(r[3]-wantOnce) > 1e-9 {
		t.Errorf("rates per cycle %v; want fast %g, slow %g, once %g", r, wantFast, wantSlow, wantOnce)
	}
	if !(r[0] > 5*r[1]) {
		t.Errorf("fast page %g not far above the slow one %g", r[0], r[1])
	}
	// Before any page was fetched twice with a Date, a cycle lasts what
	// the crawler's clock says since the last dated fetch.
	once := []pageHist{hs[3]}
	if got, want := rates([]string{"b.test"}, once, 1000+3600)[0], 0.5*(3600.0/d); math.Abs(got-want) > 1e-12 {
		t.Errorf("first cycle: rate %g per cycle, want %g (an hour on the crawler's clock)", got, want)
	}
}

// TestChangeRatesDateLiar: a server whose Date leaps centuries ahead
// between two fetches does not stretch the length of a cycle, on the
// servers' clocks, that every other host's rates are read at.
func TestChangeRatesDateLiar(t *testing.T) {
	day := 24 * time.Hour
	epoch := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func(c uint32) time.Time { return epoch.Add(time.Duration(c) * day) }
	fetch := func(h *pageHist, c uint32, change storage.Change, date, lm time.Time) {
		h.add(storage.FetchRecord{Cycle: c, Status: storage.StatusFetched, Change: change,
			FetchedAt: time.Unix(int64(c)*1000, 0), Date: date, LastModified: lm})
	}
	honest := make([]pageHist, 3)
	hosts := []string{"a.test", "a.test", "b.test"}
	for i := range honest {
		for c := uint32(1); c <= 4; c++ {
			ch := storage.ChangeChanged
			if c == 1 {
				ch = storage.ChangeNew
			}
			fetch(&honest[i], c, ch, clock(c), clock(c).Add(-time.Duration(i+1)*time.Hour))
		}
	}
	var liar pageHist
	fetch(&liar, 1, storage.ChangeNew, clock(1), clock(1).Add(-time.Hour))
	fetch(&liar, 2, storage.ChangeChanged, time.Date(9000, 1, 1, 0, 0, 0, 0, time.UTC), clock(2).Add(-time.Hour))
	if !liar.dated() || liar.spanCycles != 1 {
		t.Fatalf("liar: %+v; want a dated history over one cycle", liar)
	}
	alone := rates(hosts, honest, 5000)
	with := rates(append(hosts, "liar.test"), append(honest, liar), 5000)
	for i := range alone {
		if math.Abs(with[i]/alone[i]-1) > 0.01 {
			t.Errorf("page %d: rate %g per cycle beside the liar, %g without", i, with[i], alone[i])
		}
	}
}

// TestRefreshCountOrder: RefreshCount spends a refetch on a slow page that
// has waited long rather than on a fast page refetched last cycle, where
// RefreshOptimal (the chance of a change since the last fetch) takes the
// fast page; and it never plans a refetch for a page with no copy.
func TestRefreshCountOrder(t *testing.T) {
	// Page 0 changes 5 times a cycle and was fetched in cycle 5; pages
	// 1..3 change 0.1 times a cycle, page 1 fetched in cycle 1 and pages
	// 2, 3 in cycle 5; page 4 has rate 0 (a 404 that holdGone holds back
	// until it is due) and was fetched in cycle 1. Cycle 6, one refetch,
	// equal PageRank.
	ids := []uint64{0, 1, 2, 3, 4}
	last := []uint32{5, 1, 5, 5, 1}
	pr := []float64{0.2, 0.2, 0.2, 0.2, 0.2}
	rate := []float64{5, 0.1, 0.1, 0.1, 0}
	for _, tc := range []struct {
		policy string
		head   uint64
	}{
		// Chance of a change: 1 − e^−5 for page 0, 1 − e^−0.5 for page 1.
		{RefreshOptimal, 0},
		// OptimalCycles gives each slow page about 0.19 refetches per
		// cycle and the fast one the remaining 0.43: page 1 owes
		// 0.19 × 5 cycles, page 0 0.43 × 1.
		{RefreshCount, 1},
	} {
		got, err := refreshList(tc.policy, ids, last, 6, pr, rate, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != tc.head || got[len(got)-1] != 4 {
			t.Errorf("%s: order %v, want %d first and the page without a copy last", tc.policy, got, tc.head)
		}
	}
}

// TestRefreshCountKeepsMoreFresh plays refresh cycles with known change
// rates: each cycle every page changes with chance 1 − e^(−λ), the head of
// the policy's list (the budget) is refetched, and the share of fresh
// copies is counted at the cycle's end. RefreshCount must keep more pages
// fresh than uniform refresh, importance-only refresh and RefreshOptimal
// (which chases the fastest pages) on heavy-tailed rates.
func TestRefreshCountKeepsMoreFresh(t *testing.T) {
	const pages, budget, cycles = 400, 60, 60
	rng := rand.New(rand.NewPCG(3, 4))
	ids := make([]uint64, pages)
	rate := make([]float64, pages)
	pr := make([]float64, pages)
	for i := range ids {
		ids[i] = uint64(i)
		rate[i] = 0.03 / math.Pow(1-rng.Float64(), 1/1.5) // Pareto, shape 1.5
		pr[i] = 1 / float64(pages)
	}
	fresh := func(policy string) float64 {
		r := rand.New(rand.NewPCG(5, 6)) // the same changes for every policy
		last := make([]uint32, pages)
		stale := make([]bool, pages)
		for i := range last {
			last[i] = 1
		}
		var sum float64
		for n := uint32(2); n < cycles; n++ {
			for i := range stale {
				if r.Float64() < -math.Expm1(-rate[i]) {
					stale[i] = true
				}
			}
			order, err := refreshList(policy, ids, last, n, pr, rate, budget)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range order[:budget] {
				stale[id], last[id] = false, n
			}
			if n >= 10 { // past the start, when every copy is fresh
				for _, s := range stale {
					if !s {
						sum++
					}
				}
			}
		}
		return sum / float64(pages*(cycles-10))
	}
	count := fresh(RefreshCount)
	for _, other := range []string{RefreshUniform, RefreshImportance, RefreshOptimal} {
		if f := fresh(other); !(count > f+0.005) {
			t.Errorf("count keeps %.4f of the pages fresh, %s %.4f: want more by 0.005", count, other, f)
		} else {
			t.Logf("count %.4f, %s %.4f", count, other, f)
		}
	}
}

// TestHoldGone: a URL whose last answer was a redirect, 404/410,
// 401/403/451 or robots-denied gets no refetch planned until the revisit
// policy's GoneCycles have passed; other answers (a 5xx, a page back with
// content) hold nothing.
func TestHoldGone(t *testing.T) {
	rec := func(c uint32, st storage.Status, code int) storage.FetchRecord {
		return storage.FetchRecord{Cycle: c, Status: st, Code: code}
	}
	for _, tc := range []struct {
		name string
		recs []storage.FetchRecord
		n    uint32
		want float64 // rate after holdGone, from 0.3
		id   uint64  // the page's id (its phase, revisit.Due)
	}{
		{"live page", []storage.FetchRecord{rec(1, storage.StatusFetched, 200)}, 3, 0.3, 0},
		{"404 one cycle ago", []storage.FetchRecord{rec(1, storage.StatusFetched, 200), rec(2, storage.StatusGone, 404)}, 3, 0, 0},
		{"404 due again", []storage.FetchRecord{rec(1, storage.StatusFetched, 200), rec(2, storage.StatusGone, 404)}, 6, 0.3, 2},
		{"404 four cycles ago, not its phase", []storage.FetchRecord{rec(1, storage.StatusFetched, 200), rec(2, storage.StatusGone, 404)}, 6, 0, 1},
		{"410 as an HTTP error", []storage.FetchRecord{rec(2, storage.StatusHTTPError, 410)}, 5, 0, 0},
		{"redirect", []storage.FetchRecord{rec(1, storage.StatusRedirect, 301)}, 2, 0, 0},
		{"robots-denied", []storage.FetchRecord{rec(1, storage.StatusRobotsDenied, 0)}, 4, 0, 0},
		{"503 is not gone", []storage.FetchRecord{rec(1, storage.StatusHTTPError, 503)}, 2, 0.3, 0},
		{"403 one cycle ago", []storage.FetchRecord{rec(1, storage.StatusFetched, 200), rec(2, storage.StatusHTTPError, 403)}, 3, 0, 0},
		{"403 four cycles ago, its phase", []storage.FetchRecord{rec(2, storage.StatusHTTPError, 403)}, 6, 0.3, 2},
		{"403 four cycles ago, not its phase", []storage.FetchRecord{rec(2, storage.StatusHTTPError, 403)}, 6, 0, 1},
		{"401", []storage.FetchRecord{rec(1, storage.StatusHTTPError, 401)}, 3, 0, 0},
		{"451", []storage.FetchRecord{rec(1, storage.StatusHTTPError, 451)}, 3, 0, 0},
		{"back after a 403", []storage.FetchRecord{rec(1, storage.StatusHTTPError, 403), rec(2, storage.StatusFetched, 200)}, 3, 0.3, 0},
		{"503 after a 403 is due again", []storage.FetchRecord{rec(1, storage.StatusHTTPError, 403), rec(2, storage.StatusHTTPError, 503)}, 3, 0.3, 0},
		{"back after a 404", []storage.FetchRecord{rec(1, storage.StatusGone, 404), rec(2, storage.StatusFetched, 200)}, 3, 0.3, 0},
		{"fetch error keeps the 404", []storage.FetchRecord{rec(1, storage.StatusGone, 404), rec(2, storage.StatusFetchError, 0)}, 3, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := make([]pageHist, 1)
			for _, r := range tc.recs {
				hs[0].add(r)
			}
			rate := []float64{0.3}
			holdGone(rate, []uint64{tc.id}, hs, tc.n, 4)
			if rate[0] != tc.want {
				t.Errorf("rate %g in cycle %d, want %g", rate[0], tc.n, tc.want)
			}
		})
	}
}

// replayGone replays cycles 2..cycles of a site whose crawl (cycle 1)
// found URLs ids that answer with status and code (a 404 is
// storage.StatusGone, a 403 storage.StatusHTTPError) and keep answering
// it: each cycle refetches the ones Revisit{GoneCycles: g} finds due. It
// returns how many each cycle refetched (indexed by cycle) and, per URL,
// the cycles of its refetches.
func replayGone(ids []uint64, status storage.Status, code int, g, cycles uint32) (count []int, refetched [][]uint32) {
	now := time.Unix(1_800_000_000, 0)
	v := Revisit{GoneCycles: g}
	pages := make([]storage.Page, len(ids))
	for i, id := range ids {
		pages[i] = storage.Page{ID: id, Status: status, Code: code, Cycle: 1}
	}
	count = make([]int, cycles+1)
	refetched = make([][]uint32, len(ids))
	for n := uint32(2); n <= cycles; n++ {
		for i := range pages {
			if v.at(n).Due(&pages[i], now) {
				pages[i].Cycle = n
				refetched[i] = append(refetched[i], n)
				count[n]++
			}
		}
	}
	return count, refetched
}

// everyG reports whether cycles are g apart.
func everyG(cycles []uint32, g uint32) bool {
	for j := 1; j < len(cycles); j++ {
		if cycles[j]-cycles[j-1] != g {
			return false
		}
	}
	return true
}

// TestGoneDueSpread replays the cycles of a site whose crawl found 40
// URLs that answer 404, or 403 Forbidden (replayGone). With GoneCycles g
// none is refetched before cycle 1+g, the cycles from then on each
// refetch a g-th of them (not all of them in cycle 1+g, which would cost
// as much as the crawl that found them), and each URL is refetched every
// g cycles. URLs that answer 503 are refetched in every cycle: a 5xx is
// transient.
func TestGoneDueSpread(t *testing.T) {
	const urls, cycles = 40, 20
	ids := make([]uint64, urls)
	for i := range ids {
		ids[i] = uint64(100 + i) // as a crawl interns them, among other URLs
	}
	for _, ans := range []struct {
		status storage.Status
		code   int
	}{{storage.StatusGone, 404}, {storage.StatusHTTPError, 403}} {
		for _, g := range []uint32{1, 2, 4, 7} {
			t.Run(fmt.Sprintf("%d every %d cycles", ans.code, g), func(t *testing.T) {
				count, refetched := replayGone(ids, ans.status, ans.code, g, cycles)
				for n := uint32(2); n <= cycles; n++ {
					want := 0
					if n >= 1+g {
						want = urls / int(g)
					}
					if g == 7 && n >= 1+g {
						want = -1 // 40 is not a multiple of 7: checked below
					}
					switch c := count[n]; {
					case want >= 0 && c != want:
						t.Errorf("cycle %d refetched %d of the %ds, want %d", n, c, ans.code, want)
					case want < 0 && (c < urls/int(g) || c > urls/int(g)+1):
						t.Errorf("cycle %d refetched %d of the %ds, want %d or %d", n, c, ans.code, urls/int(g), urls/int(g)+1)
					}
				}
				for i, cs := range refetched {
					switch {
					case len(cs) == 0 || cs[0] < 1+g || cs[0] > 2*g:
						t.Errorf("URL %d: first refetch in cycles %v, want one in cycles %d..%d", i, cs, 1+g, 2*g)
					case !everyG(cs, g):
						t.Errorf("URL %d refetched in cycles %v, want every %d", i, cs, g)
					}
				}
			})
		}
	}
	t.Run("503 every cycle", func(t *testing.T) {
		count, _ := replayGone(ids, storage.StatusHTTPError, 503, 4, cycles)
		for n := uint32(2); n <= cycles; n++ {
			if count[n] != urls {
				t.Errorf("cycle %d refetched %d of the %d 503s, want all", n, count[n], urls)
			}
		}
	})
}

// TestGoneDueSpreadStrided: the 40 broken links of TestGoneDueSpread, but
// interned at a stride (a page whose list items each hold s links, one of
// them broken), s sharing a factor with g = 4. Their ids then agree modulo
// g, and a phase taken from the id alone would put all of them in the same
// cycle; no cycle may refetch more than half of them, and each is still
// refetched every g cycles.
func TestGoneDueSpreadStrided(t *testing.T) {
	const urls, cycles, g = 40, 20, 4
	for _, stride := range []uint64{2, 4, 8, 12} {
		t.Run(fmt.Sprintf("stride %d", stride), func(t *testing.T) {
			ids := make([]uint64, urls)
			for i := range ids {
				ids[i] = 103 + uint64(i)*stride
			}
			count, refetched := replayGone(ids, storage.StatusGone, 404, g, cycles)
			for n, c := range count {
				if c > urls/2 {
					t.Errorf("cycle %d refetched %d of the %d 404s, want at most half", n, c, urls)
				}
			}
			for i, cs := range refetched {
				if !everyG(cs, g) {
					t.Errorf("URL %d refetched in cycles %v, want every %d", i, cs, g)
				}
			}
		})
	}
}
