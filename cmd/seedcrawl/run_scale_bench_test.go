package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/storage"
)

// scaleHosts is the number of hosts of the synthetic db of
// BenchmarkCycleStart.
const scaleHosts = 100

func scaleURL(i int) string { return fmt.Sprintf("http://h%d.test/p%d", i%scaleHosts, i) }

// scaleDB writes a db as one finished cycle of a crawl of n pages would
// leave it, straight through storage: n fetched HTML pages on scaleHosts
// hosts, 8 out-links each, one cycle record (seed: page 0).
func scaleDB(b *testing.B, path string, n int) {
	b.Helper()
	db, err := storage.Open(path, &storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Unix(1_700_000_000, 0)
	var batch storage.Batch
	batch.PutCycle(storage.Cycle{N: 1, Start: start, SeedAlgo: "given"})
	if err := db.Commit(&batch); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Intern([]string{scaleURL(0)}, storage.NoPage, 0); err != nil {
		b.Fatal(err)
	}
	const chunk = 20000
	for lo := 1; lo < n; lo += chunk {
		urls := make([]string, 0, chunk)
		for i := lo; i < min(lo+chunk, n); i++ {
			urls = append(urls, scaleURL(i))
		}
		if _, err := db.Intern(urls, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
	for lo := 0; lo < n; lo += chunk {
		batch.Reset()
		for i := lo; i < min(lo+chunk, n); i++ {
			links := make([]storage.Link, 8)
			for k := range links {
				links[k] = storage.Link{To: uint64((i*7 + k*104729 + 1) % n)}
			}
			batch.AddFetch(storage.Fetch{ID: uint64(i), Host: fmt.Sprintf("h%d.test", i%scaleHosts), Status: storage.StatusFetched,
				Code: 200, ContentType: "text/html", Hash: storage.HashOf([]byte(scaleURL(i))), ETag: `"e"`,
				FetchedAt: start.Add(time.Second)}, links)
		}
		if err := db.Commit(&batch); err != nil {
			b.Fatal(err)
		}
	}
	batch.Reset()
	batch.PutCycle(storage.Cycle{N: 1, Start: start, End: start.Add(time.Hour), SeedAlgo: "given",
		Seeds: []storage.Seed{{ID: 0, Why: "given"}}})
	if err := db.Commit(&batch); err != nil {
		b.Fatal(err)
	}
	// What closing cycle 1 stores: the PageRank of its graph.
	g, err := graph.Load(db)
	if err != nil {
		b.Fatal(err)
	}
	pr, _ := graph.PageRank(g, graph.PageRankOptions{})
	if err := recrawl.StoreRank(db, 1, pr); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCycleStart measures how long seedcrawl run takes, on a db of n
// stored pages, from its call until the first page request of cycle 2
// reaches the (loopback) server, and the largest live heap on the way
// (sampled every 10 ms). Cycle 2 has a budget of 1000 pages, seeds
// given, the history scheduler and the optimal refresh policy with half
// the budget for refetches. The db is built once per size, untimed, and
// copied for each iteration; the times reported are the medians of the
// iterations, the heap the largest, so that
//
//	go test -run '^$' -bench CycleStart -benchtime 3x ./cmd/seedcrawl/
//
// gives medians of 3 (of 4: the benchmark runs once before) for one build
// of each db.
func BenchmarkCycleStart(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		dir := b.TempDir()
		base := filepath.Join(dir, "base.db")
		scaleDB(b, base, n)
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			first := make(chan struct{}, 1)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.NotFound(w, r)
					return
				}
				select {
				case first <- struct{}{}:
				default:
				}
				w.WriteHeader(http.StatusNotModified)
			})}
			go srv.Serve(ln)
			b.Cleanup(func() { srv.Close() })
			var resolve strings.Builder
			for h := range scaleHosts {
				fmt.Fprintf(&resolve, "h%d.test %s\n", h, ln.Addr())
			}
			rf := filepath.Join(dir, "resolve.txt")
			writeFile(b, rf, resolve.String())
			var firsts, planned []time.Duration
			var peak uint64
			for i := range b.N {
				b.StopTimer()
				db := filepath.Join(dir, fmt.Sprintf("run%d.db", i))
				runCopyFile(b, base, db)
				runtime.GC()
				select {
				case <-first:
				default:
				}
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				stop := make(chan struct{})
				var maxHeap uint64
				wg.Add(1)
				go func() {
					defer wg.Done()
					t := time.NewTicker(10 * time.Millisecond)
					defer t.Stop()
					var ms runtime.MemStats
					for {
						runtime.ReadMemStats(&ms)
						maxHeap = max(maxHeap, ms.HeapAlloc)
						select {
						case <-stop:
							return
						case <-t.C:
						}
					}
				}()
				b.StartTimer()
				t0 := time.Now()
				sw := &stampWriter{match: "starting cycle", t0: t0}
				done := make(chan error, 1)
				go func() {
					done <- runCycles(ctx, []string{"--db", db, "--resolve-file", rf, "--scope", "hosts:.test", "--delay", "0",
						"--delay-factor", "0", "--workers", "4", "--progress", "0", "--cycles", "2", "--seed-algo", "given",
						"--scheduler", "history", "--pages-per-cycle", "1000", "--refresh-share", "0.5", scaleURL(0)},
						discard{}, sw)
				}()
				select {
				case <-first:
					firsts = append(firsts, time.Since(t0))
				case err := <-done:
					b.Fatalf("run ended before any page request: %v", err)
				}
				b.StopTimer()
				cancel()
				<-done
				close(stop)
				wg.Wait()
				peak = max(peak, maxHeap)
				planned = append(planned, sw.at)
				os.Remove(db)
			}
			b.ReportMetric(medianDuration(firsts).Seconds(), "s-to-first-fetch")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(medianDuration(planned).Seconds(), "s-to-planned")
		})
	}
}

// medianDuration returns the median of ds (the upper one of an even
// count); ds is sorted in place.
func medianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// stampWriter notes when a line containing match is first written, after
// t0 (the end of planning: seedcrawl run prints "starting cycle").
type stampWriter struct {
	mu    sync.Mutex
	match string
	t0    time.Time
	at    time.Duration
}

func (w *stampWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.at == 0 && strings.Contains(string(p), w.match) {
		w.at = time.Since(w.t0)
	}
	return len(p), nil
}
