package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// walker holds the page facts both walkers (streaming and DOM) find.
type walker struct {
	title  string
	robots Robots
}

// tokWalker extracts links from the token stream, without building a tree.
// Its memory is the tokenizer's buffer (the largest token) plus what the
// collector keeps.
//
// A tokenizer alone does not know a few things the tree builder decides,
// and tokWalker tracks just enough of them to find the same links as the
// DOM walker (walkDOM, the test oracle):
//   - foreign content: inside <svg> and <math> the tree builder stops the
//     tokenizer from treating <title>, <style>, <script> ... as raw text
//     and lets it read CDATA sections; tokWalker keeps a stack of the
//     elements open since the outermost <svg>/<math> and does the same,
//     including the HTML "breakout" tags and integration points;
//   - framesets: <frame> counts only inside a <frameset> the tree builder
//     accepts, and once it does, it drops the body (and its links) and
//     ignores every later tag but <frame>, <frameset> and <noframes>.
//
// Known differences, all on markup no real site relies on: the tree
// builder may clone an <a> (the adoption agency algorithm), which gives
// the DOM walker duplicates the tokenizer does not see, and foster
// parenting out of tables may reorder links. Distinct links agree.
type tokWalker struct {
	walker
	c     *collector
	token string
	z     tokenSource
	sc    *scanner // z, when it is the scanner (tag names read in place)
	attrs []attr
	name  [32]byte

	titleSet  bool
	wantTitle bool
	rawText   bool // the last token started a raw text element

	stack []openElem // elements open since the outermost <svg> or <math>

	inBody        bool
	bodyMark      int // len(c.links) when the body started
	framesetBad   bool
	framesetDepth int
	framesetMode  bool
	afterFrameset bool
}

type attr struct{ key, val []byte }

// Namespaces of open elements.
const (
	nsHTML = iota
	nsSVG
	nsMath
)

type openElem struct {
	name string
	ns   uint8
	hip  bool // an HTML integration point: content is HTML
	mtip bool // a MathML text integration point
}

func walkTokens(z tokenSource, token string, c *collector) walker {
	w := tokWalker{c: c, token: token, z: z}
	w.sc, _ = z.(*scanner)
	w.run()
	return w.walker
}

func (w *tokWalker) run() {
	z := w.z
	for {
		// CDATA sections exist only in foreign content.
		z.AllowCDATA(len(w.stack) > 0 && w.stack[len(w.stack)-1].ns != nsHTML)
		tt := z.Next()
		wantTitle, rawText := w.wantTitle, w.rawText
		w.wantTitle, w.rawText = false, false
		switch tt {
		case html.ErrorToken:
			return
		case html.TextToken:
			if wantTitle {
				w.title = collapseSpace(string(z.Text()))
				continue
			}
			// Once the body started and a frameset can no longer take
			// over, text changes nothing: skip reading it.
			if !rawText && !w.framesetMode && !w.afterFrameset && !(w.inBody && w.framesetBad) && !isSpace(z.Raw()) {
				w.startBody()
				w.framesetBad = true
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			w.start(tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			w.end()
		}
	}
}

func isSpace(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\f', '\r':
		default:
			return false
		}
	}
	return true
}

// readAttrs reads the attributes of the current tag; values alias the
// tokenizer's buffer until the next token.
func (w *tokWalker) readAttrs() {
	w.attrs = w.attrs[:0]
	for {
		k, v, more := w.z.TagAttr()
		if k == nil {
			return
		}
		w.attrs = append(w.attrs, attr{k, v})
		if !more {
			return
		}
	}
}

// tagName returns the lower-cased name of the current tag from its raw
// bytes, in w.name. Tokenizer.TagName allocates a copy per call (it
// replaces NUL bytes); a name with NUL, longer than the buffer or in need
// of decoding falls back to it.
func (w *tokWalker) tagName() []byte {
	raw := w.z.Raw()
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	n := 0
	for ; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return w.name[:n]
		case 0:
			name, _ := w.z.TagName()
			return name
		}
		if c >= 0x80 && w.sc != nil && w.sc.dec != nil {
			// A legacy-encoded name: the scanner decodes it.
			name, _ := w.z.TagName()
			return name
		}
		if n == len(w.name) {
			name, _ := w.z.TagName()
			return name
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		w.name[n] = c
		n++
	}
	return w.name[:n]
}

// attr returns the first attribute named key, as the tree builder keeps
// every attribute and the DOM walker takes the first.
func (w *tokWalker) attr(key string) ([]byte, bool) {
	for _, a := range w.attrs {
		if string(a.key) == key {
			return a.val, true
		}
	}
	return nil, false
}

// interesting lists the elements whose attributes are read.
func interesting(a atom.Atom) bool {
	switch a {
	case atom.A, atom.Area, atom.Frame, atom.Iframe, atom.Link, atom.Base, atom.Meta,
		atom.Font, atom.Input, atom.AnnotationXml:
		return true
	}
	return false
}

