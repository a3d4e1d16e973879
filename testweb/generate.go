package testweb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"
)

// GenOptions configures Generate. The zero value (apart from Seed) gives the
// hostile default web of 1000 regular pages on 20 hosts.
type GenOptions struct {
	// Seed makes the web: the same seed (and epoch) gives the same web,
	// byte for byte.
	Seed int64
	// Pages is the number of regular HTML pages; 0 means 1000.
	Pages int
	// Hosts is the number of regular hosts; 0 means 20. Host sizes follow a
	// Zipf law, so a few hosts hold most pages.
	Hosts int
	// InterHostFraction is the fraction of generated links that point to
	// another host; 0 means 0.05 (uk-2007-05 has 3.7%), negative means none
	// except the ring that joins the host roots.
	InterHostFraction float64
	// MeanOutDegree is the mean number of generated links of a page with
	// out-links; 0 means 8. Out-degrees are Pareto distributed, so a few
	// pages have many links; link targets are drawn by a Pareto popularity,
	// so in-degrees are heavy-tailed too.
	MeanOutDegree float64
	// DanglingFraction is the fraction of pages without out-links, reached
	// from the core (0 means 0.10, negative none). InFraction is the
	// fraction of pages that link into the core but are not linked from it
	// (tendrils; 0 means 0.05), IslandFraction the fraction in small
	// components per host unreachable from the core (0 means 0.05). The
	// rest, including every host root, forms one giant strongly connected
	// core.
	DanglingFraction, InFraction, IslandFraction float64
	// NoHTTPS serves every regular host over http. By default every eighth
	// host (the fourth, twelfth, ...) is served over https.
	NoHTTPS bool
	// AllHTTPS serves every regular host over https (ignored with
	// NoHTTPS), for measuring a crawl whose every request pays for TLS.
	AllHTTPS bool
	// Preset is Hostile (the zero value) or Clean.
	Preset Preset
	// Evolution says how pages change across epochs.
	Evolution Evolution
	// CrawlDelay is the Crawl-delay rules.test asks of seedcrawl; 0 means
	// 500ms, negative means no Crawl-delay line.
	CrawlDelay time.Duration
	// Sitemaps adds sitemap.test, linked from the first seed, in either
	// preset: robots.txt Sitemap: lines, a sitemap index, gzipped, text,
	// huge and bomb sitemaps, an index chain deeper than the usual bound,
	// and pages only sitemaps lead to (see Truth.SitemapEntries and
	// Truth.SitemapOnly). Off by default: nothing else changes either way,
	// except the first seed's link to sitemap.test.
	Sitemaps bool
	// Profile is what regular pages look like: ProfileDefault (the zero
	// value, small pages) or ProfileDocs (documentation-site pages: about
	// 30 KB and 75 links, most of them navigation; see ProfileDocs).
	Profile Profile
}

// regions of generated pages.
const (
	regCore uint8 = iota
	regOut
	regIn
	regIsland
)

// maxPages bounds generated webs so node ids fit comfortably in uint32.
const maxPages = 1 << 26

var hostWords = [...]string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
	"sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"}

// regularHostName returns the name of regular host i.
func regularHostName(i int) string {
	w := hostWords[i%len(hostWords)]
	if i >= len(hostWords) {
		w += "-" + strconv.Itoa(i/len(hostWords))
	}
	return "www." + w + ".test"
}

func fracDefault(v, d float64) float64 {
	switch {
	case v == 0:
		return d
	case v < 0:
		return 0
	}
	return v
}

func crawlDelayDefault(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return 500 * time.Millisecond
	case d < 0:
		return 0
	}
	return d
}

