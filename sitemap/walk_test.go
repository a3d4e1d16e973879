package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

var errNotFound = errors.New("404 not found")

// fakeSite is a Fetch over a map, recording the fetch order.
type fakeSite struct {
	files   map[string]string
	fetched []string
}

func (f *fakeSite) fetch(_ context.Context, url string) (io.ReadCloser, error) {
	f.fetched = append(f.fetched, url)
	body, ok := f.files[url]
	if !ok {
		return nil, errNotFound
	}
	return io.NopCloser(strings.NewReader(body)), nil
}

func index(children ...string) string {
	var b strings.Builder
	b.WriteString("<sitemapindex " + ns + ">\n")
	for _, c := range children {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", c)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

func set(urls ...string) string {
	var b strings.Builder
	for _, u := range urls {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>\n", u)
	}
	return urlset(b.String())
}

func TestWalk(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		robots  []string
		limits  Limits
		urls    []string // delivered, in order
		fetched []string
		skipped map[string]string // report URL → prefix of Skipped
		errs    map[string]error  // report URL → error it wraps
		cut     string
	}{
		{name: "default sitemap only",
			files:   map[string]string{"http://a.test/sitemap.xml": set("http://a.test/1", "http://a.test/2")},
			urls:    []string{"http://a.test/1", "http://a.test/2"},
			fetched: []string{"http://a.test/sitemap.xml"}},
		{name: "robots sitemaps first, then the default, which may be missing",
			robots: []string{"http://a.test/maps/s.txt", "http://cdn.test/a-sitemap.xml.gz", "not a url"},
			files: map[string]string{
				"http://a.test/maps/s.txt": "http://a.test/maps/1\nhttp://a.test/top\n",
				// Cross-submitted: named in a.test's robots.txt, so it may list a.test.
				"http://cdn.test/a-sitemap.xml.gz": gz(t, set("http://a.test/x", "http://cdn.test/y", "http://evil.test/z")),
			},
			urls:    []string{"http://a.test/maps/1", "http://a.test/top", "http://a.test/x", "http://cdn.test/y"},
			fetched: []string{"http://a.test/maps/s.txt", "http://cdn.test/a-sitemap.xml.gz", "http://a.test/sitemap.xml"},
			errs:    map[string]error{"http://a.test/sitemap.xml": errNotFound}},
		{name: "index children, breadth-first, each once",
			files: map[string]string{
				"http://a.test/sitemap.xml":      index("http://a.test/sitemaps/1.xml", "http://a.test/sitemaps/2.xml", "http://a.test/sitemap.xml"),
				"http://a.test/sitemaps/1.xml":   set("http://a.test/p/1"),
				"http://a.test/sitemaps/2.xml":   index("http://a.test/sitemaps/2a.xml", "http://a.test/sitemaps/1.xml"),
				"http://a.test/sitemaps/2a.xml":  set("http://a.test/p/2a", "http://a.test/sitemaps/x"),
				"http://a.test/sitemaps/bad.xml": "<html></html>",
			},
			// The children inherit the root index's scope, so /p/ under
			// /sitemaps/ children is in scope.
			urls: []string{"http://a.test/p/1", "http://a.test/p/2a", "http://a.test/sitemaps/x"},
			fetched: []string{"http://a.test/sitemap.xml", "http://a.test/sitemaps/1.xml",
				"http://a.test/sitemaps/2.xml", "http://a.test/sitemaps/2a.xml"}},
		{name: "index chain deeper than the bound",
			files: map[string]string{
				"http://a.test/sitemap.xml": index("http://a.test/i1.xml"),
				"http://a.test/i1.xml":      index("http://a.test/i2.xml"),
				"http://a.test/i2.xml":      index("http://a.test/i3.xml"),
				"http://a.test/i3.xml":      set("http://a.test/deep"),
			},
			fetched: []string{"http://a.test/sitemap.xml", "http://a.test/i1.xml", "http://a.test/i2.xml"},
			skipped: map[string]string{"http://a.test/i2.xml": "depth: 1 child sitemaps beyond depth 2"}},
		{name: "depth bound raised", limits: Limits{MaxDepth: 3},
			files: map[string]string{
				"http://a.test/sitemap.xml": index("http://a.test/i1.xml"),
				"http://a.test/i1.xml":      index("http://a.test/i2.xml"),
				"http://a.test/i2.xml":      index("http://a.test/i3.xml"),
				"http://a.test/i3.xml":      set("http://a.test/deep"),
			},
			urls:    []string{"http://a.test/deep"},
			fetched: []string{"http://a.test/sitemap.xml", "http://a.test/i1.xml", "http://a.test/i2.xml", "http://a.test/i3.xml"}},
		{name: "sitemaps per walk", limits: Limits{MaxSitemaps: 3},
			files: map[string]string{
				"http://a.test/sitemap.xml": index("http://a.test/1.xml", "http://a.test/2.xml", "http://a.test/3.xml"),
				"http://a.test/1.xml":       set("http://a.test/1"),
				"http://a.test/2.xml":       set("http://a.test/2"),
			},
			urls:    []string{"http://a.test/1", "http://a.test/2"},
			fetched: []string{"http://a.test/sitemap.xml", "http://a.test/1.xml", "http://a.test/2.xml"},
			skipped: map[string]string{"http://a.test/sitemap.xml": "sitemaps: 1 child sitemaps beyond 3"}},
		{name: "URLs per walk", limits: Limits{MaxWalkURLs: 3},
			files: map[string]string{
				"http://a.test/sitemap.xml": index("http://a.test/1.xml", "http://a.test/2.xml", "http://a.test/3.xml"),
				"http://a.test/1.xml":       set("http://a.test/1", "http://a.test/2"),
				"http://a.test/2.xml":       set("http://a.test/3", "http://a.test/4"),
				"http://a.test/3.xml":       set("http://a.test/5"),
			},
			urls:    []string{"http://a.test/1", "http://a.test/2", "http://a.test/3"},
			fetched: []string{"http://a.test/sitemap.xml", "http://a.test/1.xml", "http://a.test/2.xml"},
			cut:     "walk-urls: 3 entries delivered"},
		{name: "broken sitemaps are reported and skipped",
			robots: []string{"http://a.test/html.xml", "http://a.test/trunc.xml"},
			files: map[string]string{
				"http://a.test/html.xml":    "<!DOCTYPE html><html><body>soft 404</body></html>",
				"http://a.test/trunc.xml":   "<urlset><url><loc>http://a.test/t</loc></url><url>",
				"http://a.test/sitemap.xml": set("http://a.test/ok"),
			},
			urls:    []string{"http://a.test/t", "http://a.test/ok"},
			fetched: []string{"http://a.test/html.xml", "http://a.test/trunc.xml", "http://a.test/sitemap.xml"},
			errs:    map[string]error{"http://a.test/html.xml": ErrNotSitemap, "http://a.test/trunc.xml": ErrSyntax}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			site := &fakeSite{files: tc.files}
			w := &Walker{Fetch: site.fetch, Limits: tc.limits}
			var got []string
			wr, err := w.Walk(context.Background(), "http://a.test", tc.robots, func(e Entry) error {
				got = append(got, e.URL)
				return nil
			})
			if err != nil {
				t.Fatalf("Walk: %v", err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.urls) || wr.URLs != len(got) {
				t.Errorf("URLs = %q (WalkResult.URLs %d), want %q", got, wr.URLs, tc.urls)
			}
			if fmt.Sprint(site.fetched) != fmt.Sprint(tc.fetched) {
				t.Errorf("fetched %q, want %q", site.fetched, tc.fetched)
			}
			if len(wr.Reports) != len(site.fetched) {
				t.Errorf("%d reports for %d fetches", len(wr.Reports), len(site.fetched))
			}
			for _, r := range wr.Reports {
				if want := tc.skipped[r.URL]; !strings.HasPrefix(r.Skipped, want) || (want == "") != (r.Skipped == "") {
					t.Errorf("%s: Skipped %q, want prefix %q", r.URL, r.Skipped, want)
				}
				if want := tc.errs[r.URL]; want == nil && r.Err != nil || want != nil && !errors.Is(r.Err, want) {
					t.Errorf("%s: Err %v, want %v", r.URL, r.Err, want)
				}
			}
			if !strings.HasPrefix(wr.Cut, tc.cut) || (tc.cut == "") != (wr.Cut == "") {
				t.Errorf("Cut %q, want prefix %q", wr.Cut, tc.cut)
			}
		})
	}
}

func TestWalkStops(t *testing.T) {
	site := &fakeSite{files: map[string]string{
		"http://a.test/sitemap.xml": index("http://a.test/1.xml", "http://a.test/2.xml"),
		"http://a.test/1.xml":       set("http://a.test/1", "http://a.test/2"),
		"http://a.test/2.xml":       set("http://a.test/3"),
	}}
	stop := errors.New("frontier full")
	w := &Walker{Fetch: site.fetch}
	n := 0
	_, err := w.Walk(context.Background(), "http://a.test", nil, func(Entry) error {
		if n++; n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(site.fetched) != 2 {
		t.Errorf("callback error: err %v after fetching %q; want %v after 2 fetches", err, site.fetched, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Walk(ctx, "http://a.test", nil, func(Entry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
	for _, bad := range []string{"a.test", "http://a.test/path", "ftp://a.test"} {
		if _, err := w.Walk(context.Background(), bad, nil, nil); !errors.Is(err, ErrBase) {
			t.Errorf("origin %q: err %v, want ErrBase", bad, err)
		}
	}
}