func (w *tokWalker) start(selfClosing bool) {
	if w.sc != nil && w.settled() && !settledTag(w.sc.b[w.sc.dataStart:w.sc.dataEnd]) {
		return
	}
	name := w.tagName()
	a := atom.Lookup(name)
	w.attrs = w.attrs[:0]
	if interesting(a) {
		w.readAttrs()
	}
	if n := len(w.stack); n > 0 {
		top := w.stack[n-1]
		htmlHere := top.ns == nsHTML || top.hip ||
			top.mtip && a != atom.Mglyph && a != atom.Malignmark ||
			top.ns == nsMath && top.name == "annotation-xml" && a == atom.Svg
		if !htmlHere {
			if !w.breakout(a) {
				w.foreignStart(name, a, top.ns, selfClosing)
				return
			}
			w.popToHTML()
		}
	}
	w.htmlStart(name, a, selfClosing)
}

// settled reports that the walk reached the state most of a page is read
// in: inside the body, which a frameset can no longer replace, and outside
// foreign content. There only the start tags settledTag names change
// anything, and no end tag does.
func (w *tokWalker) settled() bool {
	return w.inBody && w.framesetBad && !w.framesetMode && !w.afterFrameset && len(w.stack) == 0
}

// settledTag reports whether the start tag named name (as written) matters
// once the walk is settled: the elements that carry a link or a page fact
// (element), the first <title>, and <svg> and <math>, which start foreign
// content. Raw text elements need nothing from the walker there: the
// scanner reads their content as raw text by itself.
func settledTag(name []byte) bool {
	switch len(name) {
	case 1:
		return name[0]|0x20 == 'a'
	case 3:
		return equalFoldASCII(name, "svg")
	case 4:
		return equalFoldASCII(name, "area") || equalFoldASCII(name, "link") || equalFoldASCII(name, "base") ||
			equalFoldASCII(name, "meta") || equalFoldASCII(name, "math")
	case 5:
		return equalFoldASCII(name, "title")
	case 6:
		return equalFoldASCII(name, "iframe")
	}
	return false
}

// breakout reports whether a start tag ends foreign content (the HTML
// standard's list for "in foreign content", and <font> with color, face
// or size).
func (w *tokWalker) breakout(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center, atom.Code, atom.Dd,
		atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Head, atom.Hr, atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu, atom.Meta,
		atom.Nobr, atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span, atom.Strong,
		atom.Strike, atom.Sub, atom.Sup, atom.Table, atom.Tt, atom.U, atom.Ul, atom.Var:
		return true
	case atom.Font:
		for _, k := range [...]string{"color", "face", "size"} {
			if _, ok := w.attr(k); ok {
				return true
			}
		}
	}
	return false
}

// popToHTML pops foreign elements until an HTML element or an
// integration point is on top.
func (w *tokWalker) popToHTML() {
	for n := len(w.stack); n > 0; n-- {
		if e := w.stack[n-1]; e.ns == nsHTML || e.hip || e.mtip {
			w.stack = w.stack[:n]
			return
		}
	}
	w.stack = w.stack[:0]
}

func (w *tokWalker) foreignStart(name []byte, a atom.Atom, ns uint8, selfClosing bool) {
	if !selfClosing {
		e := openElem{name: string(name), ns: ns}
		switch {
		case ns == nsSVG:
			e.hip = e.name == "foreignobject" || e.name == "desc" || e.name == "title"
		case e.name == "annotation-xml":
			if enc, ok := w.attr("encoding"); ok {
				s := string(enc)
				e.hip = strings.EqualFold(s, "text/html") || strings.EqualFold(s, "application/xhtml+xml")
			}
		default:
			switch e.name {
			case "mi", "mo", "mn", "ms", "mtext":
				e.mtip = true
			}
		}
		w.stack = append(w.stack, e)
	}
	// The tree builder keeps the tokenizer out of raw text mode in
	// foreign content (an SVG <title> or <style> holds markup).
	w.z.NextIsNotRawText()
	if a != atom.Title {
		w.element(a)
	}
}

// rawTextElements are those the tokenizer reads as raw text (or RCDATA).
func rawTextElement(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext, atom.Script,
		atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Keygen, atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr,
		atom.Frame, atom.Basefont, atom.Bgsound:
		return true
	}
	return false
}

