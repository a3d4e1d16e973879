package crawler

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

func TestCrawlFollowsLinksAndStoresGraph(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/", "/b", "http://a.test/c#frag", "/b", "http://other.test/x", "mailto:x@y")
	r.Web.HTML("http://a.test/b", "/", "/c")
	r.Web.HTML("http://a.test/c", "/c")
	r.Web.Pages["http://a.test/img.png"] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 200, ContentType: "image/png", Length: 99}
	}
	r.Web.HTML("http://a.test/c", "/img.png", "/c")

	s := r.mustRun("http://A.test:80/")
	if s.Stopped != monitor.StopExhausted {
		t.Errorf("stopped = %q, want %q", s.Stopped, monitor.StopExhausted)
	}
	want := []string{"http://a.test/", "http://a.test/b", "http://a.test/c", "http://a.test/img.png"}
	if got := r.Web.Fetched(); !reflect.DeepEqual(got, want) {
		t.Errorf("fetched %v, want %v", got, want)
	}
	for _, u := range want {
		if n := r.Web.Requests(u); n != 1 {
			t.Errorf("%s fetched %d times, want 1", u, n)
		}
		if p := r.Page(u); p.Status != storage.StatusFetched {
			t.Errorf("%s status %v, want fetched", u, p.Status)
		}
	}
	if got, want := r.Links("http://a.test/"), []string{"a http://a.test/b", "a http://a.test/c", "a http://other.test/x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("links of / = %v, want %v", got, want)
	}
	if got, want := r.Links("http://a.test/c"), []string{"a http://a.test/img.png", "a http://a.test/c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("links of /c = %v, want %v (self-link kept)", got, want)
	}
	if p := r.Page("http://other.test/x"); p.Status != storage.StatusOutOfScope {
		t.Errorf("other.test/x status %v, want out-of-scope", p.Status)
	}
	if p := r.Page("http://a.test/b"); p.Depth != 1 || p.From != r.Page("http://a.test/").ID {
		t.Errorf("/b depth %d from %d, want 1 from the seed", p.Depth, p.From)
	}
	if s.Rejected["bad-scheme"] != 1 {
		t.Errorf("rejected = %v, want bad-scheme 1 (mailto)", s.Rejected)
	}
	if s.Skipped["out-of-scope"] != 1 || s.ByStatus["fetched"] != 4 || s.Pages != 4 {
		t.Errorf("summary = %+v", s)
	}
	if n := r.FrontierLen(); n != 0 {
		t.Errorf("stored frontier holds %d entries after an exhausted crawl", n)
	}
	runs, err := r.DB.Runs()
	if err != nil || len(runs) != 1 || runs[0].End.IsZero() || runs[0].Counters["fetch/fetched"] != 4 {
		t.Errorf("runs = %+v, %v; want one closed run with counters", runs, err)
	}
}

