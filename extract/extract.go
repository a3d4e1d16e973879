package extract

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/cascadia"

	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Kind says which element and attribute a link came from.
type Kind uint8

// Link kinds. The zero Kind is not used by Links.
const (
	KindA Kind = iota + 1
	KindArea
	KindFrame
	KindIframe
	KindCanonical
	KindAlternate
	KindNext
	KindPrev
)

var kindNames = [...]string{"", "a", "area", "frame", "iframe", "canonical", "alternate", "next", "prev"}

// String returns the kind's stable name ("a", "area", "frame", "iframe",
// "canonical", "alternate", "next", "prev"), as stored with a link.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Link is one link of a page. (Its one-byte fields come last, so a Link
// takes 64 bytes rather than 72: a page's links are most of what
// extraction allocates.)
type Link struct {
	// Raw is the href or src attribute as written in the page (entities
	// decoded, in UTF-8 whatever the page's encoding).
	Raw string
	// URL is Raw resolved against the page's base and normalized with
	// urlnorm; "" when that failed, see Reject.
	URL string
	// Reject names why URL is empty (urlnorm.ReasonBadURL, ReasonBadScheme,
	// ReasonBadHost, or ReasonTooLong for an href over Options.MaxHref,
	// whose Raw is then only its first 256 bytes); "" when URL is set.
	Reject string
	// Kind is the element (and rel) the link came from.
	Kind Kind
	// NoFollow is set when the element's rel attribute contains "nofollow".
	NoFollow bool
	// Kept reports that Options.Keep accepted URL (always, when Keep is
	// nil), so a crawler whose Keep is its scope test need not test the
	// link again; false when URL is "".
	Kept bool
	// Note is where an Extractor's memo of resolved links (see New) keeps
	// its user's facts about URL, nil when the memo does not remember
	// the link: a navigation link found again on a later page brings the
	// same Note, so a crawler can note its verdicts on the URL (and its
	// id) once rather than look them up by the string on every page. It
	// is shared by the goroutines extracting with the Extractor.
	Note *urlnorm.Note
}

// Robots holds the robots directives of a page (meta robots or an
// X-Robots-Tag header).
type Robots struct {
	// NoFollow: the page's links must not be followed.
	NoFollow bool
	// NoIndex: the page must not be indexed.
	NoIndex bool
}

// Page is what Links or Extractor.Extract found in a page.
type Page struct {
	// Links are the page's links in document order: every occurrence for
	// Links, each distinct URL once for Extractor.Extract. Links beyond the
	// caps (see Options) are not included.
	Links []Link
	// Base is the URL links were resolved against: the page URL, or the
	// first <base href> resolved against it.
	Base string
	// Canonical is the normalized URL of the first valid
	// <link rel="canonical">, "" if none. It is found even when the link
	// itself is beyond a cap or outside Options.LinkSelector.
	Canonical string
	// Title is the text of the first <title>, whitespace collapsed.
	Title string
	// Robots are the directives of the page's meta robots elements, merged.
	Robots Robots
	// Charset is the name of the encoding the page was decoded with
	// ("utf-8", "windows-1252", "shift_jis", ...).
	Charset string
	// Dropped counts the distinct links left out because a cap
	// (Options.MaxLinks, Options.MaxOther) was reached. Past 65,536
	// distinct dropped links (only hostile pages have so many), further
	// ones are counted per occurrence.
	Dropped int
	// NoFollowSkipped counts the rel=nofollow link occurrences left out
	// because Options.SkipNoFollow is set.
	NoFollowSkipped int
}

// Defaults of the caps in Options.
const (
	// DefaultMaxLinks is the default of Options.MaxLinks. Long real pages
	// (changelogs, indexes of documentation sites) have a few thousand
	// links; this keeps all of them.
	DefaultMaxLinks = 10_000
	// DefaultMaxOther is the default of Options.MaxOther.
	DefaultMaxOther = 10_000
	// DefaultMaxHref is the default of Options.MaxHref: four times the
	// longest URL the crawler's trap guard accepts by default.
	DefaultMaxHref = 8 << 10
)

