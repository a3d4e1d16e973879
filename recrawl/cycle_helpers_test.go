package recrawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The crawl of a cycle, tested through a real crawler.Crawler with fakes
// at its seams (a fake fetcher, a fake robots.txt source) and a real bbolt
// file.

// fakeWeb is a fake fetcher's world: responses by URL, and a log of the
// requests made. Every worker's fakeFetcher shares one fakeWeb.
type fakeWeb struct {
	mu    sync.Mutex
	pages map[string]func(req fetch.Request, n int) fetch.Response // n: 1 for the first request of the URL
	reqs  []fetch.Request
	count map[string]int
}

func newFakeWeb() *fakeWeb {
	return &fakeWeb{pages: map[string]func(fetch.Request, int) fetch.Response{}, count: map[string]int{}}
}

// versioned serves an HTML page with an ETag: a conditional GET naming the
// current ETag gets 304, as a real server answers.
func (w *fakeWeb) versioned(u, etag string, links ...string) {
	var b strings.Builder
	b.WriteString("<html><body>" + etag)
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
	}
	body := b.String()
	w.pages[u] = func(req fetch.Request, _ int) fetch.Response {
		if req.ETag == etag {
			return fetch.Response{Code: 304, ETag: etag, Header: http.Header{}}
		}
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(body), Length: int64(len(body)),
			ETag: etag, Header: http.Header{"Content-Type": {"text/html"}}}
	}
}

// status serves a response with a code and no body.
func (w *fakeWeb) status(u string, code int) {
	w.pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: code, ContentType: "text/html", Header: http.Header{}}
	}
}

// redirect serves a 301 to target.
func (w *fakeWeb) redirect(u, target string) {
	w.pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 301, Location: target, Header: http.Header{"Location": {target}}}
	}
}

