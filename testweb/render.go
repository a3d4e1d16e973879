package testweb

import (
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/internal/mix"
)

// Rendering is a pure function of (site seed, node id, content version) and
// the node's immutable fields, so bodies need no cache: the same seed and
// epoch give the same bytes, and a body changes exactly when its version
// does. Choices (link spelling, words) come from a splitmix64 hash, never
// from the clock.

// hashMix is splitmix64's step: its output for state x.
func hashMix(x uint64) uint64 { return mix.Finalize(x + mix.Golden) }

// pageHash is the seed of every choice made while rendering one version of
// one node.
func (s *Site) pageHash(id, ver uint32) uint64 {
	return hashMix(hashMix(s.seed^uint64(id)<<1) ^ uint64(ver)<<7)
}

// etag returns the strong entity tag of one version of one node.
func (s *Site) etag(id, ver uint32) string {
	var b [18]byte
	b[0] = '"'
	v := hashMix(s.pageHash(id, ver) ^ 0xe7a9)
	for i := 16; i >= 1; i-- {
		b[i] = "0123456789abcdef"[v&15]
		v >>= 4
	}
	b[17] = '"'
	return string(b[:])
}

var words = [...]string{"crawl", "seed", "graph", "page", "link", "host", "rank", "web", "index",
	"frontier", "anchor", "river", "mountain", "lantern", "harbor", "meadow", "signal", "orbit",
	"copper", "violet", "thunder", "pebble", "compass", "archive", "ember", "glacier", "saffron",
	"timber", "quartz", "falcon", "willow", "canyon", "beacon", "cobalt", "delta", "ferry",
	"garnet", "hollow", "island", "juniper", "kettle", "ledger", "marble", "nectar", "oyster",
	"prairie", "quiver", "ribbon", "summit", "tundra", "umber", "velvet", "walnut", "yonder",
	"zephyr", "atlas", "bramble", "cedar", "dune", "echo", "fjord", "grove", "heron", "ivory"}

// wordGen draws words from a hash stream.
type wordGen struct{ h uint64 }

func (g *wordGen) next() uint64 {
	g.h = hashMix(g.h)
	return g.h
}

func (g *wordGen) words(buf []byte, n int) []byte {
	for i := 0; i < n; i++ {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, words[g.next()%uint64(len(words))]...)
	}
	return buf
}

// appendAttr appends s HTML-escaped for a quoted attribute value.
func appendAttr[S string | []byte](buf []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			buf = append(buf, "&amp;"...)
		case '"':
			buf = append(buf, "&#34;"...)
		case '\'':
			buf = append(buf, "&#39;"...)
		case '<':
			buf = append(buf, "&lt;"...)
		case '>':
			buf = append(buf, "&gt;"...)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// unquotedOK reports whether s can be written as an unquoted attribute.
func unquotedOK(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '"', '\'', '=', '<', '>', '`', '&', '?':
			return false
		}
	}
	return true
}

// dirOf returns the directory of a canonical path-and-query: everything up
// to and including the last '/' of the path.
func dirOf(target string) string {
	p, _, _ := strings.Cut(target, "?")
	return p[:strings.LastIndexByte(p, '/')+1]
}

// appendRelRef appends a relative reference that resolves, against a
// document whose base directory is baseDir (a path ending in '/'), to
// target.
func appendRelRef(buf []byte, baseDir, target string) []byte {
	p := target
	q := ""
	if i := strings.IndexByte(target, '?'); i >= 0 {
		p, q = target[:i], target[i:]
	}
	// Skip the directories baseDir and p share.
	bi, pi := 1, 1
	for {
		bj := strings.IndexByte(baseDir[bi:], '/')
		pj := strings.IndexByte(p[pi:], '/')
		if bj < 0 || pj < 0 || baseDir[bi:bi+bj] != p[pi:pi+pj] {
			break
		}
		bi += bj + 1
		pi += pj + 1
	}
	ups := strings.Count(baseDir[bi:], "/")
	for range ups {
		buf = append(buf, "../"...)
	}
	rest := p[pi:]
	if ups == 0 {
		first := rest
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			first = rest[:j]
		}
		if rest == "" || rest[0] == '/' || strings.IndexByte(first, ':') >= 0 {
			buf = append(buf, "./"...)
		}
	}
	buf = append(buf, rest...)
	return append(buf, q...)
}

