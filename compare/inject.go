package compare

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Injection feeds a polite crawl with the URLs a comparison asks for
// (crawler.Options.Feed, with FedOnly): the crawl queues only URLs given
// to Inject. Every fetched page is stored as in a plain crawl (record,
// out-links, newly interned URLs) but its links are not queued; the
// comparison decides what is fetched next. Politeness, robots.txt, trap
// guards, the SSRF guard and retries apply unchanged, because injected
// URLs go through the same frontier and workers. The crawl does not end
// when its frontier is empty: its workers wait for more injected URLs
// until its ctx ends. An Injection serves one crawl.
type Injection struct {
	// Deliver receives the final outcome of injected URLs, in the order
	// the crawl records them, on the crawl's disposer goroutine, as soon
	// as it is recorded and before it is committed: call Sync before
	// storing anything that must not outlive a lost outcome. A URL that
	// already had a final outcome in the database is delivered from the
	// database without a request. Deliver must not block for long: the
	// crawl waits for it. Required.
	Deliver func([]Delivery)

	mu     sync.Mutex
	l      *crawler.Loop // set by Attach
	queue  []string      // URLs given to Inject, not yet taken
	posted bool          // a take is posted and has not run
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

// Inject asks the crawl to fetch urls, which must be normalized
// (urlnorm.Normalize returns them unchanged). It does not wait: the
// outcomes come later through Deliver. A URL already queued or in flight
// is not queued twice; one with a final outcome in the database is
// delivered from there. Safe for concurrent use, also before the crawl
// runs; URLs injected after it stopped are never delivered.
func (in *Injection) Inject(urls ...string) error {
	for _, u := range urls {
		if n, err := urlnorm.Normalize(u); err != nil || n != u {
			return fmt.Errorf("%w: inject %q: not a normalized URL (normalized: %q, error: %v)", crawler.ErrSeed, u, n, err)
		}
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.queue = append(in.queue, urls...)
	in.post()
	return nil
}

// post has the disposer take the queue, once per batch of Injects (mu
// held).
func (in *Injection) post() {
	if in.l == nil || in.posted || len(in.queue) == 0 {
		return
	}
	in.posted = in.l.Post(in.take) == nil
}

// Attach implements crawler.Feed.
func (in *Injection) Attach(l crawler.Loop) error {
	if in.Deliver == nil {
		return fmt.Errorf("%w: Injection.Deliver is nil", crawler.ErrOptions)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.l = &l
	in.post()
	return nil
}

// Done implements crawler.Feed: the crawl ends when its caller stops it.
func (in *Injection) Done() <-chan struct{} { return nil }

// Recorded implements crawler.Feed: the outcome is delivered with the
// links the crawl's scope allows.
func (in *Injection) Recorded(r *crawler.Recorded) error {
	d := Delivery{URL: r.URL, Status: r.Status, Reason: r.Reason}
	if r.Fetch != nil {
		d.Code = r.Fetch.Code
	}
	switch {
	case r.Status == storage.StatusRedirect:
		if r.Redirect != nil && r.Redirect.InScope {
			d.Links = []string{r.Redirect.URL}
		}
	case r.Status.Fetched():
		for _, l := range r.Links {
			if l.InScope {
				d.Links = append(d.Links, l.URL)
			}
		}
	}
	in.Deliver([]Delivery{d})
	return nil
}

// Sync commits every outcome delivered so far and returns when it is on
// disk. After the crawl stopped it returns at once: its last commit holds
// them, or the error that ended it is returned.
func (in *Injection) Sync(ctx context.Context) error {
	in.mu.Lock()
	l := in.l
	in.mu.Unlock()
	if l == nil {
		return nil // the crawl has not started: nothing was delivered
	}
	done := make(chan error, 1)
	if err := l.Post(func() error {
		err := l.Commit()
		done <- err
		return err
	}); err != nil {
		<-l.Stopped()
		return l.Err()
	}
	select {
	case err := <-done:
		return err
	case <-l.Stopped():
		return l.Err()
	case <-ctx.Done():
		return fmt.Errorf("compare: sync the crawl: %w", ctx.Err())
	}
}

// take queues the injected URLs (on the disposer). URLs that cannot be
// fetched (out of scope, dropped host, beyond the depth or host budgets)
// and URLs already done are delivered at once.
func (in *Injection) take() error {
	in.mu.Lock()
	urls, l := in.queue, in.l
	in.queue, in.posted = nil, false
	in.mu.Unlock()
	if len(urls) == 0 {
		return nil
	}
	st := l.Store()
	var now []Delivery
	// A URL is queued at its stored depth; one that cannot be fetched, or
	// is done, is delivered instead.
	pick := func(i int, in storage.Interned) (int, bool, error) {
		u, id := urls[i], in.ID
		if l.Uncommitted(id) {
			return 0, false, nil // its outcome was delivered and awaits the commit
		}
		prev, err := st.Page(id)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			prev = storage.Page{} // interned since the last commit
		case err != nil:
			return 0, false, fmt.Errorf("compare: look up injected page %d: %w", id, err)
		}
		if prev.Fetches > 0 || prev.Status == storage.StatusRobotsDenied {
			d, err := stored(l, u, &prev)
			if err != nil {
				return 0, false, err
			}
			now = append(now, d)
			return 0, false, nil
		}
		if status, reason, ok := l.Rules().Check(u, int(prev.Depth)); !ok {
			if status == storage.StatusOutOfScope {
				reason = "out-of-scope"
			}
			now = append(now, Delivery{URL: u, Status: status, Reason: reason})
			return 0, false, nil
		}
		return int(prev.Depth), true, nil
	}
	s, err := scope.Seed(st, l.Frontier(), l, urls, scope.SeedOptions{Known: true, Pick: pick})
	if err != nil {
		return fmt.Errorf("compare: queue %d injected URLs: %w", len(urls), err)
	}
	if s.Queued > 0 {
		l.Count("injected", uint64(s.Queued))
	}
	if len(now) > 0 {
		// Nothing of these waits for a commit: they are stored already or
		// store nothing.
		in.Deliver(now)
	}
	return nil
}

// stored is the outcome of a URL with a final stored record.
func stored(l *crawler.Loop, u string, p *storage.Page) (Delivery, error) {
	d := Delivery{URL: u, Status: p.Status, Code: p.Code, Reason: p.Reason}
	if !p.Status.Fetched() && p.Status != storage.StatusRedirect {
		return d, nil
	}
	links, err := l.Store().OutLinks(p.ID)
	if err != nil {
		return d, fmt.Errorf("compare: links of page %d: %w", p.ID, err)
	}
	redirect := p.Status == storage.StatusRedirect
	seen := make(map[string]bool, len(links))
	for _, k := range links {
		if redirect != (k.Kind == storage.LinkRedirect) {
			continue
		}
		if !seen[k.URL] && l.Rules().InScope(k.URL) {
			seen[k.URL] = true
			d.Links = append(d.Links, k.URL)
		}
	}
	return d, nil
}
