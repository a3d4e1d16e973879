package frontier

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
)

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want error
	}{
		{"no scheduler", Options{}, ErrNoScheduler},
		{"negative concurrency", Options{Scheduler: bfsSched{}, Politeness: config.Politeness{HostConcurrency: -1}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.opts)
			if err == nil {
				t.Fatal("New succeeded, want an error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("New: %v, want %v", err, tc.want)
			}
		})
	}
}

// TestPriorityOrder checks that Next hands out the best URL among ready
// hosts, within a host and across hosts, with FIFO ties.
func TestPriorityOrder(t *testing.T) {
	tests := []struct {
		name  string
		seeds []Target
		prio  map[uint64]float64
		want  []uint64
	}{
		{
			name:  "one host by priority",
			seeds: []Target{{ID: 1, Host: "a"}, {ID: 2, Host: "a"}, {ID: 3, Host: "a"}, {ID: 4, Host: "a"}},
			prio:  map[uint64]float64{1: 0.1, 2: 0.4, 3: 0.3, 4: 0.2},
			want:  []uint64{2, 3, 4, 1},
		},
		{
			name:  "across hosts by priority",
			seeds: []Target{{ID: 1, Host: "a"}, {ID: 2, Host: "b"}, {ID: 3, Host: "c"}, {ID: 4, Host: "a"}, {ID: 5, Host: "b"}},
			prio:  map[uint64]float64{1: 1, 2: 5, 3: 3, 4: 4, 5: 2},
			want:  []uint64{2, 4, 3, 5, 1},
		},
		{
			name:  "ties FIFO by seed order across hosts",
			seeds: []Target{{ID: 9, Host: "b"}, {ID: 8, Host: "a"}, {ID: 7, Host: "b"}, {ID: 6, Host: "c"}},
			want:  []uint64{9, 8, 7, 6},
		},
		{
			name:  "negative priorities and ties",
			seeds: []Target{{ID: 1, Host: "a"}, {ID: 2, Host: "b"}, {ID: 3, Host: "a"}, {ID: 4, Host: "b"}},
			prio:  map[uint64]float64{1: -1, 2: -2, 3: -1, 4: 0},
			want:  []uint64{4, 1, 3, 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Unlimited concurrency and no delays: order is pure priority.
			f := newFrontier(t, fixedSched{tc.prio}, newFakeClock(), 1000)
			for i := range tc.seeds {
				tc.seeds[i].New = true
			}
			if err := f.Seed(tc.seeds, nil); err != nil {
				t.Fatal(err)
			}
			var got []uint64
			for range tc.want {
				j := mustNext(t, f)
				if j.Prio != tc.prio[j.ID] {
					t.Errorf("job %d Prio = %v, want %v", j.ID, j.Prio, tc.prio[j.ID])
				}
				got = append(got, j.ID)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("order = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPoliteness checks that a host is never handed out before its ready
// time nor beyond its concurrency, even when it holds the best URLs.
func TestPoliteness(t *testing.T) {
	const sec = time.Second
	tests := []struct {
		name  string
		conc  int
		delay map[string]time.Duration // per host, applied on Complete
		// hosts a (prio 10+) and b (prio 1+), 3 URLs each.
		want []string // "host@seconds" of each job handed out
	}{
		{
			name:  "delay keeps the better host waiting",
			conc:  1,
			delay: map[string]time.Duration{"a": 10 * sec, "b": 1 * sec},
			want:  []string{"a@0", "b@0", "b@1", "b@2", "a@10", "a@20"},
		},
		{
			name:  "no delay: priority alone",
			conc:  1,
			delay: map[string]time.Duration{},
			want:  []string{"a@0", "a@0", "a@0", "b@0", "b@0", "b@0"},
		},
		{
			name:  "concurrency two",
			conc:  2,
			delay: map[string]time.Duration{"a": 5 * sec, "b": 5 * sec},
			want:  []string{"a@0", "a@0", "b@0", "b@0", "a@5", "b@5"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			start := clk.Now()
			prio := map[uint64]float64{1: 13, 2: 12, 3: 11, 4: 3, 5: 2, 6: 1}
			f := newFrontier(t, fixedSched{prio}, clk, tc.conc)
			seeds := []Target{{ID: 1, Host: "a"}, {ID: 2, Host: "a"}, {ID: 3, Host: "a"}, {ID: 4, Host: "b"}, {ID: 5, Host: "b"}, {ID: 6, Host: "b"}}
			for i := range seeds {
				seeds[i].New = true
			}
			if err := f.Seed(seeds, nil); err != nil {
				t.Fatal(err)
			}
			// Jobs run concurrently up to tc.conc per host; a job is
			// completed only when its host would otherwise block the next
			// Next call, i.e. we complete everything in flight for a host
			// once the host has tc.conc in flight.
			inflight := map[string][]Job{}
			var got []string
			for len(got) < len(tc.want) {
				j, at, err := nextAdvancing(t, f, clk)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, j.Host+"@"+strconv.Itoa(int(at.Sub(start)/sec)))
				inflight[j.Host] = append(inflight[j.Host], j)
				if n := len(inflight[j.Host]); n > tc.conc {
					t.Fatalf("host %s has %d in flight, limit %d", j.Host, n, tc.conc)
				}
				if len(inflight[j.Host]) == tc.conc {
					for _, done := range inflight[j.Host] {
						if err := f.Complete(done, Outcome{Downloaded: true, Delay: tc.delay[j.Host]}, nil); err != nil {
							t.Fatal(err)
						}
					}
					inflight[j.Host] = nil
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("schedule = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNextBlocksAndWakes checks "not now": Next blocks and wakes on each
// event that can make a job available.
func TestNextBlocksAndWakes(t *testing.T) {
	tests := []struct {
		name  string
		event func(t *testing.T, f *Frontier, clk *fakeClock, busy Job)
		want  uint64
	}{
		{
			name: "host ready time passes",
			event: func(t *testing.T, f *Frontier, clk *fakeClock, busy Job) {
				clk.Advance(time.Second)
			},
			want: 2,
		},
		{
			name: "completed job adds a link on another host",
			event: func(t *testing.T, f *Frontier, clk *fakeClock, busy Job) {
				out := Outcome{Downloaded: true, Delay: time.Hour, Links: []Target{{ID: 3, Host: "b", New: true, Depth: 1}}}
				if err := f.Complete(busy, out, nil); err != nil {
					t.Fatal(err)
				}
			},
			want: 3,
		},
		{
			// Next parked with no timer (host a busy). The completion puts a
			// into the waiting heap: Next must wake to arm a timer for it.
			name: "completion delays the busy host",
			event: func(t *testing.T, f *Frontier, clk *fakeClock, busy Job) {
				if err := f.Complete(busy, Outcome{Downloaded: true, Delay: 10 * time.Second}, nil); err != nil {
					t.Fatal(err)
				}
				if at, want := waitArmed(t, clk), clk.Now().Add(10*time.Second); !at.Equal(want) {
					t.Fatalf("Next armed a timer for %v, want %v", at, want)
				}
				clk.Advance(10 * time.Second)
			},
			want: 2,
		},
		{
			name: "seed added",
			event: func(t *testing.T, f *Frontier, clk *fakeClock, busy Job) {
				if err := f.Seed([]Target{{ID: 4, Host: "c", New: true}}, nil); err != nil {
					t.Fatal(err)
				}
			},
			want: 4,
		},
		{
			name: "requeued job on a ready host",
			event: func(t *testing.T, f *Frontier, clk *fakeClock, busy Job) {
				if err := f.Requeue(busy, 0, nil); err != nil {
					t.Fatal(err)
				}
			},
			want: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			f := newFrontier(t, bfsSched{}, clk, 1)
			if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "a", New: true}}, nil); err != nil {
				t.Fatal(err)
			}
			busy := mustNext(t, f) // a:1 in flight, a:2 waits for it
			if busy.ID != 1 {
				t.Fatalf("first job %d, want 1", busy.ID)
			}
			if tc.name == "host ready time passes" {
				if err := f.Complete(busy, Outcome{Downloaded: true, Delay: time.Second}, nil); err != nil {
					t.Fatal(err)
				}
			}
			res := goNextBlocked(t, f, clk, "before the event")
			tc.event(t, f, clk, busy)
			r := <-res
			if r.err != nil || r.job.ID != tc.want {
				t.Fatalf("Next = %d, %v; want %d", r.job.ID, r.err, tc.want)
			}
		})
	}
}

// TestExhausted checks "never": ErrExhausted only when empty and idle.
func TestExhausted(t *testing.T) {
	clk := newFakeClock()
	f := newFrontier(t, bfsSched{}, clk, 1)
	if _, err := f.Next(context.Background()); !errors.Is(err, ErrExhausted) {
		t.Fatalf("empty frontier: Next err = %v, want ErrExhausted", err)
	}
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	j := mustNext(t, f)
	// Nothing queued but a job in flight: not exhausted yet.
	res := goNextBlocked(t, f, clk, "with a job in flight")
	if err := f.Complete(j, Outcome{Downloaded: true, Delay: time.Hour}, nil); err != nil {
		t.Fatal(err)
	}
	if r := <-res; !errors.Is(r.err, ErrExhausted) {
		t.Fatalf("after the last job: Next err = %v, want ErrExhausted", r.err)
	}
	// A later seed revives it.
	if err := f.Seed([]Target{{ID: 2, Host: "b", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	if j := mustNext(t, f); j.ID != 2 {
		t.Fatalf("Next after reseed = %d, want 2", j.ID)
	}
}

func TestNextContext(t *testing.T) {
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"canceled while waiting", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, context.Canceled},
		{"deadline while waiting", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 10*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			f := newFrontier(t, bfsSched{}, clk, 1)
			if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}}, nil); err != nil {
				t.Fatal(err)
			}
			f.Defer("a", clk.Now().Add(time.Hour), "robots 503", nil)
			ctx, cancel := tc.ctx()
			defer cancel()
			res := goNext(ctx, f)
			waitBlocked(t, f, clk)
			if tc.want == context.Canceled {
				cancel()
			}
			if r := <-res; !errors.Is(r.err, tc.want) {
				t.Fatalf("Next err = %v, want %v", r.err, tc.want)
			}
		})
	}
	t.Run("already canceled with a job ready", func(t *testing.T) {
		f := newFrontier(t, bfsSched{}, newFakeClock(), 1)
		if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}}, nil); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := f.Next(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("Next err = %v, want context.Canceled", err)
		}
		if f.Len() != 1 {
			t.Fatalf("Len = %d after a canceled Next, want 1", f.Len())
		}
	})
}
