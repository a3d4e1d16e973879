package recrawl

import (
	"context"
	"math"
	"testing"
	"time"

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
		{"410 four cycles ago", storage.Page{Status: storage.StatusGone, Code: 410, Cycle: 2}, 6, true},
		{"redirect last cycle", storage.Page{Status: storage.StatusRedirect, Code: 301, Cycle: 5}, 6, false},
		{"robots-denied last cycle", storage.Page{Status: storage.StatusRobotsDenied, Cycle: 5}, 6, false},
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
	// important and changes every cycle (too fast to be worth it under
	// Optimal when the budget is scarce), 2 and 3 unimportant.
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
		{RefreshOptimal, []uint64{0, 2}},    // page 1 changes too fast to stay fresh
	} {
		t.Run(tc.policy, func(t *testing.T) {
			f, err := allocate(tc.policy, known, pr, rate, 2)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, x := range f {
				sum += x
			}
			if math.Abs(sum-2) > 1e-9 {
				t.Fatalf("frequencies %v sum to %g, want the budget 2", f, sum)
			}
			got := refreshPlan(known, last, 2, f, pr)
			if got[0] != tc.head[0] || got[1] != tc.head[1] {
				t.Errorf("order %v (frequencies %v), want %v first", got, f, tc.head)
			}
		})
	}
}

func TestChangeRatesFromHistory(t *testing.T) {
	db := testDB(t, html("http://a.test/"), html("http://a.test/b"), html("http://b.test/"))
	// Cycles 2..5: page 0 changes every time, page 1 never; page 2 is
	// never refetched and takes its host's mean (none) then the db's.
	for c := uint32(2); c <= 5; c++ {
		var b storage.Batch
		b.PutCycle(storage.Cycle{N: c, Start: time.Unix(int64(c)*1000, 0)})
		b.AddFetch(storage.Fetch{ID: 0, Status: storage.StatusFetched, Code: 200, ContentType: "text/html",
			Hash: storage.HashOf([]byte{byte(c)}), FetchedAt: time.Unix(int64(c)*1000, 0)}, nil)
		b.AddFetch(storage.Fetch{ID: 1, Status: storage.StatusNotModified, Code: 304, FetchedAt: time.Unix(int64(c)*1000, 0)}, nil)
		if err := db.Commit(&b); err != nil {
			t.Fatal(err)
		}
	}
	obs, x, gaps, err := changeStats(db, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if obs[0] != 4 || x[0] != 4 || obs[1] != 4 || x[1] != 0 || obs[2] != 0 || gaps[0] != 4 {
		t.Fatalf("obs %v, changes %v, gaps %v", obs, x, gaps)
	}
	r := rates([]string{"a.test", "a.test", "b.test"}, obs, x, gaps)
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