func TestRobotsDecisions(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/", "/private/x", "/ok", "http://b.test/", "http://c.test/")
	r.Web.HTML("http://a.test/ok")
	r.Web.HTML("http://a.test/private/x")
	r.Web.HTML("http://b.test/")
	r.Web.HTML("http://c.test/")
	r.Robots.Decide = func(u *url.URL) robots.Decision {
		switch {
		case strings.HasPrefix(u.Path, "/private/"):
			return robots.Decision{Reason: robots.ReasonDisallowed}
		case u.Host == "b.test":
			return robots.Decision{Reason: robots.ReasonUnreachable}
		case u.Host == "c.test":
			return robots.Decision{Allowed: true, CrawlDelay: time.Hour}
		}
		return robots.Decision{Allowed: true, CrawlDelay: 10 * time.Millisecond}
	}
	r.opts.Scope, _ = urlnorm.ParseScopeSpec("all", nil)
	r.opts.Settings.MaxCrawlDelay = time.Minute
	s := r.mustRun("http://a.test/")

	for _, tc := range []struct {
		url     string
		fetched bool
		status  storage.Status
		reason  string
	}{
		{"http://a.test/ok", true, storage.StatusFetched, ""},
		{"http://a.test/private/x", false, storage.StatusRobotsDenied, robots.ReasonDisallowed},
		{"http://b.test/", false, storage.StatusDeferred, robots.ReasonUnreachable},
		{"http://c.test/", false, storage.StatusDeferred, "crawl-delay 1h0m0s exceeds max-crawl-delay 1m0s"},
	} {
		if got := r.Web.Requests(tc.url) > 0; got != tc.fetched {
			t.Errorf("%s fetched = %v, want %v", tc.url, got, tc.fetched)
		}
		if p := r.Page(tc.url); p.Status != tc.status || p.Reason != tc.reason {
			t.Errorf("%s = %v %q, want %v %q", tc.url, p.Status, p.Reason, tc.status, tc.reason)
		}
	}
	if s.Skipped[robots.ReasonDisallowed] != 1 || s.Skipped["crawl-delay-too-long"] != 1 {
		t.Errorf("skipped = %v", s.Skipped)
	}
	h, ok, err := r.DB.Host("c.test")
	if err != nil || !ok || !strings.HasPrefix(h.Reason, "crawl-delay") || time.Until(h.ReadyAt) < time.Hour {
		t.Errorf("host c.test = %+v, %v, %v; want deferred with the reason", h, ok, err)
	}
	// The Crawl-delay of a.test (10ms) is part of its politeness delay.
	for _, d := range r.Fr.Waits[r.Page("http://a.test/ok").ID] {
		if d < 10*time.Millisecond {
			t.Errorf("a.test delay %v, want ≥ its Crawl-delay 10ms", d)
		}
	}
}

func TestDelayPassedToFrontier(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/")
	r.Web.Dur = 40 * time.Millisecond
	r.opts.Settings.Delay = 30 * time.Millisecond
	r.opts.Settings.DelayFactor = 2
	r.mustRun("http://a.test/")
	id := r.Page("http://a.test/").ID
	outs, waits := r.Fr.Results[id], r.Fr.Waits[id]
	if len(outs) != 1 || outs[0].Duration != 40*time.Millisecond || !outs[0].Downloaded || !outs[0].Requested {
		t.Fatalf("results = %+v, want one download that took 40ms", outs)
	}
	// The frontier keeps the host waiting 2×40ms from Done on.
	if len(waits) != 1 || waits[0] < 80*time.Millisecond || waits[0] > 80*time.Millisecond+time.Second {
		t.Fatalf("host waits %v after Done, want 2×40ms", waits)
	}
}

func TestRetryAfterAndRetries(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/", "/limited", "/broken", "/flaky")
	r.Web.Pages["http://a.test/limited"] = func(_ fetch.Request, n int) fetch.Response {
		if n == 1 {
			return fetch.Response{Code: 429, RetryAfter: 30 * time.Millisecond}
		}
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte("<p>ok")}
	}
	r.Web.Status("http://a.test/broken", 500)
	r.Web.Pages["http://a.test/flaky"] = func(_ fetch.Request, n int) fetch.Response {
		if n < 3 {
			return fetch.Response{Reason: fetch.ReasonConnLost, Err: errors.New("reset")}
		}
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte("<p>ok")}
	}
	s := r.mustRun("http://a.test/")

	lim := r.Page("http://a.test/limited")
	if lim.Status != storage.StatusFetched || r.Web.Requests("http://a.test/limited") != 2 {
		t.Errorf("limited: %v after %d requests, want fetched after 2", lim.Status, r.Web.Requests("http://a.test/limited"))
	}
	if rq := r.Fr.Requeues[lim.ID]; len(rq) != 1 || rq[0] < 30*time.Millisecond {
		t.Errorf("limited requeued after %v, want once after ≥ Retry-After 30ms", rq)
	}
	br := r.Page("http://a.test/broken")
	if br.Status != storage.StatusHTTPError || br.Code != 500 || r.Web.Requests("http://a.test/broken") != 3 {
		t.Errorf("broken: %v %d after %d requests, want http-error 500 after 1+2 retries", br.Status, br.Code, r.Web.Requests("http://a.test/broken"))
	}
	if fl := r.Page("http://a.test/flaky"); fl.Status != storage.StatusFetched {
		t.Errorf("flaky: %v, want fetched on the third attempt", fl.Status)
	}
	if s.Retries["http-429"] != 1 || s.Retries["http-500"] != 2 || s.Retries[fetch.ReasonConnLost] != 2 || s.Errors["http-500"] != 1 {
		t.Errorf("retries %v errors %v", s.Retries, s.Errors)
	}
	// The cycle's figures keep the retries, which leave no fetch record:
	// its fetches and retries are the requests the page budget counted.
	cs, err := r.DB.Cycles()
	if err != nil || len(cs) != 1 || cs[0].Stats.Retries != 5 || cs[0].Stats.Fetches+cs[0].Stats.Retries != s.Fetches {
		t.Errorf("cycle figures %+v, %v; want 5 retries and, with the fetch records, the %d requests", cs, err, s.Fetches)
	}
}

