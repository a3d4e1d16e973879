package extract

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

type want struct {
	kind     Kind
	url      string
	reject   string
	nofollow bool
}

// mustLinks returns the links Links extracts from body, the page at
// pageURL, failing t if it returns an error.
func mustLinks(t *testing.T, pageURL string, body []byte, o Options) Page {
	t.Helper()
	p, err := Links(pageURL, body, o)
	if err != nil {
		t.Fatalf("Links(%s): %v", pageURL, err)
	}
	return p
}

func check(t *testing.T, p Page, ws []want) {
	t.Helper()
	if len(p.Links) != len(ws) {
		for _, l := range p.Links {
			t.Logf("got %v %q %q %q nofollow=%v", l.Kind, l.Raw, l.URL, l.Reject, l.NoFollow)
		}
		t.Fatalf("got %d links, want %d", len(p.Links), len(ws))
	}
	for i, w := range ws {
		l := p.Links[i]
		if l.Kind != w.kind || l.URL != w.url || l.Reject != w.reject || l.NoFollow != w.nofollow {
			t.Errorf("link %d = {%v %q reject=%q nofollow=%v}, want {%v %q reject=%q nofollow=%v}",
				i, l.Kind, l.URL, l.Reject, l.NoFollow, w.kind, w.url, w.reject, w.nofollow)
		}
	}
}

func TestLinksKindsAndOrder(t *testing.T) {
	const page = `<!doctype html><html><head>
<title>  Hello
  World </title>
<link rel="stylesheet" href="/style.css">
<link rel="canonical" href="/canon">
<link rel="alternate" hreflang="de" href="/de/">
<link rel="alternate stylesheet" href="/alt.css">
<link rel="next" href="?page=2">
<link rel="prev" href="?page=0">
<link rel="icon" href="/favicon.ico">
</head><body>
<a href="a.html">a</a>
<a>no href</a>
<a href="">self</a>
<map><area href="/area" shape="rect"></map>
<iframe src="//cdn.example.net/frame"></iframe>
<a href="mailto:x@example.com">mail</a>
<a href="javascript:void(0)">js</a>
<a href="b.html#frag" rel="external NoFollow">b</a>
<a href="http://exa mple.com/">bad</a>
<svg><a href="/svg-link">svg</a></svg>
<A HREF="/UPPER">upper</A>
</body></html>`
	p := mustLinks(t, "http://example.com/dir/page.html?q=1", []byte(page), Options{})
	check(t, p, []want{
		{KindCanonical, "http://example.com/canon", "", false},
		{KindAlternate, "http://example.com/de/", "", false},
		{KindNext, "http://example.com/dir/page.html?page=2", "", false},
		{KindPrev, "http://example.com/dir/page.html?page=0", "", false},
		{KindA, "http://example.com/dir/a.html", "", false},
		{KindA, "http://example.com/dir/page.html?q=1", "", false},
		{KindArea, "http://example.com/area", "", false},
		{KindIframe, "http://cdn.example.net/frame", "", false},
		{KindA, "", "bad-scheme", false},
		{KindA, "", "bad-scheme", false},
		{KindA, "http://example.com/dir/b.html", "", true},
		{KindA, "", "bad-url", false},
		{KindA, "http://example.com/svg-link", "", false},
		{KindA, "http://example.com/UPPER", "", false},
	})
	if p.Title != "Hello World" {
		t.Errorf("Title = %q", p.Title)
	}
	if p.Canonical != "http://example.com/canon" {
		t.Errorf("Canonical = %q", p.Canonical)
	}
	if p.Robots != (Robots{}) {
		t.Errorf("Robots = %+v", p.Robots)
	}
	if p.Links[10].Raw != "b.html#frag" {
		t.Errorf("Raw = %q", p.Links[10].Raw)
	}
}

func TestLinksFrames(t *testing.T) {
	const page = `<html><frameset><frame src="left.html"><frame src="right.html"><frame></frameset></html>`
	p := mustLinks(t, "http://example.com/f/", []byte(page), Options{})
	check(t, p, []want{
		{KindFrame, "http://example.com/f/left.html", "", false},
		{KindFrame, "http://example.com/f/right.html", "", false},
	})
}