// Generate builds a seeded synthetic web; see GenOptions and the package
// documentation for its shape.
func Generate(o GenOptions) (*Site, error) {
	if o.Pages == 0 {
		o.Pages = 1000
	}
	if o.Hosts == 0 {
		o.Hosts = 20
	}
	o.InterHostFraction = fracDefault(o.InterHostFraction, 0.05)
	o.DanglingFraction = fracDefault(o.DanglingFraction, 0.10)
	o.InFraction = fracDefault(o.InFraction, 0.05)
	o.IslandFraction = fracDefault(o.IslandFraction, 0.05)
	if o.MeanOutDegree == 0 {
		o.MeanOutDegree = 8
	}
	switch {
	case o.Hosts < 1:
		return nil, fmt.Errorf("%w: hosts %d (want at least 1)", ErrOptions, o.Hosts)
	case o.Pages < o.Hosts:
		return nil, fmt.Errorf("%w: pages %d fewer than hosts %d (every host needs a root page)", ErrOptions, o.Pages, o.Hosts)
	case o.Pages > maxPages:
		return nil, fmt.Errorf("%w: pages %d (at most %d)", ErrOptions, o.Pages, maxPages)
	// The comparisons are written so that NaN fails them: a NaN fraction
	// compares false with every random draw and would silently mean "none".
	case !(o.InterHostFraction <= 1):
		return nil, fmt.Errorf("%w: inter-host fraction %g (want 0..1)", ErrOptions, o.InterHostFraction)
	case !(o.MeanOutDegree >= 1 && o.MeanOutDegree <= 1000):
		return nil, fmt.Errorf("%w: mean out-degree %g (want 1..1000)", ErrOptions, o.MeanOutDegree)
	case !(o.DanglingFraction+o.InFraction+o.IslandFraction <= 0.9):
		return nil, fmt.Errorf("%w: dangling+in+island fractions %g leave no core", ErrOptions,
			o.DanglingFraction+o.InFraction+o.IslandFraction)
	case o.Preset > Clean:
		return nil, fmt.Errorf("%w: preset %d", ErrOptions, o.Preset)
	case o.Profile > ProfileDocs:
		return nil, fmt.Errorf("%w: profile %d", ErrOptions, o.Profile)
	}
	if err := o.Evolution.validate(); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("seedcrawl-testweb generated seed=%d pages=%d hosts=%d preset=%s", o.Seed, o.Pages, o.Hosts, o.Preset)
	if o.Sitemaps {
		name += " sitemaps=on"
	}
	if o.Profile != ProfileDefault {
		name += " profile=" + o.Profile.String()
	}
	s := newSite(o.Seed, name, o.Preset, o.Evolution, crawlDelayDefault(o.CrawlDelay))
	g := &generator{o: o, b: &siteBuilder{s: s}, rng: rand.New(rand.NewPCG(uint64(o.Seed), 0x7e57_0eb0_0000_0001))}
	g.hostsAndPages()
	g.links()
	if o.Preset == Hostile {
		hostileExtras(g.b, g.rng, g.pages)
	}
	baseHrefs(g.b, g.rng, g.pages)
	if o.Preset == Hostile {
		buildZoo(g.b, g.roots[0])
	}
	if o.Sitemaps {
		buildSitemaps(g.b, g.roots[0])
	}
	if o.Profile == ProfileDocs {
		g.docsProfile()
	}
	addDormantHosts(g.b, o)
	for h := 0; h < len(g.roots) && h < 3; h++ {
		s.seeds = append(s.seeds, g.roots[h])
	}
	return g.b.finish(), nil
}

type generator struct {
	o      GenOptions
	b      *siteBuilder
	rng    *rand.Rand
	roots  []uint32   // per regular host
	pages  [][]uint32 // per regular host: its generated pages, root first
	region []uint8    // per node id (generated pages only)
	pop    []float64  // per node id: Pareto popularity
	res    [][]uint32 // per regular host: its resources
	// Weighted target sets per host: core ∪ out (targets of core pages)
	// and core alone (targets of tendrils).
	any, core []weighted
	hostW     []float64 // cumulative host weights over any
}

type weighted struct {
	ids []uint32
	cum []float64
}

func (w *weighted) add(id uint32, p float64) {
	t := p
	if n := len(w.cum); n > 0 {
		t += w.cum[n-1]
	}
	w.ids = append(w.ids, id)
	w.cum = append(w.cum, t)
}

func (w *weighted) pick(r *rand.Rand) (uint32, bool) {
	if len(w.ids) == 0 {
		return 0, false
	}
	x := r.Float64() * w.cum[len(w.cum)-1]
	i := sort.SearchFloat64s(w.cum, x)
	if i >= len(w.ids) {
		i = len(w.ids) - 1
	}
	return w.ids[i], true
}

func (w *weighted) total() float64 {
	if len(w.cum) == 0 {
		return 0
	}
	return w.cum[len(w.cum)-1]
}

// zipfSizes splits pages over hosts by a Zipf law with exponent 1.1, every
// host getting at least one page.
func zipfSizes(pages, hosts int) []int {
	w := make([]float64, hosts)
	var sum float64
	for i := range w {
		w[i] = 1 / math.Pow(float64(i+1), 1.1)
		sum += w[i]
	}
	sizes := make([]int, hosts)
	left := pages - hosts
	used := 0
	for i := range sizes {
		sizes[i] = 1 + int(float64(left)*w[i]/sum)
		used += sizes[i]
	}
	sizes[0] += pages - used
	return sizes
}