func TestRedirects(t *testing.T) {
	r := newRig(t)
	r.opts.Settings.MaxRedirects = 2
	r.Web.HTML("http://a.test/", "/r1", "/loop1")
	r.Web.Redirect("http://a.test/r1", "http://a.test/r2")
	r.Web.Redirect("http://a.test/r2", "http://a.test/r3")
	r.Web.Redirect("http://a.test/r3", "http://a.test/end")
	r.Web.HTML("http://a.test/end")
	r.Web.Redirect("http://a.test/loop1", "http://a.test/loop2")
	r.Web.Redirect("http://a.test/loop2", "http://a.test/loop1")
	r.mustRun("http://a.test/")

	// r1 → r2 → r3 are two hops; r3 → end would be the third.
	for _, u := range []string{"http://a.test/r1", "http://a.test/r2", "http://a.test/r3", "http://a.test/loop1", "http://a.test/loop2"} {
		if p := r.Page(u); p.Status != storage.StatusRedirect || r.Web.Requests(u) != 1 {
			t.Errorf("%s: %v after %d requests, want one redirect", u, p.Status, r.Web.Requests(u))
		}
	}
	if p := r.Page("http://a.test/end"); p.Status != storage.StatusRejected || p.Reason != "too-many-redirects" || r.Web.Requests("http://a.test/end") != 0 {
		t.Errorf("end of chain: %v %q, %d requests; want rejected too-many-redirects, unfetched", p.Status, p.Reason, r.Web.Requests("http://a.test/end"))
	}
	if got := r.Links("http://a.test/r2"); !reflect.DeepEqual(got, []string{"redirect http://a.test/r3"}) {
		t.Errorf("links of r2 = %v", got)
	}
	if got := r.Links("http://a.test/loop2"); !reflect.DeepEqual(got, []string{"redirect http://a.test/loop1"}) {
		t.Errorf("links of loop2 = %v", got)
	}
	if p := r.Page("http://a.test/r2"); p.Depth != 1 {
		t.Errorf("redirect target depth %d, want the source's depth 1", p.Depth)
	}
}

func TestNofollowAndNoindex(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/", "/meta", "/b")
	r.Web.Body("http://a.test/meta", `<meta name="robots" content="nofollow,noindex"><a href="/hidden">h</a><a href="/later">l</a>`)
	r.Web.Body("http://a.test/b", `<a rel="nofollow" href="/relnf">n</a><a href="/deep">d</a>`)
	r.Web.HTML("http://a.test/deep", "/later")
	r.Web.HTML("http://a.test/later")
	r.Web.HTML("http://a.test/hidden")
	r.Web.HTML("http://a.test/relnf")
	s := r.mustRun("http://a.test/")

	if p := r.Page("http://a.test/meta"); p.Status != storage.StatusFetched || p.Reason != "noindex" {
		t.Errorf("meta page %v %q, want fetched noindex", p.Status, p.Reason)
	}
	for _, u := range []string{"http://a.test/hidden", "http://a.test/relnf"} {
		if r.Web.Requests(u) != 0 {
			t.Errorf("%s fetched behind nofollow", u)
		}
		if _, err := r.DB.PageByURL(u); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s stored (%v): nofollow links are not recorded", u, err)
		}
	}
	// /later is linked behind meta nofollow and followably from /deep.
	if r.Web.Requests("http://a.test/later") != 1 {
		t.Errorf("/later fetched %d times, want once", r.Web.Requests("http://a.test/later"))
	}
	if got := r.Links("http://a.test/meta"); len(got) != 0 {
		t.Errorf("nofollow page links %v: want none recorded", got)
	}
	if got := r.Links("http://a.test/b"); !reflect.DeepEqual(got, []string{"a http://a.test/deep"}) {
		t.Errorf("links of /b = %v, want only the followable one", got)
	}
	if s.Skipped["nofollow"] != 3 {
		t.Errorf("skipped %v, want nofollow 3", s.Skipped)
	}
}

