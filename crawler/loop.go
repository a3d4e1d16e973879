package crawler

import (
	"context"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Cycle is what makes a crawl one cycle of an incremental crawler
// (Options.Cycle): the few points where a cycle differs from a plain
// crawl. The crawl loop calls it; package recrawl's Cycle implements it.
// Start runs in Run before the workers start; Queued, Requeue, Recorded
// and Committing run on the disposer goroutine, in the order of the
// commits; Refresh, NotFetched and Interval run on the workers,
// concurrently.
type Cycle interface {
	// N is the number of the cycle the crawl's fetches are stored in.
	N() uint32
	// Start queues the cycle's first URLs through l before Run's first
	// commit (a new cycle's frontier, or the stored one resumed) and
	// returns how many are pending. seeds are the seeds given to Run.
	Start(l Loop, seeds []string) (int, error)
	// Refresh decides how a job for page id, fetched before (prev), is
	// handled: fetched (true), or traversed from storage, its stored links
	// handed on without a request (false). why is counted under
	// "refresh/". uncommitted reports that id's result of this run awaits
	// the next commit (prev does not show it yet).
	Refresh(id uint64, prev *storage.Page, uncommitted bool) (why string, fetch bool)
	// NotFetched hands back a refetch Refresh allowed that ended without
	// a fetch (the job was skipped, abandoned or failed before its
	// request).
	NotFetched()
	// Interval is the revisit interval stored with fetch f of a page whose
	// record before f is prev.
	Interval(prev *storage.Page, f *storage.Fetch) time.Duration
	// Queued notes that id was queued in this cycle.
	Queued(id uint64)
	// Requeue reports whether a link of this cycle to id, a URL seen
	// before, queues it again.
	Requeue(id uint64) (bool, error)
	// Recorded is told of the final outcome of each job, as a Feed is.
	Recorded(r *Recorded) error
	// Committing is called on the disposer before each commit with the
	// batch it stores: the cycle adds state of its own that must be stored
	// with the results the batch holds (a paced cycle's owed refetches).
	Committing(b *storage.Batch)
	// Stop ends what the cycle runs beside the crawl; Run calls it once the
	// disposer has returned.
	Stop()
}

// Loop is the crawl loop as its extensions (Cycle, Feed, Sitemaps) drive
// it. Its methods that change state (Batch, Count, Seed, Offer, Credit,
// Add, Commit; the Frontier's Admit and Restore) are called from
// Cycle.Start or Sitemaps.Start, from the hook methods the disposer calls,
// or from a function given to Post; the rest are safe anywhere.
type Loop struct{ c *Crawler }

// Store is the crawl database.
func (l Loop) Store() Store { return l.c.opts.Store }

// Batch is the batch the next commit stores.
func (l Loop) Batch() *storage.Batch { return &l.c.journal.Batch }

// Started is the time Run started.
func (l Loop) Started() time.Time { return l.c.start }

// Context ends when work in flight is abandoned (a fatal error, Run
// returning).
func (l Loop) Context() context.Context { return l.c.life.Work() }

// Fetches is the number of page requests made so far, retries included.
func (l Loop) Fetches() uint64 { return l.c.totals.Fetches.Load() }

// Count adds n to the run's counter name.
func (l Loop) Count(name string, n uint64) { l.c.count(name, n) }

// Remote reports that another node of the cluster owns host.
func (l Loop) Remote(host string) bool { return l.c.remoteHost(host) }

// Frontier is the crawl's frontier (Options.Frontier). Its methods that
// report frontier.Changes are called through Loop (Seed, Credit, Add),
// which stores the changes; Admit and Restore change state, and are
// called from the same places as Loop's methods that do.
func (l Loop) Frontier() Frontier { return l.c.opts.Frontier }

// Seed gives targets the scheduler's seed weight and queues the new ones
// (frontier.Seed); the frontier's changes go into the batch.
func (l Loop) Seed(targets []frontier.Target) error {
	if err := l.c.opts.Frontier.Seed(targets, &l.c.changes); err != nil {
		return err
	}
	l.c.changes.Flush(&l.c.journal.Batch)
	return nil
}

// Post has fn run on the disposer goroutine, in the order posted, without
// waiting for it; URLs it queues through the frontier wake the workers
// waiting on it. A
// failure stops the crawl. Once the crawl stopped, fn is not run: Post
// fails with ErrStopped, or Stopped closes before fn ran.
func (l Loop) Post(fn func() error) error {
	if !l.c.mail.Post(fn) {
		return ErrStopped
	}
	return nil
}

// Commit commits the batch now (disposer only).
func (l Loop) Commit() error { return l.c.commit() }

// Stopped is closed once the disposer stopped; Err then says why (nil: a
// graceful stop).
func (l Loop) Stopped() <-chan struct{} { return l.c.mail.Closed() }

// Err is the error that stopped the crawl, once Stopped is closed.
func (l Loop) Err() error { return l.c.mail.Err() }

// Rules are the crawl's scope rules: which URLs it vets (Vet), keeps in
// scope (InScope) and may queue (Check).
func (l Loop) Rules() *scope.Rules { return l.c.rules }

// Uncommitted reports that id's final outcome is recorded and awaits the
// next commit (kept with a Cycle or a Feed).
func (l Loop) Uncommitted(id uint64) bool { return l.c.journal.Uncommitted(id) }

// Offer applies a link from outside (another node's) at depth to id, an
// in-scope URL interned with isNew, as the crawl applies its own links
// (scope.Admission.Offer, again included), recording the status it gives.
// It reports whether id was queued (the frontier's Target.New).
func (l Loop) Offer(id uint64, u string, depth int, isNew, again bool) bool {
	queued, skips := l.c.adm.Offer(scopeCrawl{l.c}, id, u, depth, isNew, again)
	l.c.skip(skips)
	if queued {
		l.c.totals.Discovered.Add(1)
	}
	return queued
}

// Credit applies priority mass and depth to targets without the
// scheduler (frontier.Credit): other nodes' shares for URLs this node
// owns, or a recrawl cycle's paced refetch of a known page it traversed
// earlier in the cycle. The changes go into the batch; it returns how
// many targets were queued or raised.
func (l Loop) Credit(targets []frontier.Target) int {
	n := l.c.opts.Frontier.Credit(targets, &l.c.changes)
	l.c.changes.Flush(&l.c.journal.Batch)
	return n
}

// Idle reports that the crawl has started, nothing is queued or in flight
// and every result (with the URLs it handed off) is committed.
func (l Loop) Idle() bool { return l.c.idle() }

// Cycle is the cycle the crawl's fetches are stored in.
func (l Loop) Cycle() uint32 { return l.c.currentCycle() }

// Add queues targets outside the scheduler at priority prio (sitemaps),
// ahead of their hosts' other URLs and under the frontier's politeness;
// it returns how many were queued.
func (l Loop) Add(targets []frontier.Target, prio float64) int {
	return l.c.opts.Frontier.Add(targets, prio, &l.c.changes)
}