// xmlSitemap serves a urlset listing each URL with lastmod.
func (w *fakeWeb) xmlSitemap(u string, lastmod time.Time, urls ...string) {
	body := `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	for _, l := range urls {
		body += fmt.Sprintf("<url><loc>%s</loc><lastmod>%s</lastmod></url>", l, lastmod.Format(time.RFC3339))
	}
	body += "</urlset>"
	w.pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 200, ContentType: "application/xml", Body: []byte(body), Length: int64(len(body)),
			Header: http.Header{"Content-Type": {"application/xml"}}}
	}
}

func (w *fakeWeb) requests(u string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count[u]
}

func (w *fakeWeb) fetched() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for u := range w.count {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// requestsSince returns the URLs requested since request i, sorted, and
// the conditional ones among them.
func (w *fakeWeb) requestsSince(i int) (all, conditional []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, q := range w.reqs[i:] {
		all = append(all, q.URL)
		if q.ETag != "" {
			conditional = append(conditional, q.URL)
		}
	}
	sort.Strings(all)
	sort.Strings(conditional)
	return all, conditional
}

func (w *fakeWeb) nreqs() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.reqs)
}

type fakeFetcher struct{ w *fakeWeb }

func (f fakeFetcher) Fetch(ctx context.Context, req fetch.Request) fetch.Response {
	w := f.w
	w.mu.Lock()
	w.reqs = append(w.reqs, req)
	w.count[req.URL]++
	n := w.count[req.URL]
	h, ok := w.pages[req.URL]
	w.mu.Unlock()
	if !ok {
		return fetch.Response{URL: req.URL, Code: 404, Header: http.Header{}}
	}
	r := h(req, n)
	r.URL = req.URL
	if r.Header == nil {
		r.Header = http.Header{}
	}
	return r
}

// allowAll is a robots.txt source that allows everything. The frontier
// asks it through a robots.Gate.
type allowAll struct{}

func (allowAll) Check(context.Context, *url.URL) (robots.Decision, error) {
	return robots.Decision{Allowed: true}, nil
}

// spyFrontier is a real frontier that records, per URL, the results it is
// given.
type spyFrontier struct {
	*frontier.Frontier
	mu      sync.Mutex
	results map[uint64][]frontier.Result
}

func (s *spyFrontier) Done(job frontier.Job, r frontier.Result, ch *frontier.Changes) (bool, error) {
	retried, err := s.Frontier.Done(job, r, ch)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[job.ID] = append(s.results[job.ID], r)
	return retried, err
}

// rig is a crawler wired to fakes at the seams and a real bbolt file.
type rig struct {
	t     *testing.T
	web   *fakeWeb
	db    *storage.DB
	path  string
	fr    *spyFrontier
	sched scheduler.Scheduler
	opts  crawler.Options
}

func newRig(t *testing.T) *rig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	r := &rig{t: t, web: newFakeWeb(), path: path}
	r.open()
	return r
}

// open opens the db and a fresh frontier (a new process, as after a crash).
func (r *rig) open() {
	r.t.Helper()
	db, err := storage.Open(r.path, &storage.Options{NoSync: true})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { db.Close() })
	r.db = db
	sched, err := scheduler.ByName("bfs", scheduler.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	r.fr = nil // built by cycle, from the settings the test chose
	r.sched = sched
	r.opts = crawler.Options{
		Store:    db,
		Fetchers: []crawler.Fetcher{fakeFetcher{r.web}, fakeFetcher{r.web}, fakeFetcher{r.web}},
		Settings: config.Config{
			MaxDepth:        -1,
			MaxRedirects:    3,
			RespectNofollow: true,
			RespectNoindex:  true,
			CommitInterval:  20 * time.Millisecond,
			CommitPages:     4,
			Politeness: config.Politeness{
				MaxRetries: 2,
				Backoff:    time.Millisecond,
				MaxBackoff: 5 * time.Millisecond,
			},
		},
	}
}

// reopen closes the db and opens it again with a fresh frontier.
func (r *rig) reopen() {
	r.t.Helper()
	if err := r.db.Close(); err != nil {
		r.t.Fatal(err)
	}
	r.open()
}

// withFrontier returns o with the rig's frontier, built on first use after
// open from the politeness settings the test chose.
func (r *rig) withFrontier(o crawler.Options) crawler.Options {
	r.t.Helper()
	if r.fr == nil {
		fr, err := frontier.New(frontier.Options{Scheduler: r.sched, Politeness: o.Settings.Politeness, HostMaxPages: o.Settings.HostMaxPages,
			Robots: robots.Gate{Robots: allowAll{}, URLs: r.db}, DropFor: o.Settings.RobotsTTL})
		if err != nil {
			r.t.Fatal(err)
		}
		r.fr = &spyFrontier{Frontier: fr, results: map[uint64][]frontier.Result{}}
	}
	o.Frontier = r.fr
	return o
}

// cycle runs one recrawl cycle with rc over a.test.
func (r *rig) cycle(ctx context.Context, rc CycleOptions) (crawler.Summary, error) {
	r.t.Helper()
	o := r.opts
	sc, err := urlnorm.ParseScopeSpec("hosts:a.test", nil)
	if err != nil {
		r.t.Fatal(err)
	}
	o.Scope = sc
	cy, err := NewCycle(&rc)
	if err != nil {
		r.t.Fatal(err)
	}
	o.Cycle = cy
	c, err := crawler.New(r.withFrontier(o))
	if err != nil {
		r.t.Fatal(err)
	}
	return c.Run(ctx, nil)
}

func (r *rig) mustCycle(rc CycleOptions) crawler.Summary {
	r.t.Helper()
	s, err := r.cycle(context.Background(), rc)
	if err != nil {
		r.t.Fatalf("cycle %d: %v", rc.Cycle.N, err)
	}
	return s
}

// page returns the stored record of URL u.
func (r *rig) page(u string) storage.Page {
	r.t.Helper()
	p, err := r.db.PageByURL(u)
	if err != nil {
		r.t.Fatalf("page %s: %v", u, err)
	}
	return p
}

// ids returns the page ids of urls.
func (r *rig) ids(urls ...string) []uint64 {
	r.t.Helper()
	out := make([]uint64, len(urls))
	for i, u := range urls {
		out[i] = r.page(u).ID
	}
	return out
}

// cycleRecord returns the stored record of cycle n.
func (r *rig) cycleRecord(n uint32) storage.Cycle {
	r.t.Helper()
	cs, err := r.db.Cycles()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, c := range cs {
		if c.N == n {
			return c
		}
	}
	r.t.Fatalf("no cycle %d in %+v", n, cs)
	return storage.Cycle{}
}

// fetchesOf returns the fetch records of cycle n by URL.
func (r *rig) fetchesOf(n uint32) map[string]storage.FetchRecord {
	r.t.Helper()
	out := map[string]storage.FetchRecord{}
	if err := r.db.EachFetch(n, func(f storage.FetchRecord) error {
		p, err := r.db.Page(f.ID)
		out[p.URL] = f
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return out
}

func (r *rig) frontierLen() int {
	r.t.Helper()
	n := 0
	if err := r.db.LoadFrontier(func(storage.Entry) error { n++; return nil }); err != nil {
		r.t.Fatal(err)
	}
	return n
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
