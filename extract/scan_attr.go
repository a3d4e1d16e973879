package extract

import (
	"bytes"

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
	t := bytes.Clone(s.b[s.dataStart:s.dataEnd])
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
	name := bytes.ReplaceAll(s.b[s.dataStart:s.dataEnd], []byte{0}, []byte("\ufffd"))
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
		key := s.b[ks:ke]
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
		val, ok := unescapeAttr(s.b[vs:ve])
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
	z := html.NewTokenizer(bytes.NewReader(s.b[s.start:s.pos]))
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
// when they are the common ones: "&amp;", and a '&' that cannot start a
// reference (not followed by a letter or digit, or followed by letters and
// digits then '=', which the HTML standard leaves alone in attributes). It
// returns the value itself when there is nothing to decode, and false for
// anything else (other references, CR, NUL), which the caller hands to
// x/net/html.
func unescapeAttr(v []byte) ([]byte, bool) {
	amp := bytes.IndexByte(v, '&')
	for _, c := range v {
		if c == '\r' || c == 0 {
			return nil, false
		}
	}
	if amp < 0 {
		return v, true
	}
	var out []byte
	last := 0 // v[last:i] is still to be copied
	for i := amp; i < len(v); i++ {
		if v[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(v) && isAlnum(v[j]) {
			j++
		}
		switch {
		case j == i+1:
			if j < len(v) && v[j] == '#' {
				return nil, false
			}
			// A bare '&'.
		case j < len(v) && v[j] == '=':
			// "&name=" is left alone in an attribute.
		case j < len(v) && v[j] == ';' && string(v[i+1:j]) == "amp":
			if out == nil {
				out = make([]byte, 0, len(v))
			}
			out = append(out, v[last:i]...)
			out = append(out, '&')
			last = j + 1
		default:
			return nil, false
		}
		i = j - 1
	}
	if out == nil {
		return v, true
	}
	return append(out, v[last:]...), true
}

func isAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}
