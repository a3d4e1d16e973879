package frontier

import "sync/atomic"

// PageBudget is a crawl's page budget (config MaxPages): how many jobs its
// workers may take in one run. A worker reserves a page before it asks
// Next, so one waiting in Next holds a reservation; it keeps it for a job
// that made a request (retries count) and releases it otherwise (skipped,
// traversed, abandoned, or Next gave no job). Safe for concurrent use.
type PageBudget struct {
	max     int64 // 0: no budget
	taken   atomic.Int64
	refused atomic.Bool
}

// NewPageBudget returns a budget of max pages; max <= 0 means none.
func NewPageBudget(max int64) *PageBudget {
	return &PageBudget{max: max}
}

// Reserve takes one page of the budget; false when it is spent.
func (b *PageBudget) Reserve() bool {
	if b.max <= 0 {
		return true
	}
	if b.taken.Add(1) > b.max {
		b.taken.Add(-1)
		b.refused.Store(true)
		return false
	}
	return true
}

// Release gives back a page Reserve took, for a job that made no request.
func (b *PageBudget) Release() {
	if b.max > 0 {
		b.taken.Add(-1)
	}
}

// Spent reports that a reservation was refused and the pages taken fill
// the budget. Asked once every worker ended (and gave back what it held
// waiting in Next), it tells a spent budget from a crawl with more workers
// than pages left.
func (b *PageBudget) Spent() bool {
	return b.refused.Load() && b.taken.Load() >= b.max
}
