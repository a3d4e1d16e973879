package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// What the walker asks of a token: its text, tag name and attributes,
// read lazily, with the Tokenizer's rules for duplicates and character
// references.

// Text returns the text of a text token as the Tokenizer does: CR LF as
// LF, NUL as U+FFFD in raw text, character references decoded outside raw
// text. It is a copy.
func (s *scanner) Text() []byte {
	if s.tt != html.TextToken {
		return nil
	}
	t := s.b[s.dataStart:s.dataEnd]
	var d []byte
	if s.dec != nil && hasHigh(t) {
		d, _ = s.dec.Bytes(t) // a decoded copy; nil on error
	}
	if d != nil {
		t = d
	} else {
		t = bytes.Clone(t)
	}
	s.dataStart, s.dataEnd = s.pos, s.pos
	t = convertNewlines(t)
	if s.convertNUL && bytes.IndexByte(t, 0) >= 0 {
		t = bytes.ReplaceAll(t, []byte{0}, []byte("\ufffd"))
	}
	if !s.textIsRaw && bytes.IndexByte(t, '&') >= 0 {
		t = []byte(html.UnescapeString(string(t)))
	}
	return t
}

// convertNewlines turns CR LF and lone CR into LF, in place.
func convertNewlines(t []byte) []byte {
	if bytes.IndexByte(t, '\r') < 0 {
		return t
	}
	out := t[:0]
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(t) && t[i+1] == '\n' {
				i++
			}
		}
		out = append(out, c)
	}
	return out
}

// TagName returns the lower-cased name of a tag token (a copy, NUL as
// U+FFFD).
func (s *scanner) TagName() ([]byte, bool) {
	switch s.tt {
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
	default:
		return nil, false
	}
	name := bytes.ReplaceAll(s.decoded(s.b[s.dataStart:s.dataEnd]), []byte{0}, []byte("\ufffd"))
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			name[i] = c + 'a' - 'A'
		}
	}
	if s.tt == html.EndTagToken {
		return name, false
	}
	s.readAttrs()
	return name, s.nAttr < len(s.attrs)
}

// TagAttr returns the next attribute of a start tag: lower-cased key,
// decoded value; later attributes with a key seen before are left out, as
// the Tokenizer does. The slices are valid until the next token.
func (s *scanner) TagAttr() (key, val []byte, more bool) {
	if s.tt != html.StartTagToken && s.tt != html.SelfClosingTagToken {
		return nil, nil, false
	}
	s.readAttrs()
	if s.nAttr >= len(s.attrs) {
		return nil, nil, false
	}
	a := s.attrs[s.nAttr]
	s.nAttr++
	return a.key, a.val, s.nAttr < len(s.attrs)
}

// manyAttrs is the attribute count from which keys seen are looked up in
// a map rather than by a linear scan (a hostile tag with 100k attributes
// must not cost their square).
const manyAttrs = 16

func (s *scanner) readAttrs() {
	if s.attrsRead {
		return
	}
	s.attrsRead = true
	s.lower = s.lower[:0]
	slow := false
	if s.seen != nil {
		clear(s.seen)
	}
	s.readTag(s.dataStart, func(ks, ke, vs, ve int, quote byte) {
		if slow {
			return
		}
		key := s.decoded(s.b[ks:ke])
		if bytes.IndexByte(key, 0) >= 0 {
			slow = true
			return
		}
		if hasUpper(key) {
			start := len(s.lower)
			for _, c := range key {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				s.lower = append(s.lower, c)
			}
			key = s.lower[start:len(s.lower):len(s.lower)]
		}
		if s.keySeen(key) {
			return
		}
		val, ok := unescapeAttr(s.decoded(s.b[vs:ve]))
		if !ok {
			slow = true
			return
		}
		s.attrs = append(s.attrs, scanAttr{key, val})
	}, nil)
	if slow {
		s.slowAttrs()
	}
}

// keySeen reports whether key is already among the attributes, and notes
// it otherwise. s.lower may have moved since earlier keys were sliced from
// it; they still point at the old array, which holds the same bytes.
func (s *scanner) keySeen(key []byte) bool {
	if len(s.attrs) < manyAttrs {
		for _, a := range s.attrs {
			if bytes.Equal(a.key, key) {
				return true
			}
		}
		return false
	}
	if s.seen == nil {
		s.seen = make(map[string]struct{})
	}
	if len(s.seen) == 0 {
		for _, a := range s.attrs {
			s.seen[string(a.key)] = struct{}{}
		}
	}
	if _, ok := s.seen[string(key)]; ok {
		return true
	}
	s.seen[string(key)] = struct{}{}
	return false
}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// slowAttrs reads the current tag's attributes with x/net/html's
// Tokenizer, for values with character references other than the common
// ones, CRs or NUL bytes: the tag is tokenized on its own, which gives the
// same attributes as in the document.
func (s *scanner) slowAttrs() {
	s.attrs = s.attrs[:0]
	z := html.NewTokenizer(bytes.NewReader(s.decoded(s.b[s.start:s.pos])))
	z.Next()
	for {
		k, v, more := z.TagAttr()
		if k == nil {
			return
		}
		s.attrs = append(s.attrs, scanAttr{k, v})
		if !more {
			return
		}
	}
}

