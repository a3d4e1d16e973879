package extract

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

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

// Link is one link of a page.
type Link struct {
	// Kind is the element (and rel) the link came from.
	Kind Kind
	// Raw is the href or src attribute as written in the page.
	Raw string
	// URL is Raw resolved against the page's base and normalized with
	// urlnorm; "" when that failed, see Reject.
	URL string
	// Reject names why URL is empty (urlnorm.ReasonBadURL, ReasonBadScheme,
	// ReasonBadHost); "" when URL is set.
	Reject string
	// NoFollow is set when the element's rel attribute contains "nofollow".
	NoFollow bool
}

// Robots holds the robots directives of a page (meta robots or an
// X-Robots-Tag header).
type Robots struct {
	// NoFollow: the page's links must not be followed.
	NoFollow bool
	// NoIndex: the page must not be indexed.
	NoIndex bool
}

// Page is what Links found in a page.
type Page struct {
	// Links are the page's links in document order, duplicates included.
	Links []Link
	// Base is the URL links were resolved against: the page URL, or the
	// first <base href> resolved against it.
	Base string
	// Canonical is the normalized URL of the first valid
	// <link rel="canonical">, "" if none.
	Canonical string
	// Title is the text of the first <title>, whitespace collapsed.
	Title string
	// Robots are the directives of the page's meta robots elements, merged.
	Robots Robots
}

// Options tunes Links. The zero Options is ready to use.
type Options struct {
	// Token is the crawler's robots product token: <meta name="TOKEN">
	// is honoured like <meta name="robots">. "" means version.Token.
	Token string
}

// Links parses body as HTML and returns the page's links resolved against
// pageURL (see the package documentation). body is not modified or
// retained. The only error is ErrPageURL.
func Links(pageURL string, body []byte, opts Options) (Page, error) {
	base, err := urlnorm.NewBase(pageURL)
	if err != nil {
		return Page{}, fmt.Errorf("extract: page %q: %w: %v", pageURL, ErrPageURL, err)
	}
	token := opts.Token
	if token == "" {
		token = version.Token
	}
	w := walker{token: token}
	if doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body)); err == nil {
		for _, n := range doc.Nodes {
			w.walk(n)
		}
	} else {
		// The tree builder gives up on documents nested deeper than 512
		// elements (x/net/html's guard against stack exhaustion); the
		// tokenizer has no such limit and sees the same tags in the same
		// order.
		w = walker{token: token}
		w.tokens(body)
	}
	p := Page{Title: w.title, Robots: w.robots, Base: base.String()}
	if w.baseSet {
		// The first <base href> applies to every link of the document,
		// including those before it (HTML, "document base URL").
		if nb, err := base.Rebase(w.baseHref); err == nil {
			base = nb
			p.Base = nb.String()
		}
	}
	p.Links = make([]Link, len(w.links))
	for i, l := range w.links {
		u, err := base.Resolve(l.Raw)
		if err != nil {
			l.Reject = urlnorm.Reason(err)
			if l.Reject == "" {
				l.Reject = urlnorm.ReasonBadURL
			}
		} else {
			l.URL = u
			if l.Kind == KindCanonical && p.Canonical == "" {
				p.Canonical = u
			}
		}
		p.Links[i] = l
	}
	return p, nil
}

// walker collects links and page facts in one depth-first pass.
type walker struct {
	token    string
	links    []Link
	baseHref string
	baseSet  bool
	title    string
	titleSet bool
	robots   Robots
	stack    []*html.Node
}

func (w *walker) walk(root *html.Node) {
	w.stack = append(w.stack[:0], root)
	for len(w.stack) > 0 {
		n := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if n.Type == html.ElementNode {
			w.element(n)
		}
		// Push children last-first so they pop in document order.
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			w.stack = append(w.stack, c)
		}
	}
}

func (w *walker) element(n *html.Node) {
	if n.DataAtom == atom.Title {
		if !w.titleSet && n.Namespace == "" {
			w.titleSet = true
			w.title = collapseSpace(textOf(n))
		}
		return
	}
	w.tag(n.DataAtom, n.Attr)
}

// tokens is the fallback pass over the token stream, for documents the tree
// builder rejects.
func (w *walker) tokens(body []byte) {
	z := html.NewTokenizer(bytes.NewReader(body))
	inTitle := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if tok.DataAtom == atom.Title {
				inTitle = !w.titleSet
				w.titleSet = true
				continue
			}
			w.tag(tok.DataAtom, tok.Attr)
		case html.TextToken:
			if inTitle {
				w.title = collapseSpace(string(z.Text()))
				inTitle = false
			}
		case html.EndTagToken:
			inTitle = false
		}
	}
}

// tag handles one element's start tag.
func (w *walker) tag(a atom.Atom, attrs []html.Attribute) {
	switch a {
	case atom.A:
		w.addLink(attrs, KindA, "href")
	case atom.Area:
		w.addLink(attrs, KindArea, "href")
	case atom.Frame:
		w.addLink(attrs, KindFrame, "src")
	case atom.Iframe:
		w.addLink(attrs, KindIframe, "src")
	case atom.Link:
		if k := linkRelKind(attr(attrs, "rel")); k != 0 {
			w.addLink(attrs, k, "href")
		}
	case atom.Base:
		if !w.baseSet {
			if href, ok := attrOK(attrs, "href"); ok {
				w.baseHref, w.baseSet = href, true
			}
		}
	case atom.Meta:
		name := strings.TrimSpace(attr(attrs, "name"))
		if strings.EqualFold(name, "robots") || strings.EqualFold(name, w.token) {
			r := ParseRobots(attr(attrs, "content"))
			w.robots.NoFollow = w.robots.NoFollow || r.NoFollow
			w.robots.NoIndex = w.robots.NoIndex || r.NoIndex
		}
	}
}

func (w *walker) addLink(attrs []html.Attribute, k Kind, key string) {
	v, ok := attrOK(attrs, key)
	if !ok {
		return
	}
	l := Link{Kind: k, Raw: v}
	if k == KindA || k == KindArea {
		l.NoFollow = hasToken(attr(attrs, "rel"), "nofollow")
	}
	w.links = append(w.links, l)
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

func attr(attrs []html.Attribute, key string) string {
	v, _ := attrOK(attrs, key)
	return v
}

func attrOK(attrs []html.Attribute, key string) (string, bool) {
	for _, a := range attrs {
		if a.Key == key && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
}

func hasToken(list, tok string) bool {
	for _, t := range strings.Fields(list) {
		if strings.EqualFold(t, tok) {
			return true
		}
	}
	return false
}

func textOf(n *html.Node) string {
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	return sb.String()
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
