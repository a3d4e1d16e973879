package compare

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// Options configures New. Schedulers, Seeds and Budget are required; every
// other zero value is documented.
type Options struct {
	// Schedulers names one logical crawl each (see scheduler.ByName), in
	// report order. omniscient is not allowed: on the live web nobody knows
	// the truth; the report adds an omniscient crawl on the union graph as a
	// reference instead.
	Schedulers []string
	// Seeds are the URLs every crawl starts from, handed to each scheduler
	// in this order; repeated URLs count once.
	Seeds []string
	// Budget is the number of pages each logical crawl downloads (fewer if
	// it runs out of URLs).
	Budget int
	// Window is how many of its top URLs a crawl may have in flight at once;
	// 0 means 1, the exact sequential order of sim. See the package
	// documentation for what a larger window does.
	Window int
	// Damping is d for fpr, fpr@M and rankmass-window; 0 means 0.85.
	Damping float64
	// RandomSeed seeds the random scheduler (random@SEED overrides it).
	RandomSeed uint64
	// Host returns the host of a URL; two links are intra-host when their
	// hosts are equal. nil means graph.HostOf (the lower-cased host name
	// without port), the rule sim's graphs use.
	Host func(url string) string
	// SaveEvery is the number of downloads of a crawl between progress
	// saves; 0 means 1024. A crawl also saves when it stops. Saves run on
	// one goroutine beside the crawls, which do not wait for them (a store
	// may hold a lock while it writes, and pages delivered meanwhile are
	// revealed after it); a failed save ends Run with its error. After
	// kill -9 up to SaveEvery downloads per crawl (and those of a save under
	// way) are replayed again, from stored pages or pages the Web delivers
	// again without fetching them (the crawler's records).
	SaveEvery int
	// FrontierShare is how much of the crawls' frontier Run fetches for
	// the score once every crawl is done, as a share of the union of the
	// downloaded sets: the FrontierSample of at most FrontierShare × |union|
	// URLs, counting frontier pages an earlier run fetched. Score uses them
	// with ScoreOptions.Frontier. 0 means none; +Inf means all of the
	// frontier. DefaultFrontierShare keeps the requests within 1.1 × |union|.
	FrontierShare float64
	// Logger gets progress lines; nil discards.
	Logger *slog.Logger
}

// Compare is a comparison of schedulers by shared fetches. Run it with Run
// (one Run at a time); Report, Sequences, Pages and Requests may be called
// at any time, also while it runs.
type Compare struct {
	o        Options
	store    Store
	t        *table
	seeds    []uint32 // gids, distinct, in order
	seedURLs []string // the same as URLs
	crawls   []*logical
	loaded   bool
}

// logical is a crawl with what the engine needs around it.
type logical struct {
	mu    sync.Mutex // guards c while it steps, for snapshots, and saved
	c     *crawl
	saved int           // downloads stored
	wake  chan struct{} // a page was revealed

	saveMu sync.Mutex  // held by a save of this crawl: saves go in order
	saving atomic.Bool // a save is queued for the saver or running
}

