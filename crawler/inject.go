package crawler

import (
	"context"
	"fmt"
	"sync"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Injection runs a Crawler in injection mode (Options.Inject), the mode
// seedcrawl compare uses: the frontier receives URLs only from Inject.
// Every fetched page is stored as in a plain crawl (record, out-links,
// newly interned URLs) but its links are not queued; the caller decides
// what is fetched next. Politeness, robots.txt, trap guards, the SSRF
// guard and retries apply unchanged, because injected URLs go through the
// same frontier and workers.
//
// Run does not end when the frontier is empty: the workers wait for more
// injected URLs until ctx ends.
type Injection struct {
	// Deliver receives the final outcome of injected URLs, in the order
	// the crawl records them, on the crawl's disposer goroutine, as soon
	// as it is recorded and before it is committed: call Crawler.Sync
	// before storing anything that must not outlive a lost outcome. A URL
	// that already had a final outcome in the database is delivered from
	// the database without a request. Deliver must not block for long: the
	// crawl waits for it. Required.
	Deliver func([]Delivery)
}

// Delivery is the final outcome of one injected URL.
type Delivery struct {
	// URL is the injected URL, exactly as given to Inject.
	URL string
	// Status is the stored status: fetched, redirect, http-error,
	// fetch-error, gone, robots-denied, or a reason not to fetch
	// (out-of-scope, rejected, deferred).
	Status storage.Status
	// Code is the HTTP status code; 0 when no response arrived.
	Code int
	// Reason is the stored reason (an error kind, a rejection), or "".
	Reason string
	// Links are the page's out-link targets the crawl's scope allows,
	// distinct, in document order, as stored (normalized, trap-guarded);
	// a redirect's only link is its target. Nil for pages without links.
	Links []string
}

// injectState is the state of injection mode; inj is nil in a plain crawl.
type injectState struct {
	inj      *Injection
	injMu    sync.Mutex
	injQueue []string      // URLs given to Inject, not yet taken by the disposer
	injSig   chan struct{} // Inject → disposer (cap 1); nil without injection

	injSync  chan chan error // Sync → disposer: commit now
	injDone  chan struct{}   // closed when the disposer stopped
	injEnd   sync.Once
	injFatal error // why the disposer stopped; read after injDone

	// Disposer only.
	injOut    []Delivery          // outcomes recorded, not yet delivered
	injRecent map[uint64]struct{} // ids whose outcome awaits the next commit
}

func (s *injectState) initInject(inj *Injection) error {
	if inj == nil {
		return nil
	}
	if inj.Deliver == nil {
		return fmt.Errorf("%w: Inject.Deliver is nil", ErrOptions)
	}
	s.inj = inj
	s.injSig = make(chan struct{}, 1)
	s.injRecent = map[uint64]struct{}{}
	s.injSync = make(chan chan error)
	s.injDone = make(chan struct{})
	return nil
}

// endInject marks the end of the disposer (or of a Run that failed before
// it started); the first call wins.
func (s *injectState) endInject(fatal error) {
	if s.inj == nil {
		return
	}
	s.injEnd.Do(func() {
		s.injFatal = fatal
		close(s.injDone)
	})
}

// Sync commits every outcome delivered so far and returns when it is on
// disk (injection mode). After the crawl stopped it returns at once: its
// last commit holds them, or the error that ended it is returned.
func (c *Crawler) Sync(ctx context.Context) error {
	if c.inj == nil {
		return fmt.Errorf("%w: Sync without Options.Inject", ErrOptions)
	}
	done := make(chan error, 1)
	select {
	case c.injSync <- done:
	case <-c.injDone:
		return c.injFatal
	case <-ctx.Done():
		return fmt.Errorf("crawler: sync: %w", ctx.Err())
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("crawler: sync: %w", ctx.Err())
	}
}

// Inject asks the crawl (in injection mode) to fetch urls, which must be
// normalized (urlnorm.Normalize returns them unchanged). It does not wait:
// the outcomes come later through Injection.Deliver. A URL already queued
// or in flight is not queued twice; one with a final outcome in the
// database is delivered from there. Safe for concurrent use, also before
// Run.
func (c *Crawler) Inject(urls ...string) error {
	if c.inj == nil {
		return fmt.Errorf("%w: Inject without Options.Inject", ErrOptions)
	}
	for _, u := range urls {
		if n, err := urlnorm.Normalize(u); err != nil || n != u {
			return fmt.Errorf("%w: inject %q: not a normalized URL (normalized: %q, error: %v)", ErrSeed, u, n, err)
		}
	}
	c.injMu.Lock()
	c.injQueue = append(c.injQueue, urls...)
	c.injMu.Unlock()
	select {
	case c.injSig <- struct{}{}:
	default:
	}
	return nil
}

// takeInjected queues the injected URLs (disposer only). URLs that cannot
// be fetched (out of scope, dropped host, beyond the depth or host
// budgets) and URLs already done are delivered at once.
func (c *Crawler) takeInjected() error {
	c.injMu.Lock()
	urls := c.injQueue
	c.injQueue = nil
	c.injMu.Unlock()
	if len(urls) == 0 {
		return nil
	}
	ints, err := c.opts.Store.Intern(urls, storage.NoPage, 0)
	if err != nil {
		return fmt.Errorf("crawler: intern %d injected URLs: %w", len(urls), err)
	}
	var targets []frontier.Target
	var now []Delivery
	s := &c.opts.Settings
	for i, u := range urls {
		id := ints[i].ID
		if _, ok := c.injRecent[id]; ok {
			continue // its outcome was delivered and awaits the commit
		}
		_, prev, err := c.lookup(id)
		if err != nil {
			return err
		}
		if prev.Fetches > 0 || prev.Status == storage.StatusRobotsDenied {
			d, err := c.storedDelivery(u, &prev)
			if err != nil {
				return err
			}
			now = append(now, d)
			continue
		}
		host := urlnorm.Authority(u)
		refuse := func(st storage.Status, reason string) {
			now = append(now, Delivery{URL: u, Status: st, Reason: reason})
		}
		if !c.inScope(u, host) {
			refuse(storage.StatusOutOfScope, "out-of-scope")
			continue
		}
		if r, dropped := c.opts.Frontier.Dropped(host); dropped {
			refuse(storage.StatusDeferred, r)
			continue
		}
		if s.MaxDepth >= 0 && int(prev.Depth) > s.MaxDepth {
			refuse(storage.StatusRejected, "max-depth")
			continue
		}
		if c.opts.Frontier.HostFull(host) {
			refuse(storage.StatusRejected, "host-max-pages")
			continue
		}
		c.opts.Frontier.Admit(host)
		targets = append(targets, frontier.Target{ID: id, Host: host, Depth: int(prev.Depth), New: true})
	}
	if len(targets) > 0 {
		if err := c.opts.Frontier.Seed(targets, &c.changes); err != nil {
			return fmt.Errorf("crawler: queue %d injected URLs: %w", len(targets), err)
		}
		c.count("injected", uint64(len(targets)))
		c.wakeWorkers()
	}
	if len(now) > 0 {
		// Nothing of these waits for a commit: they are stored already or
		// store nothing.
		c.inj.Deliver(now)
	}
	return nil
}

// storedDelivery is the outcome of a URL with a final stored record.
func (c *Crawler) storedDelivery(u string, p *storage.Page) (Delivery, error) {
	d := Delivery{URL: u, Status: p.Status, Code: p.Code, Reason: p.Reason}
	if !p.Status.Fetched() && p.Status != storage.StatusRedirect {
		return d, nil
	}
	links, err := c.opts.Store.Links(p.ID)
	if err != nil {
		return d, fmt.Errorf("crawler: links of page %d: %w", p.ID, err)
	}
	redirect := p.Status == storage.StatusRedirect
	seen := make(map[string]bool, len(links))
	for _, l := range links {
		if redirect != (l.Kind == storage.LinkRedirect) {
			continue
		}
		t, err := c.opts.Store.URL(l.To)
		if err != nil {
			return d, fmt.Errorf("crawler: links of page %d: URL of %d: %w", p.ID, l.To, err)
		}
		if !seen[t] && c.inScope(t, urlnorm.Authority(t)) {
			seen[t] = true
			d.Links = append(d.Links, t)
		}
	}
	return d, nil
}

// noteFetched records the outcome of a fetch for delivery; the links are the ones the crawl's scope allows.
func (c *Crawler) noteFetched(m *fetched) {
	if c.inj == nil {
		return
	}
	d := Delivery{URL: m.url, Status: m.rec.Status, Code: m.rec.Code, Reason: m.rec.Reason}
	switch {
	case m.rec.Status == storage.StatusRedirect:
		if m.redirect != nil && m.redirect.inScope {
			d.Links = []string{m.redirect.url}
		}
	case m.rec.Status.Fetched():
		for _, l := range m.links {
			if l.inScope {
				d.Links = append(d.Links, l.url)
			}
		}
	}
	c.injOut = append(c.injOut, d)
	c.injRecent[m.job.ID] = struct{}{}
}

// noteSkipped records the outcome of a job ended without a request (and of
// the URLs dropped with it) for delivery.
func (c *Crawler) noteSkipped(m *skipped) error {
	if c.inj == nil {
		return nil
	}
	for _, id := range append([]uint64{m.job.ID}, m.job.Dropped...) {
		u, err := c.opts.Store.URL(id)
		if err != nil {
			return fmt.Errorf("crawler: URL of skipped %d: %w", id, err)
		}
		c.injOut = append(c.injOut, Delivery{URL: u, Status: m.status, Reason: m.reason})
		c.injRecent[id] = struct{}{}
	}
	return nil
}

// deliver hands the outcomes recorded so far to Deliver.
func (c *Crawler) deliver() {
	if c.inj == nil || len(c.injOut) == 0 {
		return
	}
	out := c.injOut
	c.injOut = nil
	c.inj.Deliver(out)
}