// Options tunes extraction. The zero Options is ready to use.
type Options struct {
	// Token is the crawler's robots product token: <meta name="TOKEN">
	// is honoured like <meta name="robots">. "" means version.Token.
	Token string
	// Keep says which normalized URLs count against MaxLinks (for a
	// crawler: the links it would follow, e.g. those in scope). Links it
	// rejects are still returned, counted against MaxOther. nil keeps
	// every URL. Keep is called once per distinct URL, during Extract,
	// from the calling goroutine, with the link's Note (Link.Note, nil
	// when it has none).
	Keep func(url string, note *urlnorm.Note) bool
	// MaxLinks caps the distinct URLs Keep accepts; beyond it they are
	// counted in Page.Dropped. 0 means DefaultMaxLinks.
	MaxLinks int
	// MaxOther caps the distinct links Keep rejects plus the distinct
	// links that cannot be normalized (Link.Reject set); beyond it they are
	// counted in Page.Dropped. It bounds the memory a page of junk links
	// costs. 0 means DefaultMaxOther.
	MaxOther int
	// MaxHref is the longest href (or src) resolved, in bytes; a longer
	// one is rejected with urlnorm.ReasonTooLong, so a hostile multi-MB
	// attribute costs neither the URL parser's time nor a copy. 0 means
	// DefaultMaxHref.
	MaxHref int
	// SkipNoFollow leaves out links whose rel contains "nofollow" (counted
	// in Page.NoFollowSkipped), so they take no room under the caps.
	SkipNoFollow bool
	// LinkSelector, a CSS selector, restricts the links returned to those
	// inside (or on) elements it matches, like Scrapy's LinkExtractor
	// restrict_css. Base, robots directives, title and Canonical still come
	// from the whole document. A selector needs a DOM, so this path parses
	// the page into a tree with goquery and costs several times the memory
	// and CPU of the streaming path; "" (the default) streams.
	LinkSelector string
}

// Extractor extracts links from pages with fixed Options. It is safe for
// concurrent use. Between pages it keeps scratch maps for reuse and a
// bounded memo of resolved links (urlnorm.Memo with urlnorm.DefaultMemo
// entries: at most 13 MiB, about 2 MiB for real links): a site's pages
// repeat their navigation
// links, spelt the same way, and those are resolved once per directory
// instead of once per page. What a page yields does not depend on the
// pages before it.
type Extractor struct {
	opts Options
	sel  matcher   // nil unless Options.LinkSelector is set
	maps sync.Pool // *linkMaps, reused from page to page
	// spare holds Page.Links slices handed back by Recycle (*[]Link,
	// cleared), taken by the next pages instead of a fresh slice.
	spare sync.Pool
	memo  *urlnorm.Memo // links resolved on earlier pages (bounded)
	// links16 is 16 times a running average of the distinct links of its
	// pages (each page weighs 1/16), to size the next page's link slice.
	links16 atomic.Int64
}

// New validates opts and returns an Extractor. The only error is
// ErrSelector, for a LinkSelector that does not compile.
func New(opts Options) (*Extractor, error) {
	if opts.Token == "" {
		opts.Token = version.Token
	}
	if opts.MaxLinks <= 0 {
		opts.MaxLinks = DefaultMaxLinks
	}
	if opts.MaxOther <= 0 {
		opts.MaxOther = DefaultMaxOther
	}
	if opts.MaxHref <= 0 {
		opts.MaxHref = DefaultMaxHref
	}
	e := &Extractor{opts: opts, memo: urlnorm.NewMemo(0)}
	if s := strings.TrimSpace(opts.LinkSelector); s != "" {
		sel, err := cascadia.ParseGroup(s)
		if err != nil {
			return nil, fmt.Errorf("extract: compile link selector %q: %w: %v", s, ErrSelector, err)
		}
		e.sel = sel
	}
	return e, nil
}

// Extract decodes body (raw bytes as received; see the package
// documentation for how the encoding is chosen, headerCharset being the
// charset parameter of the response's Content-Type, "" if none) and
// returns the page's distinct links in document order, each URL once with
// the Kind of its first occurrence; NoFollow is set only when every
// occurrence has rel=nofollow. body is not modified or retained. Errors:
// ErrPageURL, ErrTooDeep when a LinkSelector is set and the document is
// too deeply nested to build a tree, and ErrInternal.
func (e *Extractor) Extract(pageURL string, body []byte, headerCharset string) (Page, error) {
	return e.extract(pageURL, body, headerCharset, false)
}

// Links parses body as HTML and returns the page's links resolved against
// pageURL, every occurrence in document order, duplicates included (see
// the package documentation); the caps of opts apply to distinct links.
// body is raw bytes: the encoding comes from a BOM or <meta charset>, as
// if the response had no charset parameter. body is not modified or
// retained. Each occurrence costs a Link (64 bytes) even past the caps'
// distinct count, so a crawler wanting memory bounded by the caps uses
// Extractor.Extract. Errors: ErrPageURL, ErrSelector, ErrTooDeep and
// ErrInternal.
func Links(pageURL string, body []byte, opts Options) (Page, error) {
	e, err := New(opts)
	if err != nil {
		return Page{}, err
	}
	e.memo = nil // one page: nothing to share
	return e.extract(pageURL, body, "", true)
}

