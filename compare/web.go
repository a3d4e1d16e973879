package compare

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// Page is the outcome of fetching one URL, as the Web reports it.
type Page struct {
	// URL is the URL that was requested, exactly as passed to Request.
	URL string
	// Status is the HTTP status code, or 0 when no response arrived.
	Status int
	// OutLinks are the page's link targets: normalized absolute URLs,
	// distinct, in document order (a redirect reports its target as its one
	// link). They are ignored when the page Failed.
	OutLinks []string
	// Err is why the page could not be fetched (robots-denied, out of scope,
	// network error, body too large, ...), or nil.
	Err error
	// Unrequested is true when the Web answered without requesting the URL
	// from its server: robots.txt denied it, it is out of scope, its host
	// is deferred or given up, or a guard refused it. Such a page costs no
	// request: Compare.Requests and Report.Requests leave it out.
	Unrequested bool
}

// Failed reports whether the page counts as downloaded without out-links:
// an error, or a status of 400 or more. Every logical crawl that reaches a
// failed page downloads it (it uses one page of the budget) and learns no
// links from it, so every scheduler sees the same outcome, as a polite crawl
// that records a 404 does.
func (p Page) Failed() bool { return p.Err != nil || p.Status >= 400 }

// Web is the comparison's access to the live web: the polite crawler, in
// production. compare asks for each URL at most once per comparison run and
// needs exactly one Page per request on Results, in any order and at any
// time later. Request must not wait for Results to be drained (compare
// reads Results on another goroutine, but a Web whose Request blocks until
// its own result is consumed would still deadlock a caller that stopped
// reading). A URL the Web refuses (out of scope, robots-denied) is
// answered with a Page whose Err says why, not with an error from Request;
// an error from Request ends the comparison.
type Web interface {
	// Request asks for url to be fetched.
	Request(ctx context.Context, url string) error
	// Results delivers one Page per requested URL.
	Results() <-chan Page
}

// Store persists a comparison so that a rerun continues it: the pages the
// web revealed, and each logical crawl's download sequence. Everything else
// (queues, priorities, scheduler state) is rebuilt by replaying the
// sequences against the stored pages, which is deterministic.
//
// compare saves a page before any crawl downloads it, and a sequence only
// after the pages in it, so a store that applies writes in order (one bbolt
// transaction each) is consistent after a crash at any point.
type Store interface {
	// SavePage stores a revealed page. Saving a URL again replaces it.
	SavePage(ctx context.Context, p Page) error
	// Pages calls fn with every stored page, in any order.
	Pages(ctx context.Context, fn func(Page) error) error
	// AppendProgress stores ids as positions start, start+1, ... of the
	// download sequence of the logical crawl name, dropping any stored
	// positions from start on. The ids are the crawl's local ids (its
	// discovery indexes), meaningful only to a replay.
	AppendProgress(ctx context.Context, name string, start int, ids []uint64) error
	// Progress returns the stored download sequence of name (nil if none).
	Progress(ctx context.Context, name string) ([]uint64, error)
}

// MemStore is a Store in memory, for tests and for comparisons that need
// not survive the process. The zero value is ready to use; it is safe for
// concurrent use.
type MemStore struct {
	mu    sync.Mutex
	pages map[string]Page
	order []string
	prog  map[string][]uint64
}

// SavePage implements Store.
func (m *MemStore) SavePage(ctx context.Context, p Page) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("compare: save page %s: %w", p.URL, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pages == nil {
		m.pages = map[string]Page{}
	}
	if _, ok := m.pages[p.URL]; !ok {
		m.order = append(m.order, p.URL)
	}
	p.OutLinks = slices.Clone(p.OutLinks)
	m.pages[p.URL] = p
	return nil
}

// Pages implements Store; it calls fn in the order the pages were first
// saved, without holding the store's lock.
func (m *MemStore) Pages(ctx context.Context, fn func(Page) error) error {
	m.mu.Lock()
	ps := make([]Page, len(m.order))
	for i, u := range m.order {
		ps[i] = m.pages[u]
	}
	m.mu.Unlock()
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("compare: read pages: %w", err)
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// AppendProgress implements Store.
func (m *MemStore) AppendProgress(ctx context.Context, name string, start int, ids []uint64) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("compare: save progress of %s: %w", name, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.prog == nil {
		m.prog = map[string][]uint64{}
	}
	cur := m.prog[name]
	if start > len(cur) || start < 0 {
		return fmt.Errorf("compare: save progress of %s from position %d: %d stored: %w", name, start, len(cur), ErrProgress)
	}
	// Progress hands out copies, so the stored slice can grow in place.
	m.prog[name] = append(cur[:start], ids...)
	return nil
}

// Progress implements Store.
func (m *MemStore) Progress(ctx context.Context, name string) ([]uint64, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("compare: read progress of %s: %w", name, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.prog[name]), nil
}
