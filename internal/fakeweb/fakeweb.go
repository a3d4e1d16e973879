// Package fakeweb is a fake web for tests of the crawl loop (packages
// crawler and recrawl): responses by URL, served by a Fetch method with the
// crawler's Fetcher signature, and a log of the requests made. It stands in
// for the network only; the crawler, frontier and bbolt file around it are
// real.
package fakeweb

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
)

// Handler answers a request; n is 1 for the first request of the URL, 2
// for the second, and so on.
type Handler func(req fetch.Request, n int) fetch.Response

// Web is the fake web. Every worker of a crawl may share one Web. Pages and
// Dur are set before the crawl runs; Reqs is read under Mu.
type Web struct {
	Mu    sync.Mutex
	Pages map[string]Handler // responses by URL; any other URL is a 404
	Reqs  []fetch.Request    // every request, in order
	Dur   time.Duration      // response time reported for every fetch
	count map[string]int
}

// New returns an empty Web.
func New() *Web {
	return &Web{Pages: map[string]Handler{}, count: map[string]int{}}
}

// HTML serves an HTML page whose body links to each of links.
func (w *Web) HTML(u string, links ...string) {
	var b strings.Builder
	b.WriteString("<html><head><title>t</title></head><body>")
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
	}
	b.WriteString("</body></html>")
	w.Body(u, b.String())
}

// Body serves an HTML page with a literal body and the URL as its ETag.
func (w *Web) Body(u, body string) {
	w.Pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(body), Length: int64(len(body)),
			Header: http.Header{"Content-Type": {"text/html"}}, ETag: `"` + u + `"`}
	}
}

// Versioned serves an HTML page with an ETag: a conditional GET naming the
// current ETag gets 304, as a real server answers.
func (w *Web) Versioned(u, etag string, links ...string) {
	var b strings.Builder
	b.WriteString("<html><body>" + etag)
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
	}
	body := b.String()
	w.Pages[u] = func(req fetch.Request, _ int) fetch.Response {
		if req.ETag == etag {
			return fetch.Response{Code: 304, ETag: etag, Header: http.Header{}}
		}
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(body), Length: int64(len(body)),
			ETag: etag, Header: http.Header{"Content-Type": {"text/html"}}}
	}
}

// Status serves a response with a code and no body.
func (w *Web) Status(u string, code int) {
	w.Pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: code, ContentType: "text/html", Header: http.Header{}}
	}
}

// Redirect serves a 301 to target.
func (w *Web) Redirect(u, target string) {
	w.Pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 301, Location: target, Header: http.Header{"Location": {target}}}
	}
}

// XMLSitemap serves a urlset listing each URL with lastmod.
func (w *Web) XMLSitemap(u string, lastmod time.Time, urls ...string) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range urls {
		fmt.Fprintf(&b, "<url><loc>%s</loc><lastmod>%s</lastmod></url>", l, lastmod.Format(time.RFC3339))
	}
	b.WriteString("</urlset>")
	body := b.String()
	w.Pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 200, ContentType: "application/xml", Body: []byte(body), Length: int64(len(body)),
			Header: http.Header{"Content-Type": {"application/xml"}}}
	}
}

// Requests returns how many times u was requested.
func (w *Web) Requests(u string) int {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	return w.count[u]
}

// Fetched returns every URL requested at least once, sorted.
func (w *Web) Fetched() []string {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	return slices.Sorted(maps.Keys(w.count))
}

// RequestsSince returns the URLs requested since request i, sorted, and
// the conditional ones among them.
func (w *Web) RequestsSince(i int) (all, conditional []string) {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	for _, q := range w.Reqs[i:] {
		all = append(all, q.URL)
		if q.ETag != "" {
			conditional = append(conditional, q.URL)
		}
	}
	sort.Strings(all)
	sort.Strings(conditional)
	return all, conditional
}

// NReqs returns the number of requests made so far.
func (w *Web) NReqs() int {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	return len(w.Reqs)
}

// Fetch answers req from Pages (a 404 for any other URL) and logs it.
func (w *Web) Fetch(ctx context.Context, req fetch.Request) fetch.Response {
	w.Mu.Lock()
	w.Reqs = append(w.Reqs, req)
	w.count[req.URL]++
	n := w.count[req.URL]
	h, ok := w.Pages[req.URL]
	dur := w.Dur
	w.Mu.Unlock()
	if !ok {
		return fetch.Response{URL: req.URL, Code: 404, Header: http.Header{}, Dur: dur}
	}
	r := h(req, n)
	r.URL = req.URL
	r.Dur = dur
	if r.Header == nil {
		r.Header = http.Header{}
	}
	return r
}
