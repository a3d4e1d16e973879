package frontier

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestPolitenessProperty runs a random workload on a fake clock, several
// jobs in flight at once, and checks every hand-out against a model: the
// host is ready and under its concurrency, and the URL is the best
// (Prio, Seq) among all URLs of such hosts.
func TestPolitenessProperty(t *testing.T) {
	for _, conc := range []int{1, 3} {
		t.Run("concurrency="+strconv.Itoa(conc), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(conc), 9))
			const n = 1500
			w := randomWeb(n, 6, 6, uint64(conc))
			prio := map[uint64]float64{}
			for i := uint64(0); i < n; i++ {
				prio[i] = float64(r.IntN(20))
			}
			clk := newFakeClock()
			f := newFrontier(t, fixedSched{prio}, clk, conc)
			c := newCrawler(w)

			type entry struct {
				host string
				seq  uint64
			}
			model := map[uint64]entry{} // pending
			readyAt := map[string]time.Time{}
			busy := map[string]int{}
			var flying []Job
			add := func(ch *Changes) {
				for _, e := range ch.Put {
					model[e.ID] = entry{e.Host, e.Seq}
				}
				ch.Reset()
			}
			var ch Changes
			if err := f.Seed(c.seeds(0, 1, 2, 3), &ch); err != nil {
				t.Fatal(err)
			}
			add(&ch)
			handed := 0
			for len(model) > 0 || len(flying) > 0 {
				st := f.Stats()
				canNext := st.Ready+st.Waiting > 0
				if len(flying) > 0 && (!canNext || r.IntN(3) == 0) {
					k := r.IntN(len(flying))
					j := flying[k]
					flying = append(flying[:k], flying[k+1:]...)
					busy[j.Host]--
					d := time.Duration(r.IntN(5)) * time.Second
					if r.IntN(10) == 0 {
						if err := f.Requeue(j, d, &ch); err != nil {
							t.Fatal(err)
						}
					} else if err := f.Complete(j, Outcome{Downloaded: true, Links: c.targets(j), Delay: d}, &ch); err != nil {
						t.Fatal(err)
					}
					if until := clk.Now().Add(d); until.After(readyAt[j.Host]) {
						readyAt[j.Host] = until
					}
					add(&ch)
					continue
				}
				var j Job
				var now time.Time
				var err error
				if st.Ready > 0 { // Next cannot block: skip the goroutine
					j, err = f.Next(context.Background())
					now = clk.Now()
				} else {
					j, now, err = nextAdvancing(t, f, clk)
				}
				if err != nil {
					t.Fatal(err)
				}
				handed++
				if now.Before(readyAt[j.Host]) {
					t.Fatalf("host %s handed out at %v before its ready time %v", j.Host, now, readyAt[j.Host])
				}
				if busy[j.Host] >= conc {
					t.Fatalf("host %s handed out with %d in flight", j.Host, busy[j.Host])
				}
				for id, e := range model {
					if id == j.ID || busy[e.host] >= conc || now.Before(readyAt[e.host]) {
						continue
					}
					if prio[id] > j.Prio || (prio[id] == j.Prio && e.seq < j.Seq) {
						t.Fatalf("handed out %d (prio %v seq %d) while %d on ready host %s has prio %v seq %d",
							j.ID, j.Prio, j.Seq, id, e.host, prio[id], e.seq)
					}
				}
				delete(model, j.ID)
				busy[j.Host]++
				flying = append(flying, j)
			}
			if _, err := f.Next(context.Background()); err != ErrExhausted {
				t.Fatalf("final Next err = %v, want ErrExhausted", err)
			}
			if handed < 100 {
				t.Fatalf("only %d jobs handed out; the workload is too small to mean anything", handed)
			}
		})
	}
}

// TestConcurrentWorkers runs several workers on the real clock under -race
// and checks each URL is handed out once, every reachable URL is crawled,
// per-host concurrency holds, and every worker ends with ErrExhausted.
func TestConcurrentWorkers(t *testing.T) {
	for _, conc := range []int{1, 2} {
		t.Run("concurrency="+strconv.Itoa(conc), func(t *testing.T) {
			const workers = 6
			w := randomWeb(3000, 12, 6, 3)
			s := &fprSched{d: 0.85}
			f := newFrontier(t, s, nil, conc)
			c := newCrawler(w)
			var mu sync.Mutex // guards c, busy, got (the crawl loop's own state)
			busy := map[string]int{}
			got := map[uint64]int{}
			if err := f.Seed(c.seeds(0, 1), nil); err != nil {
				t.Fatal(err)
			}
			runWorkers(t, f, workers, func(j Job) error {
				mu.Lock()
				defer mu.Unlock()
				got[j.ID]++
				busy[j.Host]++
				if busy[j.Host] > conc {
					return fmt.Errorf("host %s: %d in flight", j.Host, busy[j.Host])
				}
				links := c.targets(j)
				busy[j.Host]--
				return f.Complete(j, Outcome{Downloaded: true, Links: links}, nil)
			})
			want := reachable(w, 0, 1)
			if len(want) < 1000 {
				t.Fatalf("only %d reachable pages; the web is too small", len(want))
			}
			if len(got) != len(want) {
				t.Fatalf("crawled %d URLs, %d reachable", len(got), len(want))
			}
			for id, n := range got {
				if n != 1 || !want[id] {
					t.Fatalf("URL %d handed out %d times (reachable %v)", id, n, want[id])
				}
			}
			if s.downloads != uint64(len(want)) {
				t.Fatalf("scheduler saw %d downloads, want %d", s.downloads, len(want))
			}
		})
	}
}

func reachable(w web, seeds ...uint64) map[uint64]bool {
	seen := map[uint64]bool{}
	q := append([]uint64(nil), seeds...)
	for _, s := range seeds {
		seen[s] = true
	}
	for len(q) > 0 {
		p := q[0]
		q = q[1:]
		for _, t := range w.out[p] {
			if !seen[t] {
				seen[t] = true
				q = append(q, t)
			}
		}
	}
	return seen
}

// TestConcurrentPoliteness runs workers on the real clock with a per-host
// delay and checks, from the workers' own timestamps, that no host was
// handed out sooner than the delay after its previous completion. The
// check cannot flake: a worker's "completed" stamp is taken before
// Complete reads the clock, and its "handed out" stamp after Next returns.
func TestConcurrentPoliteness(t *testing.T) {
	const (
		workers = 4
		delay   = 2 * time.Millisecond
	)
	w := randomWeb(400, 8, 5, 17)
	f := newFrontier(t, bfsSched{}, nil, 1)
	c := newCrawler(w)
	var mu sync.Mutex
	lastDone := map[string]time.Time{}
	crawled := 0
	if err := f.Seed(c.seeds(0, 1, 2), nil); err != nil {
		t.Fatal(err)
	}
	runWorkers(t, f, workers, func(j Job) error {
		handed := time.Now()
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := lastDone[j.Host]; ok && handed.Sub(prev) < delay {
			return fmt.Errorf("host %s handed out %v after its last completion, delay %v", j.Host, handed.Sub(prev), delay)
		}
		crawled++
		links := c.targets(j)
		lastDone[j.Host] = time.Now()
		return f.Complete(j, Outcome{Downloaded: true, Links: links, Delay: delay}, nil)
	})
	if want := len(reachable(w, 0, 1, 2)); crawled != want || want < 200 {
		t.Fatalf("crawled %d, reachable %d (want ≥ 200)", crawled, want)
	}
}