func TestBudgets(t *testing.T) {
	chain := func(r *rig) {
		r.Web.HTML("http://a.test/", "/1", "/2", "/3", "/4")
		for i := 1; i <= 4; i++ {
			r.Web.HTML("http://a.test/"+string(rune('0'+i)), "/d/"+string(rune('0'+i)))
		}
	}
	t.Run("max-depth", func(t *testing.T) {
		r := newRig(t)
		chain(r)
		r.opts.Settings.MaxDepth = 1
		s := r.mustRun("http://a.test/")
		if got := len(r.Web.Fetched()); got != 5 {
			t.Errorf("fetched %d pages, want 5 (depth ≤ 1)", got)
		}
		r.WantRejected("http://a.test/d/1", "max-depth")
		if s.Skipped["max-depth"] != 4 {
			t.Errorf("skipped %v", s.Skipped)
		}
	})
	t.Run("host-max-pages", func(t *testing.T) {
		r := newRig(t)
		chain(r)
		r.opts.Settings.HostMaxPages = 3
		r.mustRun("http://a.test/")
		if got := len(r.Web.Fetched()); got != 3 {
			t.Errorf("fetched %d pages, want 3", got)
		}
		r.WantRejected("http://a.test/4", "host-max-pages")
	})
	t.Run("host-max-pages across a resume", func(t *testing.T) {
		// The second run's frontier starts empty: the host's count comes
		// back from the stored records (Snapshot.Admitted), so the budget
		// holds over both runs.
		r := newRig(t)
		chain(r)
		r.opts.Settings.HostMaxPages = 3
		r.opts.Settings.MaxPages = 2
		r.mustRun("http://a.test/")
		r.reopen()
		r.opts.Settings.HostMaxPages = 3
		r.mustRun("http://a.test/")
		if got := len(r.Web.Fetched()); got != 3 {
			t.Errorf("fetched %d pages over two runs, want 3: %v", got, r.Web.Fetched())
		}
		r.WantRejected("http://a.test/4", "host-max-pages")
	})
	t.Run("max-pages then resume", func(t *testing.T) {
		r := newRig(t)
		chain(r)
		r.opts.Settings.MaxPages = 2
		s := r.mustRun("http://a.test/")
		if s.Stopped != monitor.StopMaxPages || s.Fetches != 2 || len(r.Web.Fetched()) != 2 {
			t.Fatalf("summary %+v, fetched %v; want max-pages after 2", s, r.Web.Fetched())
		}
		r.reopen()
		r.opts.Settings.MaxPages = 0
		s = r.mustRun("http://a.test/")
		if s.Stopped != monitor.StopExhausted || len(r.Web.Fetched()) != 9 {
			t.Errorf("resume: %+v, fetched %v", s, r.Web.Fetched())
		}
		for _, u := range r.Web.Fetched() {
			if n := r.Web.Requests(u); n != 1 {
				t.Errorf("%s fetched %d times across the two runs", u, n)
			}
		}
		if runs, _ := r.DB.Runs(); len(runs) != 2 {
			t.Errorf("%d runs recorded, want 2", len(runs))
		}
	})
	t.Run("max-duration", func(t *testing.T) {
		r := newRig(t)
		chain(r)
		r.opts.Settings.Delay = time.Hour // one page per host, then nothing is ready
		r.opts.Settings.MaxDuration = 50 * time.Millisecond
		s := r.mustRun("http://a.test/")
		if s.Stopped != monitor.StopMaxDuration || s.Fetches != 1 || s.Pending != 4 {
			t.Errorf("summary %+v, want max-duration after one fetch with 4 pending", s)
		}
	})
}

