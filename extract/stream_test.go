package extract

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/urlnorm"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

func mustNew(t testing.TB, o Options) *Extractor {
	t.Helper()
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func urlsOf(p Page) []string {
	var us []string
	for _, l := range p.Links {
		if l.URL != "" {
			us = append(us, l.URL)
		} else {
			us = append(us, "reject:"+l.Reject)
		}
	}
	return us
}

func TestExtractDistinct(t *testing.T) {
	const page = `<a href="/x">1</a><a href="/x#frag">2</a><a href="./x" rel=nofollow>3</a>
<a href="/y" rel=nofollow><a href="/y"><a href="/z" rel=nofollow><a href=mailto:a><a href=mailto:a><area href=/x>`
	p, err := mustNew(t, Options{}).Extract("http://example.com/", []byte(page), "")
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, []want{
		{KindA, "http://example.com/x", "", false},
		{KindA, "http://example.com/y", "", false}, // one occurrence without nofollow is enough
		{KindA, "http://example.com/z", "", true},
		{KindA, "", "bad-scheme", false},
	})
	l, err := Links("http://example.com/", []byte(page), Options{})
	if err != nil || len(l.Links) != 9 {
		t.Fatalf("Links kept %d occurrences, want 9 (%v)", len(l.Links), err)
	}
}

// TestCaps checks the caps are applied to distinct links while parsing:
// links Keep accepts count against MaxLinks, the others against MaxOther,
// and every distinct link beyond a cap is counted once in Dropped.
func TestCaps(t *testing.T) {
	var sb strings.Builder
	for i := range 10 {
		// Each in-scope link twice, an out-of-scope link and a broken one
		// between them.
		fmt.Fprintf(&sb, `<a href="/in/%d"><a href="http://other.example/%d"><a href="/in/%d"><a href="http://bad host/%d">`, i, i, i, i)
	}
	body := []byte(sb.String())
	inScope := func(u string, _ *urlnorm.Note) bool { return strings.HasPrefix(u, "http://example.com/") }
	tests := []struct {
		name              string
		opts              Options
		in, other, errors int
		dropped           int
	}{
		{"defaults keep everything", Options{Keep: inScope}, 10, 10, 10, 0},
		{"in-scope cap", Options{Keep: inScope, MaxLinks: 4}, 4, 10, 10, 6},
		{"other cap", Options{Keep: inScope, MaxOther: 5}, 10, 3, 2, 15},
		{"nil Keep counts every URL in order", Options{MaxLinks: 15}, 8, 7, 10, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := mustNew(t, tt.opts).Extract("http://example.com/", body, "")
			if err != nil {
				t.Fatal(err)
			}
			var in, other, bad int
			for _, l := range p.Links {
				if want := l.URL != "" && (tt.opts.Keep == nil || inScope(l.URL, nil)); l.Kept != want {
					t.Errorf("%q: Kept = %v, want %v", l.URL, l.Kept, want)
				}
				switch {
				case l.URL == "":
					bad++
				case inScope(l.URL, nil):
					in++
				default:
					other++
				}
			}
			if in != tt.in || other != tt.other || bad != tt.errors || p.Dropped != tt.dropped {
				t.Fatalf("in %d other %d rejected %d dropped %d; want %d %d %d %d",
					in, other, bad, p.Dropped, tt.in, tt.other, tt.errors, tt.dropped)
			}
		})
	}
}

// TestCapKeepsLongPages: a long real page (the Python documentation's
// index of "P") keeps every in-scope link under the default cap, where the
// crawler's old cap of 1,000 links dropped most of them.
func TestCapKeepsLongPages(t *testing.T) {
	urls, bodies := pydocs(t)
	for i, u := range urls {
		if !strings.HasSuffix(u, "genindex-P.html") {
			continue
		}
		inScope := func(s string, _ *urlnorm.Note) bool { return strings.HasPrefix(s, "https://docs.python.org/") }
		p, err := mustNew(t, Options{Keep: inScope}).Extract(u, bodies[i], "")
		if err != nil {
			t.Fatal(err)
		}
		l, _ := Links(u, bodies[i], Options{})
		if p.Dropped != 0 || len(l.Links) < 1000 {
			t.Fatalf("dropped %d; %d occurrences", p.Dropped, len(l.Links))
		}
		return
	}
	t.Fatal("genindex-P.html not in testdata")
}

