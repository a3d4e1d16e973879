package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse reads one sitemap file from r, fetched from the absolute URL base,
// and calls fn with each valid in-scope URL of a urlset or text sitemap, in
// document order. An index's children go to Result.Sitemaps instead. See
// the package documentation for what is read, bounded and dropped.
//
// A bound being reached is not an error: Parse returns the Result with Cut
// set. Errors wrap ErrNotSitemap, ErrSyntax, ErrCharset or ErrBase, the
// context's error, or fn's error, which stops parsing; in every case the
// Result describes what was read before it.
func Parse(ctx context.Context, r io.Reader, base string, o Options, fn func(Entry) error) (Result, error) {
	var res Result
	lim, err := o.Limits.withDefaults()
	if err != nil {
		return res, err
	}
	bu, ok := parseHTTP(base)
	if !ok {
		return res, fmt.Errorf("%w: %q", ErrBase, base)
	}
	sc, err := newScope(bu, o.Scope)
	if err != nil {
		return res, err
	}
	in, err := newInput(r, lim)
	if err != nil {
		return res, fmt.Errorf("sitemap: parse %s: %w", base, err)
	}
	p := &parser{ctx: ctx, lim: lim, scope: sc, fn: fn, res: &res}
	switch sniff(in.br) {
	case docXML:
		err = p.parseXML(in.br)
	case docText:
		err = p.parseText(in.br)
	default:
		err = fmt.Errorf("%w: binary content", ErrNotSitemap)
	}
	in.fill(&res)
	if in.cut != "" {
		res.Cut = in.cut
		// A bound stopped the reader; whatever error that caused further
		// up (a decoder error, a truncated gzip stream) is the cut itself,
		// but the callback's or the context's error still stops the caller.
		err = p.stop
	}
	if err != nil {
		return res, fmt.Errorf("sitemap: parse %s: %w", base, err)
	}
	return res, nil
}

type parser struct {
	ctx   context.Context
	lim   Limits
	scope scope
	fn    func(Entry) error
	res   *Result
	seen  int   // entries read, valid or not
	stop  error // the callback's or the context's error, if any
}

// What a body looks like.
const (
	docText = iota
	docXML
	docBinary
)

// sniff tells XML (the first character after a byte-order mark and white
// space is '<') from text, and both from binary data: control characters
// other than white space in the first 512 bytes, which neither a URL list
// nor XML holds.
func sniff(br *bufio.Reader) int {
	b, _ := br.Peek(512)
	for _, c := range b {
		if c < ' ' && c != '\t' && c != '\r' && c != '\n' || c == 0x7f {
			return docBinary
		}
	}
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(b) > 0 && b[0] == '<' {
		return docXML
	}
	return docText
}

func (p *parser) problem(loc, reason string) {
	p.res.ProblemCount++
	if len(p.res.Problems) < p.lim.MaxProblems {
		if len(loc) > 256 {
			loc = strings.ToValidUTF8(loc[:256], "")
		}
		p.res.Problems = append(p.res.Problems, Problem{URL: loc, Reason: reason})
	}
}

// next counts one more entry and reports whether the file may hold it.
func (p *parser) next() bool {
	if p.seen >= p.lim.MaxURLs {
		p.res.Cut = fmt.Sprintf("urls: more than %d entries", p.lim.MaxURLs)
		return false
	}
	p.seen++
	return true
}

// checkURL validates an entry's location; it reports the problem and
// returns false for one to drop.
func (p *parser) checkURL(loc string, child bool) bool {
	switch {
	case loc == "":
		p.problem(loc, "empty location")
		return false
	case len(loc) > p.lim.MaxURLLen:
		p.problem(loc, fmt.Sprintf("longer than %d bytes", p.lim.MaxURLLen))
		return false
	case !utf8.ValidString(loc):
		p.problem(loc, "not UTF-8")
		return false
	}
	u, ok := parseHTTP(loc)
	switch {
	case !ok:
		p.problem(loc, "not an absolute http(s) URL")
		return false
	case child && !p.scope.allowsSitemap(u):
		p.problem(loc, "child sitemap on another host than the index")
		return false
	case !child && !p.scope.allows(u):
		p.problem(loc, "outside the sitemap's scope (its directory, or its robots.txt host)")
		return false
	}
	return true
}

// deliver validates and hands on one entry.
func (p *parser) deliver(e Entry, child bool) error {
	if !p.checkURL(e.URL, child) {
		p.res.Dropped++
		return nil
	}
	if child {
		p.res.Sitemaps = append(p.res.Sitemaps, e)
		return nil
	}
	if err := p.ctx.Err(); err != nil {
		p.stop = err
		return err
	}
	p.res.URLs++
	if p.fn != nil {
		if err := p.fn(e); err != nil {
			p.stop = err
			return err
		}
	}
	return nil
}

func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrCharset, label)
}

// field is the entry child element being read.
type field uint8

const (
	fNone field = iota
	fLoc
	fLastMod
	fChangeFreq
	fPriority
	fOther
)

func fieldOf(local string) field {
	switch local {
	case "loc":
		return fLoc
	case "lastmod":
		return fLastMod
	case "changefreq":
		return fChangeFreq
	case "priority":
		return fPriority
	}
	return fOther
}