func TestGuardRejectionsCounted(t *testing.T) {
	r := newRig(t)
	long := "/" + strings.Repeat("x", 3000)
	r.Web.HTML("http://a.test/", long, "/a/a/a/a/a", "/ok", "javascript:void(0)")
	r.Web.HTML("http://a.test/ok")
	r.opts.Settings.MaxOutLinks = 1000
	s := r.mustRun("http://a.test/")
	want := map[string]uint64{urlnorm.ReasonTooLong: 1, urlnorm.ReasonRepeatedSegments: 1, urlnorm.ReasonBadScheme: 1}
	if !reflect.DeepEqual(s.Rejected, want) {
		t.Errorf("rejected %v, want %v", s.Rejected, want)
	}
	if got := r.Links("http://a.test/"); !reflect.DeepEqual(got, []string{"a http://a.test/ok"}) {
		t.Errorf("links %v: rejected URLs must not be stored", got)
	}
	c, err := r.DB.Counters()
	if err != nil || c["reject/"+urlnorm.ReasonTooLong] != 1 {
		t.Errorf("stored counters %v, %v", c, err)
	}
}

func TestMaxOutLinks(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/", "/1", "/2", "/3", "/1")
	r.opts.Settings.MaxOutLinks = 2
	s := r.mustRun("http://a.test/")
	if got := r.Links("http://a.test/"); len(got) != 2 || s.Rejected["too-many-links"] != 1 {
		t.Errorf("links %v rejected %v; want 2 kept, 1 dropped", got, s.Rejected)
	}
}

func TestRobotsFetchKeepsGap(t *testing.T) {
	r := newRig(t)
	var robotsAt, pageAt time.Time
	r.Web.Pages["http://a.test/"] = func(fetch.Request, int) fetch.Response {
		pageAt = time.Now()
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte("<p>ok")}
	}
	r.opts.Settings.Delay = 20 * time.Millisecond
	first := true
	r.Robots.Decide = func(u *url.URL) robots.Decision {
		d := robots.Decision{Allowed: true}
		if first { // the robots cache fetches robots.txt on the first check
			first = false
			robotsAt = time.Now()
			d.Requests = []robots.Request{{Host: urlnorm.HostOfURL(u), At: robotsAt}}
		}
		return d
	}
	r.opts.Fetchers = r.opts.Fetchers[:1]
	s := r.mustRun("http://a.test/")
	if gap := pageAt.Sub(robotsAt); gap < 20*time.Millisecond {
		t.Errorf("page fetched %v after robots.txt, want ≥ the 20ms delay", gap)
	}
	if p := r.Page("http://a.test/"); p.Status != storage.StatusFetched || s.Fetches != 1 {
		t.Errorf("page %v, %d fetches", p.Status, s.Fetches)
	}
}

func TestNotModifiedOnRefetch(t *testing.T) {
	r := newRig(t)
	r.Web.Pages["http://a.test/"] = func(req fetch.Request, n int) fetch.Response {
		if req.ETag == `"v1"` {
			return fetch.Response{Code: 304, ETag: `"v1"`}
		}
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte("<p>hi"), ETag: `"v1"`, LastModified: "Mon, 02 Jan 2006 15:04:05 GMT"}
	}
	r.mustRun("http://a.test/")
	if p := r.Page("http://a.test/"); p.Status != storage.StatusFetched || p.ETag != `"v1"` {
		t.Fatalf("first crawl: %v etag %q", p.Status, p.ETag)
	}
	r.reopen()
	r.opts.Refetch = true
	s := r.mustRun("http://a.test/")
	p := r.Page("http://a.test/")
	if p.Status != storage.StatusNotModified || p.ETag != `"v1"` || p.LastModified == "" || s.ByStatus["not-modified"] != 1 {
		t.Errorf("refetch: %v etag %q lm %q, summary %v", p.Status, p.ETag, p.LastModified, s.ByStatus)
	}
	if last := r.Web.Reqs[len(r.Web.Reqs)-1]; last.ETag != `"v1"` || last.LastModified == "" {
		t.Errorf("refetch request %+v, want If-None-Match and If-Modified-Since", last)
	}
}

