package frontier

import "sync"

// hostBudget is the host page budget (Options.HostMaxPages): how many URLs
// of each host were admitted over the life of the crawl database. It is
// kept apart from the per-host politeness state because it covers hosts
// with nothing queued (a resumed crawl counts every host it ever queued)
// and must not make them count as hosts in Stats. It has its own lock:
// the crawl loop asks about every new link, and Next's callers need not
// wait for that.
type hostBudget struct {
	max      int64 // 0: no budget
	mu       sync.Mutex
	admitted map[string]int64 // URLs admitted per host
}

// HostFull reports whether host's page budget (Options.HostMaxPages) is
// spent: a new URL of that host is to be refused, recorded by the crawl
// loop as rejected for "host-max-pages". Always false without a budget.
func (f *Frontier) HostFull(host string) bool {
	if f.budget.max <= 0 {
		return false
	}
	f.budget.mu.Lock()
	defer f.budget.mu.Unlock()
	return f.budget.admitted[host] >= f.budget.max
}

// Admit counts one more URL of host against its page budget. The crawl
// loop calls it for every URL it queues as a page (a seed, a link, a
// redirect target, a URL handed over by another node), whatever later
// becomes of it: fetched, failed, robots-denied or deferred, a URL once
// queued stays counted. Sitemap files (Add) are not counted. Without a
// budget it does nothing.
func (f *Frontier) Admit(host string) {
	if f.budget.max <= 0 {
		return
	}
	f.budget.mu.Lock()
	defer f.budget.mu.Unlock()
	if f.budget.admitted == nil {
		f.budget.admitted = map[string]int64{}
	}
	f.budget.admitted[host]++
}

// Admitted returns how many URLs of host were counted against its page
// budget (0 without a budget).
func (f *Frontier) Admitted(host string) int64 {
	f.budget.mu.Lock()
	defer f.budget.mu.Unlock()
	return f.budget.admitted[host]
}

// restoreBudget sets the per-host counts of a resumed crawl (a copy of
// counts).
func (f *Frontier) restoreBudget(counts map[string]int64) {
	if f.budget.max <= 0 || len(counts) == 0 {
		return
	}
	f.budget.mu.Lock()
	defer f.budget.mu.Unlock()
	f.budget.admitted = make(map[string]int64, len(counts))
	for h, n := range counts {
		f.budget.admitted[h] = n
	}
}
