package compare

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// crashStore is a MemStore that can freeze: after freeze every write is
// dropped, as if the process had been killed (kill -9) at that moment.
type crashStore struct {
	MemStore
	frozen atomic.Bool
}

func (s *crashStore) SavePage(ctx context.Context, p Page) error {
	if s.frozen.Load() {
		return nil
	}
	return s.MemStore.SavePage(ctx, p)
}

func (s *crashStore) AppendProgress(ctx context.Context, name string, start int, ids []uint64) error {
	if s.frozen.Load() {
		return nil
	}
	return s.MemStore.AppendProgress(ctx, name, start, ids)
}

var resumeSchedulers = []string{"bfs", "fpr", "fpr@100", "opic", "rankmass-window@5", "random"}

// TestResume interrupts a comparison after the web has delivered some
// pages, by cancelling it (Ctrl-C: progress is saved on the way out) or by
// freezing the store first (kill -9: nothing more is written), then builds
// a new Compare on the same store and finishes. With W = 1 the sequences
// equal an uninterrupted run's, and the rerun asks the web for no page the
// store already held.
func TestResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	g := randomGraph(rng, 400)
	seeds := []string{g.URLs[0], g.URLs[1], g.URLs[2]}
	opts := func(w int) Options {
		return Options{Schedulers: slices.Clone(resumeSchedulers), Seeds: seeds, Budget: 250, Window: w, SaveEvery: 16}
	}
	ref, err := New(&MemStore{}, opts(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := runFake(context.Background(), ref, newFakeWeb(g, nil), 1); err != nil {
		t.Fatal(err)
	}
	want := ref.Sequences()
	if len(want[0].URLs) < 100 {
		t.Fatalf("reference crawl downloads only %d pages: the graph is too small for the test", len(want[0].URLs))
	}
	for _, tc := range []struct {
		name   string
		window int
		kill   bool
		after  int // pages delivered before the crash
	}{
		{"ctrl-c", 1, false, 60},
		{"kill-9", 1, true, 60},
		{"kill-9 early", 1, true, 3},
		{"ctrl-c window 4", 4, false, 80},
		{"kill-9 window 8", 8, true, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &crashStore{}
			c1, err := New(store, opts(tc.window))
			if err != nil {
				t.Fatal(err)
			}
			w1 := newFakeWeb(g, nil)
			w1.limit = tc.after
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- runFake(ctx, c1, w1, 2) }()
			<-w1.reached
			// A partial report while the crawls wait: unfinished crawls
			// have no score beyond their downloads.
			r, err := c1.Report(ScoreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, cv := range r.Curves {
				if cv.Done || cv.Downloaded >= 250 || !math.IsNaN(cv.Cumulative[len(cv.Cumulative)-1]) {
					t.Errorf("partial report: %s done=%v downloaded %d, S at 100%% %v", cv.Scheduler, cv.Done, cv.Downloaded, cv.Cumulative[len(cv.Cumulative)-1])
				}
			}
			if tc.kill {
				store.frozen.Store(true)
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v, want context.Canceled", err)
			}
			before := c1.Sequences()
			stored := map[string]bool{}
			store.MemStore.Pages(context.Background(), func(p Page) error { stored[p.URL] = true; return nil })
			if !tc.kill {
				for _, s := range before {
					if p, _ := store.Progress(context.Background(), s.Name); len(p) != len(s.URLs) {
						t.Errorf("%s: %d downloads, %d saved on Ctrl-C", s.Name, len(s.URLs), len(p))
					}
				}
			}
			store.frozen.Store(false)

			c2, err := New(store, opts(tc.window))
			if err != nil {
				t.Fatal(err)
			}
			if err := c2.Load(context.Background()); err != nil {
				t.Fatal(err)
			}
			// The replay rebuilds what was saved: a prefix of what ran.
			for i, s := range c2.Sequences() {
				if !slices.Equal(s.URLs, before[i].URLs[:len(s.URLs)]) {
					t.Errorf("%s: replayed %d downloads that differ from the interrupted run's", s.Name, len(s.URLs))
				}
			}
			w2 := newFakeWeb(g, nil)
			if err := runFake(context.Background(), c2, w2, 3); err != nil {
				t.Fatal(err)
			}
			for u, k := range w2.requests {
				if stored[u] {
					t.Errorf("rerun asked again for %s, which the store held", u)
				}
				if k != 1 {
					t.Errorf("rerun asked %d times for %s", k, u)
				}
			}
			got := c2.Sequences()
			for i := range got {
				if tc.window == 1 && !slices.Equal(got[i].URLs, want[i].URLs) {
					t.Errorf("%s: resumed sequence differs from the uninterrupted one", got[i].Name)
				}
				if !got[i].Done || len(got[i].URLs) != len(want[i].URLs) || len(slices.Compact(slices.Sorted(slices.Values(got[i].URLs)))) != len(got[i].URLs) {
					t.Errorf("%s: %d downloads (done %v), want %d distinct", got[i].Name, len(got[i].URLs), got[i].Done, len(want[i].URLs))
				}
			}
			// What the web was asked in both runs is the union of the
			// downloaded sets (pages delivered but lost in a kill -9 are
			// asked again: the crawler would fetch them again too).
			union := map[string]bool{}
			for _, s := range got {
				for _, u := range s.URLs {
					union[u] = true
				}
			}
			if n := len(stored) + len(w2.requests); n != len(union) {
				t.Errorf("%d pages stored before the crash + %d asked after = %d, want the union, %d", len(stored), len(w2.requests), n, len(union))
			}
		})
	}
}