// TestRefetchOlderHashKind checks that a page hashed with SHA-256 by an
// older build counts as unchanged when refetched with the same content,
// and as changed, with the current kind of hash, when its content changed.
func TestRefetchOlderHashKind(t *testing.T) {
	for _, tc := range []struct {
		name     string
		second   string
		want     storage.Change
		wantKind storage.HashKind
	}{
		{"same content", "<p>v1", storage.ChangeUnchanged, storage.HashSHA256},
		{"new content", "<p>v2", storage.ChangeChanged, storage.HashXXH3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			body := "<p>v1"
			r.Web.Pages["http://a.test/"] = func(fetch.Request, int) fetch.Response {
				return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(body)}
			}
			r.mustRun("http://a.test/")
			// What an older build stored: the same fetch, hashed with SHA-256.
			p := r.Page("http://a.test/")
			b := &storage.Batch{}
			b.AddFetch(storage.Fetch{ID: p.ID, Status: storage.StatusFetched, Code: 200, ContentType: "text/html",
				Hash: storage.HashSHA256.Of([]byte(body)), FetchedAt: p.FetchedAt}, nil)
			crawltest.Commit(t, r.DB, b)
			r.reopen()
			body = tc.second
			r.opts.Refetch = true
			r.mustRun("http://a.test/")
			hist, err := r.DB.History(p.ID)
			if err != nil || len(hist) == 0 {
				t.Fatalf("history: %v, %d records", err, len(hist))
			}
			last := hist[len(hist)-1]
			if last.Change != tc.want || last.Hash.Kind() != tc.wantKind {
				t.Errorf("refetch: change %v, hash kind %v; want %v, %v", last.Change, last.Hash.Kind(), tc.want, tc.wantKind)
			}
		})
	}
}

// TestDuplicateOfOlderHashKind crawls, after an upgrade, a new page with
// the content of a page an older build stored with a SHA-256 hash: it is
// a duplicate of that page (not novel), while a page of other content is.
func TestDuplicateOfOlderHashKind(t *testing.T) {
	r := newRig(t)
	const orig, dup, other = "http://a.test/", "http://a.test/copy", "http://a.test/other"
	body := map[string]string{orig: "<p>same", dup: "<p>same", other: "<p>else"}
	for u := range body {
		r.Web.Pages[u] = func(fetch.Request, int) fetch.Response {
			return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(body[u])}
		}
	}
	// What an older build stored: orig fetched and hashed with SHA-256,
	// no hash of the current kind anywhere.
	in, err := r.DB.Intern([]string{orig}, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := &storage.Batch{}
	b.AddFetch(storage.Fetch{ID: in[0].ID, Status: storage.StatusFetched, Code: 200, ContentType: "text/html",
		Hash: storage.HashSHA256.Of([]byte(body[orig])), FetchedAt: time.Now()}, nil)
	crawltest.Commit(t, r.DB, b)
	r.reopen()
	r.mustRun(dup, other)
	if r.Web.Requests(orig) != 0 {
		t.Fatalf("%s fetched; the test needs only its stored record", orig)
	}
	for u, want := range map[string]bool{orig: true, dup: false, other: true} {
		if p := r.Page(u); p.Novel != want || p.Status != storage.StatusFetched {
			t.Errorf("%s: %v, novel %v; want fetched, novel %v", u, p.Status, p.Novel, want)
		}
	}
}

