package crawler

import (
	"context"
	"log/slog"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Cycle is what makes a crawl one cycle of an incremental crawler
// (Options.Cycle): the few points where a cycle differs from a plain
// crawl. The crawl loop calls it; package recrawl's Cycle implements it.
// Start runs in Run before the workers start; Queued, Requeue, Fetched and
// Skipped run on the disposer goroutine, in the order of the commits;
// Refresh, NotFetched and Interval run on the workers, concurrently.
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
	// Fetched is told of the final fetch of page id (redirectTo is its
	// redirect target, or storage.NoPage), Skipped of a job recorded
	// without a request.
	Fetched(id uint64, rec *storage.Fetch, redirectTo uint64) error
	Skipped(id uint64, status storage.Status, reason string) error
	// Stop ends what the cycle runs beside the crawl; Run calls it once the
	// disposer has returned.
	Stop()
}

// refreshFetched is counted under "refresh/" for a refetch of a known page
// that Cycle.Refresh allowed and that was made.
const refreshFetched = "fetched"

// Loop is the crawl loop as a Cycle drives it. Its methods that change
// state (Batch, Count, Admit, Seed, Hosts, Restore, Resume) are called
// from Cycle.Start, from the Cycle methods the disposer calls, or from a
// function given to Post; the rest are safe anywhere.
type Loop struct{ c *Crawler }

// Store is the crawl database.
func (l Loop) Store() Store { return l.c.opts.Store }

// Batch is the batch the next commit stores.
func (l Loop) Batch() *storage.Batch { return &l.c.batch }

// Started is the time Run started.
func (l Loop) Started() time.Time { return l.c.start }

// Context ends when work in flight is abandoned (a fatal error, Run
// returning).
func (l Loop) Context() context.Context { return l.c.workCtx }

// Logger receives warnings.
func (l Loop) Logger() *slog.Logger { return l.c.opts.Logger }

// Fetches is the number of page requests made so far, retries included.
func (l Loop) Fetches() uint64 { return l.c.fetches.Load() }

// Count adds n to the run's counter name.
func (l Loop) Count(name string, n uint64) { l.c.count(name, n) }

// Remote reports that another node of the cluster owns host.
func (l Loop) Remote(host string) bool { return l.c.remoteHost(host) }

// Admit counts a URL queued as a page against its host's budget.
func (l Loop) Admit(host string) { l.c.opts.Frontier.Admit(host) }

// Seed gives targets the scheduler's seed weight and queues the new ones
// (frontier.Seed); the frontier's changes go into the batch.
func (l Loop) Seed(targets []frontier.Target) error {
	if err := l.c.opts.Frontier.Seed(targets, &l.c.changes); err != nil {
		return err
	}
	l.c.flushChanges()
	return nil
}

// Hosts adds the stored host states to snap and sets snap.Admitted, the
// per-host URL counts of the host budget, from storage's admitted index
// (the URLs of a host ever queued or fetched; refetches do not count).
// Counts added to snap.Admitted before Restore reach the frontier.
func (l Loop) Hosts(snap *frontier.Snapshot) error {
	if err := l.c.restoreHosts(snap, nil); err != nil {
		return err
	}
	return l.c.loadAdmitted()
}

// SitemapChanged reports whether a sitemap says page id changed after its
// last fetch (prev): it is then due whatever a revisit policy estimated.
func (l Loop) SitemapChanged(id uint64, prev *storage.Page) bool {
	return l.c.sitemapChanged(id, prev)
}

// Restore hands snap to the (fresh) frontier.
func (l Loop) Restore(snap frontier.Snapshot) error { return l.c.opts.Frontier.Restore(snap) }

// Resume restores the stored frontier, host states and scheduler state as
// a resumed crawl does, with the host budgets from storage's admitted
// index, and returns the ids restored.
func (l Loop) Resume() ([]uint64, error) {
	entries, err := l.c.restore(true)
	ids := make([]uint64, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	return ids, err
}

// Post runs fn on the disposer goroutine; a failure stops the crawl. At
// most one function may be posted and not yet run.
func (l Loop) Post(fn func() error) { l.c.posted <- fn }

// Credit queues targets again, or raises a pending one's priority by
// Target.Mass, without the scheduler (Frontier.Credit): a recrawl cycle
// hands out a known page it traversed earlier in the cycle so that it is
// refetched (a paced refetch). The frontier's changes go into the batch.
func (l Loop) Credit(targets []frontier.Target) int {
	n := l.c.opts.Frontier.Credit(targets, &l.c.changes)
	l.c.flushChanges()
	return n
}