// New prepares a comparison persisted in store.
func New(store Store, o Options) (*Compare, error) {
	if o.Budget < 1 {
		return nil, fmt.Errorf("%w: budget %d: give each crawl at least 1 page", ErrOptions, o.Budget)
	}
	if o.Window < 0 {
		return nil, fmt.Errorf("%w: window %d is negative", ErrOptions, o.Window)
	}
	if o.Window == 0 {
		o.Window = 1
	}
	if o.SaveEvery <= 0 {
		o.SaveEvery = 1024
	}
	if !(o.FrontierShare >= 0) {
		return nil, fmt.Errorf("%w: frontier share %v is negative", ErrOptions, o.FrontierShare)
	}
	if o.Host == nil {
		o.Host = graph.HostOf
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if len(o.Schedulers) == 0 {
		return nil, fmt.Errorf("%w: no schedulers", ErrOptions)
	}
	o.Schedulers = slices.Clone(o.Schedulers) // canonical names, not the caller's slice
	seen := map[string]bool{}
	for i, n := range o.Schedulers {
		n = strings.ToLower(strings.TrimSpace(n))
		if seen[n] {
			return nil, fmt.Errorf("%w: scheduler %q named twice", ErrOptions, n)
		}
		seen[n] = true
		base, _, _ := strings.Cut(n, "@")
		if base == "omniscient" {
			return nil, fmt.Errorf("%w: omniscient needs the true importance of every page, which the live web does not tell; the report adds an omniscient crawl on the union graph", ErrOptions)
		}
		if _, err := scheduler.ByName(n, schedOptions(o)); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrOptions, err)
		}
		o.Schedulers[i] = n
	}
	c := &Compare{o: o, store: store, t: newTable(o.Host)}
	for _, u := range o.Seeds {
		if _, dup := c.t.ids[u]; dup {
			continue
		}
		c.seeds = append(c.seeds, c.t.intern(u))
		c.seedURLs = append(c.seedURLs, u)
	}
	if len(c.seeds) == 0 {
		return nil, fmt.Errorf("%w: no seeds", ErrOptions)
	}
	return c, nil
}

func schedOptions(o Options) scheduler.Options {
	return scheduler.Options{Damping: o.Damping, Seed: o.RandomSeed}
}

