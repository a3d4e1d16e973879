package crawler

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seedcrawl/seedcrawl/extract"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/internal/grace"
	"github.com/seedcrawl/seedcrawl/internal/mailbox"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Crawler runs one crawl: Run starts the workers and the disposer and
// returns when the crawl stops. A Crawler runs once. Its state is grouped
// by who touches it.
type Crawler struct {
	opts      Options
	rules     *scope.Rules       // which links are followed
	extractor *extract.Extractor // links of a page, capped while parsing
	adm       *scope.Admission   // the links admitted so far (disposer only)
	in        chan outcome       // workers → disposer
	ran       atomic.Bool

	life *grace.Stop // ends a run: no new jobs (ctx, MaxDuration, fatal error), then work in flight
	tally
	pending
	cyc Cycle // Options.Cycle; nil for a plain crawl
	outside
	sm Sitemaps // Options.Sitemaps when Settings.Sitemaps; nil otherwise
	// olderHashes: the db holds content hashes an older build made
	// (storage.DB.OlderHashes), so fetches carry the body's hash of that
	// kind too (storage.HashesOf) and a copy of such a page is not novel.
	olderHashes bool
}

// tally holds the worker and progress counters, safe to read from any
// goroutine (Progress).
type tally struct {
	live      atomic.Int64 // workers running
	waiting   atomic.Int64 // workers blocked in Frontier.Next
	pages     *frontier.PageBudget
	exhausted atomic.Bool

	fetching atomic.Int64  // requests on the wire now (at most one per worker)
	totals   monitor.Tally // this run's totals and counters (also stored)
}

// pending is the batch the disposer builds and commits (touched only by
// the disposer goroutine, and by Run before it starts and after it ends).
type pending struct {
	journal storage.Journal // the batch, when to commit it, the run record
	changes frontier.Changes
	start   time.Time
}

// outside is the state of URLs that come from outside the crawl's own
// links (Options.Feed) and of the functions posted to the disposer
// (Loop.Post).
type outside struct {
	seeded  atomic.Bool      // the seeds are committed: Loop.Idle may report true
	dirty   atomic.Bool      // a message was handled and its effects are not committed yet
	cluster Cluster          // Options.Feed when it shares hosts; nil otherwise
	mail    *mailbox.Mailbox // functions to run on the disposer (Loop.Post); closed when it stops
}

