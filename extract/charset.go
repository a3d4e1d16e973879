package extract

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// prescanLen is how much of a document is searched for <meta charset>,
// the bound the HTML standard sets for its prescan ("determining the
// character encoding", step 7).
const prescanLen = 1024

// document is a body with the encoding it is decoded with.
type document struct {
	body []byte
	enc  encoding.Encoding // nil: body is valid UTF-8 and is used as is
	name string
}

// decode picks the encoding of body the way the HTML standard's
// "determining the character encoding" does, in order: a byte order mark,
// the Content-Type charset parameter, a <meta charset> or <meta
// http-equiv="Content-Type"> within the first 1024 bytes. Without any of
// them the body is UTF-8 if it is valid UTF-8 (checked on the whole body,
// not just the first 1024 bytes as charset.DetermineEncoding does, so a
// long ASCII head does not turn a UTF-8 page into windows-1252), and
// windows-1252 otherwise, the standard's fallback for unlabelled pages.
func decode(body []byte, headerCharset string) document {
	for _, b := range boms {
		if bytes.HasPrefix(body, b.bom) {
			return newDocument(body[len(b.bom):], b.name)
		}
	}
	if headerCharset != "" {
		if _, name := charset.Lookup(strings.Trim(strings.TrimSpace(headerCharset), `"'`)); name != "" {
			return newDocument(body, name)
		}
	}
	if name := metaCharset(body[:min(len(body), prescanLen)]); name != "" {
		return newDocument(body, name)
	}
	if utf8.Valid(body) {
		return document{body: body, name: "utf-8"}
	}
	return newDocument(body, "windows-1252")
}

var boms = []struct {
	bom  []byte
	name string
}{
	{[]byte{0xEF, 0xBB, 0xBF}, "utf-8"},
	{[]byte{0xFE, 0xFF}, "utf-16be"},
	{[]byte{0xFF, 0xFE}, "utf-16le"},
}

func newDocument(body []byte, name string) document {
	if name == "utf-8" {
		if utf8.Valid(body) {
			return document{body: body, name: name}
		}
		// Invalid sequences become U+FFFD, as a browser decodes them.
		return document{body: body, enc: unicode.UTF8, name: name}
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return document{body: body, name: "utf-8"}
	}
	if enc == encoding.Replacement {
		// ISO-2022-KR and the like decode to a single U+FFFD: no links.
		return document{body: nil, name: name}
	}
	return document{body: body, enc: enc, name: name}
}

// reader returns the document as UTF-8, decoded while it is read, so a
// legacy-encoded page is never held twice in memory.
func (d document) reader() io.Reader {
	r := io.Reader(bytes.NewReader(d.body))
	if d.enc != nil {
		r = transform.NewReader(r, d.enc.NewDecoder())
	}
	return r
}

// tokens returns the document's token stream: the scanner when the body
// is UTF-8 as it stands, else x/net/html's Tokenizer reading the body
// through its decoder, so a legacy-encoded page is never held twice.
func (d document) tokens() tokenSource {
	if d.enc == nil {
		return newScanner(d.body)
	}
	if rawScannable(d.enc) {
		s := newScanner(d.body)
		s.dec = d.enc.NewDecoder()
		return s
	}
	return html.NewTokenizer(d.reader())
}

// rawScannable reports whether a body in enc can be scanned as it stands
// (see scanner): UTF-8 with invalid sequences, whose decoder replaces them
// without taking a byte below 0x80; the single-byte encodings whose bytes
// below 0x80 are ASCII (all the HTML standard's); and EUC-KR, whose
// decoder takes a byte below 0x80 as the second of a pair only when it is
// a letter, and otherwise leaves it to stand alone. The other multi-byte
// encodings are read by the Tokenizer through their decoder.
func rawScannable(enc encoding.Encoding) bool {
	switch enc {
	case unicode.UTF8, korean.EUCKR:
		return true
	}
	cm, ok := enc.(*charmap.Charmap)
	if !ok {
		return false
	}
	for b := range utf8.RuneSelf {
		if cm.DecodeByte(byte(b)) != rune(b) {
			return false
		}
	}
	return true
}

// queryEncoder returns how query strings are encoded for this document:
// nil for UTF-8, and for UTF-16 documents too (the standard's "output
// encoding" for URLs of a UTF-16 document is UTF-8).
func (d document) queryEncoder() *queryEncoder {
	if d.enc == nil || d.name == "utf-8" || strings.HasPrefix(d.name, "utf-16") {
		return nil
	}
	return &queryEncoder{enc: d.enc}
}

// metaCharset is the HTML standard's prescan for a character encoding
// declaration: the first <meta charset=X> or <meta http-equiv=content-type
// content="...charset=X"> naming a known encoding. A declared UTF-16 means
// UTF-8 (the page could not have been read as ASCII otherwise) and
// x-user-defined means windows-1252.
func metaCharset(prefix []byte) string {
	// The scanner gives the Tokenizer's tokens on bytes in memory, in
	// whatever encoding: the prescan reads ASCII markup only.
	return metaCharsetIn(newScanner(prefix))
}