var sections = [...]struct {
	name string
	w    float64
}{{"news", 0.25}, {"docs", 0.2}, {"blog", 0.2}, {"~staff", 0.1}, {"caf%C3%A9", 0.1}, {"list", 0.11}, {"private", 0.04}}

var slugWords = [...]string{"report", "notes", "index", "summary", "guide", "faq", "history", "team",
	"events", "archive", "press", "contact", "projects", "data", "results", "about"}

func (g *generator) pagePath(k int) string {
	x := g.rng.Float64()
	sec := sections[len(sections)-1].name
	for _, s := range sections {
		if x < s.w {
			sec = s.name
			break
		}
		x -= s.w
	}
	if sec == "list" {
		return "/list?page=" + strconv.Itoa(k) + "&sort=asc"
	}
	return "/" + sec + "/" + slugWords[g.rng.IntN(len(slugWords))] + "-" + strconv.Itoa(k) + ".html"
}

func (g *generator) hostsAndPages() {
	o := g.o
	b := g.b
	sizes := zipfSizes(o.Pages, o.Hosts)
	g.roots = make([]uint32, o.Hosts)
	g.pages = make([][]uint32, o.Hosts)
	g.res = make([][]uint32, o.Hosts)
	for h := 0; h < o.Hosts; h++ {
		hid := b.addHost(regularHostSpec(h, !o.NoHTTPS && (o.AllHTTPS || h%8 == 3)))
		b.s.regular = append(b.s.regular, hid)
		root := b.addNode(hid, "/", KindPage, 200, flagRoot)
		g.roots[h] = root
		g.pages[h] = append(g.pages[h], root)
		g.setRegion(root, regCore, 10)
		for k := 1; k < sizes[h]; k++ {
			id := b.addNode(hid, g.pagePath(k), KindPage, 200, flagEvolve)
			g.pages[h] = append(g.pages[h], id)
			x := g.rng.Float64()
			r := regCore
			switch {
			case x < o.DanglingFraction:
				r = regOut
			case x < o.DanglingFraction+o.InFraction:
				r = regIn
			case x < o.DanglingFraction+o.InFraction+o.IslandFraction:
				r = regIsland
			}
			g.setRegion(id, r, 1)
		}
		g.res[h] = []uint32{
			b.resource(hid, "/static/logo.png", ctPNG),
			b.resource(hid, "/static/site.css", ctCSS),
			b.resource(hid, "/files/report.pdf", ctPDF),
		}
	}
	g.any = make([]weighted, o.Hosts)
	g.core = make([]weighted, o.Hosts)
	g.hostW = make([]float64, o.Hosts)
	var cum float64
	for h, ps := range g.pages {
		for _, id := range ps {
			switch g.region[id] {
			case regCore:
				g.any[h].add(id, g.pop[id])
				g.core[h].add(id, g.pop[id])
			case regOut:
				g.any[h].add(id, g.pop[id])
			}
		}
		cum += g.any[h].total()
		g.hostW[h] = cum
	}
}

func (g *generator) setRegion(id uint32, r uint8, boost float64) {
	for len(g.region) <= int(id) {
		g.region = append(g.region, 0)
		g.pop = append(g.pop, 0)
	}
	g.region[id] = r
	p := math.Pow(1-g.rng.Float64(), -1/1.2) // Pareto, alpha 1.2
	g.pop[id] = math.Min(p, 1e4) * boost
}

// degree draws a Pareto out-degree (alpha 1.8) with the configured mean.
func (g *generator) degree() int {
	const alpha = 1.8
	xm := g.o.MeanOutDegree * (alpha - 1) / alpha
	d := int(xm * math.Pow(1-g.rng.Float64(), -1/alpha))
	return min(d, 200)
}

// pickHost draws a host other than h by the weight of its targets.
func (g *generator) pickHost(h int) (int, bool) {
	if len(g.hostW) < 2 {
		return 0, false
	}
	for range 8 {
		x := g.rng.Float64() * g.hostW[len(g.hostW)-1]
		o := sort.SearchFloat64s(g.hostW, x)
		if o < len(g.hostW) && o != h {
			return o, true
		}
	}
	return (h + 1 + g.rng.IntN(len(g.hostW)-1)) % len(g.hostW), true
}

