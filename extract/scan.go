package extract

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
)

// tokenSource is what the streaming walker reads: the token stream of
// golang.org/x/net/html's Tokenizer. The scanner implements it on a body
// held in memory; *html.Tokenizer serves the documents the scanner does not
// take (a legacy encoding, decoded while it is read).
type tokenSource interface {
	Next() html.TokenType
	Raw() []byte
	Text() []byte
	TagName() (name []byte, hasAttr bool)
	TagAttr() (key, val []byte, moreAttr bool)
	AllowCDATA(allow bool)
	NextIsNotRawText()
}

// scanner gives the same tokens as golang.org/x/net/html's Tokenizer (the
// same types, raw bytes, tag names and attributes, including its handling
// of malformed markup: comments, bogus comments, raw text and RCDATA, the
// script escape states, CDATA, <plaintext>, unterminated tags) on a UTF-8
// body in memory, at a fraction of the cost: the Tokenizer reads every byte
// through a buffered reader and saves, lower-cases and deduplicates the
// attributes of every tag (two allocations per attribute), where most of a
// page is text and tags whose attributes no link depends on. The scanner
// finds tags with bytes.IndexByte, skips text, comments and raw text the
// same way, and reads a tag's attributes only when TagAttr or TagName is
// called (TagName reads them to report whether there are any).
//
// Attribute values are aliases of the body unless they need decoding.
// Values with character references ended by ';' (named ones, looked up
// in x/net/html's table, and numeric ones to ordinary characters), a bare
// '&' that no reference can start, or CRs are decoded here; a tag with any
// other reference (one without its ';', a numeric one x/net/html maps
// specially) or a NUL byte in an attribute is handed to x/net/html's
// Tokenizer, so the entity table and its rules stay x/net/html's.
//
// A body in a legacy encoding whose markup bytes mean what they mean in
// ASCII (see rawScannable) is scanned as it stands, and only what the
// walker reads (tag names, attribute keys and values, text) is decoded,
// when it has a byte above 0x7F: the Tokenizer reading the decoded stream
// finds the same tokens, since the decoder maps every byte below 0x80 to
// itself and never joins one of the bytes that end a name, key, value or
// text ('\t', '\n', '\f', '\r', ' ', '"', '&', '\”, '/', '<', '=', '>')
// to the bytes before it.
//
// The body is never modified. Memory is the attribute list of the current
// tag, bounded by the tag's size.
type scanner struct {
	b   []byte
	pos int               // the end of the current token (the Tokenizer's raw.end)
	dec *encoding.Decoder // the body's legacy encoding; nil: UTF-8

	start, dataStart, dataEnd int // the current token and its data (text, or tag name)
	tt                        html.TokenType
	done                      bool // EOF reached: every later token is an ErrorToken

	rawTag     string // the raw text element just opened, "" if none
	allowCDATA bool
	textIsRaw  bool
	convertNUL bool

	// Attributes of the current start tag, read on the first TagAttr call.
	attrsRead bool
	attrs     []scanAttr
	nAttr     int // attributes returned by TagAttr
	lower     []byte
	seen      map[string]struct{} // lower-cased keys of a tag with many attributes
}

// scanAttr is an attribute of the current tag: key and value after the
// Tokenizer's conversions (lower-cased key, decoded value).
type scanAttr struct{ key, val []byte }

func newScanner(b []byte) *scanner { return &scanner{b: b} }

// decoded returns b as UTF-8: b itself for a UTF-8 body or when b is
// ASCII, else a decoded copy.
func (s *scanner) decoded(b []byte) []byte {
	if s.dec == nil || !hasHigh(b) {
		return b
	}
	d, err := s.dec.Bytes(b)
	if err != nil {
		// The decoders of rawScannable replace what they cannot
		// decode; an error is not expected, and the bytes are kept.
		return b
	}
	return d
}