// appendMixedCase appends s with letters chosen by h upper-cased.
func appendMixedCase(buf []byte, s string, h uint64) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' && (h>>(uint(i)%64))&1 == 1 {
			c -= 32
		}
		buf = append(buf, c)
	}
	return buf
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// appendPercentVariant appends target spelt differently but equivalently:
// one letter or digit of the path escaped, and existing escapes in
// lower-case hex.
func appendPercentVariant(buf []byte, target string, h uint64) []byte {
	p, q := target, ""
	if i := strings.IndexByte(target, '?'); i >= 0 {
		p, q = target[:i], target[i:]
	}
	cands := 0
	for i := 1; i < len(p); i++ {
		if p[i] == '%' {
			i += 2
		} else if isAlnum(p[i]) {
			cands++
		}
	}
	pick := -1
	if cands > 0 {
		pick = int(h % uint64(cands))
	}
	hex := "0123456789ABCDEF"
	if h&(1<<20) != 0 {
		hex = "0123456789abcdef"
	}
	buf = append(buf, '/')
	k := 0
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%' && i+2 < len(p):
			buf = append(buf, '%', lowerHex(p[i+1]), lowerHex(p[i+2]))
			i += 2
		case isAlnum(c):
			if k == pick {
				buf = append(buf, '%', hex[c>>4], hex[c&15])
			} else {
				buf = append(buf, c)
			}
			k++
		default:
			buf = append(buf, c)
		}
	}
	return append(buf, q...)
}

func lowerHex(c byte) byte {
	if 'A' <= c && c <= 'F' {
		return c + 32
	}
	return c
}

// hrefCtx renders the links of one page.
type hrefCtx struct {
	s       *Site
	st      *state
	scheme  string // the page's scheme
	host    uint32 // the page's host
	baseDir string // directory relative references resolve against
	scratch []byte
}

// appendHref appends one of several spellings of the URL of node t, chosen
// by h. Every spelling normalizes to the node's canonical URL.
func (c *hrefCtx) appendHref(buf []byte, t uint32, h uint64) []byte {
	n := &c.st.nodes[t]
	hs := &c.s.hosts[n.host]
	scheme := hs.Scheme
	if n.flags&flagAltScheme != 0 {
		scheme = otherScheme(scheme)
	}
	host, target := hs.Name, n.path
	same := n.host == c.host && scheme == c.scheme
	form := h % 8
	if !same {
		switch form {
		case 1, 2, 5:
			form = 0
		case 4:
			if scheme != c.scheme {
				form = 3
			}
		}
	}
	abs := func(buf []byte) []byte {
		buf = append(buf, scheme...)
		buf = append(buf, "://"...)
		return append(buf, host...)
	}
	switch form {
	case 1:
		return append(buf, target...)
	case 2:
		return appendRelRef(buf, c.baseDir, target)
	case 3:
		for i := 0; i < len(scheme); i++ {
			buf = append(buf, scheme[i]-32)
		}
		buf = append(buf, "://"...)
		buf = appendMixedCase(buf, host, h>>8)
		buf = append(buf, ':')
		buf = append(buf, defaultPort(scheme)...)
		return append(buf, target...)
	case 4:
		buf = append(buf, "//"...)
		buf = append(buf, host...)
		return append(buf, target...)
	case 5:
		if h&(1<<12) != 0 {
			buf = append(buf, "/."...)
		} else {
			buf = append(buf, "/x/.."...)
		}
		return append(buf, target...)
	case 6:
		if !same {
			buf = abs(buf)
		}
		buf = append(buf, target...)
		buf = append(buf, '#')
		return append(buf, words[(h>>16)%uint64(len(words))]...)
	case 7:
		if !same {
			buf = abs(buf)
		}
		return appendPercentVariant(buf, target, h>>24)
	}
	return append(abs(buf), target...)
}

