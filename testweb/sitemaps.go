package testweb

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The sitemap host (GenOptions.Sitemaps, GraphOptions.Sitemaps) is
// sitemap.test, linked from the first seed. Its robots.txt names four
// sitemaps; with /sitemap.xml and the indexes they list, every form a
// crawler must read or bound appears once:
//
//	robots.txt Sitemap: /sitemap-index.xml   index (depth 0)
//	    /maps/pages-1.xml       urlset, lastmod in four W3C forms, a robots-forbidden URL
//	    /maps/pages-2.xml.gz    gzipped urlset
//	    /maps/deep-1.xml        index (depth 1)
//	        /maps/deep-ok.xml   urlset (depth 2)
//	        /maps/deep-2.xml    index (depth 2): its child is beyond the default depth bound
//	            /maps/deep-3.xml    index (depth 3)
//	                /maps/deep-4.xml    urlset (depth 4): /only/deep-beyond.html
//	robots.txt Sitemap: /urls.txt            text sitemap
//	robots.txt Sitemap: /huge.xml            60,000 entries: /only/huge.html at entry 25,000,
//	                                         /only/huge-beyond.html at 55,000, beyond the 50,000 bound
//	robots.txt Sitemap: /bomb.xml.gz         gzip bomb: one entry, then Options.BombSize bytes of spaces
//	/sitemap.xml (not in robots.txt)         urlset: /only/default.html
//
// The pages under /only/ (and /private/listed.html, which robots.txt
// forbids) are linked from no page: only sitemaps lead to them, except
// /only/linked-from-only.html, linked from a sitemap-only page. Sitemap
// files are, like robots.txt, not nodes of the truth; Truth.SitemapEntries
// lists what they say and Truth.ReachableWithSitemaps what a crawler that
// reads them reaches. The pages never change across epochs.

// sitemapHost is the name of the sitemap host.
const sitemapHost = "sitemap.test"

// Shape of the huge sitemap.
const (
	hugeEntries    = 60_000
	hugeAt         = 25_000 // /only/huge.html: within the default bound of 50,000 entries
	hugeBeyondAt   = 55_000 // /only/huge-beyond.html: beyond it
	sitemapsRobots = "# sitemap.test: pages reachable only through sitemaps\nUser-agent: *\nDisallow: /private/\n" +
		"Sitemap: http://sitemap.test/sitemap-index.xml\nSitemap: http://sitemap.test/urls.txt\n" +
		"Sitemap: http://sitemap.test/huge.xml\nSitemap: http://sitemap.test/bomb.xml.gz\n"
)

// smKind is the form of one sitemap file.
type smKind uint8

const (
	smURLSet smKind = iota
	smIndex
	smText
	smHuge // a urlset of hugeEntries entries: filler plus two listed pages
	smBomb // a gzip bomb: a urlset with one entry, then spaces
)

// smFile is one sitemap file of a host.
type smFile struct {
	kind     smKind
	gzip     bool
	entries  []uint32 // smURLSet, smText, smBomb: listed nodes; smHuge: filler, /only/huge.html, /only/huge-beyond.html
	children []string // smIndex: paths of the listed sitemaps, same host
}

// sitemapSet is the sitemaps of one host.
type sitemapSet struct {
	files map[string]*smFile // by canonical path
	roots []string           // paths named in robots.txt, then /sitemap.xml
}