// TestReplayMismatch: a stored sequence made with other options is an
// error, not a silent different crawl.
func TestReplayMismatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	g := randomGraph(rng, 200)
	v := 0
	for g.OutDegree(uint32(v)) < 3 {
		v++
	}
	store := &MemStore{}
	c, err := New(store, Options{Schedulers: []string{"fpr"}, Seeds: []string{g.URLs[v]}, Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := runFake(context.Background(), c, newFakeWeb(g, nil), 1); err != nil {
		t.Fatal(err)
	}
	if n := len(c.Sequences()[0].URLs); n < 5 {
		t.Fatalf("only %d downloads", n)
	}
	c2, err := New(store, Options{Schedulers: []string{"fpr"}, Seeds: []string{g.URLs[v+1], g.URLs[v]}, Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.Load(context.Background()); !errors.Is(err, ErrProgress) {
		t.Errorf("replay with other seeds: %v, want ErrProgress", err)
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"no schedulers", Options{Seeds: []string{"http://a/"}, Budget: 1}},
		{"omniscient", Options{Schedulers: []string{"bfs", "omniscient"}, Seeds: []string{"http://a/"}, Budget: 1}},
		{"unknown", Options{Schedulers: []string{"dfs"}, Seeds: []string{"http://a/"}, Budget: 1}},
		{"twice", Options{Schedulers: []string{"fpr", "FPR"}, Seeds: []string{"http://a/"}, Budget: 1}},
		{"no seeds", Options{Schedulers: []string{"fpr"}, Budget: 1}},
		{"budget", Options{Schedulers: []string{"fpr"}, Seeds: []string{"http://a/"}}},
		{"window", Options{Schedulers: []string{"fpr"}, Seeds: []string{"http://a/"}, Budget: 1, Window: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(&MemStore{}, tc.o); !errors.Is(err, ErrOptions) {
				t.Errorf("error %v, want ErrOptions", err)
			}
		})
	}
}

// closingWeb answers nothing and closes its results: the crawls cannot
// finish, which must be an error, not a hang.
type closingWeb struct {
	once sync.Once
	ch   chan Page
}

func (w *closingWeb) Request(context.Context, string) error {
	w.once.Do(func() { close(w.ch) })
	return nil
}
func (w *closingWeb) Results() <-chan Page { return w.ch }

func TestWebClosed(t *testing.T) {
	c, err := New(&MemStore{}, Options{Schedulers: []string{"bfs"}, Seeds: []string{"http://a/"}, Budget: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), &closingWeb{ch: make(chan Page)}); !errors.Is(err, ErrWebClosed) {
		t.Errorf("Run: %v, want ErrWebClosed", err)
	}
}

// failStore is a MemStore whose progress saves fail, as on a full disk.
type failStore struct {
	MemStore
}

var errDiskFull = errors.New("disk full")

func (s *failStore) AppendProgress(context.Context, string, int, []uint64) error { return errDiskFull }

// TestSaveFailureStops: a failed progress save ends the comparison with
// that error at once. The web delivers only 50 pages and then holds the
// rest back, so a comparison that ran on after the failure would wait for
// pages until the test's deadline.
func TestSaveFailureStops(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	g := randomGraph(rng, 400)
	c, err := New(&failStore{}, Options{Schedulers: []string{"bfs", "fpr"}, Seeds: []string{g.URLs[0]}, Budget: 300, SaveEvery: 8})
	if err != nil {
		t.Fatal(err)
	}
	w := newFakeWeb(g, nil)
	w.limit = 50
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := runFake(ctx, c, w, 1); !errors.Is(err, errDiskFull) {
		t.Fatalf("Run = %v, want the save's error", err)
	}
}