// TestInterruptBeforeBudget checks that a crawl interrupted before its
// MaxPages budget was used says interrupted, also when it has more
// workers than the budget has pages: a worker waiting in Next holds a
// reservation, which is not a page done.
func TestInterruptBeforeBudget(t *testing.T) {
	r := newRig(t)
	// Far more workers than the budget: one fetches the seed, one waits in
	// Next with the other reservation, the other 14 are refused and end.
	o := r.opts
	o.Fetchers = slices.Repeat([]Fetcher{r.Web}, 16)
	o.Settings.MaxPages = 2
	o.Settings.Delay = time.Hour
	sc, err := urlnorm.ParseScopeSpec("seeds-hosts", []string{"http://a.test/"})
	if err != nil {
		t.Fatal(err)
	}
	o.Scope = sc
	c, err := New(r.withFrontier(o))
	if err != nil {
		t.Fatal(err)
	}
	r.Web.HTML("http://a.test/", "http://a.test/next")
	r.Web.HTML("http://a.test/next")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seed := r.Web.Pages["http://a.test/"]
	r.Web.Pages["http://a.test/"] = func(req fetch.Request, n int) fetch.Response {
		// Once the refused workers ended (only this one and the one in
		// Next are left), stop, with one page of two done: its link would
		// wait an hour for the host's delay.
		for c.live.Load() > 2 {
			runtime.Gosched()
		}
		cancel()
		return seed(req, n)
	}
	s, err := c.Run(ctx, []string{"http://a.test/"})
	if err != nil || s.Stopped != monitor.StopInterrupted || s.Fetches != 1 {
		t.Fatalf("Run = stopped %q after %d fetches, %v; want interrupted after 1", s.Stopped, s.Fetches, err)
	}
}

func TestInterruptIsGraceful(t *testing.T) {
	r := newRig(t)
	r.opts.Settings.Delay = 10 * time.Millisecond
	links := make([]string, 50)
	for i := range links {
		u := "http://a.test/p" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		links[i] = u
		r.Web.HTML(u)
	}
	r.Web.HTML("http://a.test/", links...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	s, err := r.run(ctx, "http://a.test/")
	if err != nil || s.Stopped != monitor.StopInterrupted {
		t.Fatalf("Run = %+v, %v; want a graceful interrupted stop", s, err)
	}
	fetched := uint64(len(r.Web.Fetched()))
	st, err := r.DB.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Fetched != fetched || st.Frontier != uint64(51)-fetched {
		t.Errorf("stored %d fetched, %d pending; the server saw %d fetches of 51", st.Fetched, st.Frontier, fetched)
	}
}

func TestCommitFailureIsFatal(t *testing.T) {
	r := newRig(t)
	r.Web.HTML("http://a.test/", "/b")
	r.Web.HTML("http://a.test/b")
	r.opts.Store = &failingStore{DB: r.DB, n: 1}
	_, err := r.run(context.Background(), "http://a.test/")
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("Run = %v, want the commit error", err)
	}
}

func TestNewValidates(t *testing.T) {
	for _, o := range []Options{
		{},
		{Frontier: &crawltest.Spy{}, Store: &storage.DB{}},
		{Frontier: &crawltest.Spy{}, Store: &storage.DB{}, Fetchers: []Fetcher{nil}},
		{Frontier: &crawltest.Spy{}, Store: &storage.DB{}, Fetchers: []Fetcher{fakeweb.New()}, Settings: config.Config{MaxPages: -1}},
	} {
		if _, err := New(o); !errors.Is(err, ErrOptions) {
			t.Errorf("New(%+v) = %v, want ErrOptions", o, err)
		}
	}
}

func TestNoSeeds(t *testing.T) {
	r := newRig(t)
	if _, err := r.run(context.Background()); !errors.Is(err, ErrNoSeeds) {
		t.Errorf("Run without seeds = %v, want ErrNoSeeds", err)
	}
	r.opts.Scope, _ = urlnorm.ParseScopeSpec("all", nil)
	if _, err := r.run(context.Background(), "ftp://x/"); !errors.Is(err, ErrSeed) {
		t.Errorf("Run with a bad seed = %v, want ErrSeed", err)
	}
}