func metaCharsetIn(z tokenSource) string {
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			if string(name) != "meta" {
				continue
			}
			var cs, content string
			var pragma, gotCharset, gotContent bool
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				switch string(k) {
				case "http-equiv":
					pragma = pragma || strings.EqualFold(string(v), "content-type")
				case "charset":
					if !gotCharset {
						cs, gotCharset = string(v), true
					}
				case "content":
					if !gotContent {
						content, gotContent = string(v), true
					}
				}
			}
			label := cs
			if !gotCharset {
				if !pragma || !gotContent {
					continue
				}
				label = charsetFromContent(content)
			}
			if _, n := charset.Lookup(strings.TrimSpace(label)); n != "" {
				switch {
				case strings.HasPrefix(n, "utf-16"):
					return "utf-8"
				case n == "x-user-defined":
					return "windows-1252"
				}
				return n
			}
		}
	}
}

// charsetFromContent extracts the charset from a meta content value
// ("text/html; charset=iso-8859-1"), the standard's "algorithm for
// extracting a character encoding from a meta element".
func charsetFromContent(s string) string {
	for {
		// ASCII case only, on s itself: strings.ToLower would turn an
		// invalid byte into three, and an index in it would not be one
		// in s.
		i := indexFoldASCII(s, "charset")
		if i < 0 {
			return ""
		}
		s = strings.TrimLeft(s[i+len("charset"):], " \t\n\f\r")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\n\f\r")
		if s == "" {
			return ""
		}
		if q := s[0]; q == '"' || q == '\'' {
			if j := strings.IndexByte(s[1:], q); j >= 0 {
				return s[1 : 1+j]
			}
			return ""
		}
		if j := strings.IndexAny(s, " \t\n\f\r;"); j >= 0 {
			return s[:j]
		}
		return s
	}
}

// indexFoldASCII returns the index of the first instance of lower (lower
// case ASCII) in s, ignoring ASCII case, or -1.
func indexFoldASCII(s, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		if equalFoldASCII(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}

// queryEncoder encodes the query of a reference in a legacy document
// encoding. The URL standard parses a link's href with the document's
// encoding: the path is always UTF-8, but the query of an http(s) URL is
// encoded in the document's encoding before it is percent-encoded, so on a
// Latin-1 page href="?q=é" means q=%E9, not q=%C3%A9.
type queryEncoder struct {
	enc encoding.Encoding
}

// encodeQuery rewrites the non-ASCII characters of ref's query (from the
// first '?' up to a '#') as percent-encoded bytes of the document's
// encoding, so the UTF-8 resolver that follows leaves them as they are.
// A character the encoding cannot represent becomes "%26%23N%3B" (the
// escaped "&#N;" the standard specifies).
func (q *queryEncoder) encodeQuery(ref string) string {
	qs := strings.IndexByte(ref, '?')
	if qs < 0 {
		return ref
	}
	qe := len(ref)
	if h := strings.IndexByte(ref, '#'); h >= 0 {
		if h < qs {
			return ref
		}
		qe = h
	}
	query := ref[qs+1 : qe]
	ascii := true
	for i := 0; i < len(query); i++ {
		if query[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return ref
	}
	var sb strings.Builder
	sb.Grow(len(ref) + 2*len(query))
	sb.WriteString(ref[:qs+1])
	enc := q.enc.NewEncoder()
	// Runs of non-ASCII characters are encoded together so a stateful
	// encoding (ISO-2022-JP) switches modes once per run, as it would for
	// the whole query.
	for i := 0; i < len(query); {
		if query[i] < utf8.RuneSelf {
			sb.WriteByte(query[i])
			i++
			continue
		}
		j := i
		for j < len(query) && query[j] >= utf8.RuneSelf {
			j++
		}
		run := query[i:j]
		i = j
		if out, err := enc.Bytes([]byte(run)); err == nil {
			writeQueryBytes(&sb, out)
			continue
		}
		for _, r := range run {
			enc.Reset()
			out, err := enc.Bytes([]byte(string(r)))
			if err != nil || len(out) == 0 {
				sb.WriteString("%26%23")
				sb.WriteString(strconv.Itoa(int(r)))
				sb.WriteString("%3B")
				continue
			}
			writeQueryBytes(&sb, out)
		}
		enc.Reset()
	}
	sb.WriteString(ref[qe:])
	return sb.String()
}

// writeQueryBytes percent-encodes encoded query bytes with the URL
// standard's special-query percent-encode set; the ASCII bytes a legacy
// encoding may produce (Shift_JIS trail bytes) are left to the normalizer.
func writeQueryBytes(sb *strings.Builder, out []byte) {
	for _, b := range out {
		if b >= 0x80 || b <= ' ' || b == '"' || b == '#' || b == '<' || b == '>' || b == '\'' {
			sb.WriteByte('%')
			sb.WriteByte(upperHex[b>>4])
			sb.WriteByte(upperHex[b&15])
		} else {
			sb.WriteByte(b)
		}
	}
}

const upperHex = "0123456789ABCDEF"
