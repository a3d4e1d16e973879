package extract

import (
	"fmt"
	"io"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// walkDOM parses the document into a tree with goquery and walks it in
// document order. With a selector it reports only the links inside (or
// on) the elements sel matches; base, meta robots and title come from the
// whole tree. It is the LinkSelector path and, with sel nil, the oracle
// the streaming walker is tested against. The only error is ErrTooDeep:
// the tree builder gives up on documents nested deeper than 512 elements.
func walkDOM(r io.Reader, token string, sel matcher, c *collector) (walker, error) {
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		return walker{}, fmt.Errorf("%w: %v", ErrTooDeep, err)
	}
	w := domWalker{token: token, c: c, sel: sel}
	for _, n := range doc.Nodes {
		w.walk(n)
	}
	return w.walker, nil
}

// matcher is what the DOM walker needs of a compiled CSS selector
// (cascadia.SelectorGroup).
type matcher interface {
	Match(n *html.Node) bool
}

type domWalker struct {
	walker
	token    string
	c        *collector
	sel      matcher // nil: every link counts
	titleSet bool
}

type domFrame struct {
	n      *html.Node
	inside bool // n is inside (or is) a matched element
}

func (w *domWalker) walk(root *html.Node) {
	stack := []domFrame{{root, w.sel == nil}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		inside := f.inside || f.n.Type == html.ElementNode && w.sel.Match(f.n)
		if f.n.Type == html.ElementNode {
			w.element(f.n, inside)
		}
		// Push children last-first so they pop in document order.
		for c := f.n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, domFrame{c, inside})
		}
	}
}

func (w *domWalker) element(n *html.Node, inside bool) {
	switch n.DataAtom {
	case atom.Title:
		if !w.titleSet && n.Namespace == "" {
			w.titleSet = true
			w.title = collapseSpace(textOf(n))
		}
	case atom.A:
		w.link(n, KindA, "href", inside)
	case atom.Area:
		w.link(n, KindArea, "href", inside)
	case atom.Frame:
		w.link(n, KindFrame, "src", inside)
	case atom.Iframe:
		w.link(n, KindIframe, "src", inside)
	case atom.Link:
		if k := linkRelKind(domAttr(n, "rel")); k != 0 {
			w.link(n, k, "href", inside)
		}
	case atom.Base:
		if href, ok := domAttrOK(n, "href"); ok {
			w.c.setBase([]byte(href))
		}
	case atom.Meta:
		name := strings.TrimSpace(domAttr(n, "name"))
		if strings.EqualFold(name, "robots") || strings.EqualFold(name, w.token) {
			r := ParseRobots(domAttr(n, "content"))
			w.robots.NoFollow = w.robots.NoFollow || r.NoFollow
			w.robots.NoIndex = w.robots.NoIndex || r.NoIndex
		}
	}
}

func (w *domWalker) link(n *html.Node, k Kind, key string, inside bool) {
	v, ok := domAttrOK(n, key)
	if !ok {
		return
	}
	if !inside {
		// Outside the selection, only the canonical URL is wanted.
		if k == KindCanonical {
			w.c.canonicalOnly(v)
		}
		return
	}
	nofollow := false
	if k == KindA || k == KindArea {
		nofollow = hasToken(domAttr(n, "rel"), "nofollow")
	}
	w.c.add(k, []byte(v), nofollow)
}

func domAttr(n *html.Node, key string) string {
	v, _ := domAttrOK(n, key)
	return v
}

func domAttrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
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