func TestTooDeepURLQueuedWhenFoundShallower(t *testing.T) {
	r := newRig(t)
	r.opts.Settings.MaxDepth = 1
	r.opts.Scope, _ = urlnorm.ParseScopeSpec("all", nil)
	r.Web.HTML("http://a.test/", "/a")
	r.Web.HTML("http://a.test/a", "http://x.test/") // x at depth 2: too deep
	// b answers once the frontier has been told of /a's result, so b's
	// link to x (depth 1) arrives after /a's.
	aDone := make(chan struct{})
	r.Web.Pages["http://b.test/"] = func(fetch.Request, int) fetch.Response {
		<-aDone
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(`<a href="http://x.test/">x</a>`)}
	}
	r.Web.HTML("http://x.test/")
	r.withFrontier(r.opts).Frontier.(*crawltest.Spy).OnDone = func(j frontier.Job) {
		if u, _ := r.DB.URL(j.ID); u == "http://a.test/a" {
			close(aDone)
		}
	}
	s := r.mustRun("http://a.test/", "http://b.test/")
	if s.Skipped["max-depth"] != 1 {
		t.Fatalf("skipped %v: the test wants x first found too deep", s.Skipped)
	}
	if r.Web.Requests("http://x.test/") != 1 {
		t.Errorf("x fetched %d times, want once: found again at depth 1", r.Web.Requests("http://x.test/"))
	}
	if p := r.Page("http://x.test/"); p.Status != storage.StatusFetched {
		t.Errorf("x: %v %q", p.Status, p.Reason)
	}
}

func TestProgressWhileRunning(t *testing.T) {
	r := newRig(t)
	r.opts.Settings.Delay = 5 * time.Millisecond
	links := make([]string, 30)
	for i := range links {
		links[i] = "/p" + strconv.Itoa(i)
		r.Web.HTML("http://a.test" + links[i])
	}
	r.Web.HTML("http://a.test/", links...)
	sc, _ := urlnorm.ParseScopeSpec("seeds-hosts", []string{"http://a.test/"})
	r.opts.Scope = sc
	c, err := New(r.withFrontier(r.opts))
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Progress() // before Run: zero, no race
	// Progress is read from inside every fetch, while the crawl's other
	// goroutines update it: the race detector checks the reads, and each
	// read must count the fetch it is made from as in flight.
	var mu sync.Mutex
	var during []monitor.Progress
	for u, h := range r.Web.Pages {
		r.Web.Pages[u] = func(req fetch.Request, n int) fetch.Response {
			p := c.Progress()
			mu.Lock()
			during = append(during, p)
			mu.Unlock()
			return h(req, n)
		}
	}
	s, err := c.Run(context.Background(), []string{"http://a.test/"})
	if err != nil || s.Pages != 31 {
		t.Fatalf("Run = %+v, %v", s, err)
	}
	if len(during) != 31 {
		t.Errorf("progress read in %d fetches, want 31", len(during))
	}
	for _, p := range during {
		if p.InFlight < 1 || p.Pages >= 31 {
			t.Errorf("progress during a fetch %+v: want the fetch in flight and fewer than 31 pages done", p)
		}
	}
	if p := c.Progress(); p.Pages != 31 || p.Fetches != 31 || p.Elapsed <= 0 || p.Pending != 0 {
		t.Errorf("final progress %+v", p)
	}
}

func TestSeedRedirectBringsTargetIntoScope(t *testing.T) {
	for _, on := range []bool{true, false} {
		r := newRig(t)
		r.opts.SeedRedirects = on
		r.Web.Redirect("http://a.test/", "https://www.a.test/")
		r.Web.HTML("https://www.a.test/", "/x", "http://a.test/y")
		r.Web.HTML("https://www.a.test/x")
		r.Web.HTML("http://a.test/y")
		r.mustRun("http://a.test/")
		want := []string{"http://a.test/"}
		if on {
			want = []string{"http://a.test/", "http://a.test/y", "https://www.a.test/", "https://www.a.test/x"}
		}
		if got := r.Web.Fetched(); !reflect.DeepEqual(got, want) {
			t.Errorf("SeedRedirects=%v: fetched %v, want %v", on, got, want)
		}
		if p := r.Page("https://www.a.test/"); p.Depth != 0 {
			t.Errorf("a seed's redirect target has depth %d, want 0", p.Depth)
		}
	}
}
