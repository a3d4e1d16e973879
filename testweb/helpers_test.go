package testweb

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/testclock"
	"github.com/seedcrawl/seedcrawl/internal/testhttp"
	"github.com/temoto/robotstxt"
	"golang.org/x/net/html"
)

// testOptions are fast behaviour parameters for tests.
func testOptions() Options {
	return Options{SlowLatency: 5 * time.Millisecond, RateInterval: 20 * time.Millisecond,
		HugeSize: 1 << 20, BombSize: 8 << 20}
}

func mustGenerate(t testing.TB, o GenOptions) *Site {
	t.Helper()
	s, err := Generate(o)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", o, err)
	}
	return s
}

// startWeb serves site on loopback for the duration of the test.
func startWeb(t testing.TB, site *Site, o Options) (*Web, *Server) {
	t.Helper()
	w, err := New(site, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := w.Start(ctx, "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		srv.Close()
	})
	return w, srv
}

// fetch GETs u with the server's client and returns status, headers and body.
func fetch(t testing.TB, c *http.Client, u string, hdr ...string) (int, http.Header, []byte) {
	t.Helper()
	resp, b := testhttp.Get(t, c, u, hdr...)
	return resp.StatusCode, resp.Header, b
}

// sharedData returns the path of a ../shared/data dataset, failing the test
// with a clear message when it is missing.
func sharedData(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "data", name)
	if _, err := os.Stat(p + ".arcs.tsv.gz"); err != nil {
		t.Fatalf("dataset %s missing (expected ../shared/data beside the repository): %v", name, err)
	}
	return p
}

// oracle is an independent, minimal polite crawler used to check that the
// truth is what a correct crawler finds: robots.txt through temoto/robotstxt
// (followed across redirects), links extracted with the HTML5 parser and
// resolved with net/url, nofollow honoured, 5xx and 429 retried, a budget
// per host against traps. The server runs on clk: a 429's Retry-After is
// honoured by advancing it rather than by waiting.
type oracle struct {
	t       testing.TB
	c       *http.Client
	clk     *testclock.Clock
	token   string
	budget  int                              // pages per host
	robots  map[string]*robotstxt.RobotsData // by scheme://host
	ids     map[string]uint32
	urls    []string
	out     [][]uint32
	perHost map[string]int
	fetches int
}

func crawlOracle(t testing.TB, srv *Server, clk *testclock.Clock, seeds []string, token string, budget int) *graph.CSR {
	t.Helper()
	o := &oracle{t: t, c: srv.Client(), clk: clk, token: token, budget: budget, robots: map[string]*robotstxt.RobotsData{},
		ids: map[string]uint32{}, perHost: map[string]int{}}
	for _, s := range seeds {
		o.id(s)
	}
	for i := 0; i < len(o.urls); i++ {
		o.visit(uint32(i))
	}
	b := graph.NewBuilder(len(o.urls), false)
	for v, ts := range o.out {
		for _, w := range ts {
			b.Add(uint32(v), w)
		}
	}
	g := b.Build()
	g.SetURLs(o.urls)
	return g
}

func (o *oracle) id(u string) uint32 {
	if id, ok := o.ids[u]; ok {
		return id
	}
	id := uint32(len(o.urls))
	o.ids[u] = id
	o.urls = append(o.urls, u)
	o.out = append(o.out, nil)
	return id
}

func (o *oracle) arc(v uint32, u string) {
	w := o.id(u)
	for _, x := range o.out[v] {
		if x == w {
			return
		}
	}
	o.out[v] = append(o.out[v], w)
}

