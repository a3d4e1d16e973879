package extract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// tokenizerExtract is extraction through the streaming walker reading
// x/net/html's Tokenizer, the reference the scanner is checked against.
func tokenizerExtract(t testing.TB, pageURL string, body []byte, opts Options, dups bool) Page {
	t.Helper()
	e := mustNew(t, opts)
	base, err := urlnorm.NewBase(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	doc := decode(body, "")
	c := newCollector(&e.opts, base, doc.queryEncoder(), dups)
	w := walkTokens(html.NewTokenizer(doc.reader()), e.opts.Token, c)
	return Page{Links: c.links, Base: c.base.String(), Canonical: c.canonical, Title: w.title,
		Robots: w.robots, Charset: doc.name, Dropped: c.dropped, NoFollowSkipped: c.nofollow}
}

// tokenString describes the current token of src the way a reader of the
// stream sees it: type, raw bytes, and the name and attributes of a tag or
// the text of a text token.
func tokenString(src tokenSource, tt html.TokenType) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%v %q", tt, src.Raw())
	switch tt {
	case html.TextToken:
		fmt.Fprintf(&sb, " text %q", src.Text())
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
		name, more := src.TagName()
		fmt.Fprintf(&sb, " <%s>", name)
		for more {
			var k, v []byte
			k, v, more = src.TagAttr()
			fmt.Fprintf(&sb, " %q=%q", k, v)
		}
	}
	return sb.String()
}

// diffTokens runs the scanner and x/net/html's Tokenizer over body side by
// side and describes the first token where they differ, "" if none. flags
// drive the two switches a parser uses: bit k%8 allows CDATA before token
// k, bit 8+k%8 calls NextIsNotRawText after start tag k.
func diffTokens(body []byte, flags uint16) string {
	s, z := newScanner(body), html.NewTokenizer(bytes.NewReader(body))
	for k := 0; ; k++ {
		cdata := flags>>(k%8)&1 == 1
		s.AllowCDATA(cdata)
		z.AllowCDATA(cdata)
		st, zt := s.Next(), z.Next()
		got, want := tokenString(s, st), tokenString(z, zt)
		if got != want {
			return fmt.Sprintf("token %d: scanner %s\n          tokenizer %s", k, got, want)
		}
		if zt == html.ErrorToken {
			return ""
		}
		if zt == html.StartTagToken && flags>>(8+k%8)&1 == 1 {
			s.NextIsNotRawText()
			z.NextIsNotRawText()
		}
	}
}

