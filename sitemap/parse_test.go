package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

func urlset(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n<urlset " + ns + ">\n" + body + "</urlset>\n"
}

func gz(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// bomb returns head followed by spaces (zero bytes when head is empty) up
// to n bytes, gzipped, written without holding them.
func bomb(t testing.TB, head string, n int) string {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	io.WriteString(zw, head)
	n -= len(head)
	chunk := make([]byte, 64<<10)
	if head != "" {
		for i := range chunk {
			chunk[i] = ' '
		}
	}
	for n > 0 {
		k := min(n, len(chunk))
		zw.Write(chunk[:k])
		n -= k
	}
	zw.Close()
	return b.String()
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

type parseCase struct {
	name    string
	base    string
	body    string
	opts    Options
	kind    Kind
	urls    []string // delivered, in order
	lastmod []time.Time
	sitemap []string // children of an index
	dropped int
	cut     string // prefix of Result.Cut
	err     error
	reasons []string // substrings of the problems' reasons, in order
}

func runParse(t *testing.T, tc parseCase) (Result, []Entry) {
	t.Helper()
	base := tc.base
	if base == "" {
		base = "http://a.test/sitemap.xml"
	}
	var got []Entry
	res, err := Parse(context.Background(), strings.NewReader(tc.body), base, tc.opts, func(e Entry) error {
		got = append(got, e)
		return nil
	})
	switch {
	case tc.err == nil && err != nil:
		t.Fatalf("Parse: %v", err)
	case tc.err != nil && !errors.Is(err, tc.err):
		t.Fatalf("Parse error = %v, want %v", err, tc.err)
	}
	if res.Kind != tc.kind {
		t.Errorf("Kind = %v, want %v", res.Kind, tc.kind)
	}
	if len(got) != len(tc.urls) || res.URLs != len(got) {
		t.Fatalf("delivered %d entries (Result.URLs %d), want %d: %+v", len(got), res.URLs, len(tc.urls), got)
	}
	for i, e := range got {
		if e.URL != tc.urls[i] {
			t.Errorf("entry %d URL = %q, want %q", i, e.URL, tc.urls[i])
		}
		if tc.lastmod != nil && !e.LastMod.Equal(tc.lastmod[i]) {
			t.Errorf("entry %d LastMod = %v, want %v", i, e.LastMod, tc.lastmod[i])
		}
	}
	var kids []string
	for _, s := range res.Sitemaps {
		kids = append(kids, s.URL)
	}
	if fmt.Sprint(kids) != fmt.Sprint(tc.sitemap) {
		t.Errorf("Sitemaps = %q, want %q", kids, tc.sitemap)
	}
	if res.Dropped != tc.dropped {
		t.Errorf("Dropped = %d, want %d (problems %+v)", res.Dropped, tc.dropped, res.Problems)
	}
	if tc.cut == "" && res.Cut != "" || !strings.HasPrefix(res.Cut, tc.cut) {
		t.Errorf("Cut = %q, want prefix %q", res.Cut, tc.cut)
	}
	if tc.reasons != nil {
		if len(res.Problems) != len(tc.reasons) || res.ProblemCount != len(tc.reasons) {
			t.Fatalf("problems %+v (count %d), want %d", res.Problems, res.ProblemCount, len(tc.reasons))
		}
		for i, p := range res.Problems {
			if !strings.Contains(p.Reason, tc.reasons[i]) {
				t.Errorf("problem %d = %+v, want reason containing %q", i, p, tc.reasons[i])
			}
		}
	}
	return res, got
}

func TestParse(t *testing.T) {
	many := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "<url><loc>http://a.test/p%d</loc></url>\n", i)
		}
		return urlset(b.String())
	}
	tests := []parseCase{
		{name: "urlset with every field", kind: KindURLSet, body: urlset(`
<url><loc> http://a.test/a </loc><lastmod>2024-03-05</lastmod><changefreq>Daily</changefreq><priority>0.8</priority></url>
<url><loc>http://a.test/b?x=1&amp;y=2</loc><lastmod>2024-03-05T10:20:30+02:00</lastmod></url>
<url><loc>https://A.TEST:443/c</loc></url>`),
			urls:    []string{"http://a.test/a", "http://a.test/b?x=1&y=2", "https://A.TEST:443/c"},
			lastmod: []time.Time{day(2024, 3, 5), time.Date(2024, 3, 5, 8, 20, 30, 0, time.UTC), {}}},
		{name: "no namespace", kind: KindURLSet, body: "<urlset><url><loc>http://a.test/x</loc></url></urlset>",
			urls: []string{"http://a.test/x"}},
		{name: "extensions are skipped", kind: KindURLSet, body: `<urlset ` + ns + ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>http://a.test/x</loc><image:image><image:loc>http://cdn.test/i.png</image:loc></image:image>
<xhtml:link rel="alternate" hreflang="de" href="http://a.test/de/x"/></url></urlset>`,
			urls: []string{"http://a.test/x"}},
		{name: "raw ampersand and HTML entity", kind: KindURLSet, body: urlset("<url><loc>http://a.test/caf&eacute;?a=1&b=2</loc></url>"),
			urls: []string{"http://a.test/café?a=1&b=2"}},
		{name: "CDATA location", kind: KindURLSet, body: urlset("<url><loc><![CDATA[http://a.test/cd]]></loc></url>"),
			urls: []string{"http://a.test/cd"}},
		{name: "invalid and out-of-scope URLs are dropped and reported", kind: KindURLSet,
			base: "http://a.test/docs/sitemap.xml", body: urlset(`
<url><loc>/relative</loc></url>
<url><loc>ftp://a.test/docs/f</loc></url>
<url><loc></loc></url>
<url><loc>http://b.test/docs/x</loc></url>
<url><loc>http://a.test/blog/x</loc></url>
<url><loc>http://a.test/docsx</loc></url>
<url><loc>http://a.test/` + strings.Repeat("x", 2100) + `</loc></url>
<url><loc>https://a.test/docs/ok</loc><lastmod>yesterday</lastmod><priority>2</priority><changefreq>often</changefreq></url>`),
			urls: []string{"https://a.test/docs/ok"}, dropped: 7,
			reasons: []string{"absolute", "absolute", "empty", "scope", "scope", "scope", "longer than 2048",
				"lastmod", "priority", "changefreq"}},
		{name: "cross-submission scope", kind: KindURLSet, base: "http://cdn.test/maps/a.xml",
			opts: Options{Scope: []string{"http://a.test/"}},
			body: urlset("<url><loc>http://a.test/x</loc></url><url><loc>http://cdn.test/maps/y</loc></url><url><loc>http://cdn.test/z</loc></url>"),
			urls: []string{"http://a.test/x", "http://cdn.test/maps/y"}, dropped: 1},
		{name: "default ports and host case", kind: KindURLSet, base: "http://A.test:80/sitemap.xml",
			body: urlset("<url><loc>http://a.TEST/x</loc></url><url><loc>http://a.test:8080/y</loc></url>"),
			urls: []string{"http://a.TEST/x"}, dropped: 1},
		{name: "sitemap index", kind: KindIndex, body: `<sitemapindex ` + ns + `>
<sitemap><loc>http://a.test/s1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
<sitemap><loc>https://a.test/deep/s2.xml</loc></sitemap>
<sitemap><loc>http://b.test/s3.xml</loc></sitemap></sitemapindex>`,
			sitemap: []string{"http://a.test/s1.xml.gz", "https://a.test/deep/s2.xml"}, dropped: 1},
		{name: "text sitemap", kind: KindText, body: "\xef\xbb\xbfhttp://a.test/1\r\n\n  http://a.test/2  \nnot a url\nhttp://b.test/3",
			urls: []string{"http://a.test/1", "http://a.test/2"}, dropped: 2},
		{name: "gzipped urlset", kind: KindURLSet, body: gz(t, urlset("<url><loc>http://a.test/z</loc></url>")),
			urls: []string{"http://a.test/z"}},
		{name: "gzipped text", kind: KindText, body: gz(t, "http://a.test/t\n"), urls: []string{"http://a.test/t"}},
		{name: "URL bound", kind: KindURLSet, body: many(5), opts: Options{Limits: Limits{MaxURLs: 3}},
			urls: []string{"http://a.test/p0", "http://a.test/p1", "http://a.test/p2"}, cut: "urls: more than 3"},
		{name: "URL bound counts invalid entries", kind: KindText, body: "x\ny\nhttp://a.test/1\nhttp://a.test/2\n",
			opts: Options{Limits: Limits{MaxURLs: 3}}, urls: []string{"http://a.test/1"}, dropped: 2, cut: "urls"},
		{name: "exactly at the URL bound is not cut", kind: KindURLSet, body: many(3), opts: Options{Limits: Limits{MaxURLs: 3}},
			urls: []string{"http://a.test/p0", "http://a.test/p1", "http://a.test/p2"}},
		{name: "byte bound", kind: KindURLSet, body: many(100), opts: Options{Limits: Limits{MaxBytes: 200}},
			urls: []string{"http://a.test/p0", "http://a.test/p1"}, cut: "bytes: more than 200"},
		{name: "byte bound on text", kind: KindText, body: strings.Repeat("http://a.test/abcdefghi\n", 100),
			opts: Options{Limits: Limits{MaxBytes: 60}}, urls: []string{"http://a.test/abcdefghi", "http://a.test/abcdefghi"},
			cut: "bytes"},
		{name: "a line cut by the byte bound is not delivered", kind: KindText, body: "http://a.test/1\nhttp://a.test/2345\n",
			opts: Options{Limits: Limits{MaxBytes: 20}}, urls: []string{"http://a.test/1"}, cut: "bytes"},
		{name: "gzip bomb of zeros", kind: KindUnknown, body: bomb(t, "", 8<<20), err: ErrNotSitemap},
		{name: "gzip bomb of XML", kind: KindURLSet, body: bomb(t, "<urlset><url><loc>http://a.test/b</loc></url>", 16<<20),
			urls: []string{"http://a.test/b"}, cut: "gzip-ratio: expands more than 100 times"},
		{name: "gzip bomb under a low byte bound", kind: KindText, body: bomb(t, "http://a.test/b\n", 1<<20),
			opts: Options{Limits: Limits{MaxBytes: 4096}}, urls: []string{"http://a.test/b"}, cut: "bytes: more than 4096"},
		{name: "empty gzip members", kind: KindUnknown, body: strings.Repeat(gz(t, ""), 500),
			opts: Options{Limits: Limits{MaxBytes: 4096}}, cut: "gzip-bytes"},
		{name: "HTML page", kind: KindUnknown, body: "<!DOCTYPE html>\n<html><body><a href=/x>x</a></body></html>", err: ErrNotSitemap},
		{name: "RSS feed", kind: KindUnknown, body: `<?xml version="1.0"?><rss version="2.0"><channel></channel></rss>`, err: ErrNotSitemap},
		{name: "empty body", kind: KindUnknown, body: "", err: ErrNotSitemap},
		{name: "white space only", kind: KindUnknown, body: " \n\n", err: ErrNotSitemap},
		{name: "truncated XML keeps the entries before", kind: KindURLSet,
			body: "<urlset><url><loc>http://a.test/1</loc></url><url><loc>http://a.test/2", urls: []string{"http://a.test/1"}, err: ErrSyntax},
		{name: "corrupt gzip", kind: KindUnknown, body: gz(t, urlset(""))[:15], err: ErrSyntax},
		{name: "latin-1 declared", kind: KindUnknown, body: `<?xml version="1.0" encoding="ISO-8859-1"?><urlset></urlset>`, err: ErrCharset},
		{name: "bad base", kind: KindUnknown, base: "/sitemap.xml", body: urlset(""), err: ErrBase},
		{name: "negative limit", kind: KindUnknown, body: urlset(""), opts: Options{Limits: Limits{MaxURLs: -1}}, err: ErrLimits},
		{name: "bad scope prefix", kind: KindUnknown, body: urlset(""), opts: Options{Scope: []string{"a.test"}}, err: ErrBase},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runParse(t, tc) })
	}
}