func TestLinksBase(t *testing.T) {
	tests := []struct {
		name, page, wantBase, wantLink string
	}{
		{"absolute base", `<head><base href="http://other.example/sub/"></head><a href="x">`,
			"http://other.example/sub/", "http://other.example/sub/x"},
		{"relative base resolved against page", `<head><base href="../up/"></head><a href="x">`,
			"http://example.com/up/", "http://example.com/up/x"},
		{"only the first base counts", `<base href="/one/"><base href="/two/"><a href="x">`,
			"http://example.com/one/", "http://example.com/one/x"},
		{"base without href is skipped", `<base target="_top"><base href="/second/"><a href="x">`,
			"http://example.com/second/", "http://example.com/second/x"},
		{"base after the link still applies", `<a href="x"><base href="/late/">`,
			"http://example.com/late/", "http://example.com/late/x"},
		{"no base", `<a href="x">`,
			"http://example.com/dir/page", "http://example.com/dir/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLinks(t, "http://example.com/dir/page", []byte(tt.page), Options{})
			if p.Base != tt.wantBase {
				t.Errorf("Base = %q, want %q", p.Base, tt.wantBase)
			}
			if len(p.Links) != 1 || p.Links[0].URL != tt.wantLink {
				t.Fatalf("links = %+v, want one %q", p.Links, tt.wantLink)
			}
		})
	}
}

func TestMetaRobots(t *testing.T) {
	tests := []struct {
		name string
		head string
		opts Options
		want Robots
	}{
		{"none", ``, Options{}, Robots{}},
		{"nofollow", `<meta name="robots" content="nofollow">`, Options{}, Robots{NoFollow: true}},
		{"noindex", `<meta name="ROBOTS" content="NoIndex">`, Options{}, Robots{NoIndex: true}},
		{"both listed", `<meta name="robots" content="noindex, nofollow">`, Options{}, Robots{true, true}},
		{"none means both", `<meta name="robots" content="none">`, Options{}, Robots{true, true}},
		{"default token", `<meta name="seedcrawl" content="nofollow">`, Options{}, Robots{NoFollow: true}},
		{"custom token", `<meta name="mybot" content="noindex">`, Options{Token: "mybot"}, Robots{NoIndex: true}},
		{"other crawler ignored", `<meta name="googlebot" content="noindex,nofollow">`, Options{}, Robots{}},
		{"merged", `<meta name="robots" content="noindex"><meta name="seedcrawl" content="nofollow">`, Options{}, Robots{true, true}},
		{"unknown directives ignored", `<meta name="robots" content="noarchive, max-snippet:0">`, Options{}, Robots{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLinks(t, "http://example.com/", []byte("<html><head>"+tt.head+"</head><body></body></html>"), tt.opts)
			if p.Robots != tt.want {
				t.Fatalf("Robots = %+v, want %+v", p.Robots, tt.want)
			}
		})
	}
}

func TestParseRobotsHeader(t *testing.T) {
	if r := ParseRobots("noindex nofollow"); r != (Robots{true, true}) {
		t.Errorf("space-separated: %+v", r)
	}
	if r := ParseRobots("all"); r != (Robots{}) {
		t.Errorf("all: %+v", r)
	}
}

// TestRobotsMerge: a directive given by the meta robots elements or by
// the X-Robots-Tag header applies; neither source lifts the other's.
func TestRobotsMerge(t *testing.T) {
	cases := []struct {
		meta   Robots
		header string
		want   Robots
	}{
		{Robots{}, "", Robots{}},
		{Robots{NoFollow: true}, "", Robots{NoFollow: true}},
		{Robots{}, "noindex", Robots{NoIndex: true}},
		{Robots{NoFollow: true}, "noindex", Robots{NoFollow: true, NoIndex: true}},
		{Robots{NoIndex: true}, "all", Robots{NoIndex: true}},
		{Robots{}, "none", Robots{NoFollow: true, NoIndex: true}},
	}
	for _, c := range cases {
		if got := c.meta.Merge(c.header); got != c.want {
			t.Errorf("%+v.Merge(%q) = %+v, want %+v", c.meta, c.header, got, c.want)
		}
	}
}

func TestMalformedHTML(t *testing.T) {
	pages := []string{
		"",
		"<a href='x'",
		"<a href=x><a href=y></b></i></table>",
		"\x00\xff\xfe<a href=\"\xff\xfe\">",
		"<<<<>>>><a href=z>",
		strings.Repeat("<div>", 5000) + `<a href="deep">`,
		"<title>unclosed <a href=t>",
	}
	for _, page := range pages {
		if _, err := Links("http://example.com/", []byte(page), Options{}); err != nil {
			t.Errorf("Links(%q...) failed: %v", page[:min(len(page), 20)], err)
		}
	}
	p := mustLinks(t, "http://example.com/", []byte(pages[5]), Options{})
	if len(p.Links) != 1 || p.Links[0].URL != "http://example.com/deep" {
		t.Errorf("deeply nested link lost: %+v", p.Links)
	}
}

func TestBadPageURL(t *testing.T) {
	if _, err := Links("not a url", []byte("<a href=x>"), Options{}); !errors.Is(err, ErrPageURL) {
		t.Fatalf("err = %v, want ErrPageURL", err)
	}
}

