package recrawl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

// AlgoGiven keeps the seeds of the previous cycle (the given seeds of cycle
// 1, with vanished ones replaced) instead of selecting new ones.
const AlgoGiven = "given"

// Store is what a Runner needs from the crawl database; *storage.DB
// implements it.
type Store interface {
	Cycles() ([]storage.Cycle, error)
	Graph() (*storage.View, error)
	AsOf(cycle uint32) (*storage.View, error)
	Page(id uint64) (storage.Page, error)
	Links(src uint64) ([]storage.Link, error)
	EachPage(fn func(p *storage.Page) error) error
	EachFetch(cycle uint32, fn func(r storage.FetchRecord) error) error
	// EachPageOf and EachHistoryOf read a few pages (a budget-limited
	// cycle's refresh pool) in one transaction each.
	EachPageOf(ids []uint64, fn func(p *storage.Page) error) error
	EachHistoryOf(ids []uint64, last uint32, fn func(id uint64, recs []storage.FetchRecord) error) error
	Lookup(urls []string) ([]uint64, error)
	LoadFrontier(fn func(e storage.Entry) error) error
	// Owed returns the refetches a paced cycle owes, stored with its
	// commits (at most its refresh cap).
	Owed(cycle uint32) ([]storage.Owed, error)
	State(name string) ([]byte, error)
	Commit(b *storage.Batch) error
	NextID() uint64
}

// CrawlFunc runs the crawl of one cycle as planned and returns when it
// stops. It returns nil for a crawl that ended (exhausted, budget spent)
// and for one that ctx interrupted; the Runner tells the two apart by ctx.
type CrawlFunc func(ctx context.Context, p *Plan) error

