package testweb

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// GraphOptions configures FromGraph.
type GraphOptions struct {
	// Seed drives every random choice (link spellings, hostile features,
	// epochs).
	Seed int64
	// Name names the graph in dataset headers and, for graphs without
	// URLs, in host names ("h3.NAME.test"); "" means "graph".
	Name string
	// Hosts is, for graphs without URLs, the number of hosts the nodes are
	// spread over by contiguous id ranges of Zipf-distributed sizes (LAW
	// graphs are ordered by URL, so a range is a site); 0 means one host per
	// 500 nodes, at least 1.
	Hosts int
	// Seeds is the number of seed pages (the nodes with the most in-links
	// among those with out-links); 0 means 3.
	Seeds int
	// Preset is Hostile (the zero value: the zoo is linked from the first
	// seed, and pages get hostile features) or Clean (the graph is served
	// exactly: Truth.Graph has the input's arcs).
	Preset Preset
	// Evolution says how pages change across epochs.
	Evolution Evolution
	// CrawlDelay is the Crawl-delay of rules.test (Hostile only); 0 means
	// 500ms, negative means none.
	CrawlDelay time.Duration
	// Sitemaps adds sitemap.test, linked from the first seed, as
	// GenOptions.Sitemaps does; Truth(0).Graph then has its nodes and arcs
	// after the graph's.
	Sitemaps bool
}

// FromGraph serves a web graph: node v becomes one page whose links are its
// out-arcs in order (parallel arcs once, self-loops as links to itself).
//
// With URLs, each node is served at its own URL mapped into the .test
// domain: the host is lower-cased, characters other than letters, digits,
// '-' and '.' become '-', a non-default port becomes a "-pPORT" suffix, and
// ".test" is appended (http://www.epa.gov:8080/x → http://www.epa.gov-p8080.test/x);
// the path and query are normalized and the fragment dropped; schemes
// other than https become http. A URL without a host goes to host
// "nohost.test"; one that collides with an earlier node's URL, or would be
// /robots.txt, is served at /_n/ID.html on its host. Without URLs, nodes
// are spread over hosts h0.NAME.test, h1.NAME.test, ... by contiguous id
// ranges; the first node of a host is served at "/", the others at
// /n/ID.html.
//
// With Preset Clean, Truth(0).Graph has the same node ids and arcs as g.
func FromGraph(g *graph.CSR, o GraphOptions) (*Site, error) {
	if g == nil || g.N() == 0 {
		return nil, fmt.Errorf("%w: empty graph", ErrOptions)
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("testweb: serve graph: %w", err)
	}
	if g.N() > maxPages {
		return nil, fmt.Errorf("%w: graph has %d nodes (at most %d)", ErrOptions, g.N(), maxPages)
	}
	if o.Name == "" {
		o.Name = "graph"
	}
	if o.Seeds == 0 {
		o.Seeds = 3
	}
	if o.Seeds < 0 || o.Hosts < 0 || o.Preset > Clean {
		return nil, fmt.Errorf("%w: seeds %d, hosts %d, preset %d", ErrOptions, o.Seeds, o.Hosts, o.Preset)
	}
	if err := o.Evolution.validate(); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("seedcrawl-testweb graph=%s seed=%d preset=%s", o.Name, o.Seed, o.Preset)
	s := newSite(o.Seed, name, o.Preset, o.Evolution, crawlDelayDefault(o.CrawlDelay))
	b := &siteBuilder{s: s}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x7e57_0eb0_0000_0002))
	n := g.N()
	// Node v must get id v, so every node is added before any extra node.
	if g.URLs != nil {
		placeWithURLs(b, g.URLs)
	} else {
		placeByRanges(b, n, o)
	}
	for v := 0; v < n; v++ {
		for _, t := range g.Out(uint32(v)) {
			b.link(uint32(v), t)
		}
	}
	s.seeds = pickSeeds(g, o.Seeds)
	for _, id := range s.seeds {
		b.nodes[id].flags = b.nodes[id].flags&^flagEvolve | flagRoot
	}
	groups := make([][]uint32, len(s.hosts))
	for v := 0; v < n; v++ {
		h := b.nodes[v].host
		groups[h] = append(groups[h], uint32(v))
	}
	for h := range s.hosts {
		s.regular = append(s.regular, uint32(h))
	}
	if o.Preset == Hostile {
		hostileExtras(b, rng, groups)
	}
	baseHrefs(b, rng, groups)
	if o.Preset == Hostile {
		buildZoo(b, s.seeds[0])
	}
	if o.Sitemaps {
		buildSitemaps(b, s.seeds[0])
	}
	return b.finish(), nil
}