func (e *Extractor) extract(pageURL string, body []byte, headerCharset string, dups bool) (_ Page, err error) {
	defer func() {
		// A defect met on one page costs that page's links, not the
		// crawl: a crawl stopped by it would meet the same page again
		// when resumed.
		if r := recover(); r != nil {
			err = fmt.Errorf("extract: page %q: %w: %v", pageURL, ErrInternal, r)
		}
	}()
	base, err := urlnorm.NewBase(pageURL)
	if err != nil {
		return Page{}, fmt.Errorf("extract: page %q: %w: %v", pageURL, ErrPageURL, err)
	}
	doc := decode(body, headerCharset)
	c := newCollector(&e.opts, base, doc.queryEncoder(), dups)
	c.memo = e.memo
	hint := linkHint(len(body), e.links16.Load())
	if l, ok := e.spare.Get().(*[]Link); ok && cap(*l) >= hint {
		c.links = *l
	}
	c.useMaps(&e.maps, hint)
	defer c.release(&e.maps)
	var w walker
	if e.sel == nil {
		w = walkTokens(doc.tokens(), e.opts.Token, c)
	} else if w, err = walkDOM(doc.reader(), e.opts.Token, e.sel, c); err != nil {
		return Page{}, fmt.Errorf("extract: page %q: %w", pageURL, err)
	}
	if !dups {
		// Concurrent pages may each miss the other's update: it is a
		// guess.
		avg := e.links16.Load()
		if avg == 0 {
			avg = int64(len(c.links)) * 16
		}
		e.links16.Store(avg + int64(len(c.links)) - avg/16)
	}
	p := Page{
		Links:           c.links,
		Base:            c.base.String(),
		Canonical:       c.canonical,
		Title:           w.title,
		Robots:          w.robots,
		Charset:         doc.name,
		Dropped:         c.dropped,
		NoFollowSkipped: c.nofollow,
	}
	return p, nil
}

// ParseRobots parses the content of a meta robots element or an
// X-Robots-Tag header value: comma- or space-separated directives, case
// insensitive; "none" means nofollow and noindex. Unknown directives
// (noarchive, max-snippet:...) are ignored.
func ParseRobots(content string) Robots {
	var r Robots
	for _, t := range strings.FieldsFunc(content, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' }) {
		switch strings.ToLower(t) {
		case "nofollow":
			r.NoFollow = true
		case "noindex":
			r.NoIndex = true
		case "none":
			r.NoFollow, r.NoIndex = true, true
		}
	}
	return r
}

// Merge returns the directives of a page whose meta robots elements say
// r and whose X-Robots-Tag header value is header ("" when it has none):
// a directive either gives applies.
func (r Robots) Merge(header string) Robots {
	if header == "" {
		return r
	}
	h := ParseRobots(header)
	return Robots{NoFollow: r.NoFollow || h.NoFollow, NoIndex: r.NoIndex || h.NoIndex}
}

// linkRelKind maps a <link rel> value to a Kind; 0 for rels that do not
// name a page (stylesheet, icon, preload, ...). "alternate stylesheet" is a
// style sheet, not an alternate page.
func linkRelKind(rel string) Kind {
	var k Kind
	for _, t := range strings.Fields(rel) {
		switch strings.ToLower(t) {
		case "canonical":
			if k == 0 {
				k = KindCanonical
			}
		case "alternate":
			if k == 0 {
				k = KindAlternate
			}
		case "next":
			if k == 0 {
				k = KindNext
			}
		case "prev", "previous":
			if k == 0 {
				k = KindPrev
			}
		case "stylesheet", "icon":
			return 0
		}
	}
	return k
}

func hasToken(list, tok string) bool {
	for _, t := range strings.Fields(list) {
		if strings.EqualFold(t, tok) {
			return true
		}
	}
	return false
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// maxRecycledLinks bounds the Page.Links slices Recycle keeps: a page with
// thousands of links does not pin a slice that large for the pages after
// it.
const maxRecycledLinks = 1024

// Recycle hands back the Links of a Page this Extractor returned, once the
// caller is done with the slice (the strings in it may be kept: they are
// not reused). A later page may then fill the same memory instead of a
// fresh slice; a crawler extracts page after page of about the same size.
// Recycle is optional and safe for concurrent use.
func (e *Extractor) Recycle(links []Link) {
	if cap(links) == 0 || cap(links) > maxRecycledLinks {
		return
	}
	links = links[:cap(links)]
	clear(links) // drop the strings, so the pool pins no page's URLs
	links = links[:0]
	e.spare.Put(&links)
}