// Load reads the stored pages and replays every crawl's stored sequence.
// Run calls it when it has not been called.
func (c *Compare) Load(ctx context.Context) error {
	if c.loaded {
		return nil
	}
	err := c.store.Pages(ctx, func(p Page) error {
		c.t.reveal(p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("compare: load pages: %w", err)
	}
	for _, name := range c.o.Schedulers {
		sch, err := scheduler.ByName(name, schedOptions(c.o))
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		lc := &logical{c: newCrawl(name, c.o.Budget, c.o.Window), wake: make(chan struct{}, 1)}
		lc.c.start(sch, c.seeds)
		seq, err := c.store.Progress(ctx, name)
		if err != nil {
			return fmt.Errorf("compare: load progress of %s: %w", name, err)
		}
		if err := c.replay(lc.c, seq); err != nil {
			return err
		}
		lc.saved = len(seq)
		c.crawls = append(c.crawls, lc)
		c.o.Logger.Info("compare: resumed", "scheduler", name, "downloaded", len(seq))
	}
	c.loaded = true
	return nil
}

// replay downloads seq (local ids) again from revealed pages.
func (c *Compare) replay(cr *crawl, seq []uint64) error {
	t := c.t
	t.mu.RLock()
	defer t.mu.RUnlock()
	for k, id := range seq {
		cr.fill(nil)
		i := -1
		for j, f := range cr.flight {
			if uint64(f.id) == id {
				i = j
				break
			}
		}
		if i < 0 {
			return fmt.Errorf("compare: replay %s: download %d is local id %d, not among the %d URLs it could download next: %w",
				cr.name, k+1, id, len(cr.flight), ErrProgress)
		}
		g := cr.l2g[id]
		p := t.pages[g]
		if p == nil {
			return fmt.Errorf("compare: replay %s: download %d, %s, is not a stored page: %w", cr.name, k+1, t.urls[g], ErrProgress)
		}
		cr.download(i, p.out, t.hostOf)
	}
	return nil
}

// Run continues every logical crawl until each has used its budget or run
// out of URLs, fetching through web the pages no crawl has revealed yet,
// then fetches the frontier sample (Options.FrontierShare). It saves
// progress as it goes and when it stops, also when ctx ends; a later Run on
// a Compare built on the same store continues from there.
func (c *Compare) Run(ctx context.Context, web Web) error {
	if err := c.Load(ctx); err != nil {
		return err
	}
	if err := c.runCrawls(ctx, web); err != nil {
		return err
	}
	return c.fetchFrontier(ctx, web)
}

// runCrawls runs every logical crawl until it stops.
func (c *Compare) runCrawls(ctx context.Context, web Web) error {
	g, gctx := errgroup.WithContext(ctx)
	var crawling sync.WaitGroup
	stop := make(chan struct{})
	// One slot per crawl: a crawl queues a save only when none of its own
	// is queued or running, so sending never blocks.
	saves := make(chan *logical, len(c.crawls))
	for _, lc := range c.crawls {
		crawling.Add(1)
		g.Go(func() error {
			defer crawling.Done()
			return c.run(gctx, web, lc, saves)
		})
	}
	go func() { crawling.Wait(); close(stop); close(saves) }()
	g.Go(func() error { return c.dispatch(gctx, web, stop) })
	g.Go(func() error {
		// Saves commit to disk; the crawls go on meanwhile. A save is
		// not cut short by ctx: Ctrl-C keeps what was done. A failed
		// save ends the comparison at once (returning cancels gctx, which
		// stops the crawls); nothing is left to drain, since a crawl
		// queues a save only into its own free slot.
		for lc := range saves {
			if err := c.save(context.WithoutCancel(gctx), lc); err != nil {
				return err
			}
			lc.saving.Store(false)
		}
		return nil
	})
	return g.Wait()
}

// dispatch stores and reveals the pages the web delivers until every crawl
// has stopped.
func (c *Compare) dispatch(ctx context.Context, web Web, stop <-chan struct{}) error {
	results := web.Results()
	for {
		select {
		case <-stop:
			return nil
		case <-ctx.Done():
			return nil // the crawls report why
		case p, ok := <-results:
			if !ok {
				select {
				case <-stop:
					return nil
				default:
					return ErrWebClosed
				}
			}
			if _, err := c.accept(ctx, p); err != nil {
				return err
			}
			for _, lc := range c.crawls {
				select {
				case lc.wake <- struct{}{}:
				default:
				}
			}
		}
	}
}

// accept stores and reveals a page the web delivered, and reports whether
// it was new. A page already revealed (a Web that answers twice) is
// dropped: the first answer is the snapshot every crawl sees. A page nobody
// asked for in this run (a Web that still delivers what an earlier run
// asked) is kept: it is a fetch the comparison need not repeat.
func (c *Compare) accept(ctx context.Context, p Page) (bool, error) {
	if c.t.revealedURL(p.URL) {
		return false, nil
	}
	if err := c.store.SavePage(ctx, p); err != nil {
		return false, fmt.Errorf("compare: save page %s: %w", p.URL, err)
	}
	return c.t.reveal(p), nil
}

// fetchFrontier fetches the frontier sample once every crawl is done: the
// FrontierSample of the finished crawls, less the frontier pages already
// revealed (by an earlier run), and waits for every page of it.
func (c *Compare) fetchFrontier(ctx context.Context, web Web) error {
	if c.o.FrontierShare == 0 {
		return nil
	}
	c.t.mu.RLock()
	pages, seqs := c.pages(), c.sequences()
	c.t.mu.RUnlock()
	down := map[string]bool{}
	for _, s := range seqs {
		if !s.Done {
			return nil // stopped early: the crawls report why
		}
		for _, u := range s.URLs {
			down[u] = true
		}
	}
	n := math.MaxInt
	if !math.IsInf(c.o.FrontierShare, 1) {
		n = int(c.o.FrontierShare * float64(len(down)))
		for _, p := range pages {
			if !down[p.URL] {
				n-- // a frontier page fetched by an earlier run
			}
		}
	}
	urls, err := FrontierSample(pages, c.seedURLs, seqs, c.o.Damping, n)
	if err != nil || len(urls) == 0 {
		return err
	}
	want := make(map[string]bool, len(urls))
	for _, u := range urls {
		c.t.mu.Lock()
		g := c.t.intern(u)
		c.t.mu.Unlock()
		if _, ok := c.t.claim(g); !ok {
			continue
		}
		want[u] = true
		if err := web.Request(ctx, u); err != nil {
			return fmt.Errorf("compare: frontier sample: request %s: %w", u, err)
		}
	}
	c.o.Logger.Info("compare: fetching the frontier sample", "urls", len(want))
	results := web.Results()
	for len(want) > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("compare: frontier sample, %d pages left: %w", len(want), ctx.Err())
		case p, ok := <-results:
			if !ok {
				return fmt.Errorf("compare: frontier sample, %d pages left: %w", len(want), ErrWebClosed)
			}
			if _, err := c.accept(ctx, p); err != nil {
				return err
			}
			delete(want, p.URL)
		}
	}
	return nil
}

