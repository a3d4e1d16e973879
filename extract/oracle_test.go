package extract

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/testweb"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// domExtract is extraction through the goquery tree walker, the oracle the
// streaming walker is checked against.
func domExtract(t testing.TB, pageURL string, body []byte, opts Options, dups bool) Page {
	t.Helper()
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	base, err := urlnorm.NewBase(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	doc := decode(body, "")
	c := newCollector(&e.opts, base, doc.queryEncoder(), dups)
	w, err := walkDOM(doc.reader(), e.opts.Token, nil, c)
	if err != nil {
		t.Fatalf("DOM walk of %s: %v", pageURL, err)
	}
	return Page{Links: c.links, Base: c.base.String(), Canonical: c.canonical, Title: w.title,
		Robots: w.robots, Charset: doc.name, Dropped: c.dropped, NoFollowSkipped: c.nofollow}
}

func streamExtract(t testing.TB, pageURL string, body []byte, opts Options, dups bool) Page {
	t.Helper()
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.extract(pageURL, body, "", dups)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// diffPages describes how two extractions differ, "" if they agree.
func diffPages(got, want Page) string {
	var sb strings.Builder
	if got.Base != want.Base || got.Canonical != want.Canonical || got.Title != want.Title ||
		got.Robots != want.Robots || got.Dropped != want.Dropped {
		fmt.Fprintf(&sb, "page facts: stream {base %q canonical %q title %q robots %+v dropped %d}, dom {%q %q %q %+v %d}\n",
			got.Base, got.Canonical, got.Title, got.Robots, got.Dropped,
			want.Base, want.Canonical, want.Title, want.Robots, want.Dropped)
	}
	for i := 0; i < max(len(got.Links), len(want.Links)); i++ {
		var g, w Link
		if i < len(got.Links) {
			g = got.Links[i]
		}
		if i < len(want.Links) {
			w = want.Links[i]
		}
		if g != w {
			fmt.Fprintf(&sb, "link %d: stream %+v, dom %+v (stream %d links, dom %d)\n", i, g, w, len(got.Links), len(want.Links))
			break
		}
	}
	return sb.String()
}

// pydocs returns the sample of real documentation pages in testdata
// (Python 3.11 documentation, PSF license) with the URL each was served at.
func pydocs(t testing.TB) (urls []string, bodies [][]byte) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "pydocs", "*.html.gz"))
	if err != nil || len(files) < 20 {
		t.Fatalf("testdata/pydocs: %d pages, %v", len(files), err)
	}
	slices.Sort(files)
	for _, f := range files {
		b := crawltest.ReadGzip(t, f)
		// The files are the package's paths with the first '/' written '_'.
		name := strings.Replace(strings.TrimSuffix(filepath.Base(f), ".gz"), "_", "/", 1)
		urls = append(urls, "https://docs.python.org/3.11/"+name)
		bodies = append(bodies, b)
	}
	return urls, bodies
}

// TestDifferentialRealPages checks the streaming extractor finds exactly
// what the goquery extractor finds on real documentation pages, every
// occurrence and each distinct link, in order.
func TestDifferentialRealPages(t *testing.T) {
	urls, bodies := pydocs(t)
	total := 0
	for i, u := range urls {
		for _, dups := range []bool{false, true} {
			got := streamExtract(t, u, bodies[i], Options{}, dups)
			want := domExtract(t, u, bodies[i], Options{}, dups)
			if d := diffPages(got, want); d != "" {
				t.Errorf("%s (dups %v):\n%s", u, dups, d)
			}
			if dups {
				total += len(got.Links)
			}
		}
	}
	if total < 10_000 {
		t.Fatalf("only %d links in %d real pages: the sample is not what the test expects", total, len(urls))
	}
}

// TestDifferentialTestWeb checks the two extractors agree on every HTML
// page of a generated hostile test web (malformed links included).
func TestDifferentialTestWeb(t *testing.T) {
	site, err := testweb.Generate(testweb.GenOptions{Seed: 7, Pages: 400})
	if err != nil {
		t.Fatal(err)
	}
	web, err := testweb.New(site, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	truth, err := site.Truth(0)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, u := range truth.Graph.URLs {
		h, ok := truth.Host(u)
		if !ok {
			continue
		}
		switch h.Role {
		case testweb.RoleSlow, testweb.RoleBig, testweb.RoleDrop, testweb.RoleFlaky, testweb.RoleRateLimit:
			continue
		}
		rec := httptest.NewRecorder()
		web.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			continue
		}
		pages++
		// Distinct links only: the test web writes unclosed <a> elements,
		// which the tree builder clones (the adoption agency algorithm), so
		// the DOM has occurrences the markup does not.
		body := rec.Body.Bytes()
		got := streamExtract(t, u, body, Options{}, false)
		want := domExtract(t, u, body, Options{}, false)
		if d := diffPages(got, want); d != "" {
			t.Errorf("%s:\n%s", u, d)
		}
	}
	if pages < 300 {
		t.Fatalf("only %d HTML pages served", pages)
	}
}