// buildSitemaps adds sitemap.test, its pages and its sitemaps; home links
// to its root.
func buildSitemaps(b *siteBuilder, home uint32) {
	h := b.addHost(hostSpec{Host: Host{Name: sitemapHost, Scheme: "http", Role: RoleSitemap},
		robots: robotsFile, robotsBody: sitemapsRobots, rules: parseRobots(sitemapsRobots)})
	page := func(path string, to ...uint32) uint32 {
		id := b.addNode(h, path, KindPage, 200, 0)
		for _, t := range to {
			b.link(id, t)
		}
		return id
	}
	root := page("/", home)
	b.link(home, root)
	linked := page("/linked.html", root)
	b.link(root, linked)
	fromOnly := page("/only/linked-from-only.html", root)
	idx1 := page("/only/index-1.html", root, fromOnly)
	idx2 := page("/only/index-2.html", root)
	idx3 := page("/only/index-3.html", root)
	forbidden := page("/private/listed.html", root)
	set := &sitemapSet{files: map[string]*smFile{
		"/sitemap-index.xml":   {kind: smIndex, children: []string{"/maps/pages-1.xml", "/maps/pages-2.xml.gz", "/maps/deep-1.xml"}},
		"/maps/pages-1.xml":    {kind: smURLSet, entries: []uint32{root, linked, idx1, idx2, idx3, forbidden}},
		"/maps/pages-2.xml.gz": {kind: smURLSet, gzip: true, entries: []uint32{page("/only/gz.html", root), linked}},
		"/maps/deep-1.xml":     {kind: smIndex, children: []string{"/maps/deep-2.xml", "/maps/deep-ok.xml"}},
		"/maps/deep-ok.xml":    {kind: smURLSet, entries: []uint32{page("/only/deep-ok.html", root)}},
		"/maps/deep-2.xml":     {kind: smIndex, children: []string{"/maps/deep-3.xml"}},
		"/maps/deep-3.xml":     {kind: smIndex, children: []string{"/maps/deep-4.xml"}},
		"/maps/deep-4.xml":     {kind: smURLSet, entries: []uint32{page("/only/deep-beyond.html", root)}},
		"/urls.txt":            {kind: smText, entries: []uint32{page("/only/text.html", root), root}},
		"/huge.xml":            {kind: smHuge, entries: []uint32{linked, page("/only/huge.html", root), page("/only/huge-beyond.html", root)}},
		"/bomb.xml.gz":         {kind: smBomb, entries: []uint32{idx1}},
		"/sitemap.xml":         {kind: smURLSet, entries: []uint32{page("/only/default.html", root)}},
	}}
	for _, line := range strings.Split(sitemapsRobots, "\n") {
		if u, ok := strings.CutPrefix(line, "Sitemap: http://"+sitemapHost); ok {
			set.roots = append(set.roots, u)
		}
	}
	set.roots = append(set.roots, "/sitemap.xml")
	b.s.hosts[h].sitemaps = set
}

// hugeEntry returns the node the huge sitemap lists at entry i.
func (f *smFile) hugeEntry(i int) uint32 {
	switch i {
	case hugeAt:
		return f.entries[1]
	case hugeBeyondAt:
		return f.entries[2]
	}
	return f.entries[0]
}

// listed calls fn with each node the file lists and its entry index.
func (f *smFile) listed(fn func(pos int, id uint32)) {
	if f.kind == smHuge {
		for i := range hugeEntries {
			fn(i, f.hugeEntry(i))
		}
		return
	}
	for i, id := range f.entries {
		fn(i, id)
	}
}

// appendLastMod appends the Last-Modified time of a node as a W3C datetime
// in one of four equivalent spellings, chosen by the entry's index.
func appendLastMod(buf []byte, t time.Time, pos int) []byte {
	switch pos % 4 {
	case 0:
		return t.UTC().AppendFormat(buf, "2006-01-02")
	case 1:
		return t.UTC().AppendFormat(buf, "2006-01-02T15:04:05Z07:00")
	case 2:
		return t.In(time.FixedZone("", 3600)).AppendFormat(buf, "2006-01-02T15:04Z07:00")
	}
	return t.In(time.FixedZone("", -5*3600)).AppendFormat(buf, "2006-01-02T15:04:05.000Z07:00")
}

const (
	smHead      = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
	smTail      = "</urlset>\n"
	smIndexHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
	smIndexTail = "</sitemapindex>\n"
)