// renderPage appends the HTML of node id at its current version: title,
// text and the node's links in document order, each spelled one of several
// equivalent ways.
func (s *Site) renderPage(buf []byte, st *state, id uint32) []byte {
	n := &st.nodes[id]
	h := &s.hosts[n.host]
	scheme := h.Scheme
	if n.flags&flagAltScheme != 0 {
		scheme = otherScheme(scheme)
	}
	g := wordGen{h: s.pageHash(id, n.ver)}
	mal := n.flags&flagMalformed != 0
	ctx := hrefCtx{s: s, st: st, scheme: scheme, host: n.host, baseDir: dirOf(n.path)}
	origin := func(buf []byte) []byte {
		buf = append(buf, scheme...)
		buf = append(buf, "://"...)
		return append(buf, h.Name...)
	}

	start := len(buf)
	buf = append(buf, "<!DOCTYPE html>\n"...)
	if mal {
		buf = append(buf, "<HTML><HEAD>\n<META charset=utf-8>\n<TITLE>"...)
	} else {
		buf = append(buf, "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"...)
	}
	title := len(buf)
	buf = g.words(buf, 3)
	buf = append(buf, " &mdash; "...)
	buf = append(buf, h.Name...)
	titleEnd := len(buf)
	buf = append(buf, "</title>\n"...)
	if n.flags&flagMetaNofollow != 0 {
		buf = append(buf, "<meta name=\"robots\" content=\"nofollow,noindex\">\n"...)
	}
	if n.flags&flagCanonical != 0 {
		buf = append(buf, "<link rel=\"canonical\" href=\""...)
		buf = origin(buf)
		buf = appendAttr(buf, n.path)
		buf = append(buf, "\">\n"...)
	}
	if n.flags&flagBase != 0 {
		ctx.baseDir = "/docs/archive/"
		buf = append(buf, "<base href=\""...)
		if g.next()&1 == 1 {
			buf = appendMixedCase(buf, scheme+"://"+h.Name, g.next())
		}
		buf = append(buf, ctx.baseDir...)
		buf = append(buf, "\">\n"...)
	}
	if mal {
		buf = append(buf, "<BODY>\n<H1>"...)
	} else {
		buf = append(buf, "</head>\n<body>\n<h1>"...)
	}
	buf = append(buf, buf[title:titleEnd]...)
	buf = append(buf, "</h1>\n<p>"...)
	buf = g.words(buf, 40)
	buf = append(buf, ". Revision "...)
	buf = strconv.AppendUint(buf, uint64(n.ver), 10)
	buf = append(buf, ".</p>\n"...)
	nav := s.navOf(n)
	if nav != nil {
		buf = s.appendNav(buf, &ctx, nav)
	}
	if mal {
		buf = append(buf, "<!-- <a href=\"/fake/comment.html\">not a link</a> -->\n</div>\n<p>unclosed paragraph\n"...)
	}
	list := g.next()&1 == 0
	if list {
		buf = append(buf, "<ul>\n"...)
	}
	links := n.links
	wrap := wrapPara
	if list {
		wrap = wrapItem
	}
	for i, l := range links {
		buf = s.appendLink(buf, &ctx, &g, l, mal, wrap, i)
	}
	if list {
		buf = append(buf, "</ul>\n"...)
	}
	// Some pages repeat their first followed link in another spelling, so
	// crawlers must deduplicate after normalizing.
	if len(links) > 0 && !links[0].nofollow && g.next()%5 == 0 {
		buf = append(buf, "<p>See also "...)
		buf = s.appendLink(buf, &ctx, &g, links[0], false, wrapNone, 0)
		buf = append(buf, "</p>\n"...)
	}
	if nav != nil {
		buf = s.appendPadding(buf, start, g.next())
	}
	if n.flags&flagJunkLinks != 0 {
		buf = append(buf, "<p><a href=\"mailto:webmaster@"...)
		buf = append(buf, h.Name...)
		buf = append(buf, "\">mail us</a> <a href=\"javascript:void(0)\">menu</a> <a href=\"ftp://"...)
		buf = append(buf, h.Name...)
		buf = append(buf, "/pub/\">files</a></p>\n"...)
	}
	if mal {
		buf = append(buf, "<script>document.write('<a href=\"/fake/script.html\">x</a>');</script>\n<P>"...)
		buf = g.words(buf, 12)
		buf = append(buf, "\n<table><tr><td>cell\n"...)
		return buf
	}
	buf = append(buf, "<p>"...)
	buf = g.words(buf, 24)
	buf = append(buf, ".</p>\n</body>\n</html>\n"...)
	return buf
}

// How appendLink wraps a link.
const (
	wrapNone = iota // nothing
	wrapItem        // <li>...</li>
	wrapPara        // four links per <p>, with words before them
)

func (s *Site) appendLink(buf []byte, ctx *hrefCtx, g *wordGen, l link, mal bool, wrap, i int) []byte {
	h := g.next()
	ctx.scratch = ctx.appendHref(ctx.scratch[:0], l.to, h)
	href := ctx.scratch
	switch {
	case wrap == wrapItem:
		buf = append(buf, "<li>"...)
	case wrap == wrapPara && i%4 == 0:
		buf = append(buf, "<p>"...)
		buf = g.words(buf, 6)
		buf = append(buf, ' ')
	}
	switch {
	case mal && h&(3<<40) == 0 && unquotedOK(href):
		buf = append(buf, "<A HREF="...)
		buf = append(buf, href...)
	case mal && h&(3<<40) == 1<<40:
		buf = append(buf, "<a href='"...)
		buf = appendAttr(buf, href)
		buf = append(buf, '\'')
	default:
		buf = append(buf, "<a href=\""...)
		buf = appendAttr(buf, href)
		buf = append(buf, '"')
	}
	if l.nofollow {
		buf = append(buf, " rel=\"nofollow\""...)
	}
	buf = append(buf, '>')
	buf = g.words(buf, 2)
	if mal && h&(1<<44) != 0 {
		buf = append(buf, ' ') // unclosed <a>: the next <a> closes it
	} else {
		buf = append(buf, "</a>"...)
	}
	switch {
	case wrap == wrapItem:
		buf = append(buf, "</li>\n"...)
	case wrap == wrapPara && i%4 == 3:
		buf = append(buf, "</p>\n"...)
	case wrap == wrapPara:
		buf = append(buf, '\n')
	}
	return buf
}