// run steps one logical crawl until it stops.
func (c *Compare) run(ctx context.Context, web Web, lc *logical, saves chan<- *logical) (err error) {
	defer func() {
		// Save what was done also when ctx ended (Ctrl-C), so a rerun does
		// not replay it from further back than needed.
		if serr := c.save(context.WithoutCancel(ctx), lc); serr != nil && err == nil {
			err = serr
		}
	}()
	t := c.t
	// URLs put in flight by the replay of a stored sequence have not been
	// asked for in this run; the ones revealed since are skipped by claim.
	var newly []uint32
	lc.mu.Lock()
	for _, f := range lc.c.flight {
		newly = append(newly, lc.c.l2g[f.id])
	}
	lc.mu.Unlock()
	for {
		lc.mu.Lock()
		newly = lc.c.fill(newly)
		fin := lc.c.finished()
		lc.mu.Unlock()
		for _, g := range newly {
			if u, ok := t.claim(g); ok {
				if err := web.Request(ctx, u); err != nil {
					return fmt.Errorf("compare: %s: request %s: %w", lc.c.name, u, err)
				}
			}
		}
		newly = newly[:0]
		if fin {
			c.o.Logger.Info("compare: crawl done", "scheduler", lc.c.name, "downloaded", len(lc.c.down))
			return nil
		}
		if !c.step(lc) {
			select {
			case <-lc.wake:
			case <-ctx.Done():
				return fmt.Errorf("compare: %s after %d pages: %w", lc.c.name, len(lc.c.down), ctx.Err())
			}
			continue
		}
		lc.mu.Lock()
		due := len(lc.c.down)-lc.saved >= c.o.SaveEvery
		lc.mu.Unlock()
		if due && lc.saving.CompareAndSwap(false, true) {
			saves <- lc
		}
	}
}

// step downloads the first in-flight URL (in pop order) whose page is
// revealed, and reports whether there was one.
func (c *Compare) step(lc *logical) bool {
	t := c.t
	t.mu.RLock()
	defer t.mu.RUnlock()
	cr := lc.c
	for i, f := range cr.flight {
		if p := t.pages[cr.l2g[f.id]]; p != nil {
			lc.mu.Lock()
			cr.download(i, p.out, t.hostOf)
			lc.mu.Unlock()
			return true
		}
	}
	return false
}

// save stores the downloads of lc not stored yet.
func (c *Compare) save(ctx context.Context, lc *logical) error {
	lc.saveMu.Lock()
	defer lc.saveMu.Unlock()
	lc.mu.Lock()
	tail := make([]uint64, len(lc.c.down)-lc.saved)
	for i, id := range lc.c.down[lc.saved:] {
		tail[i] = uint64(id)
	}
	start := lc.saved
	lc.mu.Unlock()
	if len(tail) == 0 {
		return nil
	}
	if err := c.store.AppendProgress(ctx, lc.c.name, start, tail); err != nil {
		return fmt.Errorf("compare: save progress of %s: %w", lc.c.name, err)
	}
	lc.mu.Lock()
	lc.saved = start + len(tail)
	lc.mu.Unlock()
	return nil
}