func hasHigh(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

func (s *scanner) AllowCDATA(allow bool) { s.allowCDATA = allow }

func (s *scanner) NextIsNotRawText() { s.rawTag = "" }

// Raw returns the bytes of the current token, as written.
func (s *scanner) Raw() []byte { return s.b[s.start:s.pos] }

func isHTMLSpace(c byte) bool { return byteClass[c]&classSpace != 0 }

// Byte classes of tag syntax, looked up in one table load per byte.
const (
	classSpace    = 1 << iota // ' ', '\n', '\r', '\t', '\f'
	classNameEnd              // ends a tag name: space, '/', '>'
	classKeyEnd               // ends an attribute name: space, '/', '>', '='
	classUnquoted             // ends an unquoted value: space, '>'
)

var byteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \n\r\t\f") {
		t[c] = classSpace | classNameEnd | classKeyEnd | classUnquoted
	}
	t['/'] = classNameEnd | classKeyEnd
	t['>'] = classNameEnd | classKeyEnd | classUnquoted
	t['='] = classKeyEnd
	return t
}()

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// Next scans the next token; see html.Tokenizer.Next.
func (s *scanner) Next() html.TokenType {
	s.start = s.pos
	s.dataStart, s.dataEnd = s.pos, s.pos
	s.attrsRead, s.attrs, s.nAttr = false, s.attrs[:0], 0
	if s.done {
		s.tt = html.ErrorToken
		return s.tt
	}
	if s.rawTag != "" {
		if s.rawTag == "plaintext" {
			s.pos = len(s.b)
			s.dataEnd = s.pos
			s.textIsRaw = true
			s.done = true
		} else {
			s.readRawOrRCDATA()
		}
		if s.dataEnd > s.dataStart {
			s.tt = html.TextToken
			s.convertNUL = true
			return s.tt
		}
	}
	s.textIsRaw, s.convertNUL = false, false
	b := s.b
	for {
		i := nextLT(b[s.pos:])
		if i < 0 || s.pos+i+1 >= len(b) {
			s.pos = len(b)
			break
		}
		lt := s.pos + i
		c := b[lt+1]
		switch {
		case isASCIILetter(c), c == '/', c == '!', c == '?':
		default:
			s.pos = lt + 1
			continue
		}
		if s.start < lt {
			// Text comes first; the tag is the next token.
			s.pos = lt
			s.dataEnd = lt
			s.tt = html.TextToken
			return s.tt
		}
		switch {
		case isASCIILetter(c):
			s.tt = s.readStartTag(lt + 1)
			return s.tt
		case c == '/':
			if lt+2 >= len(b) {
				s.pos = len(b)
				s.done = true
				// "</" at the end is text.
				s.dataEnd = s.pos
				s.tt = html.TextToken
				return s.tt
			}
			switch c2 := b[lt+2]; {
			case c2 == '>':
				// "</>" is no token; the Tokenizer reports an empty comment.
				s.pos = lt + 3
				s.tt = html.CommentToken
			case isASCIILetter(c2):
				end, ok := s.readTag(lt+2, nil, nil)
				if !ok {
					s.fail()
					return s.tt
				}
				s.pos = end
				s.tt = html.EndTagToken
			default:
				s.pos = s.untilCloseAngle(lt + 2)
				s.tt = html.CommentToken
			}
			return s.tt
		case c == '!':
			s.tt = s.readMarkupDeclaration(lt + 2)
			return s.tt
		default: // '?'
			s.pos = s.untilCloseAngle(lt + 1)
			s.tt = html.CommentToken
			return s.tt
		}
	}
	s.done = true
	if s.start < s.pos {
		s.dataEnd = s.pos
		s.tt = html.TextToken
		return s.tt
	}
	s.tt = html.ErrorToken
	return s.tt
}

// nextLT returns the index of the first '<' in b, -1 if none. In dense
// markup almost half the tags follow the previous one at once, found
// without a call.
func nextLT(b []byte) int {
	if len(b) > 0 && b[0] == '<' {
		return 0
	}
	return bytes.IndexByte(b, '<')
}

