package testweb

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Profile selects what regular pages look like: their size and how many
// links they carry.
type Profile uint8

const (
	// ProfileDefault, the zero value, is the small page of the test web:
	// a title, about 70 words and the page's generated links (8 on
	// average), 1 to 3 KB.
	ProfileDefault Profile = iota
	// ProfileDocs looks like a documentation site (GenOptions.Profile):
	//   - a navigation block repeated on every page of a host: links to
	//     its root and up to 59 more of its core pages, then to the roots
	//     of up to 6 other hosts, each spelt the same way on every page
	//     and placed before the page's own links;
	//   - the page's generated links;
	//   - on about 1 page in 500 (at least 1, at most 20 per web), an
	//     index linking to 2,000 to 4,000 pages of the whole web (all of
	//     them in smaller webs);
	//   - text padded to a size drawn from a log-normal law with median
	//     30 KB and 10% of pages above 100 KB (at most 2 MB).
	// A page of a large host thus carries about 75 links, 66 of them
	// navigation. Navigation links are links like any other: Truth.Graph
	// has them as arcs (after a rel=canonical self-link, before the
	// page's other links, once each), so a crawl still equals the truth.
	// Navigation points at core pages only, so tendrils and islands stay
	// unreachable from the seeds; dangling pages are no longer dangling.
	ProfileDocs
)

// String returns "default" or "docs".
func (p Profile) String() string {
	if p == ProfileDocs {
		return "docs"
	}
	return "default"
}

// ParseProfile parses "default" (or "") and "docs".
func ParseProfile(s string) (Profile, error) {
	switch strings.ToLower(s) {
	case "default", "":
		return ProfileDefault, nil
	case "docs":
		return ProfileDocs, nil
	}
	return 0, fmt.Errorf("%w: profile %q (want default or docs)", ErrOptions, s)
}

// Shape of ProfileDocs.
const (
	docsNavSame    = 60      // same-host navigation links, root included
	docsNavOther   = 6       // roots of other hosts
	docsMedian     = 30_000  // median page size in bytes
	docsSigma      = 0.94    // log-normal sigma: P(size > 100 KB) = 10%
	docsMaxSize    = 2 << 20 // bound on a padded page
	docsIndexEvery = 500     // one index page per this many pages,
	docsMaxIndexes = 20      // and at most this many: a few per web
	docsIndexLinks = 4000    // links of an index page, at most
	docsParagraphs = 512     // paragraphs of the padding corpus
)

// docsProfile adds the navigation of every regular host and the index
// pages. It draws from the generator after everything else, so the
// default profile's web is unchanged.
func (g *generator) docsProfile() {
	s := g.b.s
	s.profile = ProfileDocs
	s.nav = make([][]uint32, len(s.hosts))
	n := len(g.roots)
	for h, ps := range g.pages {
		var nav []uint32
		for _, id := range ps {
			if len(nav) == docsNavSame {
				break
			}
			// Navigation leads to public pages, as on real sites.
			if g.region[id] == regCore && !strings.HasPrefix(g.b.nodes[id].path, "/private/") {
				nav = append(nav, id)
			}
		}
		for k := 1; k <= docsNavOther && k < n; k++ {
			nav = append(nav, g.roots[(h+k)%n])
		}
		s.nav[s.regular[h]] = nav
	}
	// Index pages list pages of the whole web uniformly, like an A-Z
	// index; they are core pages, so they may link to any core or
	// dangling page without changing which pages the seeds reach.
	var core, all []uint32
	for _, ps := range g.pages {
		for _, id := range ps {
			switch g.region[id] {
			case regCore:
				all = append(all, id)
				if g.b.nodes[id].flags&flagRoot == 0 {
					core = append(core, id)
				}
			case regOut:
				all = append(all, id)
			}
		}
	}
	for range min(max(1, g.o.Pages/docsIndexEvery), docsMaxIndexes, len(core)) {
		id := core[g.rng.IntN(len(core))]
		k := docsIndexLinks/2 + g.rng.IntN(docsIndexLinks/2+1)
		if k >= len(all) {
			ts := slices.Clone(all)
			g.rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
			for _, t := range ts {
				if t != id {
					g.b.link(id, t)
				}
			}
			continue
		}
		// Repeated draws are few when the web is much larger than k, and
		// finish drops them (and the self-link is dropped here).
		for range k {
			if t := all[g.rng.IntN(len(all))]; t != id {
				g.b.link(id, t)
			}
		}
	}
	s.corpus = makeCorpus(uint64(g.o.Seed))
}