// unescapeAttr decodes the character references of an attribute value
// when they are ended by ';': the named references namedRef knows and the
// numeric references numericRef takes, and a '&' that cannot start a
// reference (not followed by a letter or digit, or followed by letters and
// digits then '=', which the HTML standard leaves alone in attributes). It
// returns the value itself when there is nothing to decode, and false for
// anything else (a reference without its ';', an unknown name, NUL),
// which the caller hands to x/net/html. A CR, alone or before LF, becomes
// one LF first, as the Tokenizer converts newlines before it decodes
// references (pages saved with CRLF line ends carry CRs in values that
// span lines).
func unescapeAttr(v []byte) ([]byte, bool) {
	cr := false
	for _, c := range v {
		switch c {
		case 0:
			return nil, false
		case '\r':
			cr = true
		}
	}
	var out []byte
	inPlace := false // out writes over v, a copy made for the CRs
	if cr {
		// A copy: the body is never modified. References are decoded
		// in place while a decoded reference is not longer than it.
		v = convertNewlines(bytes.Clone(v))
		out, inPlace = v[:0], true
	}
	amp := bytes.IndexByte(v, '&')
	if amp < 0 {
		return v, true
	}
	last := 0 // v[last:i] is still to be copied
	var buf [4]byte
	for i := amp; i < len(v); i++ {
		if v[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(v) && isAlnum(v[j]) {
			j++
		}
		var text []byte // the decoded reference, if any
		switch {
		case j == i+1:
			if j < len(v) && v[j] == '#' {
				r, end := numericRef(v, j+1)
				if r < 0 {
					return nil, false
				}
				text = utf8.AppendRune(buf[:0], r)
				j = end - 1 // the ';', consumed below
				break
			}
			// A bare '&'.
		case j < len(v) && v[j] == '=':
			// "&name=" is left alone in an attribute.
		case j < len(v) && v[j] == ';':
			if text = namedRef(v[i+1:j], buf[:0]); text == nil {
				return nil, false
			}
		default:
			return nil, false
		}
		if text != nil {
			if out == nil {
				out = make([]byte, 0, len(v))
			} else if inPlace && len(text) > j+1-i {
				// Longer than the reference (a few two-character
				// references are): out leaves v.
				out, inPlace = append(make([]byte, 0, len(v)+len(text)), out...), false
			}
			out = append(out, v[last:i]...)
			out = append(out, text...)
			last = j + 1
			i = j
			continue
		}
		i = j - 1
	}
	if out == nil {
		return v, true
	}
	return append(out, v[last:]...), true
}

// namedRef returns the text of the named character reference name (the
// letters and digits between '&' and ';'), appended to buf, and nil when
// the HTML standard has no such reference (the caller leaves that to
// x/net/html). The references pages use most are looked up here; any
// other goes to x/net/html's table: html.UnescapeString decodes "&name;"
// entirely when "name;" is a reference, and otherwise leaves a suffix
// ending in ';' (a prefix it may still decode outside attributes, as it
// does, is of no use here).
func namedRef(name, buf []byte) []byte {
	switch string(name) {
	case "amp":
		return append(buf, '&')
	case "quot":
		return append(buf, '"')
	case "apos":
		return append(buf, '\'')
	case "lt":
		return append(buf, '<')
	case "gt":
		return append(buf, '>')
	case "nbsp":
		return append(buf, "\u00a0"...)
	case "semi":
		return append(buf, ';')
	}
	if len(name) > maxEntityName {
		return nil
	}
	ref := "&" + string(name) + ";"
	text := html.UnescapeString(ref)
	if text == ref || strings.HasSuffix(text, ";") {
		return nil
	}
	return append(buf, text...)
}

// maxEntityName bounds the names namedRef looks up (the longest the HTML
// standard defines is CounterClockwiseContourIntegral, 31 letters).
const maxEntityName = 32

// numericRef decodes the numeric reference whose digits start at v[i]
// (after "&#"): decimal, or hexadecimal after 'x' or 'X', ended by ';'.
// It returns the character and the index just past the ';', or -1 for
// anything x/net/html treats specially (no ';', no digits, more than 7
// digits, U+0000, C0 controls, U+007F to U+009F which it maps through
// windows-1252, surrogates, above U+10FFFF): the caller then hands the tag
// to x/net/html, so both decode alike.
func numericRef(v []byte, i int) (rune, int) {
	base := rune(10)
	if i < len(v) && (v[i] == 'x' || v[i] == 'X') {
		base = 16
		i++
	}
	var r rune
	n := 0
	for ; i < len(v) && n <= 7; i, n = i+1, n+1 {
		c := v[i]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case base == 16 && 'a' <= c|0x20 && c|0x20 <= 'f':
			d = rune(c|0x20-'a') + 10
		default:
			goto end
		}
		r = r*base + d
	}
end:
	if n == 0 || n > 7 || i >= len(v) || v[i] != ';' {
		return -1, 0
	}
	if r < 0x20 || 0x7f <= r && r <= 0x9f || 0xd800 <= r && r <= 0xdfff || r > 0x10ffff {
		return -1, 0
	}
	return r, i + 1
}

func isAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}