// renderSitemap appends the body of a sitemap file (uncompressed).
func (s *Site) renderSitemap(buf []byte, st *state, spec *hostSpec, f *smFile) []byte {
	switch f.kind {
	case smIndex:
		buf = append(buf, smIndexHead...)
		for _, c := range f.children {
			buf = append(buf, "  <sitemap><loc>"...)
			buf = appendAttr(buf, spec.Scheme+"://"+spec.Name+c)
			buf = append(buf, "</loc></sitemap>\n"...)
		}
		return append(buf, smIndexTail...)
	case smText:
		for _, id := range f.entries {
			buf = append(buf, s.url(st, id)...)
			buf = append(buf, '\n')
		}
		return buf
	}
	buf = append(buf, smHead...)
	f.listed(func(pos int, id uint32) {
		buf = append(buf, "  <url><loc>"...)
		buf = appendAttr(buf, s.url(st, id))
		buf = append(buf, "</loc><lastmod>"...)
		lm := EpochTime(int(st.nodes[id].mod))
		if s.evo.Model == EvolveWeb {
			lm = s.modTime(&st.nodes[id], id)
		}
		buf = appendLastMod(buf, lm, pos)
		buf = append(buf, "</lastmod></url>\n"...)
	})
	return append(buf, smTail...)
}

// sitemapBombBytes returns the sitemap bomb: a gzip member holding a
// urlset with one entry, members of 1 MiB of spaces up to BombSize bytes
// decompressed, and a member closing the urlset, so a reader without
// bounds would eventually find a valid sitemap.
func (w *Web) sitemapBombBytes(st *state, f *smFile) []byte {
	w.smBombOnce.Do(func() {
		head := string(w.site.renderSitemap(nil, st, nil, &smFile{kind: smURLSet, entries: f.entries}))
		head = strings.TrimSuffix(head, smTail)
		var out bytes.Buffer
		out.Write(gzipMember([]byte(head)))
		writeSpaceMembers(&out, w.o.BombSize-int64(len(head))-int64(len(smTail)))
		out.Write(gzipMember([]byte(smTail)))
		w.smBomb = out.Bytes()
	})
	return w.smBomb
}

// gzipMember compresses p as one gzip member without a name or time, so
// the bytes depend on p alone.
func gzipMember(p []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(p)
	zw.Close()
	return b.Bytes()
}

// serveSitemap answers a sitemap file: XML as application/xml, text as
// text/plain, .gz files as application/gzip without Content-Encoding (a
// gzip file, not a compressed transfer).
func (w *Web) serveSitemap(rw http.ResponseWriter, r *http.Request, spec *hostSpec, f *smFile) {
	st := w.cur.Load()
	ct := "application/xml; charset=utf-8"
	if f.kind == smText {
		ct = "text/plain; charset=utf-8"
	}
	if f.gzip || f.kind == smBomb {
		ct = "application/gzip"
	}
	if f.kind == smBomb {
		writeBody(rw, r, []string{ct}, w.sitemapBombBytes(st, f))
		return
	}
	bp := w.getBuf()
	*bp = w.site.renderSitemap((*bp)[:0], st, spec, f)
	body := *bp
	if f.gzip {
		body = gzipMember(body)
	}
	writeBody(rw, r, []string{ct}, body)
	w.putBuf(bp)
}

// SitemapLimits are the bounds of a sitemap reader that
// Truth.ReachableWithSitemaps models. Zero fields take the defaults of
// package sitemap: index depth 2 (a sitemap named in robots.txt, or
// /sitemap.xml, has depth 0; one an index of depth d lists has depth d+1)
// and 50,000 entries per file.
type SitemapLimits struct {
	MaxDepth, MaxURLs int
}

func (l SitemapLimits) withDefaults() SitemapLimits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = 2
	}
	if l.MaxURLs <= 0 {
		l.MaxURLs = 50_000
	}
	return l
}

// SitemapEntry is one entry of a sitemap of the test web.
type SitemapEntry struct {
	// ID and URL are the listed node and its canonical URL.
	ID  uint32
	URL string
	// LastMod is the lastmod the entry gives (the node's Last-Modified),
	// zero for text sitemaps, which have none.
	LastMod time.Time
	// Sitemap is the URL of the listing file, Depth its index depth (see
	// SitemapLimits) and Position the entry's index in it, from 0.
	Sitemap  string
	Depth    int
	Position int
}