// scannerCases are markup where a scanner that skips text could go wrong:
// comments, raw text, script escapes, CDATA, attribute syntax and
// character references, unterminated constructs at the end of the body.
var scannerCases = []string{
	"<a title=\"a\r\nb\rc&amp;\r\r\nd&#233;&lt;\r\" href='x\r\ny&nbsp;\r'>t</a><A HREF=p\r>",
	``,
	// References the scanner decodes itself in attribute values, and their
	// neighbours it leaves to x/net/html.
	`<a title="&quot;x&quot; &apos;&lt;&gt;&nbsp;&amp;" href="/a?b=1&amp;c=2">`,
	`<a title="&#39;&#x27;&#X27;&#160;&#8217;&#x1F600;&#32;" href=/x>`,
	`<a title="&#0; &#9; &#127; &#128; &#x9F; &#xD800; &#x110000; &#12345678; &#; &#x; &#39 x">`,
	`<a title="&QUOT; &quot &quotx; &nbsp=1 &eacute; &notin; &not;">`,
	// Other named references, looked up in x/net/html's table: one and
	// two characters, longer decoded than written, unknown, a prefix.
	`<a title="Fran&ccedil;ais &uuml;&Uuml; &nGt;&NotEqualTilde; &semi;&SEMI; &CounterClockwiseContourIntegral; &xyz; &notit; &AMP;">`,
	"<a title=\"\r\n&nGt;&nGt;&nGt;&NotEqualTilde;x\r\" href='\r&ThickSpace;&fjlig;'>",
	`plain text`,
	`a < b <3 <> <= </> </ x> </3> <? pi ?> <!x> <! > <!>`,
	`<a href=x>t</a><A HREF="Y" Href='z'>`,
	`<a href="x" href=y HREF=z id=1 ID=2>`,
	`<a =x =y ==z a=b>`,
	`<a/b/c d/ e = f g= "h" i ='j'/>`,
	`<br/><br /><a href=/><a href=/ /><a href="/"/><a href='/'/><a b=/ b=/>`,
	`<a x=1 x=/>`,
	`<a href="&amp;&lt;&gt;&quot;&#38;&#x26;&copy&copy=&amp=&notit;&notin;&#0;&#x110000;&#128;&">`,
	`<a href="?a=1&amp;b=2&c=3&d&e;&=f& g">`,
	"<a href=\"a\rb\r\nc\x00d\">",
	"<a hr\x00ef=x hREF=y>",
	"<\x00a><a\x00 href=q>",
	`<!-- c --><!----><!--><!---><!-- -- --!><!-- --!-><!-- -!> --> x`,
	`<!-- <a href=in-comment> --><a href=out>`,
	`<!--->x--><!--a--!-->b-->`,
	`<!DOCTYPE html><!doctype><!DOCTYPE`,
	`<title>a &amp; <b> &lt;</TITLE ><title></title>`,
	"<title>a\r\nb\x00c</title>",
	`<textarea><a href=in></textarea ><a href=out>`,
	`<style>p{}</stylex></style/><a href=s>`,
	`<script>if (a<b) x = "</scr" + "ipt>";</script><a href=sc>`,
	`<script><!-- document.write("<script>x</script>"); --></script><a href=sc2>`,
	`<script><!--<script></script>--></script><a href=sc3>`,
	`<script><!--<SCRIPT ></SCRIPT>-->x</script ><a href=sc4>`,
	`<script><!- x</script>`,
	`<script><!--- x --><!--<script--></script>`,
	`<script>x<!--<scri</script>`,
	`<script><!--<script>a<!--b--></script>c</script>d`,
	`<script>`,
	`<script><!--`,
	`<script><!--<script>`,
	`<iframe><a href=raw></iframe><noscript><a href=ns></noscript><noembed>x</noembed><noframes>y</noframes><xmp><z></xmp>`,
	`<plaintext><a href=pt></plaintext>`,
	`<svg><![CDATA[ <a href=cd> ]]]></svg><![CDATA[x]]><![CDATA[`,
	`<![CDATA`,
	`<a href="unterminated`,
	`<a href='unterminated`,
	`<a href=unterminated`,
	`<a href`,
	`<a`,
	`</a`,
	`</a href="x>"`,
	`<`,
	`</`,
	`<!`,
	`<!-`,
	`<!--`,
	`<title>`,
	`<title></titl`,
	`<title></title`,
	`<a b="1"c="2"d='3'e=4>`,
	`<a href="x>y">`,
	`<a
href
=
"nl"
>`,
	"<a\fhref\f=\fff\f>",
	`<meta charset="utf-8"><meta http-equiv=refresh content="0; url=/r">`,
	`<a K=1 k=2>`,
	"<a \u212a=1 k=2>",
}

// TestScannerTokens checks the scanner gives exactly x/net/html's tokens,
// token by token, on tricky markup and on the real documentation pages.
func TestScannerTokens(t *testing.T) {
	for i, c := range scannerCases {
		for _, flags := range []uint16{0, 0xffff, 0x00ff, 0xff00, 0x5a5a} {
			if d := diffTokens([]byte(c), flags); d != "" {
				t.Errorf("case %d %q flags %#x:\n%s", i, c, flags, d)
				break
			}
		}
	}
	urls, bodies := pydocs(t)
	for i, u := range urls {
		if d := diffTokens(bodies[i], 0); d != "" {
			t.Errorf("%s:\n%s", u, d)
		}
	}
}