// htmlStart handles a start tag in HTML content.
func (w *tokWalker) htmlStart(name []byte, a atom.Atom, selfClosing bool) {
	w.rawText = rawTextElement(a)
	if w.afterFrameset {
		return
	}
	if w.framesetMode {
		switch a {
		case atom.Frameset:
			w.framesetDepth++
		case atom.Frame:
			w.element(a)
		}
		return
	}
	switch a {
	case atom.Svg, atom.Math:
		w.startBody()
		if !selfClosing {
			ns := uint8(nsSVG)
			if a == atom.Math {
				ns = nsMath
			}
			w.stack = append(w.stack, openElem{name: string(name), ns: ns})
		}
		return
	case atom.Frameset:
		if len(w.stack) > 0 || w.inBody && w.framesetBad {
			return
		}
		if w.inBody {
			// The tree builder replaces the body, links and all.
			w.c.truncate(w.bodyMark)
		}
		w.framesetMode, w.framesetDepth = true, 1
		return
	case atom.Frame:
		// Outside a frameset the tree builder ignores <frame>.
		return
	case atom.Html, atom.Head, atom.Title, atom.Meta, atom.Link, atom.Base, atom.Style, atom.Script,
		atom.Noscript, atom.Template, atom.Noframes, atom.Basefont, atom.Bgsound:
		// Head elements do not start the body.
	case atom.Body:
		w.startBody()
		w.framesetBad = true
	default:
		w.startBody()
		if framesetSpoiler(a) && !(a == atom.Input && w.hiddenInput()) {
			w.framesetBad = true
		}
	}
	if len(w.stack) > 0 && !voidElement(a) {
		w.stack = append(w.stack, openElem{name: string(name), ns: nsHTML})
	}
	if a == atom.Title {
		if !w.titleSet {
			w.titleSet, w.wantTitle = true, true
		}
		return
	}
	w.element(a)
}

func (w *tokWalker) hiddenInput() bool {
	t, _ := w.attr("type")
	return strings.EqualFold(string(t), "hidden")
}

// framesetSpoiler lists the start tags after which the tree builder no
// longer accepts a <frameset> (the HTML standard's "frameset-ok flag").
func framesetSpoiler(a atom.Atom) bool {
	switch a {
	case atom.Pre, atom.Listing, atom.Li, atom.Dd, atom.Dt, atom.Button, atom.Applet, atom.Marquee,
		atom.Object, atom.Table, atom.Area, atom.Br, atom.Embed, atom.Img, atom.Keygen, atom.Wbr,
		atom.Input, atom.Hr, atom.Textarea, atom.Xmp, atom.Iframe, atom.Select, atom.Image:
		return true
	}
	return false
}

func (w *tokWalker) startBody() {
	if !w.inBody {
		w.inBody = true
		w.bodyMark = len(w.c.links)
	}
}

func (w *tokWalker) end() {
	if !w.framesetMode && len(w.stack) == 0 {
		// Only a frameset and foreign content track end tags.
		return
	}
	name := w.tagName()
	if w.framesetMode {
		if string(name) == "frameset" {
			if w.framesetDepth--; w.framesetDepth == 0 {
				w.framesetMode, w.afterFrameset = false, true
			}
		}
		return
	}
	n := len(w.stack)
	if n == 0 {
		return
	}
	if w.stack[n-1].ns != nsHTML && (string(name) == "p" || string(name) == "br") {
		w.popToHTML()
		return
	}
	for i := n - 1; i >= 0; i-- {
		if strings.EqualFold(w.stack[i].name, string(name)) {
			w.stack = w.stack[:i]
			return
		}
	}
	if w.stack[n-1].ns != nsHTML {
		// An end tag for an element opened before the <svg> or <math>
		// closes it and everything inside.
		w.stack = w.stack[:0]
	}
}

// element handles the start tag of an element that may carry a link or a
// page fact; its attributes are in w.attrs.
func (w *tokWalker) element(a atom.Atom) {
	switch a {
	case atom.A:
		w.link(KindA, "href")
	case atom.Area:
		w.link(KindArea, "href")
	case atom.Frame:
		w.link(KindFrame, "src")
	case atom.Iframe:
		w.link(KindIframe, "src")
	case atom.Link:
		rel, _ := w.attr("rel")
		if k := linkRelKind(string(rel)); k != 0 {
			w.link(k, "href")
		}
	case atom.Base:
		if href, ok := w.attr("href"); ok {
			w.c.setBase(href)
		}
	case atom.Meta:
		name, _ := w.attr("name")
		n := strings.TrimSpace(string(name))
		if strings.EqualFold(n, "robots") || strings.EqualFold(n, w.token) {
			content, _ := w.attr("content")
			r := ParseRobots(string(content))
			w.robots.NoFollow = w.robots.NoFollow || r.NoFollow
			w.robots.NoIndex = w.robots.NoIndex || r.NoIndex
		}
	}
}

func (w *tokWalker) link(k Kind, key string) {
	v, ok := w.attr(key)
	if !ok {
		return
	}
	nofollow := false
	if k == KindA || k == KindArea {
		if rel, ok := w.attr("rel"); ok {
			nofollow = hasToken(string(rel), "nofollow")
		}
	}
	w.c.add(k, v, nofollow)
}