func TestSkipNoFollow(t *testing.T) {
	body := []byte(`<a href=/a rel=nofollow><a href=/b><area href=/c rel="x NOFOLLOW"><link rel=next href=/d>`)
	p, err := mustNew(t, Options{SkipNoFollow: true, MaxLinks: 1}).Extract("http://example.com/", body, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := urlsOf(p); strings.Join(got, " ") != "http://example.com/b" || p.NoFollowSkipped != 2 || p.Dropped != 1 {
		t.Fatalf("links %v, nofollow %d, dropped %d", got, p.NoFollowSkipped, p.Dropped)
	}
}

func TestLinkSelector(t *testing.T) {
	const page = `<html><head><title>T</title><base href="/base/"><link rel=canonical href="/canon">
<meta name=robots content=noindex></head><body>
<nav><a href="/nav1">n</a><a href="/nav2">n</a></nav>
<main id=content><a href="a1">a</a><div class=x><a href="a2">b</a></div><a href="/nav1">again</a></main>
<footer><a href="/f">f</a></footer><div class=x><a href="a3"></div></body></html>`
	tests := []struct {
		sel  string
		want []string
	}{
		{"", []string{"http://e.com/canon", "http://e.com/nav1", "http://e.com/nav2", "http://e.com/base/a1",
			"http://e.com/base/a2", "http://e.com/f", "http://e.com/base/a3"}},
		{"#content", []string{"http://e.com/base/a1", "http://e.com/base/a2", "http://e.com/nav1"}},
		{"main, footer", []string{"http://e.com/base/a1", "http://e.com/base/a2", "http://e.com/nav1", "http://e.com/f"}},
		{".x", []string{"http://e.com/base/a2", "http://e.com/base/a3"}},
		{"a[href^='/nav']", []string{"http://e.com/nav1", "http://e.com/nav2"}},
		{"aside", nil},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			p, err := mustNew(t, Options{LinkSelector: tt.sel}).Extract("http://e.com/", []byte(page), "")
			if err != nil {
				t.Fatal(err)
			}
			if got := urlsOf(p); strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("links %v, want %v", got, tt.want)
			}
			if p.Canonical != "http://e.com/canon" || p.Title != "T" || !p.Robots.NoIndex || p.Base != "http://e.com/base/" {
				t.Fatalf("page facts %+v", p)
			}
		})
	}
	if _, err := New(Options{LinkSelector: "a[href"}); !errors.Is(err, ErrSelector) {
		t.Fatalf("bad selector: err = %v, want ErrSelector", err)
	}
	deep := []byte(strings.Repeat("<div>", 600) + "<a href=x>")
	if _, err := mustNew(t, Options{LinkSelector: "div"}).Extract("http://e.com/", deep, ""); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("deep page with selector: err = %v, want ErrTooDeep", err)
	}
}