func (s *scanner) fail() {
	s.pos = len(s.b)
	s.done = true
	s.tt = html.ErrorToken
}

// untilCloseAngle returns the position after the first '>' from i, or the
// end of the body (the Tokenizer's readUntilCloseAngle).
func (s *scanner) untilCloseAngle(i int) int {
	if j := bytes.IndexByte(s.b[i:], '>'); j >= 0 {
		return i + j + 1
	}
	s.done = true
	return len(s.b)
}

// readMarkupDeclaration reads "<!--comment-->", "<!DOCTYPE ...>",
// "<![CDATA[...]]>" (where allowed) or a bogus comment; i is after "<!".
func (s *scanner) readMarkupDeclaration(i int) html.TokenType {
	b := s.b
	if i+2 > len(b) {
		s.pos = len(b)
		s.done = true
		return html.CommentToken
	}
	if b[i] == '-' && b[i+1] == '-' {
		s.pos = s.commentEnd(i + 2)
		return html.CommentToken
	}
	if s.allowCDATA && bytes.HasPrefix(b[i:], []byte("[CDATA[")) {
		ds := i + len("[CDATA[")
		j := bytes.Index(b[ds:], []byte("]]>"))
		if j < 0 {
			s.dataStart, s.dataEnd, s.pos, s.done = ds, len(b), len(b), true
		} else {
			s.dataStart, s.dataEnd, s.pos = ds, ds+j, ds+j+3
		}
		s.convertNUL = true
		return html.TextToken
	}
	// A doctype or a bogus comment: both end at the first '>'.
	s.pos = s.untilCloseAngle(i)
	if i+7 <= len(b) && equalFoldASCII(b[i:i+7], "doctype") {
		return html.DoctypeToken
	}
	return html.CommentToken
}

// commentEnd returns the end of a comment whose data starts at ds: after
// the first '>' that follows "--" or "--!" within the data, or that
// follows nothing but dashes ("<!-->", "<!--->"); the end of the body if
// there is none (the Tokenizer's readComment).
func (s *scanner) commentEnd(ds int) int {
	b := s.b
	// The data's leading dashes, counted once: a '>' right after them
	// ends the comment ("<!-->", "<!--->").
	dashes := ds
	for dashes < len(b) && b[dashes] == '-' {
		dashes++
	}
	for i := ds; ; {
		j := bytes.IndexByte(b[i:], '>')
		if j < 0 {
			s.done = true
			return len(b)
		}
		p := i + j
		if p-2 >= ds && b[p-2] == '-' && b[p-1] == '-' ||
			p-3 >= ds && b[p-3] == '-' && b[p-2] == '-' && b[p-1] == '!' ||
			p == dashes {
			return p + 1
		}
		i = p + 1
	}
}

// rawTextNames are the elements whose content the Tokenizer reads as raw
// text or RCDATA.
var rawTextNames = [...]string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

// readStartTag reads a start tag whose name starts at i.
func (s *scanner) readStartTag(i int) html.TokenType {
	var last lastAttr
	end, ok := s.readTag(i, nil, &last)
	if !ok {
		s.fail()
		return s.tt
	}
	s.pos = end
	name := s.b[s.dataStart:s.dataEnd]
	if n := len(name); n >= 3 && n <= 9 {
		for _, r := range rawTextNames {
			if len(r) == n && equalFoldASCII(name, r) {
				s.rawTag = r
				break
			}
		}
	}
	// Self-closing unless the '/' before '>' ends the unquoted value of
	// the last attribute the Tokenizer keeps (<a href=/>).
	if s.b[end-2] == '/' && !(last.unquotedEnd == end-1 && last.keyEnd > last.keyStart && s.keptLast(i, last)) {
		return html.SelfClosingTagToken
	}
	return html.StartTagToken
}