// New returns a Crawler; it fails with ErrOptions when a required part is
// missing or a limit is negative.
func New(opts Options) (*Crawler, error) {
	if err := opts.setDefaults(); err != nil {
		return nil, err
	}
	c := &Crawler{
		opts:  opts,
		rules: scope.New(scope.Options{Scope: opts.Scope, SeedRedirects: opts.SeedRedirects, Settings: opts.Settings, Hosts: opts.Frontier}),
		in:    make(chan outcome, 2*len(opts.Fetchers)),
		cyc:   opts.Cycle,
	}
	c.adm = c.rules.Admission()
	c.pages = frontier.NewPageBudget(opts.Settings.MaxPages)
	c.cluster, _ = opts.Feed.(Cluster)
	c.journal.Cadence = storage.Cadence{Pages: opts.Settings.CommitPages, Interval: opts.Settings.CommitInterval,
		Few: trickleCommit, Linger: lingerCommit * min(opts.Settings.CommitInterval, math.MaxInt64/lingerCommit)}
	if c.cluster != nil {
		c.journal.Cadence.Few, c.journal.Cadence.Starve = 0, clusterStarveCommit
	}
	c.mail = mailbox.New()
	var err error
	if c.extractor, err = c.rules.Extractor(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	if opts.Settings.Sitemaps {
		c.sm = opts.Sitemaps
	}
	if c.olderHashes, err = opts.Store.OlderHashes(); err != nil {
		return nil, fmt.Errorf("crawler: %w", err)
	}
	return c, nil
}

// StopGrace is how long requests in flight may go on after the crawl was
// told to stop (Ctrl-C, SIGTERM, --max-duration) before they are
// cancelled. Within it most requests finish and are stored; past it a
// request is abandoned and its URL fetched again by the next run.
const StopGrace = 500 * time.Millisecond

// Run crawls from seeds (absolute URLs; normalized here) and from whatever
// the stored frontier holds, until the frontier is exhausted, a budget is
// spent or ctx ends. A graceful stop returns a nil error; the summary is
// filled in either case. Seeds already known to the database are not
// queued again unless Options.Refetch is set.
func (c *Crawler) Run(ctx context.Context, seeds []string) (monitor.Summary, error) {
	if !c.ran.CompareAndSwap(false, true) {
		return monitor.Summary{}, fmt.Errorf("%w: Run called twice", ErrOptions)
	}
	defer c.mail.Close(nil) // when Run fails before its disposer starts
	c.start = time.Now()
	c.totals.Begin(c.start)
	// A stop (ctx, MaxDuration) lets the requests in flight finish for
	// StopGrace, then cancels them: a hanging server cannot hold the crawl
	// past it, and the abandoned URLs stay in the stored frontier.
	c.life = grace.New(ctx, c.opts.Settings.MaxDuration, StopGrace)
	defer c.life.Close()

	norm, err := urlnorm.Seeds(seeds)
	if err != nil {
		return monitor.Summary{}, err
	}
	var pending int
	if c.cyc != nil {
		pending, err = c.cyc.Start(Loop{c}, norm)
	} else {
		var entries []frontier.Entry
		entries, err = frontier.Resume(c.opts.Store, c.opts.Frontier, frontier.CountFor(c.opts.Settings.HostMaxPages))
		pending = len(entries)
	}
	if err != nil {
		return monitor.Summary{}, err
	}
	if c.sm != nil {
		c.sm.Start(Loop{c})
	}
	if err := c.journal.Start(c.opts.Store, c.start, c.opts.Command, c.opts.Settings); err != nil {
		return monitor.Summary{}, fmt.Errorf("crawler: start run: %w", err)
	}
	queued, err := c.seed(norm)
	if err != nil {
		return c.summary(monitor.StopError), err
	}
	if pending == 0 && queued == 0 && len(norm) == 0 && c.opts.Feed == nil {
		return c.summary(monitor.StopError), ErrNoSeeds
	}
	if c.opts.Feed != nil {
		defer c.holdForFeed()()
		if err := c.opts.Feed.Attach(Loop{c}); err != nil {
			return c.summary(monitor.StopError), err
		}
	}
	if err := c.commit(); err != nil {
		return c.summary(monitor.StopError), err
	}
	c.seeded.Store(true)

	var wg sync.WaitGroup
	c.live.Store(int64(len(c.opts.Fetchers)))
	for _, f := range c.opts.Fetchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.live.Add(-1)
			c.work(f)
		}()
	}
	errc := make(chan error, 1)
	go func() { errc <- c.dispose() }()
	wg.Wait()
	close(c.in)
	runErr := <-errc
	if c.cyc != nil {
		c.cyc.Stop()
	}

	stop := c.stopReason(ctx, runErr)
	if runErr == nil {
		// The run record keeps why it ended ("stop/interrupted", ...), so
		// a run stopped by Ctrl-C is told from one that finished.
		c.count("stop/"+stop, 1)
		if err := c.journal.Commit(c.opts.Store, c.totals.Stored(), time.Now()); err != nil {
			runErr = fmt.Errorf("crawler: close run %d: %w", c.journal.Run().ID, err)
			stop = monitor.StopError
		}
	}
	return c.summary(stop), runErr
}

// Seeded reports that the run's seeds are stored: its first commit,
// which holds them all, is done.
func (c *Crawler) Seeded() bool { return c.seeded.Load() }

// stopReason says why the run stopped. A worker stopped on a dry frontier
// ran it dry, but an outcome applied after that (a site's sitemaps,
// queued after its page's Done) may have queued URLs: with URLs left the
// run did not exhaust the frontier, and a rerun goes on.
func (c *Crawler) stopReason(ctx context.Context, runErr error) string {
	st := c.opts.Frontier.Stats()
	return monitor.Stopping{
		Err: runErr, Exhausted: c.exhausted.Load() && st.Pending+st.InFlight == 0, BudgetSpent: c.pages.Spent(),
		Interrupted: ctx.Err() != nil,
		TimedOut:    c.life.TimedOut(),
	}.Reason()
}

// seed interns the seeds and queues the new ones (all of them with
// Refetch). It returns how many the frontier may have queued.
func (c *Crawler) seed(seeds []string) (int, error) {
	s, err := scope.Seed(c.opts.Store, c.opts.Frontier, Loop{c}, seeds, scope.SeedOptions{Known: c.opts.Refetch, Remote: c.remoteHost})
	if err != nil {
		return 0, fmt.Errorf("crawler: seed: %w", err)
	}
	if len(seeds) > 0 {
		c.count("seeds", uint64(s.Queued))
	}
	return s.Queued, nil
}