// Sequence is one crawl's download order.
type Sequence struct {
	Name string
	// URLs are the downloaded pages in download order.
	URLs []string
	// Done is true when the crawl used its budget or ran out of URLs.
	Done bool
}

// Sequences returns every crawl's download order so far, in the order of
// Options.Schedulers. It is empty before Load or Run.
func (c *Compare) Sequences() []Sequence {
	c.t.mu.RLock()
	defer c.t.mu.RUnlock()
	return c.sequences()
}

// sequences is Sequences with c.t.mu held (read).
func (c *Compare) sequences() []Sequence {
	out := make([]Sequence, len(c.crawls))
	for i, lc := range c.crawls {
		lc.mu.Lock()
		cr := lc.c
		s := Sequence{Name: cr.name, URLs: make([]string, len(cr.down))}
		for k, id := range cr.down {
			s.URLs[k] = c.t.urls[cr.l2g[id]]
		}
		s.Done = len(cr.down) >= cr.budget || (len(cr.flight) == 0 && cr.h.Len() == 0)
		lc.mu.Unlock()
		out[i] = s
	}
	return out
}

// Pages returns the pages revealed so far.
func (c *Compare) Pages() []Page {
	c.t.mu.RLock()
	defer c.t.mu.RUnlock()
	return c.pages()
}

// pages is Pages with c.t.mu held (read).
func (c *Compare) pages() []Page {
	t := c.t
	var ps []Page
	for g, p := range t.pages {
		if p != nil {
			ps = append(ps, Page{URL: t.urls[g], Status: p.status, OutLinks: p.links, Err: p.err, Unrequested: p.unsent})
		}
	}
	return ps
}

// Requests returns the number of requests the comparison cost the web's
// servers: the revealed pages the web requested (in this run or an earlier
// one; not those answered without a request, Page.Unrequested, such as
// robots-denied URLs and URLs of a deferred host), as seedcrawl stats and
// score count fetches, plus the requests of this run still unanswered (an
// upper bound while it runs: some may yet be answered without a request).
func (c *Compare) Requests() int {
	c.t.mu.RLock()
	defer c.t.mu.RUnlock()
	return c.t.nSent + c.t.nAsked
}

// RequestCounts returns the two parts of Requests: sent, the revealed
// pages the web requested from their servers (requests made), and asked,
// the URLs of this run asked of the web and not answered yet (requests
// made or still to make, and some may be answered without one). A
// progress report shows them apart: asked can jump by the width of every
// crawl's window at once while the servers see no more requests.
func (c *Compare) RequestCounts() (sent, asked int) {
	c.t.mu.RLock()
	defer c.t.mu.RUnlock()
	return c.t.nSent, c.t.nAsked
}

// Waiting returns the URLs the comparison has asked the web for in this run
// and not had back yet, in the order it first met them: what a crawl that
// cannot step waits for. It is for progress reports (a page held back by a
// deferred host or a hanging server stalls every crawl that needs it), and
// scans every URL met, O(URLs).
func (c *Compare) Waiting() []string {
	c.t.mu.RLock()
	defer c.t.mu.RUnlock()
	var out []string
	for g, asked := range c.t.asked {
		if asked && c.t.pages[g] == nil {
			out = append(out, c.t.urls[g])
		}
	}
	return out
}

// Report scores the comparison as it stands (see Score), with the fetch
// cost filled in.
func (c *Compare) Report(o ScoreOptions) (*Report, error) {
	if o.Budget == 0 {
		o.Budget = c.o.Budget
	}
	if o.Damping == 0 {
		o.Damping = c.o.Damping
	}
	// One snapshot of pages and sequences: a page revealed (and
	// downloaded) between two would be a download of no known page.
	c.t.mu.RLock()
	pages, seqs := c.pages(), c.sequences()
	c.t.mu.RUnlock()
	r, err := Score(pages, c.seedURLs, seqs, o)
	if err != nil {
		return nil, err
	}
	r.Requests = c.Requests()
	r.Window = c.o.Window
	return r, nil
}
