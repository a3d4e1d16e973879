package recrawl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

// budgetDB writes n pages on 4 hosts over cycles 1..3: each page links to
// the next and to two random pages; one in ten is never fetched; the
// others are refetched in cycles 2 and 3 with probability 0.7, and change
// with a per-page probability.
func budgetDB(t *testing.T, n int) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "b.db"), &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	urls := make([]string, n)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://h%d.test/p%d", i%4, i)
	}
	if _, err := db.Intern(urls, storage.NoPage, 0); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	change := make([]float64, n)
	version := make([]int, n)
	for i := range change {
		change[i] = rng.Float64()
	}
	for c := uint32(1); c <= 3; c++ {
		var b storage.Batch
		start := time.Unix(1_700_000_000+int64(c)*86400, 0)
		b.PutCycle(storage.Cycle{N: c, Start: start, End: start.Add(time.Hour), Seeds: []storage.Seed{{ID: 0, Why: "given"}}})
		for i := range n {
			if i%10 == 9 || c > 1 && rng.Float64() > 0.7 {
				continue
			}
			if c > 1 && rng.Float64() < change[i] {
				version[i]++
			}
			links := []storage.Link{{To: uint64((i + 1) % n)}, {To: rng.Uint64N(uint64(n))}, {To: rng.Uint64N(uint64(n))}}
			b.AddFetch(storage.Fetch{ID: uint64(i), Host: fmt.Sprintf("h%d.test", i%4), Status: storage.StatusFetched, Code: 200,
				ContentType: "text/html", Hash: storage.HashOf(fmt.Appendf(nil, "%d/%d", i, version[i])), FetchedAt: start.Add(time.Second)}, links)
		}
		crawltest.Commit(t, db, &b)
	}
	return db
}

// TestLazyRefreshOrderMatchesFullPass checks that planning a budget-limited
// cycle from the stored PageRank and the pool's records alone gives the
// refresh list the pass over every page gives (refreshOrder, then
// lazyRefresh), for every policy, with a pool smaller than the known pages
// and one holding all of them, and with no refetch allowed.
func TestLazyRefreshOrderMatchesFullPass(t *testing.T) {
	db := budgetDB(t, 6500)
	for _, tc := range []struct {
		name   string
		budget int64
		share  float64 // DiscoveryShare
	}{
		{"pool of the top ranks", 400, 0.5},
		{"pool of every known page", 2000, 0.25},
		{"no refetch", 300, 1},
	} {
		for _, policy := range RefreshPolicies() {
			t.Run(tc.name+"/"+policy, func(t *testing.T) {
				r, err := New(Options{Store: db, Crawl: func(context.Context, *Plan) error { return nil },
					Select: seeds.Options{K: 1}, PagesPerCycle: tc.budget, DiscoveryShare: tc.share, RefreshPolicy: policy})
				if err != nil {
					t.Fatal(err)
				}
				maxRefresh := refreshCap(int64(math.Floor((1 - tc.share) * float64(tc.budget)))) // as newPlan sets it
				l, err := r.load(3)
				if err != nil {
					t.Fatal(err)
				}
				pr, err := r.rank(3, l.g)
				if err != nil {
					t.Fatal(err)
				}
				seedIDs := []uint32{0, 17}
				full, err := r.refreshOrder(l, seedIDs, pr, 4, maxRefresh)
				if err != nil {
					t.Fatal(err)
				}
				want := lazyRefresh(full, pr, int(tc.budget))
				got, _, err := r.lazyRefreshOrder(seedIDs, pr, 4, maxRefresh, int(tc.budget))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					i := 0
					for i < min(len(got), len(want)) && got[i] == want[i] {
						i++
					}
					t.Fatalf("lazy list of %d pages differs from the full pass's %d at %d", len(got), len(want), i)
				}
				if len(got) < int(tc.budget) {
					t.Errorf("refresh list of %d pages, want at least the budget %d", len(got), tc.budget)
				}
			})
		}
	}
}

// TestTopByRank checks the order (rank descending, ties by id) and k at
// the edges.
func TestTopByRank(t *testing.T) {
	pr := []float64{0.1, 0.3, 0.3, 0.05, 0.3, 0.2}
	for _, tc := range []struct {
		k    int
		want []uint64
	}{
		{0, []uint64{}}, {1, []uint64{1}}, {2, []uint64{1, 2}}, {4, []uint64{1, 2, 4, 5}}, {6, []uint64{1, 2, 4, 5, 0, 3}},
	} {
		if got := topByRank(pr, tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("topByRank(k=%d) = %v, want %v", tc.k, got, tc.want)
		}
	}
}