func encode(t *testing.T, enc interface{ Bytes([]byte) ([]byte, error) }, s string) string {
	t.Helper()
	b, err := enc.Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEncodings checks the document encoding is found where the HTML
// standard looks for it, and that links resolve as the URL standard says
// for that encoding: UTF-8 paths, queries in the document's encoding.
func TestEncodings(t *testing.T) {
	cp1251 := charmap.Windows1251.NewEncoder()
	sjis := japanese.ShiftJIS.NewEncoder()
	tests := []struct {
		name, header, body string
		charset            string
		want               []string
	}{
		{"latin-1 in meta only", "", `<meta charset="iso-8859-1"><a href="/na` + "\xef" + `ve.html">`,
			"windows-1252", []string{"http://e.com/na%C3%AFve.html"}},
		{"latin-1 query in document encoding", "", `<meta charset=latin1><a href="/caf` + "\xe9" + `?q=` + "\xe9" + `&r=a b#fr` + "\xe9" + `">`,
			"windows-1252", []string{"http://e.com/caf%C3%A9?q=%E9&r=a%20b"}},
		{"latin-1 from http-equiv", "", `<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><a href="?q=` + "\xfc" + `">`,
			"windows-1252", []string{"http://e.com/p?q=%FC"}},
		{"character outside the encoding", "", `<meta charset=iso-8859-1><a href="?q=&#x65E5;&#233;">`,
			"windows-1252", []string{"http://e.com/p?q=%26%2326085%3B%E9"}},
		{"header charset", "ISO-8859-1", `<a href="/` + "\xe9" + `?` + "\xe9" + `">`,
			"windows-1252", []string{"http://e.com/%C3%A9?%E9"}},
		{"header beats meta", "windows-1251", `<meta charset=utf-8><a href="/` + encode(t, cp1251, "Привет") + `?q=` + encode(t, cp1251, "мир") + `">`,
			"windows-1251", []string{"http://e.com/%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82?q=%EC%E8%F0"}},
		{"windows-1251 in meta", "", `<meta charset="windows-1251"><title>` + encode(t, cp1251, "Новости") + `</title><a href="?q=` + encode(t, cp1251, "мир") + `">`,
			"windows-1251", []string{"http://e.com/p?q=%EC%E8%F0"}},
		{"shift_jis", "", `<meta charset="Shift_JIS"><a href="/` + encode(t, sjis, "日本") + `?q=` + encode(t, sjis, "日本語ソ") + `">`,
			"shift_jis", []string{"http://e.com/%E6%97%A5%E6%9C%AC?q=%93%FA%96%7B%8C%EA%83%5C"}},
		{"shift_jis header", "shift_jis", `<a href="?q=` + encode(t, sjis, "東京") + `">`,
			"shift_jis", []string{"http://e.com/p?q=%93%8C%8B%9E"}},
		{"BOM beats header and meta", "iso-8859-1", "\xef\xbb\xbf" + `<meta charset=iso-8859-1><a href="?q=é">`,
			"utf-8", []string{"http://e.com/p?q=%C3%A9"}},
		{"utf-8 undeclared", "", `<a href="/é?q=é">`, "utf-8", []string{"http://e.com/%C3%A9?q=%C3%A9"}},
		{"invalid utf-8 undeclared is windows-1252", "", `<a href="/` + "\xe9" + `">`, "windows-1252", []string{"http://e.com/%C3%A9"}},
		{"utf-8 declared, invalid bytes", "utf-8", `<a href="/` + "\xe9" + `">`, "utf-8", []string{"http://e.com/%EF%BF%BD"}},
		{"utf-8 after 1024 ASCII bytes", "", strings.Repeat(" ", 2000) + `<a href="/é">`, "utf-8", []string{"http://e.com/%C3%A9"}},
		{"meta beyond the prescan", "", strings.Repeat(" ", 1100) + `<meta charset=shift_jis><a href="?q=é">`, "utf-8", []string{"http://e.com/p?q=%C3%A9"}},
		{"unknown header charset falls through", "x-bogus", `<meta charset=iso-8859-1><a href="?q=` + "\xe9" + `">`,
			"windows-1252", []string{"http://e.com/p?q=%E9"}},
		{"utf-16 meta means utf-8", "", `<meta charset=utf-16><a href="?q=é">`, "utf-8", []string{"http://e.com/p?q=%C3%A9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := mustNew(t, Options{}).Extract("http://e.com/p", []byte(tt.body), tt.header)
			if err != nil {
				t.Fatal(err)
			}
			if p.Charset != tt.charset {
				t.Errorf("Charset = %q, want %q", p.Charset, tt.charset)
			}
			if got := urlsOf(p); strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("links %q, want %q", got, tt.want)
			}
		})
	}
	p, _ := mustNew(t, Options{}).Extract("http://e.com/", []byte(`<meta charset="windows-1251"><title>`+encode(t, cp1251, "Новости")+`</title>`), "")
	if p.Title != "Новости" {
		t.Errorf("windows-1251 title = %q", p.Title)
	}
}