func (g *generator) links() {
	b := g.b
	n := len(g.roots)
	for h, ps := range g.pages {
		var core, island []uint32
		for _, id := range ps {
			switch g.region[id] {
			case regCore:
				core = append(core, id)
			case regIsland:
				island = append(island, id)
			}
		}
		// The ring through a host's core and the ring through the host roots
		// make the core strongly connected whatever the random links do.
		if len(core) > 1 {
			for i, id := range core {
				b.link(id, core[(i+1)%len(core)])
			}
		}
		if n > 1 {
			b.link(g.roots[h], g.roots[(h+1)%n])
		}
		if len(island) > 1 {
			for i, id := range island {
				b.link(id, island[(i+1)%len(island)])
			}
		}
		for _, id := range ps {
			switch g.region[id] {
			case regCore:
				g.randomLinks(id, h, g.any)
				if g.rng.Float64() < 0.05 {
					b.link(id, g.res[h][g.rng.IntN(len(g.res[h]))])
				}
			case regIn:
				g.randomLinks(id, h, g.core)
			case regIsland:
				for range min(g.degree(), 3) {
					b.link(id, island[g.rng.IntN(len(island))])
				}
			}
		}
		for _, r := range g.res[h] {
			b.link(g.roots[h], r)
		}
	}
	for _, ps := range g.pages {
		for _, id := range ps {
			ls := b.nodes[id].links
			g.rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
			b.nodes[id].links = dropSelf(ls, id)
		}
	}
}

func dropSelf(ls []link, id uint32) []link {
	out := ls[:0]
	for _, l := range ls {
		if l.to != id {
			out = append(out, l)
		}
	}
	return out
}

func (g *generator) randomLinks(id uint32, h int, sets []weighted) {
	for range g.degree() {
		set := &sets[h]
		if g.rng.Float64() < g.o.InterHostFraction {
			if o, ok := g.pickHost(h); ok {
				set = &sets[o]
			}
		}
		if t, ok := set.pick(g.rng); ok && t != id {
			g.b.link(id, t)
		}
	}
}

// hostileExtras adds, on the pages of each group but the first page of
// each, the hostile features that live in the page itself: meta robots
// nofollow, malformed HTML, rel=canonical, mailto:/javascript: links,
// rel=nofollow links (to a page of the same group) and broken (404, 410)
// links.
func hostileExtras(b *siteBuilder, rng *rand.Rand, groups [][]uint32) {
	broken := 0
	for _, ps := range groups {
		if len(ps) < 2 {
			continue
		}
		for _, id := range ps[1:] {
			n := &b.nodes[id]
			x := rng.Float64()
			switch {
			case x < 0.03:
				n.flags |= flagMetaNofollow
			case x < 0.08:
				n.flags |= flagMalformed
			case x < 0.18:
				n.flags |= flagCanonical
			case x < 0.23:
				n.flags |= flagJunkLinks
			}
			x = rng.Float64()
			switch {
			case x < 0.05:
				if t := ps[rng.IntN(len(ps))]; t != id {
					b.linkNofollow(id, t)
				}
			case x < 0.08 && len(b.nodes[id].links) > 0:
				broken++
				hid := b.nodes[id].host
				var t uint32
				if broken%2 == 0 {
					t = b.addNode(hid, "/missing/"+strconv.Itoa(broken)+".html", KindGone, 404, 0)
				} else {
					t = b.addNode(hid, "/old/"+strconv.Itoa(broken)+".html", KindGone, 410, 0)
				}
				b.link(id, t)
			}
		}
	}
}

// baseHrefs gives a tenth of the pages a <base href> (both presets).
func baseHrefs(b *siteBuilder, rng *rand.Rand, groups [][]uint32) {
	for _, ps := range groups {
		for _, id := range ps {
			if rng.Float64() < 0.10 {
				b.nodes[id].flags |= flagBase
			}
		}
	}
}

// regularHostSpec is regular host number h: served over https or http,
// every fifth without a robots.txt, the others with regularRobots.
func regularHostSpec(h int, https bool) hostSpec {
	scheme := "http"
	if https {
		scheme = "https"
	}
	spec := hostSpec{Host: Host{Name: regularHostName(h), Scheme: scheme, Role: RoleRegular}}
	if h%5 == 4 {
		spec.robots = robotsMissing
	} else {
		spec.robots, spec.robotsBody = robotsFile, regularRobots
		spec.rules = parseRobots(regularRobots)
	}
	return spec
}
