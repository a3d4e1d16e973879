package frontier

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/cputime"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// hashSched gives every URL a pseudo-random fixed priority (a hash of its
// id) and, for Queued targets, adds a small FPR-like share, so heaps really
// reorder. It is the cheapest scheduler that exercises the frontier.
type hashSched struct{}

func (hashSched) Name() string { return "hash-bench" }
func (hashSched) Seed(seeds []scheduler.Link) {
	for i := range seeds {
		seeds[i].Prio = hashPrio(seeds[i].ID)
	}
}
func (hashSched) Downloaded(page scheduler.Link, out []scheduler.Link) {
	for i := range out {
		switch out[i].State {
		case scheduler.New:
			out[i].Prio = hashPrio(out[i].ID)
		case scheduler.Queued:
			out[i].Prio += 0.85 * page.Prio / float64(len(out))
		}
	}
}

func hashPrio(id uint64) float64 {
	x := id*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return float64(x>>11) / (1 << 53)
}

func hostNames(h int) []string {
	names := make([]string, h)
	for i := range names {
		names[i] = "host" + strconv.Itoa(i) + ".example.org"
	}
	return names
}

// filled returns a frontier with n pending URLs (ids 0..n-1) spread at
// random over h hosts, no delays, one job per host in flight.
func filled(tb testing.TB, n, h int, r *rand.Rand) (*Frontier, []string) {
	tb.Helper()
	return filledWith(tb, hashSched{}, n, h, r)
}

// filledWith is filled with scheduler s.
func filledWith(tb testing.TB, s scheduler.Scheduler, n, h int, r *rand.Rand) (*Frontier, []string) {
	tb.Helper()
	names := hostNames(h)
	f := newFrontier(tb, s, nil, 1)
	const chunk = 50_000
	ts := make([]Target, 0, chunk)
	for lo := 0; lo < n; lo += chunk {
		ts = ts[:0]
		for id := lo; id < min(lo+chunk, n); id++ {
			ts = append(ts, Target{ID: uint64(id), Host: names[r.IntN(h)], New: true})
		}
		if err := f.Seed(ts, nil); err != nil {
			tb.Fatal(err)
		}
	}
	return f, names
}

type benchSize struct{ pending, hosts int }

func (s benchSize) String() string {
	return "pending=" + sizeName(s.pending) + "/hosts=" + sizeName(s.hosts)
}

func sizeName(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

var throughputSizes = []benchSize{
	{1_000, 10}, {1_000, 1_000},
	{100_000, 10}, {100_000, 1_000}, {100_000, 100_000},
	{1_000_000, 10}, {1_000_000, 1_000}, {1_000_000, 100_000},
}

// BenchmarkNextComplete measures one Next plus one Complete that adds one
// new URL on a random host (so the frontier size stays constant), with the
// Changes recorded as the crawl loop would.
func BenchmarkNextComplete(b *testing.B) {
	for _, sz := range throughputSizes {
		b.Run(sz.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			f, names := filled(b, sz.pending, sz.hosts, r)
			links := make([]Target, 1)
			cpu0 := benchDownloads(b, f, uint64(sz.pending), func(j Job, next uint64) []Target {
				links[0] = Target{ID: next, Host: names[r.IntN(len(names))], Depth: j.Depth + 1, New: true}
				return links
			})
			cpuPerOp(b, cpu0)
		})
	}
}

// BenchmarkPriorityUpdate measures one live priority update of a random
// queued URL ("live frontier priority update at 1M pending"): the
// host queue's heap fix plus, when the host's best URL changed, the
// ready-host heap fix, with the Put recorded.
func BenchmarkPriorityUpdate(b *testing.B) {
	for _, sz := range []benchSize{{1_000_000, 1_000}, {1_000_000, 100_000}} {
		b.Run(sz.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			f, _ := filled(b, sz.pending, sz.hosts, r)
			var ch Changes
			now := f.clock.Now().UnixNano()
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				f.mu.Lock()
				f.update(uint64(r.IntN(sz.pending)), r.Float64(), &ch)
				f.settle(now)
				f.mu.Unlock()
				if len(ch.Put) >= 4096 {
					ch.Reset()
				}
			}
			cpuPerOp(b, cpu0)
		})
	}
}

// BenchmarkCompleteLinks measures a whole download through the public API
// at 1M pending: Next, then Complete with 20 out-links (19 already queued,
// whose priorities the scheduler raises, and one new). ns/link is the cost
// per out-link including classification, the scheduler call and the heap
// updates; "hash" is the cheapest scheduler, fpr@100 the product's.
func BenchmarkCompleteLinks(b *testing.B) {
	const perPage = 20
	for _, sched := range []string{"hash", "fpr@100"} {
		for _, sz := range []benchSize{{1_000_000, 1_000}, {1_000_000, 100_000}} {
			b.Run("sched="+sched+"/"+sz.String(), func(b *testing.B) {
				benchCompleteLinks(b, sched, sz, perPage)
			})
		}
	}
}

func benchCompleteLinks(b *testing.B, sched string, sz benchSize, perPage int) {
	var s scheduler.Scheduler = hashSched{}
	if sched != "hash" {
		s = byName(b, sched)
	}
	r := rand.New(rand.NewPCG(5, 6))
	f, names := filledWith(b, s, sz.pending, sz.hosts, r)
	links := make([]Target, perPage)
	cpu0 := benchDownloads(b, f, uint64(sz.pending), func(_ Job, next uint64) []Target {
		for k := 0; k < perPage-1; k++ {
			id := uint64(r.IntN(int(next)))
			links[k] = Target{ID: id, Host: names[id%uint64(len(names))]}
		}
		links[perPage-1] = Target{ID: next, Host: names[r.IntN(len(names))], New: true}
		return links
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perPage), "ns/link")
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N*perPage), "cpu-ns/link")
}

// benchDownloads times b.N downloads through the public API: Next, then
// Complete with the out-links links returns for the job, which add one new
// URL, id next (so the frontier's size stays constant), with the Changes
// recorded as the crawl loop would. It returns the process CPU time at the
// start of the timed loop.
func benchDownloads(b *testing.B, f *Frontier, next uint64, links func(j Job, next uint64) []Target) time.Duration {
	ctx := context.Background()
	var ch Changes
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		j, err := f.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Complete(j, Outcome{Downloaded: true, Links: links(j, next)}, &ch); err != nil {
			b.Fatal(err)
		}
		next++
		ch.Reset()
	}
	return cpu0
}

// BenchmarkMemory reports the frontier's heap bytes per queued URL at 1M
// (the budget: frontier + seen-set RAM ≤ 150 bytes per discovered URL; the
// seen-set is on disk in storage).
func BenchmarkMemory(b *testing.B) {
	for _, sz := range []benchSize{{1_000_000, 10}, {1_000_000, 1_000}, {1_000_000, 100_000}} {
		b.Run(sz.String(), func(b *testing.B) {
			var perEntry float64
			for i := 0; i < b.N; i++ {
				r := rand.New(rand.NewPCG(7, 8))
				before := heapBytes()
				f, names := filled(b, sz.pending, sz.hosts, r)
				names = nil // host names are the caller's strings; only interned copies count
				after := heapBytes()
				if f.Len() != sz.pending {
					b.Fatalf("Len = %d", f.Len())
				}
				perEntry = float64(after-before) / float64(sz.pending)
				runtime.KeepAlive(f)
				runtime.KeepAlive(names)
			}
			b.ReportMetric(perEntry, "B/entry")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func heapBytes() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// cpuPerOp reports the process CPU time per iteration since start.
func cpuPerOp(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
}