// equalFoldBytes compares a and b ignoring ASCII case only, as the
// Tokenizer lower-cases names.
func equalFoldBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// equalFoldASCII reports whether b equals lower (lower-case ASCII, as
// long as b) but for the ASCII case of b.
func equalFoldASCII[T ~string | ~[]byte](b T, lower string) bool {
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// lastAttr is what readTag tells about the last attribute of a tag, for
// the self-closing test.
type lastAttr struct {
	keyStart, keyEnd int
	unquotedEnd      int // end of an unquoted value, -1 if quoted or none
}

// keptLast reports whether the Tokenizer keeps the tag's last attribute:
// it drops an attribute whose name came before (case-insensitively).
func (s *scanner) keptLast(i int, last lastAttr) bool {
	key := s.b[last.keyStart:last.keyEnd]
	dup := false
	s.readTag(i, func(ks, ke, _, _ int, _ byte) {
		if ks < last.keyStart && equalFoldBytes(s.b[ks:ke], key) {
			dup = true
		}
	}, nil)
	return !dup
}

// skipSpace returns the position of the first byte from j on that is not
// HTML white space, len(b) if none.
func skipSpace(b []byte, j int) int {
	for j < len(b) && isHTMLSpace(b[j]) {
		j++
	}
	return j
}

// readTag reads a tag whose name starts at i (the Tokenizer's readTag,
// readTagName, readTagAttrKey and readTagAttrVal), sets the tag name span
// and returns the position after its '>'; false if the body ends first.
// With attr set, it is called for every attribute with a non-empty key
// (key span, value span, and the quote: '"', '\” or 0). With last set,
// it records the last attribute.
func (s *scanner) readTag(i int, each func(ks, ke, vs, ve int, quote byte), last *lastAttr) (int, bool) {
	b := s.b
	n := len(b)
	j := i + 1
	for j < n && byteClass[b[j]]&classNameEnd == 0 {
		j++
	}
	if j >= n {
		return 0, false
	}
	s.dataStart, s.dataEnd = i, j
	if isHTMLSpace(b[j]) {
		j++
	}
	for {
		if j = skipSpace(b, j); j >= n {
			return 0, false
		}
		if b[j] == '>' {
			return j + 1, true
		}
		// Key: up to space, '/', '>' or '=' (a leading '=' belongs to it).
		ks := j
		j++
		for j < n && byteClass[b[j]]&classKeyEnd == 0 {
			j++
		}
		if j >= n {
			return 0, false
		}
		ke := j
		if b[ks] == '/' {
			// A '/' is no key: the Tokenizer reads an empty key and
			// consumes the '/' as the value's start.
			ke = ks
			j = ks
		}
		// Value.
		vs, ve := j, j
		var quote byte
		unquotedEnd := -1
		if j = skipSpace(b, j); j >= n {
			return 0, false
		}
		switch c := b[j]; c {
		case '/':
			j++
		case '=':
			j++
			if j = skipSpace(b, j); j >= n {
				return 0, false
			}
			switch q := b[j]; q {
			case '>':
			case '"', '\'':
				k := bytes.IndexByte(b[j+1:], q)
				if k < 0 {
					return 0, false
				}
				vs, ve, quote = j+1, j+1+k, q
				j = ve + 1
			default:
				vs = j
				for j < n && byteClass[b[j]]&classUnquoted == 0 {
					j++
				}
				if j >= n {
					return 0, false
				}
				ve, unquotedEnd = j, j
				if b[j] != '>' {
					j++
				}
			}
		}
		if ke > ks {
			if each != nil {
				each(ks, ke, vs, ve, quote)
			}
			if last != nil {
				*last = lastAttr{keyStart: ks, keyEnd: ke, unquotedEnd: unquotedEnd}
			}
		} else if last != nil {
			*last = lastAttr{unquotedEnd: -1}
		}
	}
}