// TestScannerRealPages checks extraction through the scanner gives exactly
// the links, in order, and page facts of extraction through x/net/html's
// Tokenizer on the 30 real documentation pages, both distinct links
// (Extract) and every occurrence (Links).
func TestScannerRealPages(t *testing.T) {
	urls, bodies := pydocs(t)
	for i, u := range urls {
		for _, dups := range []bool{false, true} {
			got := streamExtract(t, u, bodies[i], Options{}, dups)
			want := tokenizerExtract(t, u, bodies[i], Options{}, dups)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (dups %v):\n%s", u, dups, diffPages(got, want))
			}
		}
	}
}

// FuzzScanner is the differential fuzz test of the scanner: on any bytes,
// it must give the same tokens as x/net/html's Tokenizer (with CDATA and
// raw text switched as flags say), and extraction through it the same
// page, links and caps included, as extraction through the Tokenizer.
func FuzzScanner(f *testing.F) {
	for _, c := range scannerCases {
		f.Add([]byte(c), uint16(0))
	}
	f.Add([]byte(`<svg><title><a href=s></title><![CDATA[<a href=c>]]></svg><base href=/b/><a href=x>`), uint16(0x00ff))
	f.Add([]byte(`<a href=1 rel=nofollow><a href=2><a href=1><link rel=canonical href=c><a href=3#x><a href=javascript:x>`), uint16(0))
	f.Add([]byte(`<meta http-equiv=Content-Type content="text/html; charset=iso-8859-1"><meta charset=shift_jis>`), uint16(0))
	f.Add([]byte(`<meta name=robots content=nofollow><frameset><frame src=f></frameset><noscript><a href=n></noscript>`), uint16(0))
	f.Add([]byte(`<p>x</p><IFRAME SRC=i></iframe><Svg><a href=s><title><a href=t></title></svg><MATH><mi><a href=m></math><frameset><frame src=f></frameset><Title>late</title><BASE href=/b/><A href=a><LINK rel=canonical href=c><Meta name=robots content=nofollow>`), uint16(0))
	f.Add([]byte("<a title=\"a\r\nb\rc&amp;\r\r\nd&#233;\" href='x\r\ny&nbsp;\r'>t</a><A HREF=p\r>"), uint16(0))
	// Legacy encodings the scanner reads as raw bytes, with bytes above
	// 0x7F in names, keys, values and text, and before the delimiters.
	for _, cs := range []string{"windows-1252", "iso-8859-2", "koi8-r", "euc-kr", "utf-8", "x-user-defined", "shift_jis"} {
		f.Add([]byte("<meta charset="+cs+"><title>t\xe9\xb0\x81</title><a href=\"/\xe9\xb0?q=\x81\xc7\" title=\x81>x</a><\xe9a h\x81=\x81\xe9\x81><svg><\xc9x\xe9><a href=s\x81></\xe9X\xc9></svg><A HREF='\xb0\x81&amp;\x81'>"), uint16(0))
	}
	opts := Options{MaxLinks: 5, MaxOther: 3}
	f.Fuzz(func(t *testing.T, body []byte, flags uint16) {
		if d := diffTokens(body, flags); d != "" {
			t.Fatalf("tokens differ:\n%s", d)
		}
		prefix := body[:min(len(body), prescanLen)]
		if got, want := metaCharset(prefix), metaCharsetIn(html.NewTokenizer(bytes.NewReader(prefix))); got != want {
			t.Fatalf("meta charset %q, Tokenizer finds %q", got, want)
		}
		for _, o := range []Options{{}, opts} {
			for _, dups := range []bool{false, true} {
				got := streamExtract(t, "http://example.com/dir/page", body, o, dups)
				want := tokenizerExtract(t, "http://example.com/dir/page", body, o, dups)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("opts %+v dups %v:\n%s", o, dups, diffPages(got, want))
				}
			}
		}
	})
}

