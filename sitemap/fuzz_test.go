package sitemap

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
)

// FuzzParse checks, on arbitrary bodies, that Parse never panics, stays
// within its limits, delivers only valid in-scope URLs, and fails only
// with its documented errors.
func FuzzParse(f *testing.F) {
	f.Add([]byte(urlset("<url><loc>http://a.test/d/x</loc><lastmod>2024-01-02T03:04:05Z</lastmod></url>")))
	f.Add([]byte(index("http://a.test/d/s.xml", "http://b.test/s.xml")))
	f.Add([]byte("http://a.test/d/1\nhttp://a.test/2\n\n x \n"))
	f.Add([]byte(gz(f, urlset("<url><loc>http://a.test/d/g</loc></url>"))))
	f.Add([]byte("<urlset><url><loc>http://a.test/d/&amp;<![CDATA[x]]></loc></url><url><loc>"))
	f.Add([]byte(`<?xml version="1.0" encoding="latin1"?><urlset/>`))
	lim := Limits{MaxBytes: 64 << 10, MaxURLs: 50, MaxURLLen: 200, MaxProblems: 5}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		res, err := Parse(context.Background(), bytes.NewReader(data), "http://a.test/d/sitemap.xml", Options{Limits: lim},
			func(e Entry) error {
				n++
				u, perr := url.Parse(e.URL)
				if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || len(e.URL) > lim.MaxURLLen ||
					!strings.EqualFold(u.Hostname(), "a.test") || !strings.HasPrefix(u.EscapedPath(), "/d/") {
					t.Errorf("delivered %q, invalid or out of scope", e.URL)
				}
				return nil
			})
		if err != nil && !errors.Is(err, ErrNotSitemap) && !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrCharset) {
			t.Errorf("undocumented error %v", err)
		}
		switch {
		case res.URLs != n:
			t.Errorf("Result.URLs %d, delivered %d", res.URLs, n)
		case res.URLs+res.Dropped > lim.MaxURLs || len(res.Sitemaps) > lim.MaxURLs:
			t.Errorf("%d URLs + %d dropped, %d sitemaps: over the bound %d", res.URLs, res.Dropped, len(res.Sitemaps), lim.MaxURLs)
		case res.Bytes > lim.MaxBytes || res.Compressed > lim.MaxBytes:
			t.Errorf("read %d bytes (%d compressed), over %d", res.Bytes, res.Compressed, lim.MaxBytes)
		case len(res.Problems) > lim.MaxProblems || res.ProblemCount < len(res.Problems):
			t.Errorf("%d problems, count %d", len(res.Problems), res.ProblemCount)
		}
		for _, s := range res.Sitemaps {
			if u, ok := parseHTTP(s.URL); !ok || hostKey(u) != "a.test" {
				t.Errorf("child sitemap %q not on a.test", s.URL)
			}
		}
	})
}
