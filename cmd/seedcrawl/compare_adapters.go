package main

// The two adapters through which package compare meets the rest of the
// crawl: its Web, the polite crawler fed by a compare.Injection, and its
// Store, the crawl db.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/compare"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// compareWeb is compare's Web backed by the polite crawler fed by an
// Injection: Request injects the URL, and the crawler's deliveries come out on
// Results. Deliveries that do not fit Results' buffer are queued without
// bound, so the crawler's disposer never waits for compare.
type compareWeb struct {
	inj     *compare.Injection
	results chan compare.Page
	done    chan struct{} // closed when compare stops reading Results

	mu     sync.Mutex
	asked  map[string]time.Time // when each unanswered URL was requested, for progress
	queue  []compare.Page
	wake   chan struct{}
	closed bool
	once   sync.Once
}

// Request implements compare.Web.
func (w *compareWeb) Request(ctx context.Context, url string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.mu.Lock()
	if w.asked == nil {
		w.asked = map[string]time.Time{}
	}
	w.asked[url] = time.Now()
	w.mu.Unlock()
	return w.inj.Inject(url)
}

// Results implements compare.Web.
func (w *compareWeb) Results() <-chan compare.Page {
	w.once.Do(func() { go w.forward() })
	return w.results
}

// deliver is the Injection's Deliver. A page goes straight to
// Results when its buffer has room (compare takes pages in any order), so
// the usual page makes one goroutine hop from the crawler to compare; the
// rest wait in the queue for forward.
func (w *compareWeb) deliver(ds []compare.Delivery) {
	w.mu.Lock()
	defer w.mu.Unlock()
	queued := false
	for _, d := range ds {
		p := comparePage(d)
		delete(w.asked, p.URL)
		select {
		case w.results <- p:
		default:
			w.queue = append(w.queue, p)
			queued = true
		}
	}
	if queued {
		w.signal()
	}
}

// close ends Results once the queued pages are out (the crawler stopped).
func (w *compareWeb) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.signal()
}

func (w *compareWeb) signal() {
	if w.wake != nil {
		close(w.wake)
		w.wake = nil
	}
}

func (w *compareWeb) forward() {
	for {
		w.mu.Lock()
		q := w.queue
		w.queue = nil
		closed := w.closed
		var wake chan struct{}
		if len(q) == 0 && !closed {
			w.wake = make(chan struct{})
			wake = w.wake
		}
		w.mu.Unlock()
		for _, p := range q {
			select {
			case w.results <- p:
			case <-w.done:
				return
			}
		}
		if len(q) == 0 {
			if closed {
				close(w.results)
				return
			}
			<-wake
		}
	}
}

// hostStater tells a host's politeness state; *frontier.Frontier does.
type hostStater interface {
	Host(name string) (frontier.HostInfo, bool)
}

// compareWaitHosts is how many hosts a waiting note names.
const compareWaitHosts = 4

// waitingNote says what the comparison waits for: urls (compare's Waiting)
// by host, in order, with why each host holds them back at now: deferred
// until a time and why (robots.txt unreachable, Retry-After), a fetch in
// flight for how long, or the politeness delay. A crawl that cannot step
// stalls on these, silently otherwise. "" when urls is empty.
func (w *compareWeb) waitingNote(urls []string, hosts hostStater, now time.Time) string {
	if len(urls) == 0 {
		return ""
	}
	type hostWait struct {
		name  string
		n     int
		since time.Time // the earliest request of its URLs
	}
	var order []*hostWait
	byName := map[string]*hostWait{}
	w.mu.Lock()
	for _, u := range urls {
		name := urlnorm.Authority(u)
		hw := byName[name]
		if hw == nil {
			hw = &hostWait{name: name}
			byName[name] = hw
			order = append(order, hw)
		}
		hw.n++
		if at, ok := w.asked[u]; ok && (hw.since.IsZero() || at.Before(hw.since)) {
			hw.since = at
		}
	}
	w.mu.Unlock()
	plural := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	var parts []string
	for i, hw := range order {
		if i == compareWaitHosts {
			parts = append(parts, fmt.Sprintf("and %s more", plural(len(order)-i, "host")))
			break
		}
		label := hw.name
		if hw.n > 1 {
			label += " (" + plural(hw.n, "URL") + ")"
		}
		info, ok := hosts.Host(hw.name)
		age := ""
		if !hw.since.IsZero() {
			age = " " + now.Sub(hw.since).Round(time.Second).String()
		}
		switch {
		case ok && info.Reason != "" && info.ReadyAt.After(now):
			parts = append(parts, fmt.Sprintf("%s deferred until %s (%s)", label, info.ReadyAt.Format(time.TimeOnly), info.Reason))
		case ok && info.InFlight > 0:
			parts = append(parts, fmt.Sprintf("%s fetch in flight%s", label, age))
		case ok && info.ReadyAt.After(now):
			parts = append(parts, fmt.Sprintf("%s politeness delay until %s", label, info.ReadyAt.Format(time.TimeOnly)))
		default:
			parts = append(parts, fmt.Sprintf("%s queued%s", label, age))
		}
	}
	return fmt.Sprintf("waiting for %s: %s", plural(len(urls), "URL"), strings.Join(parts, "; "))
}