func TestKindString(t *testing.T) {
	for k, s := range map[Kind]string{KindA: "a", KindArea: "area", KindFrame: "frame", KindIframe: "iframe",
		KindCanonical: "canonical", KindAlternate: "alternate", KindNext: "next", KindPrev: "prev", 0: "kind(0)"} {
		if k.String() != s {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), s)
		}
	}
}

// FuzzExtract checks Extract and Links never fail or panic on arbitrary
// bytes; that every link has either a URL or a reject reason; that
// Extract's links are distinct and within the caps, and the distinct links
// of Links; and, outside the markup where the tree builder rearranges or
// drops elements (foreign content, framesets, tables, templates), that
// the goquery walker finds the same set of links.
func FuzzExtract(f *testing.F) {
	f.Add([]byte(`<html><head><base href="/b/"><title>t</title></head><body><a href="x">x</a></body></html>`))
	f.Add([]byte(`<a href="mailto:a"><area href=//h/p><iframe src=é></iframe><link rel=canonical href=../c>`))
	f.Add([]byte("<meta name=robots content=none><frameset><frame src=f></frameset>"))
	f.Add([]byte("\x00<a href=\"\xff\">"))
	f.Add([]byte(`<meta charset=shift_jis><a href="?q=\x93\xfa"><svg><title><a href=s></title></svg>`))
	f.Add([]byte(`<a href=1 rel=nofollow><a href=2><a href=1><a href=3#x><a href=3#y><a href=javascript:x>`))
	opts := Options{MaxLinks: 5, MaxOther: 3}
	e := mustNew(f, opts)
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := e.Extract("http://example.com/dir/page", body, "")
		if err != nil {
			t.Fatalf("Extract failed: %v", err)
		}
		seen := map[string]bool{}
		kept, other := 0, 0
		for _, l := range p.Links {
			if (l.URL == "") == (l.Reject == "") {
				t.Fatalf("link %+v has neither or both of URL and Reject", l)
			}
			key := l.URL
			if key == "" {
				key = "raw:" + rawKey(l.Raw)
				other++
			} else {
				kept++
			}
			if seen[key] {
				t.Fatalf("link %q twice", key)
			}
			seen[key] = true
		}
		if kept > opts.MaxLinks || other > opts.MaxOther {
			t.Fatalf("%d kept and %d other links over the caps", kept, other)
		}
		// The memo changes no answer: the page extracted twice more (its
		// links now remembered, with Notes) gives what an Extractor
		// without a memo does.
		bare := mustNew(t, opts)
		bare.memo = nil
		want, err := bare.Extract("http://example.com/dir/page", body, "")
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			again, err := e.Extract("http://example.com/dir/page", body, "")
			if err != nil {
				t.Fatal(err)
			}
			if g, w := withoutNotes(again), withoutNotes(want); !slices.Equal(g.Links, w.Links) ||
				!reflect.DeepEqual(withoutLinks(g), withoutLinks(w)) {
				t.Fatalf("with the memo:\n%s", diffPages(g, w))
			}
		}
		all := mustLinks(t, "http://example.com/dir/page", body, opts)
		for _, l := range all.Links {
			if l.URL != "" && !seen[l.URL] {
				t.Fatalf("Links has %q, Extract does not", l.URL)
			}
		}
		lower := strings.ToLower(string(body))
		for _, s := range []string{"<svg", "<math", "<frame", "<table", "<template", "<base"} {
			if strings.Contains(lower, s) {
				return
			}
		}
		ref := mustNew(t, Options{})
		got, _ := ref.Extract("http://example.com/dir/page", body, "")
		var c collectorCheck
		want, ok := c.dom(t, body)
		if !ok {
			return
		}
		gs, ws := linkSet(got), linkSet(want)
		if !slices.Equal(gs, ws) {
			t.Fatalf("stream found %q\ngoquery found %q", gs, ws)
		}
	})
}

type collectorCheck struct{}

// dom extracts with the goquery walker, false when the tree builder
// rejects the document.
func (collectorCheck) dom(t *testing.T, body []byte) (Page, bool) {
	e := mustNew(t, Options{})
	base, _ := urlnorm.NewBase("http://example.com/dir/page")
	doc := decode(body, "")
	c := newCollector(&e.opts, base, doc.queryEncoder(), false)
	w, err := walkDOM(doc.reader(), e.opts.Token, nil, c)
	if err != nil {
		return Page{}, false
	}
	return Page{Links: c.links, Title: w.title, Robots: w.robots}, true
}