// TestDifferentialTricky covers the markup where a tokenizer alone would
// go wrong: raw text and CDATA in foreign content, integration points,
// breakouts, framesets, late <base>.
func TestDifferentialTricky(t *testing.T) {
	pages := map[string]string{
		"svg title holds markup":   `<svg><title><a href="/in-svg-title">x</a></title></svg><a href="/after">`,
		"svg style holds markup":   `<p><svg><style><a href="/in-svg-style"></style></svg><style><a href="/raw"></style><a href=/z>`,
		"cdata in svg":             `<svg><![CDATA[ x > <a href="/hidden"> ]]></svg><a href="/shown">`,
		"cdata outside svg":        `<div><![CDATA[ x > <a href="/bogus-comment-ends-early"> ]]></div>`,
		"foreignObject is html":    `<svg><foreignObject><title>T</title><style><a href="/raw-in-fo"></style><a href="/fo"></foreignObject><a href="/svg-a"></svg>`,
		"svg desc title":           `<svg><desc><textarea><a href="/in-textarea"></textarea></desc></svg><a href=/x>`,
		"breakout ends svg":        `<svg><p><title><a href="/title-after-breakout"></title></p><a href="/b">`,
		"font breakout":            `<svg><font color=red><style><a href="/s"></style></svg><a href=/c>`,
		"font no breakout":         `<svg><font><style><a href="/s2"></style></font></svg><a href=/c2>`,
		"math text point":          `<math><mi><style><a href="/mi-style"></style></mi><mtext><a href=/mt></mtext></math>`,
		"annotation-xml html":      `<math><annotation-xml encoding="text/html"><style><a href=/ax></style></annotation-xml></math><a href=/y>`,
		"annotation-xml svg":       `<math><annotation-xml><svg><style><a href=/axs></style></svg></annotation-xml></math>`,
		"div closes svg":           `<div><svg><g></div><style><a href="/closed"></style><a href=/open>`,
		"nested svg":               `<svg><svg><title>t1</title></svg><title><b>t2</b></title><style><a href=/n2></style></svg><title>page</title>`,
		"frameset":                 `<html><head><title>F</title><link rel=canonical href=/c></head><frameset><frame src=l><frameset><frame src=r></frameset></frameset><a href=/ignored><frame src=late>`,
		"frameset after text":      `<body>text<frameset><frame src=f></frameset><a href=/kept>`,
		"frameset after div":       `<div><a href=/dropped></a></div><frameset><frame src=f1></frameset>`,
		"frameset after img":       `<img src=x><a href=/kept2><frameset><frame src=f2></frameset>`,
		"frame outside frameset":   `<frame src=nope><a href=/yes>`,
		"noframes":                 `<frameset><frame src=a><noframes><a href=/nf></noframes></frameset>`,
		"noscript raw":             `<noscript><a href=/ns></noscript><a href=/after-ns>`,
		"template":                 `<template><a href=/tpl></template>`,
		"table foster":             `<table><a href=/foster><tr><td><a href=/cell></td></tr></table>`,
		"select":                   `<select><a href=/in-select><option>x</select>`,
		"late base":                `<a href=x><a href=../y><link rel=canonical href=c><base href="/late/dir/"><a href=x>`,
		"base in svg":              `<svg><base href="/svgbase/"></svg><a href=p>`,
		"entities":                 `<a href="/a?b=1&amp;c=2&lt;">`,
		"duplicate attrs":          `<a href=/first href=/second rel=nofollow rel=x>`,
		"plaintext":                `<plaintext><a href=/pt>`,
		"title in body":            `<body><a href=/t><title>Late &amp; title</title>`,
		"title twice":              `<title>one</title><title>two</title>`,
		"xlink href":               `<svg><a xlink:href="/xl"><text>t</text></a><a href="/svg-href"></a></svg>`,
		"meta robots in svg":       `<svg><meta name=robots content=nofollow></svg>`,
		"nofollow then follow":     `<a href=/d rel=nofollow><a href=/d>`,
		"uppercase tags in svg":    `<SVG><TITLE><A HREF=/up></TITLE></SVG>`,
		"image tag":                `<image src=x><frameset><frame src=q></frameset><a href=/after-image>`,
		"hidden input":             `<input type=hidden><frameset><frame src=hid></frameset>`,
		"end p in svg":             `<svg></p><style><a href=/after-p></style></svg>`,
		"self-closing svg":         `<svg/><style><a href=/raw-after-svg></style><a href=/k>`,
		"math breakout then title": `<math><b><title>mt</title></b></math>`,
	}
	names := make([]string, 0, len(pages))
	for n := range pages {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			body := []byte(pages[name])
			for _, dups := range []bool{false, true} {
				got := streamExtract(t, "http://example.com/d/p", body, Options{}, dups)
				want := domExtract(t, "http://example.com/d/p", body, Options{}, dups)
				if d := diffPages(got, want); d != "" {
					t.Errorf("dups %v:\n%s", dups, d)
				}
			}
		})
	}
}