// graphHostName maps the host and port of a URL into the .test domain.
func graphHostName(host, port, scheme string) string {
	var sb strings.Builder
	for _, label := range strings.Split(host, ".") {
		var lb strings.Builder
		for i := 0; i < len(label); i++ {
			c := label[i]
			if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' {
				lb.WriteByte(c)
			} else {
				lb.WriteByte('-')
			}
		}
		l := strings.Trim(lb.String(), "-")
		if l == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(l)
	}
	h := sb.String()
	if h == "" {
		h = "nohost"
	}
	if port != "" && port != defaultPort(scheme) {
		h += "-p" + strings.Map(func(r rune) rune {
			if '0' <= r && r <= '9' {
				return r
			}
			return -1
		}, port)
	}
	if !strings.HasSuffix(h, ".test") {
		h += ".test"
	}
	return h
}

// splitGraphURL splits a URL as written in a dataset, leniently.
func splitGraphURL(raw string) (scheme, host, port, target string) {
	scheme = "http"
	rest := raw
	if i := strings.IndexByte(raw, ':'); i > 0 && urlnorm.IsScheme(raw[:i]) {
		if strings.EqualFold(raw[:i], "https") {
			scheme = "https"
		}
		rest = raw[i+1:]
	}
	if r, ok := strings.CutPrefix(rest, "//"); ok {
		end := strings.IndexAny(r, "/?#")
		if end < 0 {
			end = len(r)
		}
		host, port = hostPort(r[:end])
		rest = r[end:]
	}
	if j := strings.IndexByte(rest, '#'); j >= 0 {
		rest = rest[:j]
	}
	return scheme, host, port, canonicalTarget(rest)
}

func placeWithURLs(b *siteBuilder, urls []string) {
	for v, raw := range urls {
		scheme, host, port, target := splitGraphURL(raw)
		name := graphHostName(host, port, scheme)
		hid, ok := b.s.hostIndex[name]
		if !ok {
			robots := hostSpec{Host: Host{Name: name, Scheme: scheme, Role: RoleRegular},
				robots: robotsFile, robotsBody: allowAllRobots}
			hid = b.addHost(robots)
		}
		var flags uint16 = flagEvolve
		if scheme != b.s.hosts[hid].Scheme {
			flags |= flagAltScheme
		}
		key := target
		if flags&flagAltScheme != 0 {
			key = "*" + target
		}
		if _, dup := b.keys[hid][key]; dup || target == "/robots.txt" {
			target = "/_n/" + strconv.Itoa(v) + ".html"
		}
		if id := b.addNode(hid, target, KindPage, 200, flags); int(id) != v {
			panic(fmt.Sprintf("testweb: node %d placed as %d", v, id))
		}
	}
}

func placeByRanges(b *siteBuilder, n int, o GraphOptions) {
	hosts := o.Hosts
	if hosts == 0 {
		hosts = max(1, n/500)
	}
	hosts = min(hosts, n)
	label := graphHostName(strings.ToLower(o.Name), "", "http")
	label = strings.TrimSuffix(label, ".test")
	sizes := zipfSizes(n, hosts)
	v := 0
	for h, size := range sizes {
		hid := b.addHost(hostSpec{Host: Host{Name: "h" + strconv.Itoa(h) + "." + label + ".test", Scheme: "http", Role: RoleRegular},
			robots: robotsFile, robotsBody: allowAllRobots})
		for k := 0; k < size; k++ {
			path := "/n/" + strconv.Itoa(v) + ".html"
			if k == 0 {
				path = "/"
			}
			b.addNode(hid, path, KindPage, 200, flagEvolve)
			v++
		}
	}
}

// pickSeeds returns the k nodes with the most in-arcs among those with
// out-arcs (ties by id), or node 0 if no node has out-arcs.
func pickSeeds(g *graph.CSR, k int) []uint32 {
	in := g.InDegrees()
	var cand []uint32
	for v := 0; v < g.N(); v++ {
		if g.OutDegree(uint32(v)) > 0 {
			cand = append(cand, uint32(v))
		}
	}
	if len(cand) == 0 {
		return []uint32{0}
	}
	sort.SliceStable(cand, func(i, j int) bool { return in[cand[i]] > in[cand[j]] })
	return cand[:min(k, len(cand))]
}
