package extract

import (
	"bytes"

	"golang.org/x/net/html"
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
// same way, and reads a tag's attributes only when TagAttr is called.
//
// Attribute values are aliases of the body unless they need decoding.
// Values with the common character references ("&amp;", and a bare '&'
// that no reference can start) are decoded here; a tag with any other
// reference, a CR or a NUL byte in an attribute is handed to x/net/html's
// Tokenizer, so the entity table and its rules stay x/net/html's.
//
// The body is never modified. Memory is the attribute list of the current
// tag, bounded by the tag's size.
type scanner struct {
	b   []byte
	pos int // the end of the current token (the Tokenizer's raw.end)

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
		i := bytes.IndexByte(b[s.pos:], '<')
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

func equalFoldASCII(b []byte, lower string) bool {
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
		for j < n && isHTMLSpace(b[j]) {
			j++
		}
		if j >= n {
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
		for j < n && isHTMLSpace(b[j]) {
			j++
		}
		if j >= n {
			return 0, false
		}
		switch c := b[j]; c {
		case '/':
			j++
		case '=':
			j++
			for j < n && isHTMLSpace(b[j]) {
				j++
			}
			if j >= n {
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

// readRawOrRCDATA reads the content of the raw text element s.rawTag, up
// to its end tag or the end of the body.
func (s *scanner) readRawOrRCDATA() {
	if s.rawTag == "script" {
		s.readScript()
		s.textIsRaw = true
		s.rawTag = ""
		return
	}
	b := s.b
	i := s.pos
	for {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			i = len(b)
			s.done = true
			break
		}
		i += j + 1
		if i < len(b) && b[i] == '/' {
			if end, ok := s.rawEndTag(i + 1); ok {
				i = end
				break
			} else if end < 0 {
				i = len(b)
				s.done = true
				break
			}
		}
	}
	s.pos, s.dataEnd = i, i
	s.textIsRaw = s.rawTag != "textarea" && s.rawTag != "title"
	s.rawTag = ""
}

// rawEndTag matches the end tag of s.rawTag at i (after "</"): it returns
// the position of its '<' and true, or false and 0, or -1 when the body
// ends while matching (the Tokenizer's readRawEndTag, which then stops).
func (s *scanner) rawEndTag(i int) (int, bool) {
	b, t := s.b, s.rawTag
	for k := 0; k < len(t); k++ {
		if i+k >= len(b) {
			return -1, false
		}
		if c := b[i+k]; c != t[k] && c != t[k]-('a'-'A') {
			return 0, false
		}
	}
	e := i + len(t)
	if e >= len(b) {
		return -1, false
	}
	switch b[e] {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return i - 2, true
	}
	return 0, false
}

// readScript reads script data up to its end tag, through the escape
// states of the HTML standard ("<!--", "<script>" inside it), as the
// Tokenizer's readScript does.
func (s *scanner) readScript() {
	b := s.b
	n := len(b)
	i := s.pos
	s.rawTag = "script"
	defer func() { s.pos, s.dataEnd = i, i }()
	// endTag tries "</script" + terminator at i (after "</").
	endTag := func() (stop bool) {
		e, ok := s.rawEndTag(i)
		if ok {
			i = e
			return true
		}
		if e < 0 {
			i, s.done = n, true
			return true
		}
		return false
	}
	// read returns the next byte, or false at the end of the body.
	read := func() (byte, bool) {
		if i >= n {
			s.done = true
			return 0, false
		}
		i++
		return b[i-1], true
	}
	var c byte
	var ok bool

scriptData:
	if j := bytes.IndexByte(b[i:], '<'); j < 0 {
		i, s.done = n, true
		return
	} else {
		i += j + 1
	}
	// scriptDataLessThanSign
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '/':
		if endTag() {
			return
		}
		goto scriptData
	case '!':
		if c, ok = read(); !ok {
			return
		}
		if c != '-' {
			i--
			goto scriptData
		}
		if c, ok = read(); !ok {
			return
		}
		if c != '-' {
			i--
			goto scriptData
		}
		goto scriptDataEscapedDashDash
	}
	i--
	goto scriptData

scriptDataEscaped:
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDash:
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDashDash:
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataEscaped

scriptDataEscapedLessThanSign:
	if c, ok = read(); !ok {
		return
	}
	if c == '/' {
		if endTag() {
			return
		}
		goto scriptDataEscaped
	}
	if isASCIILetter(c) {
		i--
		for k := 0; k < len("script"); k++ {
			if c, ok = read(); !ok {
				return
			}
			if c != "script"[k] && c != "SCRIPT"[k] {
				i--
				goto scriptDataEscaped
			}
		}
		if c, ok = read(); !ok {
			return
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			goto scriptDataDoubleEscaped
		}
		i--
		goto scriptDataEscaped
	}
	i--
	goto scriptData

scriptDataDoubleEscaped:
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDash:
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDashDash:
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedLessThanSign:
	if c, ok = read(); !ok {
		return
	}
	if c != '/' {
		i--
		goto scriptDataDoubleEscaped
	}
	// scriptDataDoubleEscapeEnd
	if e, ok := s.rawEndTag(i); ok {
		i = e + len("</script>")
		goto scriptDataEscaped
	} else if e < 0 {
		i, s.done = n, true
		return
	}
	goto scriptDataDoubleEscaped
}

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