// Options configure a Runner. Store, Crawl and K (in Select) are required;
// every other zero value is documented.
type Options struct {
	// Store is the crawl database.
	Store Store
	// Crawl runs one cycle's crawl (cmd wires the crawler).
	Crawl CrawlFunc

	// Seeds are the seeds of cycle 1 (absolute URLs). Later cycles use them
	// only when the database records no seeds (a db written by seedcrawl
	// crawl).
	Seeds []string
	// SeedAlgo selects the seeds of cycles 2, 3, ...: AlgoGiven,
	// AlgoNewPages or a selector of package seeds; "" means AlgoGiven.
	SeedAlgo string
	// Select tunes the selector (K, Hops, Depth, PerHost, hits-core
	// settings); Algo, Candidates and Rand are set here. K is required.
	Select seeds.Options
	// RandSeed seeds the selectors' random choices, mixed with the cycle
	// number so that every cycle is reproducible.
	RandSeed uint64

	// Cycles stops the Runner once cycle Cycles is complete (cycles are
	// numbered in the database, so rerunning resumes and stops at the same
	// place); 0 means run until ctx ends.
	Cycles uint32
	// Interval is the pause between the end of one cycle and the start of
	// the next (also across restarts: the next cycle starts Interval after
	// the stored end of the last one); 0 means none.
	Interval time.Duration
	// CrawlEnd is when the crawl of a db written by seedcrawl crawl ended:
	// its cycle 1 has no stored record and so no stored end, and Interval
	// runs from this instead. Zero means unknown: cycle 2 starts at once.
	CrawlEnd time.Time
	// Pausing, when set, is called before the Runner waits for the start
	// of the next cycle (Interval after the end of the last), so that a
	// wait of hours is not taken for a hang; nil means nothing is told.
	Pausing func(p Pause)
	// PagesPerCycle is each cycle's fetch budget; 0 means no limit (a cycle
	// ends when nothing is left to crawl).
	PagesPerCycle int64
	// DiscoveryShare is the share of PagesPerCycle kept from refetches of
	// known pages, for URLs never fetched: refetches are capped at
	// (1 − DiscoveryShare) × PagesPerCycle. 0 means no cap.
	DiscoveryShare float64
	// Revisit is the adaptive revisit schedule of known pages.
	Revisit Revisit
	// RefreshPolicy spreads the refresh share of each cycle's budget over
	// the known pages: RefreshOptimal (change-aware), RefreshImportance,
	// RefreshUniform or RefreshPageRank; "" means RefreshPageRank.
	RefreshPolicy string
	// RefreshPace says how a budget-limited cycle spends its capped
	// refresh share (DiscoveryShare > 0): PaceEven spreads the refetches
	// evenly over the budget, PaceFront grants them as the scheduler
	// reaches known pages, which puts them first. "" means PaceEven. See
	// the package documentation, "Refresh pacing".
	RefreshPace string
	// ReseedEvery reruns seed selection every ReseedEvery fetched pages
	// inside a cycle and injects the seeds into the frontier; 0 means never.
	// It needs a selector (SeedAlgo other than AlgoGiven).
	ReseedEvery uint64
	// Scheduler is the crawl's scheduler name, recorded with each cycle.
	// "" means bfs.
	Scheduler string

	// Agree, when set, is called with the seeds planned for a new cycle
	// n ≥ 2 and returns the seeds the cycle crawls: the nodes of a cluster
	// agree on the selection of one of them (cmd/seedcrawl elects it
	// through package cluster). nil keeps the plan's seeds.
	Agree func(ctx context.Context, n uint32, seeds []Pick) ([]Pick, error)

	// Report is called after each completed cycle with its stored record;
	// nil means nothing is reported.
	Report func(c storage.Cycle)
	// Logger gets progress notes; nil discards them.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Pause is a wait between two cycles: cycle Next starts at Until,
// Interval after cycle Next-1 ended at Ended.
type Pause struct {
	Next     uint32
	Ended    time.Time
	Until    time.Time
	Interval time.Duration
}

// Runner runs the cycles of an incremental crawl on one database.
type Runner struct {
	o      Options
	ranked int // PageRank computations (StateRank): one per cycle planned
}

// New validates o and returns a Runner.
func New(o Options) (*Runner, error) {
	switch {
	case o.Store == nil || o.Crawl == nil:
		return nil, fmt.Errorf("%w: Store and Crawl are required", ErrOptions)
	case o.Select.K < 1:
		return nil, fmt.Errorf("%w: K = %d, want at least 1 seed", ErrOptions, o.Select.K)
	case o.Interval < 0 || o.PagesPerCycle < 0:
		return nil, fmt.Errorf("%w: negative interval or budget", ErrOptions)
	case !(o.DiscoveryShare >= 0 && o.DiscoveryShare <= 1): // NaN fails too
		return nil, fmt.Errorf("%w: discovery share %g, want 0..1", ErrOptions, o.DiscoveryShare)
	}
	if o.SeedAlgo == "" {
		o.SeedAlgo = AlgoGiven
	}
	if o.SeedAlgo != AlgoGiven && o.SeedAlgo != AlgoNewPages && !slices.Contains(seeds.Algos(), o.SeedAlgo) {
		return nil, fmt.Errorf("%w: seed algo %q (known: %s, %s, %v)", ErrOptions, o.SeedAlgo, AlgoGiven, AlgoNewPages, seeds.Algos())
	}
	if o.ReseedEvery > 0 && o.SeedAlgo == AlgoGiven {
		return nil, fmt.Errorf("%w: reseeding needs a seed selector, not %q", ErrOptions, AlgoGiven)
	}
	if o.RefreshPolicy == "" {
		o.RefreshPolicy = RefreshPageRank
	}
	if o.RefreshPace == "" {
		o.RefreshPace = PaceEven
	}
	if !slices.Contains(RefreshPaces(), o.RefreshPace) {
		return nil, fmt.Errorf("%w: refresh pace %q (known: %v)", ErrOptions, o.RefreshPace, RefreshPaces())
	}
	if !slices.Contains(RefreshPolicies(), o.RefreshPolicy) {
		return nil, fmt.Errorf("%w: refresh policy %q (known: %v)", ErrOptions, o.RefreshPolicy, RefreshPolicies())
	}
	if err := o.Revisit.Validate(); err != nil {
		return nil, err
	}
	if o.Scheduler == "" {
		o.Scheduler = "bfs"
	}
	if _, err := scheduler.ByName(o.Scheduler, scheduler.Options{Truth: func(uint64) float64 { return 0 }}); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Runner{o: o}, nil
}

// Run runs cycles until cycle Options.Cycles is complete or ctx ends. A
// cycle that was interrupted (ctx, a crash) is resumed first. Run returns
// nil when it stops because of ctx.
func (r *Runner) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		cycles, err := r.o.Store.Cycles()
		if err != nil {
			return fmt.Errorf("recrawl: read cycles: %w", err)
		}
		var last *storage.Cycle
		if len(cycles) > 0 {
			last = &cycles[len(cycles)-1]
		}
		var p *Plan
		switch {
		case last != nil && recorded(last) && last.End.IsZero():
			if p, err = r.resumePlan(last); err != nil {
				return err
			}
		case (last == nil || (!recorded(last) && last.N == 1 && len(cycles) == 1)) && r.o.Store.NextID() > 0:
			// A db of seedcrawl crawl alone: its crawl is cycle 1. With
			// URLs left in its frontier that crawl was interrupted (or
			// stopped by a limit), so cycle 1 is finished from that
			// frontier before cycle 2 is planned.
			if p, err = r.crawlPlan(last); err != nil {
				return err
			}
		}
		if p == nil {
			n := uint32(1)
			switch {
			case last != nil && recorded(last):
				n = last.N + 1
			case r.o.Store.NextID() > 0:
				// A db of seedcrawl crawl: its crawl is cycle 1 (or the
				// cycles it counted).
				n = 2
				if last != nil {
					n = last.N + 1
				}
			}
			if r.o.Cycles > 0 && n > r.o.Cycles {
				return nil
			}
			if !r.pause(ctx, n, last) {
				return nil
			}
			if p, err = r.newPlan(ctx, n, cycles); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
		}
		p.Paced = r.o.RefreshPace == PaceEven
		if err := r.runCycle(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// crawlPlan returns the plan that finishes the implicit cycle 1 of a db of
// seedcrawl crawl (last: its statistics, or nil) when its frontier still
// holds URLs, after storing a record of cycle 1 so that the cycle is
// resumed like any other if this run is interrupted too; nil plan and nil
// error when the crawl left nothing to fetch (it is complete). Only the
// frontier's first entry is read.
func (r *Runner) crawlPlan(last *storage.Cycle) (*Plan, error) {
	err := r.o.Store.LoadFrontier(func(storage.Entry) error { return errFrontierHasEntry })
	switch {
	case err == nil:
		return nil, nil
	case !errors.Is(err, errFrontierHasEntry):
		return nil, fmt.Errorf("recrawl: read the frontier of cycle 1: %w", err)
	}
	rec := storage.Cycle{N: 1, Start: r.o.Now(), Info: `{"resumed":"seedcrawl crawl"}`}
	if last != nil {
		rec.Stats = last.Stats
	}
	var b storage.Batch
	b.PutCycle(rec)
	if err := r.o.Store.Commit(&b); err != nil {
		return nil, fmt.Errorf("recrawl: record cycle 1 of the crawl: %w", err)
	}
	cycles, err := r.o.Store.Cycles()
	if err != nil {
		return nil, fmt.Errorf("recrawl: read cycles: %w", err)
	}
	if len(cycles) > 0 {
		rec = cycles[len(cycles)-1]
	}
	return r.resumePlan(&rec)
}

// recorded reports whether c has a stored record (an implicit cycle 1 of a
// plain crawl has only statistics).
func recorded(c *storage.Cycle) bool { return !c.Start.IsZero() }

// runCycle crawls one planned cycle and closes it unless ctx ended.
func (r *Runner) runCycle(ctx context.Context, p *Plan) error {
	if p.MaxPages >= 0 {
		r.o.Logger.Info("cycle", "n", p.Cycle.N, "resume", !p.Start, "seeds", len(p.Seeds), "refresh", len(p.Refresh),
			"budget", p.MaxPages)
		if err := r.o.Crawl(ctx, p); err != nil {
			return fmt.Errorf("recrawl: cycle %d: %w", p.Cycle.N, err)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	if p.Lazy {
		if err := r.dropFrontier(p.Cycle.N); err != nil {
			return err
		}
	}
	if err := r.dropOwed(p.Cycle.N); err != nil {
		return err
	}
	return r.closeCycle(p.Cycle.N)
}

// dropChunk is the number of frontier entries one transaction deletes.
const dropChunk = 10000

// dropFrontier removes the frontier entries a budget-limited cycle left
// unused, dropChunk per transaction, so that no transaction grows with
// the db: the next cycle queues those URLs again when a link reaches them
// (their pages keep the status queued).
func (r *Runner) dropFrontier(n uint32) error {
	var ids []uint64
	if err := r.o.Store.LoadFrontier(func(e storage.Entry) error {
		ids = append(ids, e.ID)
		return nil
	}); err != nil {
		return fmt.Errorf("recrawl: cycle %d: read frontier: %w", n, err)
	}
	for lo := 0; lo < len(ids); lo += dropChunk {
		var b storage.Batch
		for _, id := range ids[lo:min(lo+dropChunk, len(ids))] {
			b.DeleteFrontier(id)
		}
		if err := r.o.Store.Commit(&b); err != nil {
			return fmt.Errorf("recrawl: cycle %d: drop %d unused frontier entries: %w", n, len(ids), err)
		}
	}
	return nil
}

// dropOwed removes the refetches cycle n still owed when its crawl ended
// (its budget spent first), dropChunk per transaction: the next cycle
// plans its own.
func (r *Runner) dropOwed(n uint32) error {
	owed, err := r.o.Store.Owed(n)
	if err != nil {
		return fmt.Errorf("recrawl: cycle %d: %w", n, err)
	}
	for lo := 0; lo < len(owed); lo += dropChunk {
		var b storage.Batch
		for _, o := range owed[lo:min(lo+dropChunk, len(owed))] {
			b.DeleteOwed(n, o.ID)
		}
		if err := r.o.Store.Commit(&b); err != nil {
			return fmt.Errorf("recrawl: cycle %d: drop %d owed refetches: %w", n, len(owed), err)
		}
	}
	return nil
}

// closeCycle stores the end of cycle n (its record as the crawl left it)
// and reports it.
func (r *Runner) closeCycle(n uint32) error {
	rec, err := r.cycle(n)
	if err != nil {
		return err
	}
	if !recorded(&rec) {
		return fmt.Errorf("recrawl: cycle %d has no record to close", n)
	}
	rec.End = r.o.Now()
	var b storage.Batch
	b.PutCycle(rec)
	if err := r.o.Store.Commit(&b); err != nil {
		return fmt.Errorf("recrawl: close cycle %d: %w", n, err)
	}
	// Rank the graph the cycle leaves now, so that the next cycle starts
	// without ranking it.
	if _, err := r.rank(n, nil); err != nil {
		return err
	}
	if r.o.Report != nil {
		if rec, err = r.cycle(n); err != nil {
			return err
		}
		r.o.Report(rec)
	}
	return nil
}

// cycle returns the stored record of cycle n with its statistics.
func (r *Runner) cycle(n uint32) (storage.Cycle, error) {
	cycles, err := r.o.Store.Cycles()
	if err != nil {
		return storage.Cycle{}, fmt.Errorf("recrawl: read cycles: %w", err)
	}
	for _, c := range cycles {
		if c.N == n {
			return c, nil
		}
	}
	return storage.Cycle{}, fmt.Errorf("recrawl: cycle %d: %w", n, storage.ErrNotFound)
}

// pause waits until cycle n may start, Interval after the end of the
// cycle before it (last: its stored record, or the statistics of the
// crawl of a db of seedcrawl crawl, or nil), telling Pausing first; false
// if ctx ended first.
func (r *Runner) pause(ctx context.Context, n uint32, last *storage.Cycle) bool {
	if r.o.Interval <= 0 || n < 2 {
		return ctx.Err() == nil
	}
	ended := r.o.CrawlEnd
	if last != nil && recorded(last) {
		ended = last.End
	}
	if ended.IsZero() {
		return ctx.Err() == nil
	}
	until := ended.Add(r.o.Interval)
	if r.o.Pausing != nil && until.After(r.o.Now()) {
		r.o.Pausing(Pause{Next: n, Ended: ended, Until: until, Interval: r.o.Interval})
	}
	return sleepUntil(ctx, until, r.o.Now)
}

// sleepUntil waits until t; false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time, now func() time.Time) bool {
	d := t.Sub(now())
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-tm.C:
		return true
	}
}