// hostilePages are inputs built to make a scanner quadratic: long runs
// that each candidate end of a construct would rescan.
func hostilePages(size int) map[string][]byte {
	rep := func(prefix, unit, suffix string) []byte {
		return []byte(prefix + strings.Repeat(unit, max(1, (size-len(prefix))/len(unit))) + suffix)
	}
	half := func(a, b string) []byte {
		n := size / 2
		return []byte(strings.Repeat(a, n/len(a)) + strings.Repeat(b, n/len(b)))
	}
	return map[string][]byte{
		"comment-dashes":   append([]byte("<!--"), half("-", ">")...),
		"comment-gt":       rep("<!--x", ">", ""),
		"attrs":            rep("<a ", "x=1 ", ">"),
		"attrs-distinct":   distinctAttrs(size),
		"lt-text":          rep("", "< ", ""),
		"script-escapes":   rep("<script><!--", "<script-<-<", ""),
		"title-near-end":   rep("<title>", "</titl", ""),
		"unterminated-tag": rep("<a href=", "x", ""),
		"cdata":            rep("<svg><![CDATA[", "]]", ""),
		"many-tags":        rep("", "<a href=/x>", ""),
		"attr-references":  rep("", `<a title="&quot;&#39;&nbsp;" href=/x>`, ""),
	}
}

func distinctAttrs(size int) []byte {
	var sb strings.Builder
	sb.WriteString("<a")
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, " k%d=%d", i, i)
	}
	sb.WriteString(">")
	return []byte(sb.String())
}

// BenchmarkScanHostile runs the scanner over hostile inputs at two sizes:
// ns per byte must not grow with the size (no input is quadratic).
func BenchmarkScanHostile(b *testing.B) {
	for _, size := range []int{64 << 10, 1 << 20} {
		pages := hostilePages(size)
		names := make([]string, 0, len(pages))
		for n := range pages {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, name := range names {
			page := pages[name]
			b.Run(fmt.Sprintf("input=%s/size=%dKiB", name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				for b.Loop() {
					s := newScanner(page)
					for s.Next() != html.ErrorToken {
						s.TagAttr()
					}
				}
			})
		}
	}
}

// TestLegacyRawScan checks extraction from a body in a legacy encoding the
// scanner reads as raw bytes (rawScannable) against the Tokenizer reading
// the decoded stream, on random markup dense in the bytes that matter:
// delimiters, bytes above 0x7F (lead bytes of EUC-KR pairs among them)
// and letters that can follow them as a second byte.
func TestLegacyRawScan(t *testing.T) {
	pieces := []string{"<", ">", "</", "<a ", "<A HREF=", "<svg>", "</svg>", "<title>", "</title>", "<link rel=canonical href=",
		"<base href=", "<iframe src=", "<!--", "-->", "=", "\"", "'", " ", "\r\n", "&amp;", "&eacute;", "&#233;", "&",
		"/", "?q=", "#f", "a", "B", "z", "\x81", "\xa1", "\xb0", "\xc7", "\xe9", "\xfe", "\xff", "\x80", "\x00"}
	r := rand.New(rand.NewPCG(1, 2))
	for _, cs := range []string{"windows-1252", "iso-8859-2", "koi8-r", "euc-kr", "utf-8", "x-user-defined"} {
		enc, err := htmlindex.Get(cs)
		if err != nil || !rawScannable(enc) {
			t.Fatalf("%s: %v, raw scannable %v", cs, err, err == nil && rawScannable(enc))
		}
		for range 400 {
			var sb strings.Builder
			sb.WriteString("<meta charset=" + cs + ">")
			for range 40 + r.IntN(80) {
				sb.WriteString(pieces[r.IntN(len(pieces))])
			}
			body := []byte(sb.String())
			got := streamExtract(t, "http://example.com/dir/page", body, Options{}, true)
			want := tokenizerExtract(t, "http://example.com/dir/page", body, Options{}, true)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %q:\n%s", cs, body, diffPages(got, want))
			}
		}
	}
	for _, cs := range []string{"shift_jis", "gb18030", "big5", "euc-jp", "iso-2022-jp", "utf-16le"} {
		if enc, err := htmlindex.Get(cs); err != nil || rawScannable(enc) {
			t.Errorf("%s: %v; a multi-byte encoding not checked here must go through the Tokenizer", cs, err)
		}
	}
}