// navOf returns the navigation links of a page: nil but for HTML pages of
// regular hosts of a ProfileDocs web.
func (s *Site) navOf(n *node) []uint32 {
	if s.profile != ProfileDocs || n.kind != KindPage {
		return nil
	}
	return s.nav[n.host]
}

// makeCorpus returns the paragraphs pages are padded with: prose, headings
// and code, 200 to 1,200 bytes each.
func makeCorpus(seed uint64) [][]byte {
	g := wordGen{h: hashMix(seed ^ 0xd0c5)}
	out := make([][]byte, docsParagraphs)
	for i := range out {
		var b []byte
		switch g.next() % 8 {
		case 0:
			b = append(b, "<h2>"...)
			b = g.words(b, 3+int(g.next()%4))
			b = append(b, "</h2>\n"...)
		case 1:
			b = append(b, "<pre><code>"...)
			for l := range 4 + int(g.next()%12) {
				b = append(b, "$ seedcrawl "...)
				b = g.words(b, 2+l%3)
				b = append(b, " --"...)
				b = g.words(b, 1)
				b = append(b, '\n')
			}
			b = append(b, "</code></pre>\n"...)
		default:
			b = append(b, "<p>"...)
			b = g.words(b, 30+int(g.next()%150))
			b = append(b, ".</p>\n"...)
		}
		out[i] = b
	}
	return out
}

// docsTarget returns the size a page's padding aims at: log-normal with
// median docsMedian and sigma docsSigma, from the page's hash.
func docsTarget(h uint64) int {
	// Box-Muller on two uniforms in (0, 1].
	u1 := (float64(hashMix(h^0x512e)>>11) + 1) / (1 << 53)
	u2 := float64(hashMix(h^0xa7e5)>>11) / (1 << 53)
	z := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
	return min(int(docsMedian*math.Exp(docsSigma*z)), docsMaxSize)
}

// appendNav appends the navigation block of a page. Each link's spelling
// depends on its position in the block only, so the block reads the same
// on every page (relative spellings resolve against the page's directory).
func (s *Site) appendNav(buf []byte, ctx *hrefCtx, nav []uint32) []byte {
	buf = append(buf, "<nav class=\"sidebar\">\n<ul>\n"...)
	for i, t := range nav {
		if i > 0 && ctx.st.nodes[t].host != ctx.host && ctx.st.nodes[nav[i-1]].host == ctx.host {
			buf = append(buf, "</ul>\n<h2>Related sites</h2>\n<ul>\n"...)
		}
		h := hashMix(s.seed ^ 0x4a5 ^ uint64(i)<<20)
		ctx.scratch = ctx.appendHref(ctx.scratch[:0], t, h)
		buf = append(buf, "<li><a href=\""...)
		buf = appendAttr(buf, ctx.scratch)
		buf = append(buf, "\">"...)
		g := wordGen{h: hashMix(s.seed ^ uint64(t))}
		buf = g.words(buf, 2)
		buf = append(buf, "</a></li>\n"...)
	}
	return append(buf, "</ul>\n</nav>\n"...)
}

// appendPadding appends corpus paragraphs chosen by h until the page,
// which started at buf[start], reaches its target size.
func (s *Site) appendPadding(buf []byte, start int, h uint64) []byte {
	target := docsTarget(h)
	g := wordGen{h: h}
	for len(buf)-start < target {
		buf = append(buf, s.corpus[g.next()%uint64(len(s.corpus))]...)
	}
	return buf
}