func TestParseBombIsCheap(t *testing.T) {
	const within = 2 << 20
	for _, head := range []string{urlset(""), "http://a.test/x\n"} {
		res, err := Parse(context.Background(), strings.NewReader(bomb(t, head, 32<<20)), "http://a.test/s.xml.gz", Options{}, nil)
		if err == nil && !strings.HasPrefix(res.Cut, "gzip-ratio") || res.Bytes > within {
			t.Errorf("32 MiB bomb after %q: err %v, cut %q after %d bytes; want gzip-ratio within %d",
				head[:10], err, res.Cut, res.Bytes, within)
		}
	}
}

func TestParseStops(t *testing.T) {
	body := urlset(strings.Repeat("<url><loc>http://a.test/x</loc></url>", 10))
	stop := errors.New("enough")
	n := 0
	res, err := Parse(context.Background(), strings.NewReader(body), "http://a.test/s.xml", Options{}, func(Entry) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || res.URLs != 3 {
		t.Errorf("callback error: err %v, URLs %d; want %v after 3", err, res.URLs, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, strings.NewReader(body), "http://a.test/s.xml", Options{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err %v", err)
	}
}

func TestProblemsBounded(t *testing.T) {
	body := strings.Repeat("nope\n", 500) + "http://a.test/ok\n"
	res, err := Parse(context.Background(), strings.NewReader(body), "http://a.test/s.txt", Options{Limits: Limits{MaxProblems: 10}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 10 || res.ProblemCount != 500 || res.Dropped != 500 || res.URLs != 1 {
		t.Errorf("problems %d (count %d), dropped %d, URLs %d; want 10, 500, 500, 1",
			len(res.Problems), res.ProblemCount, res.Dropped, res.URLs)
	}
}

func TestParseLastMod(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2024", day(2024, 1, 1), true},
		{"2024-07", day(2024, 7, 1), true},
		{"2024-07-16", day(2024, 7, 16), true},
		{"2024-07-16T19:20+01:00", time.Date(2024, 7, 16, 18, 20, 0, 0, time.UTC), true},
		{"2024-07-16T19:20:30+01:00", time.Date(2024, 7, 16, 18, 20, 30, 0, time.UTC), true},
		{"2024-07-16T19:20:30.45+01:00", time.Date(2024, 7, 16, 18, 20, 30, 450e6, time.UTC), true},
		{"2024-07-16T19:20:30Z", time.Date(2024, 7, 16, 19, 20, 30, 0, time.UTC), true},
		{" 2024-07-16T19:20:30Z\n", time.Date(2024, 7, 16, 19, 20, 30, 0, time.UTC), true},
		{"2024-07-16T19:20:30", time.Date(2024, 7, 16, 19, 20, 30, 0, time.UTC), true},
		{"2024-07-16T19:20:30+0100", time.Date(2024, 7, 16, 18, 20, 30, 0, time.UTC), true},
		{"2024-07-16 19:20:30", time.Date(2024, 7, 16, 19, 20, 30, 0, time.UTC), true},
		{"", time.Time{}, false},
		{"16/07/2024", time.Time{}, false},
		{"2024-13-01", time.Time{}, false},
		{"Tue, 16 Jul 2024 19:20:30 GMT", time.Time{}, false},
	}
	for _, tc := range tests {
		got, ok := ParseLastMod(tc.in)
		if ok != tc.ok || !got.Equal(tc.want) || (ok && got.Location() != time.UTC) {
			t.Errorf("ParseLastMod(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
