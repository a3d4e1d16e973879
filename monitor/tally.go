package monitor

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Tally is a run's counters as a crawl keeps them while it goes on: the
// totals of Totals (Fetches, Pages, Discovered, Bytes, Commits) and the
// counters by key ("fetch/fetched", "skip/robots-denied", ...). The zero
// Tally is empty and ready; it is safe for concurrent use.
type Tally struct {
	Fetches    atomic.Uint64 // page requests, retries included
	Pages      atomic.Uint64 // URLs whose outcome was recorded
	Discovered atomic.Uint64 // new URLs queued
	Bytes      atomic.Uint64 // body bytes read
	Commits    atomic.Uint64 // transactions written

	startNs atomic.Int64 // Begin's time, for Progress

	mu     sync.Mutex
	counts map[string]uint64
}

// Add adds n to the counter key.
func (t *Tally) Add(key string, n uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]uint64{}
	}
	t.counts[key] += n
}

// Counters returns a copy of the counters by key.
func (t *Tally) Counters() map[string]uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.counts)
}

// Errors is the sum of the "error/" counters: the failed fetches.
func (t *Tally) Errors() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var n uint64
	for k, v := range t.counts {
		if strings.HasPrefix(k, "error/") {
			n += v
		}
	}
	return n
}

// Stored returns the counters a run record keeps: the counters by key
// with the totals "fetches", "pages", "discovered" and "bytes".
func (t *Tally) Stored() map[string]uint64 {
	t.mu.Lock()
	out := make(map[string]uint64, len(t.counts)+4)
	maps.Copy(out, t.counts)
	t.mu.Unlock()
	out["fetches"] = t.Fetches.Load()
	out["pages"] = t.Pages.Load()
	out["discovered"] = t.Discovered.Load()
	out["bytes"] = t.Bytes.Load()
	return out
}

// Summary is the summary of run (NewSummary), stopped for the reason
// stopped with pending URLs left in the frontier.
func (t *Tally) Summary(run uint64, stopped string, start, end time.Time, pending int) Summary {
	tot := Totals{Fetches: t.Fetches.Load(), Pages: t.Pages.Load(), Discovered: t.Discovered.Load(), Bytes: t.Bytes.Load(),
		Commits: t.Commits.Load(), Pending: pending}
	t.mu.Lock()
	defer t.mu.Unlock()
	return NewSummary(run, stopped, start, end, tot, t.counts)
}
