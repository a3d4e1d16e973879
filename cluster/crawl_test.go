package cluster

// The crawl side of a node (Crawl), tested through a real crawler.Crawler
// with a fake node (fakeCluster), a fake fetcher and a real bbolt file.

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
)

// crawlRig is a crawler wired to fakes at the seams and a real bbolt file
// (crawltest.Rig), run with opts.
type crawlRig struct {
	*crawltest.Rig
	t    *testing.T
	opts crawler.Options
}

func newCrawlRig(t *testing.T) *crawlRig {
	t.Helper()
	r := crawltest.NewRig(t)
	return &crawlRig{Rig: r, t: t, opts: crawler.Options{
		Store:    r.DB,
		Fetchers: []crawler.Fetcher{r.Web, r.Web, r.Web},
		Settings: crawltest.Settings(),
	}}
}

// fakeCluster owns the hosts in own; it records handoffs and checks at
// each Flush that the page that handed a URL off has not had its outcome
// committed yet, and that a URL handed off for the first time is not
// committed yet either. (A URL handed off again, for a shorter path, was
// committed with its first hand-off.)
type fakeCluster struct {
	t    *testing.T
	db   *storage.DB
	own  map[string]bool
	done chan struct{}

	mu      sync.Mutex
	pending []handoff
	flushed []handoff
	seen    map[string]bool // URLs of flushed handoffs
}

type handoff struct {
	url   string
	depth int
	mass  float64
	from  string
}

func (f *fakeCluster) Owns(host string) bool { return f.own[host] }

func (f *fakeCluster) Handoff(url, host string, depth int, mass float64, from string) error {
	if f.own[host] {
		f.t.Errorf("handoff of %s, whose host this node owns", url)
	}
	f.mu.Lock()
	f.pending = append(f.pending, handoff{url, depth, mass, from})
	f.mu.Unlock()
	return nil
}

func (f *fakeCluster) Flush(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen == nil {
		f.seen = map[string]bool{}
	}
	for _, h := range f.pending {
		// The URL may be interned already (pending in storage), but the
		// commit that records it, and its linking page, comes after Flush.
		if p, err := f.db.PageByURL(h.url); err == nil && !f.seen[h.url] {
			f.t.Errorf("%s committed (status %v) before its first handoff was flushed", h.url, p.Status)
		}
		if p, err := f.db.Page(fromPage(f.t, h.from)); err == nil && p.Status != storage.StatusQueued {
			f.t.Errorf("%s: the page linking to it, %s, committed (status %v) before the handoff was flushed", h.url, p.URL, p.Status)
		}
	}
	for _, h := range f.pending {
		f.seen[h.url] = true
	}
	f.flushed = append(f.flushed, f.pending...)
	f.pending = nil
	return nil
}

func (f *fakeCluster) Done() <-chan struct{} { return f.done }

// fromPage returns the page id a handoff's from names ("cycle.id").
func fromPage(t *testing.T, from string) uint64 {
	_, id, ok := strings.Cut(from, ".")
	n, err := strconv.ParseUint(id, 10, 64)
	if !ok || err != nil {
		t.Errorf("handoff from %q, want cycle.id", from)
	}
	return n
}

func (f *fakeCluster) handed() []handoff {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.flushed)
}

// waitIdle waits until c reports Idle: the crawl's own notion of "dry and
// committed", which is what the cluster polls.
func waitIdle(t *testing.T, c *Crawl) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !c.Idle() {
		select {
		case <-deadline:
			t.Fatal("crawler never idle")
		case <-tick.C:
		}
	}
}