func linkSet(p Page) []string {
	var s []string
	for _, l := range p.Links {
		s = append(s, fmt.Sprintf("%v %s %s %s %v", l.Kind, l.URL, l.Reject, rawKey(l.Raw), l.NoFollow))
	}
	slices.Sort(s)
	return s
}

// A Link's one-byte fields sit together after its strings, so a page's
// links cost 64 bytes each on 64-bit platforms rather than 72.
func TestLinkSize(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("sizes are for 64-bit platforms")
	}
	if got := unsafe.Sizeof(Link{}); got != 64 {
		t.Fatalf("Link is %d bytes, want 64", got)
	}
}

// TestRecycleKeepsPagesApart checks that a page extracted into a slice an
// earlier page handed back (Recycle) holds exactly its own links, and
// that the earlier page's copies are untouched.
func TestRecycleKeepsPagesApart(t *testing.T) {
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := func(u, body string) []Link {
		t.Helper()
		p, err := e.Extract(u, []byte(body), "")
		if err != nil {
			t.Fatal(err)
		}
		return p.Links
	}
	first := page("http://a.test/", `<a href="/x">x</a><a href="/y">y</a><a href="/z">z</a>`)
	kept := slices.Clone(first)
	e.Recycle(first)
	second := page("http://b.test/dir/", `<a href="p">p</a>`)
	if len(second) != 1 || second[0].URL != "http://b.test/dir/p" {
		t.Fatalf("second page's links %+v, want only http://b.test/dir/p", second)
	}
	if kept[0].URL != "http://a.test/x" || kept[2].URL != "http://a.test/z" {
		t.Fatalf("first page's copied links changed: %+v", kept)
	}
	e.Recycle(nil) // nothing to keep; must not panic
}

// A defect met on a page (here a panicking Options.Keep) costs that page's
// links as ErrInternal, and the Extractor still serves the next page.
func TestExtractRecoversFromDefect(t *testing.T) {
	boom := true
	e := mustNew(t, Options{Keep: func(u string, _ *urlnorm.Note) bool {
		if boom {
			panic("keep failed on " + u)
		}
		return true
	}})
	_, err := e.Extract("http://a.test/", []byte(`<a href=/x>x</a>`), "")
	if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "keep failed on http://a.test/x") {
		t.Fatalf("Extract with a panicking Keep: %v, want ErrInternal naming the panic", err)
	}
	boom = false
	p, err := e.Extract("http://a.test/", []byte(`<a href=/x>x</a><a href=/y>y</a>`), "")
	if err != nil || len(p.Links) != 2 || p.Links[0].URL != "http://a.test/x" || p.Links[1].URL != "http://a.test/y" {
		t.Fatalf("next page: %+v, %v", p.Links, err)
	}
}

// withoutLinks returns p without its links.
func withoutLinks(p Page) Page {
	p.Links = nil
	return p
}

// withoutNotes returns p with its links' Notes dropped, for comparing
// pages extracted with and without a memo.
func withoutNotes(p Page) Page {
	p.Links = slices.Clone(p.Links)
	for i := range p.Links {
		p.Links[i].Note = nil
	}
	return p
}

// A link the memo remembers brings the same Note on every later page,
// and Keep is given it: pages in order, each row checked.
func TestNotesAcrossPages(t *testing.T) {
	var kept []*urlnorm.Note
	e := mustNew(t, Options{Keep: func(_ string, n *urlnorm.Note) bool {
		kept = append(kept, n)
		return true
	}})
	const body = `<a href="/nav">nav</a> <a href="own">own</a>`
	rows := []struct {
		page  string
		own   string // the second link's URL
		noted bool   // the navigation link has a Note
	}{
		{"http://a.test/d/1", "http://a.test/d/own", false}, // resolved once: not remembered
		{"http://a.test/d/2", "http://a.test/d/own", true},  // resolved again: remembered
		{"http://a.test/e/3", "http://a.test/e/own", true},  // answered from the memo
	}
	var first *urlnorm.Note
	for _, r := range rows {
		kept = kept[:0]
		p, err := e.Extract(r.page, []byte(body), "")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Links) != 2 || p.Links[0].URL != "http://a.test/nav" || p.Links[1].URL != r.own {
			t.Fatalf("%s: links %+v", r.page, p.Links)
		}
		n := p.Links[0].Note
		if (n != nil) != r.noted || len(kept) != 2 || kept[0] != n || kept[1] != p.Links[1].Note {
			t.Errorf("%s: note %p, Keep given %v", r.page, n, kept)
		}
		if n != nil && first == nil {
			first = n
		}
		if n != nil && n != first {
			t.Errorf("%s: note %p, the first was %p", r.page, n, first)
		}
	}
}