// SitemapEntries returns every entry of every sitemap reachable from a
// host's robots.txt Sitemap: lines and /sitemap.xml, breadth-first as a
// sitemap reader visits them (each file once, at its smallest depth),
// whatever the bounds: the huge sitemap's 60,000 entries and the deep
// chain included. Without GenOptions.Sitemaps it is empty.
func (t *Truth) SitemapEntries() []SitemapEntry {
	var out []SitemapEntry
	for hid := range t.site.hosts {
		t.eachSitemapEntry(uint32(hid), func(e SitemapEntry) { out = append(out, e) })
	}
	return out
}

// eachSitemapEntry walks the sitemaps of one host breadth-first.
func (t *Truth) eachSitemapEntry(hid uint32, fn func(SitemapEntry)) {
	spec := &t.site.hosts[hid]
	set := spec.sitemaps
	if set == nil {
		return
	}
	type job struct {
		path  string
		depth int
	}
	var queue []job
	seen := map[string]bool{}
	for _, p := range set.roots {
		if !seen[p] {
			seen[p] = true
			queue = append(queue, job{p, 0})
		}
	}
	for i := 0; i < len(queue); i++ {
		j := queue[i]
		f := set.files[j.path]
		sm := spec.Scheme + "://" + spec.Name + j.path
		if f.kind == smIndex {
			for _, c := range f.children {
				if !seen[c] {
					seen[c] = true
					queue = append(queue, job{c, j.depth + 1})
				}
			}
			continue
		}
		f.listed(func(pos int, id uint32) {
			e := SitemapEntry{ID: id, URL: t.Graph.URLs[id], Sitemap: sm, Depth: j.depth, Position: pos}
			if f.kind != smText {
				e.LastMod = t.Nodes[id].LastModified
			}
			fn(e)
		})
	}
}

// ReachableWithSitemaps is Reachable for a crawler that also reads
// sitemaps within lim: when it first fetches a URL of a host, it reads the
// sitemaps of that host's robots.txt and /sitemap.xml, and discovers the
// entries of files no deeper than lim.MaxDepth at positions below
// lim.MaxURLs, in SitemapEntries order. Robots rules apply to the listed
// URLs as to links (a forbidden one is discovered, not fetched).
func (t *Truth) ReachableWithSitemaps(seeds []string, token string, lim SitemapLimits) (*Reach, error) {
	lim = lim.withDefaults()
	r, err := t.newReach(seeds, token)
	if err != nil {
		return nil, fmt.Errorf("testweb: reachable with sitemaps from %w", err)
	}
	read := make([]bool, len(t.site.hosts))
	for i := 0; i < len(r.Order); i++ {
		v := r.Order[i]
		if !t.Allowed(t.Graph.URLs[v], token) {
			continue
		}
		r.fetched[v] = true
		if h := t.st.nodes[v].host; !read[h] {
			read[h] = true
			t.eachSitemapEntry(h, func(e SitemapEntry) {
				if e.Depth <= lim.MaxDepth && e.Position < lim.MaxURLs {
					r.discover(e.ID)
				}
			})
		}
		for _, w := range t.Graph.Out(v) {
			r.discover(w)
		}
	}
	return r, nil
}

// SitemapOnly returns, sorted, the node ids a crawler reading sitemaps
// within lim discovers from seeds but one following links alone does not:
// the pages a crawl with sitemaps on must add.
func (t *Truth) SitemapOnly(seeds []string, token string, lim SitemapLimits) ([]uint32, error) {
	with, err := t.ReachableWithSitemaps(seeds, token, lim)
	if err != nil {
		return nil, err
	}
	without, err := t.Reachable(seeds, token)
	if err != nil {
		return nil, err
	}
	var out []uint32
	for v := range with.discovered {
		if with.discovered[v] && !without.discovered[v] {
			out = append(out, uint32(v))
		}
	}
	return out, nil
}

// sitemapFile returns the sitemap file at a canonical path of the host;
// the handler serves those before looking up nodes.
func (spec *hostSpec) sitemapFile(target string) (*smFile, bool) {
	if spec.sitemaps == nil {
		return nil, false
	}
	f, ok := spec.sitemaps.files[target]
	return f, ok
}