func (o *oracle) allowed(pu *url.URL, target string) bool {
	origin := pu.Scheme + "://" + pu.Host
	if d, ok := o.robots[origin]; ok {
		return d.TestAgent(target, o.token+"/1.0")
	}
	u := origin + "/robots.txt"
	var data *robotstxt.RobotsData
	for hop := 0; hop <= 5; hop++ {
		resp, err := o.c.Get(u)
		if err != nil {
			o.t.Fatalf("oracle: robots %s: %v", u, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
			next, err := resp.Request.URL.Parse(loc)
			if err != nil {
				o.t.Fatalf("oracle: robots redirect %q: %v", loc, err)
			}
			u = next.String()
			continue
		}
		data, err = robotstxt.FromStatusAndBytes(resp.StatusCode, body)
		if err != nil {
			o.t.Fatalf("oracle: parse robots %s: %v", u, err)
		}
		break
	}
	o.robots[origin] = data
	return data.TestAgent(target, o.token+"/1.0")
}

func (o *oracle) visit(v uint32) {
	raw := o.urls[v]
	pu, err := url.Parse(raw)
	if err != nil {
		o.t.Fatalf("oracle: parse %q: %v", raw, err)
	}
	target := pu.EscapedPath()
	if pu.RawQuery != "" {
		target += "?" + pu.RawQuery
	}
	if !o.allowed(pu, target) {
		return
	}
	if o.perHost[pu.Host]++; o.perHost[pu.Host] > o.budget || strings.Count(pu.Path, "/") > 12 {
		return // trap guard
	}
	var resp *http.Response
	var body []byte
	for try := 0; ; try++ {
		resp, err = o.c.Get(raw)
		o.fetches++
		if err != nil {
			if try < 2 {
				continue
			}
			return // dropped connection: no links
		}
		body, err = io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		resp.Body.Close()
		if err != nil {
			if try < 2 {
				continue
			}
			return
		}
		if (resp.StatusCode == 429 || resp.StatusCode >= 500) && try < 20 {
			// flaky.test's 5xx bursts are counted in requests: retry at once.
			if resp.StatusCode == 429 {
				sec, err := strconv.Atoi(resp.Header.Get("Retry-After"))
				if err != nil {
					o.t.Fatalf("oracle: 429 at %s with Retry-After %q", raw, resp.Header.Get("Retry-After"))
				}
				o.clk.Advance(time.Duration(sec) * time.Second)
			}
			continue
		}
		break
	}
	if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
		next, err := pu.Parse(loc)
		if err != nil {
			o.t.Fatalf("oracle: bad Location %q at %s", loc, raw)
		}
		if c, err := Canonical(next.String()); err == nil {
			o.arc(v, c)
		}
		return
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		return
	}
	for _, u := range extractLinks(o.t, pu, body) {
		o.arc(v, u)
	}
}

// extractLinks returns the canonical URLs of the followable links of an
// HTML page in document order.
func extractLinks(t testing.TB, page *url.URL, body []byte) []string {
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parse HTML of %s: %v", page, err)
	}
	attr := func(n *html.Node, k string) (string, bool) {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val, true
			}
		}
		return "", false
	}
	base := page
	baseSet := false
	nofollowPage := false
	var refs []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			rel, _ := attr(n, "rel")
			nofollow := hasToken(rel, "nofollow")
			switch n.Data {
			case "base":
				if h, ok := attr(n, "href"); ok && !baseSet {
					if b, err := page.Parse(strings.TrimSpace(h)); err == nil {
						base, baseSet = b, true
					}
				}
			case "meta":
				if name, _ := attr(n, "name"); strings.EqualFold(name, "robots") {
					c, _ := attr(n, "content")
					nofollowPage = nofollowPage || hasToken(strings.ReplaceAll(c, ",", " "), "nofollow")
				}
			case "a", "area":
				if h, ok := attr(n, "href"); ok && !nofollow {
					refs = append(refs, h)
				}
			case "frame", "iframe":
				if h, ok := attr(n, "src"); ok {
					refs = append(refs, h)
				}
			case "link":
				if h, ok := attr(n, "href"); ok && !nofollow && (hasToken(rel, "canonical") ||
					hasToken(rel, "alternate") || hasToken(rel, "next") || hasToken(rel, "prev")) {
					refs = append(refs, h)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if nofollowPage {
		return nil
	}
	var out []string
	for _, r := range refs {
		u, err := base.Parse(strings.TrimSpace(r))
		if err != nil {
			continue
		}
		c, err := Canonical(u.String())
		if err != nil {
			continue
		}
		out = append(out, c)
	}
	return out
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == tok {
			return true
		}
	}
	return false
}