// comparePage converts a crawler outcome: a response with a status of 400
// or more fails by its status; an outcome without a usable response fails
// with its stored status and reason.
func comparePage(d compare.Delivery) compare.Page {
	p := compare.Page{URL: d.URL, Status: d.Code, OutLinks: d.Links, Unrequested: !d.Status.Requested()}
	switch d.Status {
	case storage.StatusFetched, storage.StatusNotModified, storage.StatusRedirect:
	case storage.StatusHTTPError, storage.StatusGone:
		if d.Code < 400 {
			p.Err = compareErr(d)
		}
	default:
		p.Err = compareErr(d)
	}
	if p.Err != nil {
		p.OutLinks = nil
	}
	return p
}

// compareStoredRequested reports whether a stored compare page cost a
// request. The store keeps no status of its own: a failed page's error
// starts with its status name (compareErr), and a page without an error
// got a response.
func compareStoredRequested(errText string) bool {
	if errText == "" {
		return true
	}
	name, _, _ := strings.Cut(errText, ":")
	s, err := storage.ParseStatus(name)
	return err != nil || s.Requested()
}

func compareErr(d compare.Delivery) error {
	if d.Reason == "" || d.Reason == d.Status.String() {
		return errors.New(d.Status.String())
	}
	return fmt.Errorf("%s: %s", d.Status, d.Reason)
}

// compareStore is compare's Store in the crawl db (storage's compare
// buckets). It holds revealed pages in memory until a download sequence is
// saved, and writes them in the transaction that saves it, before it: a
// stored sequence always finds its pages, and a revealed page costs no
// commit of its own. A page lost with the memory (kill -9) is asked for
// again by the rerun, and the crawler delivers it from its own records
// without a request.
type compareStore struct {
	db *storage.DB
	// sync, when set, makes the crawler commit the outcomes it delivered
	// before a sequence that may use them is stored.
	sync func(context.Context) error

	mu      sync.Mutex // held across writes, so sequences are stored after their pages
	pending []storage.ComparePage
}

func (s *compareStore) SavePage(ctx context.Context, p compare.Page) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cp := storageComparePage(p)
	s.mu.Lock()
	s.pending = append(s.pending, cp)
	s.mu.Unlock()
	return nil
}

func storageComparePage(p compare.Page) storage.ComparePage {
	cp := storage.ComparePage{URL: p.URL, Status: p.Status, Links: slices.Clone(p.OutLinks)}
	if p.Err != nil {
		cp.Err = p.Err.Error()
		if cp.Err == "" {
			cp.Err = "failed"
		}
	}
	return cp
}

func (s *compareStore) Pages(ctx context.Context, fn func(compare.Page) error) error {
	var ps []compare.Page
	conv := func(p storage.ComparePage) {
		cp := compare.Page{URL: p.URL, Status: p.Status, OutLinks: p.Links, Unrequested: !compareStoredRequested(p.Err)}
		if p.Err != "" {
			cp.Err = errors.New(p.Err)
		}
		ps = append(ps, cp)
	}
	// Collect first: fn may be slow, and a read transaction must not be
	// held while computing.
	err := s.db.EachComparePage(func(p storage.ComparePage) error {
		conv(p)
		return nil
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	for _, p := range s.pending {
		conv(p)
	}
	s.mu.Unlock()
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func (s *compareStore) AppendProgress(ctx context.Context, name string, start int, ids []uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sync != nil {
		if err := s.sync(ctx); err != nil {
			return fmt.Errorf("commit the crawl before saving progress of %s: %w", name, err)
		}
	}
	if err := s.db.AppendCompareProgress(name, start, ids, s.pending); err != nil {
		if errors.Is(err, storage.ErrCompareProgress) {
			return fmt.Errorf("%w: %w", compare.ErrProgress, err)
		}
		return err
	}
	s.pending = nil
	return nil
}

// flush writes the pages held back, after the crawler committed their
// outcomes: the pages no sequence will store (the frontier sample's).
func (s *compareStore) flush(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	if s.sync != nil {
		if err := s.sync(ctx); err != nil {
			return fmt.Errorf("commit the crawl before saving %d compare pages: %w", len(s.pending), err)
		}
	}
	if err := s.db.SaveComparePages(s.pending...); err != nil {
		return err
	}
	s.pending = nil
	return nil
}

func (s *compareStore) Progress(ctx context.Context, name string) ([]uint64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.db.CompareProgress(name)
}