// TestBaseHrefQueryEncoding: the <base href> is parsed with the
// document's encoding too.
func TestBaseHrefQueryEncoding(t *testing.T) {
	body := `<meta charset=iso-8859-1><base href="/dir/?b=` + "\xe9" + `"><a href=""><a href="x">`
	p, err := mustNew(t, Options{}).Extract("http://e.com/", []byte(body), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(urlsOf(p), " "); got != "http://e.com/dir/?b=%E9 http://e.com/dir/x" {
		t.Fatalf("links %s", got)
	}
}

// measure runs f and returns the bytes it allocated in all
// (runtime.MemStats.TotalAlloc) and the peak of the live heap above what
// was live before, sampled every 200µs with the collector made eager
// (GOGC=5) so that the heap tracks what is live rather than garbage.
func measure(f func()) (total, peak uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		var max uint64
		var m runtime.MemStats
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > max {
				max = m.HeapAlloc
			}
			select {
			case <-done:
				sampled <- max
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	max := <-sampled
	runtime.ReadMemStats(&after)
	if max < before.HeapAlloc {
		max = before.HeapAlloc
	}
	return after.TotalAlloc - before.TotalAlloc, max - before.HeapAlloc
}

// TestBoundedMemory checks hostile pages cost memory in proportion to
// their size, and that links beyond the caps are not kept: 100k links,
// 100k nested tags, and 10 MiB of link-dense HTML.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of MB")
	}
	var links, nested, dense strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&links, `<a href="/p/%d">x</a>`, i)
	}
	nested.WriteString(strings.Repeat("<div>", 100_000))
	nested.WriteString(`<a href="/deep">`)
	nested.WriteString(strings.Repeat(`<span class="x">`, 100_000))
	for i := 0; dense.Len() < 10<<20; i++ {
		fmt.Fprintf(&dense, `<a href=/%x><a href=../%x?q>`, i, i)
	}
	tests := []struct {
		name  string
		body  string
		links int
		// allocBound bounds the bytes allocated per input byte in all:
		// the scanner allocates nothing per tag, but every link is
		// resolved (to tell a duplicate of a kept link from a new one)
		// before it is dropped.
		allocBound float64
	}{
		{"100k links", links.String(), DefaultMaxLinks, 7},
		{"100k nested tags", nested.String(), 1, 0.5},
		{"10 MiB link-dense", dense.String(), DefaultMaxLinks, 4.5},
	}
	// The peak heap is bounded by a fixed part for what the caps allow
	// (10,000 links with their maps, about 4 MB; at most 1 MB of hashes
	// of dropped links) plus a part proportional to the page for the
	// tokenizer's buffer and garbage not yet collected at the sample.
	const liveFixed, livePerByte = 8 << 20, 0.5
	e := mustNew(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Page
			var err error
			body := []byte(tt.body)
			bound := liveFixed + livePerByte*float64(len(body))
			// The peak is sampled, garbage included: on a loaded machine the
			// collector can lag behind and a sample catch more than the
			// extractor holds. The least of three tries is still an upper
			// bound of what it holds.
			var total, peak uint64
			for try := 0; try < 3 && (try == 0 || float64(peak) > bound); try++ {
				tot, pk := measure(func() { p, err = e.Extract("http://e.com/", body, "") })
				if err != nil {
					t.Fatal(err)
				}
				if try == 0 || pk < peak {
					total, peak = tot, pk
				}
			}
			if len(p.Links) != tt.links {
				t.Fatalf("%d links, want %d (dropped %d)", len(p.Links), tt.links, p.Dropped)
			}
			alloc, live := float64(total)/float64(len(body)), float64(peak)/float64(len(body))
			t.Logf("%d bytes in: %d allocated (%.2f per byte), peak live %d (%.2f per byte); %d links kept, %d dropped",
				len(body), total, alloc, peak, live, len(p.Links), p.Dropped)
			if !raceEnabled && alloc > tt.allocBound {
				t.Fatalf("%.2f bytes allocated per input byte, bound %.1f", alloc, tt.allocBound)
			}
			if !raceEnabled && float64(peak) > bound {
				t.Fatalf("peak heap %d bytes, bound %.0f", peak, bound)
			}
			// What stays (the Page) is bounded by the caps, not the page.
			var kept int
			for _, l := range p.Links {
				kept += len(l.URL) + len(l.Raw) + 64
			}
			if kept > 2<<20 {
				t.Fatalf("page keeps %d bytes of links", kept)
			}
		})
	}
}