// TestClusterHook follows one node of a cluster through its events: URLs
// of another node's host are handed off (flushed before the commit of the
// page linking to them) and not queued; the crawl goes idle instead of
// stopping; injected URLs are committed to the stored frontier before
// Inject returns and then fetched, known ones dropped; the crawl stops
// when the cluster is done.
func TestClusterHook(t *testing.T) {
	r := newCrawlRig(t)
	r.Sched = crawltest.Scheduler(t, "fpr")
	r.Web.HTML("http://a.test/", "/x", "http://b.test/1", "http://b.test/2")
	r.Web.HTML("http://a.test/x", "http://b.test/1", "/")
	r.Web.HTML("http://a.test/y")
	fc := newFakeCluster(t, r.DB, "a.test")
	cr, c := r.nodeCrawler(fc, -1)
	var mu sync.Mutex
	jobs := map[string]frontier.Job{}
	r.Fr.OnDone = func(j frontier.Job) {
		u, _ := r.DB.URL(j.ID)
		mu.Lock()
		jobs[u] = j
		mu.Unlock()
	}
	type result struct {
		s   monitor.Summary
		err error
	}
	res := make(chan result, 1)
	go func() {
		s, err := c.Run(context.Background(), []string{"http://a.test/"})
		res <- result{s, err}
	}()

	waitIdle(t, cr)
	// FPR with d = 0.85: the seed has (1−d)/1; / gives d·f/3 to each of
	// /x, b.test/1, b.test/2; /x gives d·f/2 to b.test/1 (and to /, done:
	// dropped). Every link to another node's URL carries its share, a
	// known one too, so the owner can add them up as one process does.
	const d = 0.85
	fSeed := 1 - d
	fX := d * fSeed / 3
	got := fc.handed()
	want := []handoff{
		{"http://b.test/1", 1, d * fSeed / 3, ""},
		{"http://b.test/2", 1, d * fSeed / 3, ""},
		{"http://b.test/1", 2, d * fX / 2, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("handed off %+v, want %+v", got, want)
	}
	for i, h := range got {
		if h.url != want[i].url || h.depth != want[i].depth || math.Abs(h.mass-want[i].mass) > 1e-15 {
			t.Errorf("handoff %d = %+v, want %+v", i, h, want[i])
		}
		if p := r.Page(h.url); p.Status != storage.StatusDiscovered || p.Fetches != 0 {
			t.Errorf("%s stored as %v with %d fetches, want discovered, never fetched", h.url, p.Status, p.Fetches)
		}
	}
	if got[0].from != got[1].from || got[0].from == got[2].from {
		t.Errorf("contribution names %q %q %q: want one per discovering page", got[0].from, got[1].from, got[2].from)
	}
	if got, want := r.Links("http://a.test/"), []string{"a http://a.test/x", "a http://b.test/1", "a http://b.test/2"}; !slices.Equal(got, want) {
		t.Errorf("links of / = %v, want %v (handed-off targets are links too)", got, want)
	}
	if n := r.FrontierLen(); n != 0 {
		t.Errorf("%d URLs in the stored frontier while idle, want 0", n)
	}

	// a.test/y arrives twice in one batch (two pages of other nodes link
	// to it): queued at the lesser depth with both shares added, as two
	// local links would.
	err := cr.Inject(context.Background(), []URL{{URL: "http://a.test/y", Depth: 3, Mass: 0.1},
		{URL: "http://a.test/x", Depth: 1}, {URL: "http://a.test/y", Depth: 2, Mass: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	// Committed by the time Inject returns (unless already fetched).
	if p := r.Page("http://a.test/y"); p.Depth != 2 || p.Status != storage.StatusQueued && p.Fetches == 0 {
		t.Errorf("a.test/y after Inject: status %v, depth %d, %d fetches; want queued (or fetched) at depth 2", p.Status, p.Depth, p.Fetches)
	}
	waitIdle(t, cr)
	mu.Lock()
	m1, m2 := 0.05, 0.1 // added at run time, in float64, as the frontier does
	if j, ok := jobs["http://a.test/y"]; !ok || j.Prio != m1+m2 || j.Depth != 2 {
		t.Errorf("a.test/y handed out as %+v (%v), want priority 0.05+0.1 at depth 2", j, ok)
	}
	mu.Unlock()
	for _, u := range []string{"http://a.test/", "http://a.test/x", "http://a.test/y"} {
		if n := r.Web.Requests(u); n != 1 {
			t.Errorf("%s fetched %d times, want 1", u, n)
		}
	}
	if n := r.Web.Requests("http://b.test/1"); n != 0 {
		t.Errorf("b.test/1 fetched %d times by a node that does not own it", n)
	}
	select {
	case rr := <-res:
		t.Fatalf("Run returned before the cluster was done: %+v, %v", rr.s, rr.err)
	default:
	}

	close(fc.done)
	rr := <-res
	if rr.err != nil || rr.s.Stopped != monitor.StopExhausted {
		t.Fatalf("Run = %q, %v; want exhausted, nil", rr.s.Stopped, rr.err)
	}
	if err := cr.Inject(context.Background(), []URL{{URL: "http://a.test/z"}}); !errors.Is(err, crawler.ErrStopped) {
		t.Fatalf("Inject after the end: %v, want ErrStopped", err)
	}
}

// TestClusterReceiveLiftsDepth: a URL this node found only beyond MaxDepth
// is queued when another node hands it over at an allowed depth, as a
// shorter local path would.
func TestClusterReceiveLiftsDepth(t *testing.T) {
	r := newCrawlRig(t)
	r.Web.HTML("http://a.test/", "/x")
	r.Web.HTML("http://a.test/x", "/deep")
	r.Web.HTML("http://a.test/deep")
	fc := newFakeCluster(t, r.DB, "a.test")
	cr, c := r.nodeCrawler(fc, 1)
	res := make(chan error, 1)
	go func() {
		_, err := c.Run(context.Background(), []string{"http://a.test/"})
		res <- err
	}()
	waitIdle(t, cr)
	if p := r.Page("http://a.test/deep"); p.Status != storage.StatusRejected || p.Reason != "max-depth" {
		t.Fatalf("a.test/deep before the handover: %v %q, want rejected max-depth", p.Status, p.Reason)
	}
	if err := cr.Inject(context.Background(), []URL{{URL: "http://a.test/deep", Depth: 1}}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, cr)
	close(fc.done)
	if err := <-res; err != nil {
		t.Fatal(err)
	}
	if n := r.Web.Requests("http://a.test/deep"); n != 1 {
		t.Fatalf("a.test/deep fetched %d times after a handover at depth 1, want 1", n)
	}
}

// TestClusterShortcutLowersDepth: with --max-depth 2, x.test/t is pending
// at depth 2 (found through a.test/1) when another node hands it over at
// depth 1. It is fetched at depth 1, so its link /c (depth 2) is fetched
// too and only /d (depth 3) is beyond the limit, as in one process that
// found the shorter path first.
func TestClusterShortcutLowersDepth(t *testing.T) {
	r := newCrawlRig(t)
	release := make(chan struct{})
	r.Web.HTML("http://a.test/", "http://x.test/0", "/1")
	r.Web.HTML("http://a.test/1", "http://x.test/t")
	r.Web.HTML("http://x.test/t", "/c")
	r.Web.HTML("http://x.test/c", "/d")
	r.Web.HTML("http://x.test/d")
	blocked := r.Web.Pages["http://a.test/1"] // any page body will do
	r.Web.Pages["http://x.test/0"] = func(req fetch.Request, n int) fetch.Response {
		<-release // holds host x.test (one request at a time): x.test/t stays queued
		return blocked(req, n)
	}
	cc := startClusterCrawl(t, r, []string{"a.test", "x.test"}, 2, "http://a.test/1", "http://a.test/")
	<-cc.reached // x.test/t queued at depth 2 behind x.test/0
	if err := cc.cr.Inject(context.Background(), []URL{{URL: "http://x.test/t", Depth: 1}}); err != nil {
		t.Fatal(err)
	}
	close(release)
	cc.finish(t)
	for u, want := range map[string]int{"http://x.test/t": 1, "http://x.test/c": 1, "http://x.test/d": 0} {
		if n := r.Web.Requests(u); n != want {
			t.Errorf("%s fetched %d times, want %d", u, n, want)
		}
	}
	r.WantRejected("http://x.test/d", "max-depth")
}

// TestClusterHandoffShorterPath: under BFS a link carries no mass, so a
// URL another node owns is handed off when it is new and again only when
// a shorter path to it turns up: the owner may still lower its depth.
func TestClusterHandoffShorterPath(t *testing.T) {
	r := newCrawlRig(t)
	release := make(chan struct{})
	r.Web.HTML("http://a.test/", "/1")
	r.Web.HTML("http://a.test/1", "http://b.test/z", "/2")
	r.Web.HTML("http://a.test/2", "http://b.test/z")
	r.Web.HTML("http://c.test/s", "http://b.test/z")
	seed := r.Web.Pages["http://c.test/s"]
	r.Web.Pages["http://c.test/s"] = func(req fetch.Request, n int) fetch.Response {
		<-release
		return seed(req, n)
	}
	cc := startClusterCrawl(t, r, []string{"a.test", "c.test"}, r.opts.Settings.MaxDepth, "http://a.test/2", "http://a.test/", "http://c.test/s")
	<-cc.reached // b.test/z found at depth 2, then at depth 3
	// Commit what the crawl holds (an empty Inject commits on the
	// disposer, after a.test/2's outcome): b.test/z's first hand-off is
	// then stored before the shorter path hands it off again.
	if err := cc.cr.Inject(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.DB.PageByURL("http://b.test/z"); err != nil {
		t.Fatalf("b.test/z not committed after its first hand-off: %v", err)
	}
	close(release)
	cc.finish(t)
	got := cc.fc.handed()
	var depths []int
	for _, h := range got {
		if h.url != "http://b.test/z" || h.mass != 0 {
			t.Errorf("handoff %+v: want b.test/z without mass", h)
		}
		depths = append(depths, h.depth)
	}
	if !slices.Equal(depths, []int{2, 1}) {
		t.Fatalf("b.test/z handed off at depths %v, want [2 1]: new, then only the shorter path", depths)
	}
}

// TestClusterHandoffRedirect: a redirect to another node's host hands the
// target off at the depth of the page that redirected (a redirect keeps
// the depth), named after that page.
func TestClusterHandoffRedirect(t *testing.T) {
	r := newCrawlRig(t)
	r.Web.HTML("http://a.test/", "/old")
	r.Web.Redirect("http://a.test/old", "http://b.test/new")
	cc := startClusterCrawl(t, r, []string{"a.test"}, r.opts.Settings.MaxDepth, "", "http://a.test/")
	cc.finish(t)
	got := cc.fc.handed()
	if len(got) != 1 || got[0].url != "http://b.test/new" || got[0].depth != 1 {
		t.Fatalf("handed off %+v, want b.test/new at depth 1", got)
	}
	old, err := r.DB.PageByURL("http://a.test/old")
	if err != nil {
		t.Fatal(err)
	}
	if from := fromPage(t, got[0].from); from != old.ID {
		t.Errorf("handoff named after page %d, want a.test/old (%d)", from, old.ID)
	}
}

// clusterCrawl is a crawl as one node of a fake cluster, running.
type clusterCrawl struct {
	c       *crawler.Crawler
	cr      *Crawl
	fc      *fakeCluster
	reached chan struct{} // closed when the frontier is told the job of the URL named at start is done
	res     chan error
}

// startClusterCrawl runs, from seeds, the crawl of a node owning the hosts
// own, within hosts:.test and maxDepth.
func startClusterCrawl(t *testing.T, r *crawlRig, own []string, maxDepth int, reachedURL string, seeds ...string) *clusterCrawl {
	t.Helper()
	cc := &clusterCrawl{reached: make(chan struct{}), res: make(chan error, 1)}
	cc.fc = newFakeCluster(t, r.DB, own...)
	cc.cr, cc.c = r.nodeCrawler(cc.fc, maxDepth)
	r.Fr.OnDone = func(j frontier.Job) {
		if u, _ := r.DB.URL(j.ID); u == reachedURL {
			close(cc.reached)
		}
	}
	go func() {
		_, err := cc.c.Run(context.Background(), seeds)
		cc.res <- err
	}()
	return cc
}

// finish waits until the crawl is idle, ends the cluster and checks the
// crawl ended without error.
func (cc *clusterCrawl) finish(t *testing.T) {
	t.Helper()
	waitIdle(t, cc.cr)
	close(cc.fc.done)
	if err := <-cc.res; err != nil {
		t.Fatal(err)
	}
}