// maxField bounds the text kept of one field; longer text is an invalid
// value whatever it holds.
func (p *parser) maxField() int { return p.lim.MaxURLLen + 64 }

func (p *parser) parseXML(r io.Reader) error {
	d := xml.NewDecoder(r)
	// Lenient like the major crawlers: real sitemaps carry raw '&' in
	// URLs and HTML entities. The byte bound still caps the work.
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = charsetReader
	// RawToken, not Token: no namespace translation and no allocation of
	// a name stack, three times faster. Elements are told apart by prefix:
	// the entries of a sitemap share the root's (usually none), while the
	// image:, video:, news: and xhtml: extensions have their own and are
	// skipped. The depth count below replaces Token's tag matching.
	var (
		depth   int
		ns      string // the root's prefix; entry elements must share it
		inEntry bool
		cur     Entry
		fld     field
		text    []byte
		over    bool // the field's text exceeded maxField
		entry   = "url"
		closed  bool // the root element ended
	)
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			if p.res.Kind == KindUnknown {
				return fmt.Errorf("%w: no root element", ErrNotSitemap)
			}
			if !closed {
				return fmt.Errorf("%w: document ends inside <%s>", ErrSyntax, kindRoot(p.res.Kind))
			}
			return nil
		}
		if err != nil {
			if errors.Is(err, ErrCharset) {
				return err
			}
			return fmt.Errorf("%w: %w", ErrSyntax, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 1:
				ns = t.Name.Space
				switch {
				case t.Name.Local == "urlset":
					p.res.Kind = KindURLSet
				case t.Name.Local == "sitemapindex":
					p.res.Kind, entry = KindIndex, "sitemap"
				default:
					return fmt.Errorf("%w: root element <%s>", ErrNotSitemap, t.Name.Local)
				}
			case depth == 2 && t.Name.Space == ns && t.Name.Local == entry:
				if !p.next() {
					return nil
				}
				inEntry, cur = true, Entry{Priority: -1}
			case depth == 3 && inEntry && t.Name.Space == ns:
				fld, text, over = fieldOf(t.Name.Local), text[:0], false
			}
		case xml.CharData:
			if fld != fNone && fld != fOther && !over {
				if room := p.maxField() - len(text); len(t) > room {
					text, over = append(text, t[:room]...), true
				} else {
					text = append(text, t...)
				}
			}
		case xml.EndElement:
			switch {
			case depth == 3 && fld != fNone:
				p.setField(&cur, fld, text, over)
				fld = fNone
			case depth == 2 && inEntry:
				inEntry = false
				if err := p.deliver(cur, p.res.Kind == KindIndex); err != nil {
					return err
				}
			case depth == 1:
				closed = true
			}
			depth--
		}
	}
}

func kindRoot(k Kind) string {
	if k == KindIndex {
		return "sitemapindex"
	}
	return "urlset"
}

func (p *parser) setField(e *Entry, f field, text []byte, over bool) {
	v := string(bytes.TrimSpace(text))
	switch f {
	case fLoc:
		// An over-long location keeps maxField bytes, enough for
		// checkURL to report it as too long.
		e.URL = v
	case fLastMod:
		t, ok := ParseLastMod(v)
		if !ok || over {
			p.problem(e.URL, fmt.Sprintf("lastmod %.40q is not a W3C datetime", v))
			return
		}
		e.LastMod = t
	case fChangeFreq:
		v = strings.ToLower(v)
		switch v {
		case "always", "hourly", "daily", "weekly", "monthly", "yearly", "never":
			e.ChangeFreq = v
		default:
			p.problem(e.URL, fmt.Sprintf("changefreq %.40q is not one of the protocol's values", v))
		}
	case fPriority:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f >= 0 && f <= 1) {
			p.problem(e.URL, fmt.Sprintf("priority %.40q is not a number from 0 to 1", v))
			return
		}
		e.Priority = f
	}
}

// parseText reads a text sitemap: one URL per line, blank lines skipped
// (sitemaps.org, "Text file").
func (p *parser) parseText(br *bufio.Reader) error {
	first := true
	for {
		line, err := br.ReadSlice('\n')
		long := false
		for err == bufio.ErrBufferFull {
			// A line longer than the buffer is no URL: skip the rest.
			long = true
			_, err = br.ReadSlice('\n')
		}
		if first {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			first = false
		}
		if err != nil && err != io.EOF {
			// The line was cut by a bound or a read error: it is not
			// whole, and a prefix of a URL is another URL.
			line = nil
		}
		if s := bytes.TrimSpace(line); len(s) > 0 {
			p.res.Kind = KindText
			if !p.next() {
				return nil
			}
			loc := string(s)
			if long {
				p.problem(loc, fmt.Sprintf("longer than %d bytes", p.lim.MaxURLLen))
				p.res.Dropped++
			} else if err := p.deliver(Entry{URL: loc, Priority: -1}, false); err != nil {
				return err
			}
		}
		switch {
		case err == io.EOF:
			if p.res.URLs == 0 && p.res.Dropped == 0 {
				return fmt.Errorf("%w: empty", ErrNotSitemap)
			}
			return nil
		case err != nil:
			return fmt.Errorf("read: %w", err)
		}
	}
}