// TestAllocsPerLink bounds allocations on a real page: a handful per
// distinct link, none per tag beyond the tokenizer's own.
func TestAllocsPerLink(t *testing.T) {
	urls, bodies := pydocs(t)
	for i, u := range urls {
		if !strings.HasSuffix(u, "library/os.html") {
			continue
		}
		e := mustNew(t, Options{})
		p, _ := e.Extract(u, bodies[i], "")
		allocs := testing.AllocsPerRun(3, func() { e.Extract(u, bodies[i], "") })
		t.Logf("%s: %d bytes, %d links, %.0f allocs", u, len(bodies[i]), len(p.Links), allocs)
		// The scanner allocates nothing per tag (x/net/html's Tokenizer
		// allocates twice per attribute, 48k times on this page): bound
		// the total by a few allocations per distinct link plus the
		// page's own, and by the goquery walker's count.
		dom := testing.AllocsPerRun(1, func() { domExtract(t, u, bodies[i], Options{}, false) })
		if bound := float64(16*len(p.Links) + 64); !raceEnabled && (allocs > bound || allocs > dom/50) {
			t.Fatalf("%.0f allocs for %d links, bound %.0f (goquery walker: %.0f)", allocs, len(p.Links), bound, dom)
		}
		return
	}
	t.Fatal("library/os.html not in testdata")
}

// TestLongHref: an href over MaxHref is rejected without being parsed,
// keeps only its first 256 bytes, and is counted once.
func TestLongHref(t *testing.T) {
	long := "/" + strings.Repeat("é", 2<<20)
	body := []byte(`<a href="/short"><a href="` + long + `"><a href="` + long + `#x"><a href="` + long + `">`)
	var p Page
	var err error
	total, _ := measure(func() { p, err = mustNew(t, Options{MaxHref: 1 << 10}).Extract("http://e.com/", body, "") })
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Links) != 3 || p.Links[1].Reject != "url-too-long" || len(p.Links[1].Raw) != 255 || p.Links[2].Reject != "url-too-long" {
		t.Fatalf("links %d: %+v", len(p.Links), p.Links[0])
	}
	if !raceEnabled && total > uint64(3*len(body)) {
		t.Fatalf("allocated %d bytes for a %d-byte page", total, len(body))
	}
	if p, _ := mustNew(t, Options{MaxHref: 10}).Extract("http://e.com/", []byte(`<a href="/abcdefghijkl">`), ""); len(p.Links) != 1 || p.Links[0].Raw != "/abcdefghijkl" {
		t.Fatalf("short MaxHref: %+v", p.Links)
	}
	l, _ := Links("http://e.com/", body, Options{})
	if len(l.Links) != 4 {
		t.Fatalf("Links: %d occurrences, want 4", len(l.Links))
	}
}
