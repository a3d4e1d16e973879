package testweb

import (
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Preset selects how hostile a site is.
type Preset uint8

const (
	// Hostile, the zero value, is the full test web: besides the regular
	// hosts it has the zoo of special hosts (rich robots.txt, missing,
	// failing and redirected robots.txt, redirects of every code, chains and
	// a loop, 404 and 410, slow, flaky, rate-limited and connection-dropping
	// hosts, a spider trap, a 50 MB page, a gzip bomb, an https-only host)
	// and, on regular pages, malformed HTML, rel=nofollow links, meta robots
	// nofollow, rel=canonical, broken links and mailto:/javascript: links.
	Hostile Preset = iota
	// Clean has only the regular hosts: every link at epoch 0 leads to an
	// HTML page or a non-HTML resource answered 200, no host misbehaves,
	// and no link is nofollow, so a polite crawl can be compared with the
	// truth for exact equality. Links still come in every spelling
	// (relative, host-relative, <base href>, mixed case, default port,
	// percent-encoding variants, fragments), robots.txt still forbids
	// /private/, and epochs still remove, move and add pages.
	Clean
)

// String returns "hostile" or "clean".
func (p Preset) String() string {
	if p == Clean {
		return "clean"
	}
	return "hostile"
}

// ParsePreset parses "hostile" or "clean".
func ParsePreset(s string) (Preset, error) {
	switch strings.ToLower(s) {
	case "hostile", "":
		return Hostile, nil
	case "clean":
		return Clean, nil
	}
	return 0, fmt.Errorf("%w: preset %q (want clean or hostile)", ErrOptions, s)
}

// Role says what a host is for. Every role but RoleRegular and RoleSitemap
// belongs to the hostile zoo; Site.HostsWith finds a role's hosts.
type Role uint8

// The roles; the hostile zoo has one host of each role but RoleRegular and
// RoleSitemap, which GenOptions.Sitemaps adds in either preset.
const (
	RoleRegular        Role = iota // generated or graph pages; robots.txt forbids /private/ (or is missing)
	RoleRules                      // rules.test: groups, Allow/Disallow, '*', '$', fractional Crawl-delay
	RoleNoRobots                   // norobots.test: robots.txt answers 404
	RoleRobots503                  // robots503.test: robots.txt answers 503, so nothing is fetched
	RoleRobotsRedirect             // robotsredirect.test: robots.txt redirects to norobots.test
	RoleRedirects                  // redirects.test: 301/302/307/308, a chain, cross-host, a loop, 404, 410
	RoleSlow                       // slow.test: every answer delayed by Options.SlowLatency
	RoleFlaky                      // flaky.test: 5xx bursts
	RoleRateLimit                  // ratelimit.test: 429 with Retry-After when asked too often
	RoleDrop                       // drop.test: connections dropped mid-body
	RoleTrap                       // trap.test: infinite calendar and ever-deeper relative paths
	RoleBig                        // big.test: a 50 MB page and a gzip bomb
	RoleSecure                     // secure.test: https only; http answers 301 to https
	RoleSitemap                    // sitemap.test (GenOptions.Sitemaps): pages reachable only through sitemaps
	numRoles
)

var roleNames = [numRoles]string{"regular", "rules", "norobots", "robots503", "robotsredirect",
	"redirects", "slow", "flaky", "ratelimit", "drop", "trap", "big", "secure", "sitemap"}

// String returns the role's name, e.g. "ratelimit".
func (r Role) String() string {
	if r < numRoles {
		return roleNames[r]
	}
	return fmt.Sprintf("role(%d)", r)
}

// Host is one virtual host of the test web.
type Host struct {
	Name   string // lower-case name under .test, e.g. "www.alpha.test"
	Scheme string // "http" or "https": the scheme its URLs use
	Role   Role
}

// Kind says what a URL of the test web answers.
type Kind uint8

// The kinds of URLs.
const (
	KindPage     Kind = iota // an HTML page, 200
	KindResource             // a non-HTML resource (image, PDF, CSS), 200
	KindRedirect             // 301/302/307/308; its single out-arc is the redirect target
	KindGone                 // 404 or 410
	KindTrap                 // the entry of an infinite spider trap; its links are left out of the truth
	KindHuge                 // a 50 MB HTML page without links
	KindBomb                 // a gzip bomb: small on the wire, huge decompressed
	KindDrop                 // the connection is dropped mid-body, every time
	numKinds
)

var kindNames = [numKinds]string{"page", "resource", "redirect", "gone", "trap", "huge", "bomb", "drop"}

// String returns the kind's name, e.g. "redirect".
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Node flags.
const (
	flagMetaNofollow uint16 = 1 << iota // <meta name="robots" content="nofollow,noindex">
	flagMalformed                       // malformed HTML, fake links in comments and scripts
	flagCanonical                       // <link rel="canonical"> to itself (a self-arc)
	flagBase                            // <base href> to another directory
	flagJunkLinks                       // mailto: and javascript: links
	flagEvolve                          // may change, disappear or move across epochs
	flagRoot                            // a seed or host root: may change, never disappears
	flagAltScheme                       // served under the other scheme than its host's
	flagRelLocation                     // redirect with a host-relative Location
)

// link is one out-link of a page, in document order.
type link struct {
	to       uint32
	nofollow bool
}

// node is one URL of the web at one epoch.
type node struct {
	path   string // canonical path and query
	links  []link // pages: out-links in document order; never modified in place
	host   uint32
	target uint32 // KindRedirect: the target node
	ver    uint32 // content version: bumped whenever the body changes
	mod    uint32 // epoch of the last content change
	born   uint32 // epoch the URL first answered
	status uint16
	flags  uint16
	kind   Kind
	ctype  uint8 // KindResource: index into resourceTypes
}

// resourceTypes are the content types of non-HTML resources.
var resourceTypes = [...]string{"image/png", "application/pdf", "text/css; charset=utf-8"}

const (
	ctPNG uint8 = iota
	ctPDF
	ctCSS
)

// state is the whole web at one epoch. Node ids are stable across epochs:
// later epochs only append nodes.
type state struct {
	epoch int
	nodes []node
	index []map[string]uint32 // per host: canonical path (or "*"+path for alt-scheme nodes) → node
	lm    []string            // Last-Modified header value of each epoch 0..epoch
	date  []string            // Date header value: EpochTime(epoch), the web's clock at this epoch
}

func (st *state) lookup(host uint32, key string) (uint32, bool) {
	id, ok := st.index[host][key]
	return id, ok
}

// seal sets the Last-Modified values and the lookup index. Paths of nodes
// never change and nodes are only appended, so the index of the previous
// epoch (prev, nil for epoch 0 built from keys) is shared, and only the maps
// of hosts that gained nodes are copied.
func (st *state) seal(prev *state, keys []map[string]uint32) {
	st.lm = make([]string, st.epoch+1)
	for e := range st.lm {
		st.lm[e] = EpochTime(e).Format(http.TimeFormat)
	}
	st.date = []string{st.lm[st.epoch]}
	if prev == nil {
		st.index = keys
		return
	}
	st.index = slices.Clone(prev.index)
	copied := make([]bool, len(st.index))
	for id := len(prev.nodes); id < len(st.nodes); id++ {
		n := &st.nodes[id]
		if !copied[n.host] {
			st.index[n.host] = maps.Clone(st.index[n.host])
			copied[n.host] = true
		}
		key := n.path
		if n.flags&flagAltScheme != 0 {
			key = "*" + key
		}
		st.index[n.host][key] = uint32(id)
	}
}

// hostSpec is a host with its robots.txt behaviour.
type hostSpec struct {
	Host
	robots      robotsMode
	robotsBody  string            // robotsFile
	robotsTo    string            // robotsRedirect: absolute Location
	rules       *robotsRules      // effective rules for the truth; nil allows everything
	files       map[string]string // extra text/plain files by path
	sitemaps    *sitemapSet       // sitemap files, nil for hosts without
	disallowAll bool              // robots.txt fails: nothing is fetched
}

// Evolution says what fraction of the evolving pages change at each epoch.
// A zero field takes its default; a negative one disables that change.
type Evolution struct {
	Change float64 // content changes (and links are added or dropped); default 0.10
	Gone   float64 // the page disappears, answering 404 or 410; default 0.02
	Move   float64 // the page moves: its URL answers 301 to a new URL; default 0.02
	New    float64 // new pages, as a fraction of the evolving pages, linked from old ones; default 0.05
	// Model is how pages change: EvolveUniform (the zero value) or
	// EvolveWeb. Under EvolveWeb, Change is the expected fraction of
	// evolving pages that change in an epoch, averaged over the heavy-tailed
	// per-page rates.
	Model EvolveModel
	// NewHosts is the number of hosts that appear, one per epoch from epoch
	// 1, under EvolveWeb on a generated web; 0 means a tenth of the regular
	// hosts (at least 1), negative none.
	NewHosts int
}

func (e Evolution) withDefaults() Evolution {
	return Evolution{fracDefault(e.Change, 0.10), fracDefault(e.Gone, 0.02), fracDefault(e.Move, 0.02), fracDefault(e.New, 0.05),
		e.Model, e.NewHosts}
}

// validate rejects fractions that are not numbers (NaN compares false with
// every draw, so a NaN would silently turn a change off) and per-page
// fractions above 1.
func (e Evolution) validate() error {
	d := e.withDefaults()
	for _, f := range []struct {
		name string
		v    float64
	}{{"change", d.Change}, {"gone", d.Gone}, {"move", d.Move}} {
		if !(f.v <= 1) {
			return fmt.Errorf("%w: evolution %s fraction %v (want 0..1, negative for none)", ErrOptions, f.name, f.v)
		}
	}
	if d.Model > EvolveWeb {
		return fmt.Errorf("%w: evolution model %d (want EvolveUniform or EvolveWeb)", ErrOptions, d.Model)
	}
	if math.IsNaN(d.New) || math.IsInf(d.New, 0) {
		return fmt.Errorf("%w: evolution new fraction %v (want a finite number)", ErrOptions, d.New)
	}
	return nil
}

// maxEpoch bounds epochs so a typo cannot make the server compute for hours.
const maxEpoch = 1 << 16

// epochZero is the Last-Modified time of epoch 0; epoch e is e days later.
var epochZero = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// EpochTime returns the time the test web says epoch e started, the Date
// it answers with while serving epoch e, and the Last-Modified of every
// page whose content last changed at epoch e (under EvolveWeb, of every
// page that does not change as a Poisson process: see Site.modTime).
func EpochTime(e int) time.Time { return epochZero.Add(time.Duration(e) * 24 * time.Hour) }

// Site is a test web: hosts, pages and links at epoch 0, and how they evolve.
// It is immutable once built, except for an internal cache of epochs and
// truths, and safe for concurrent use.
type Site struct {
	seed      uint64
	name      string
	preset    Preset
	evo       Evolution
	rateScale float64 // EvolveWeb: rateScale(evo.Change), the c of every page's rate; 0 otherwise
	// linkRate is, under EvolveWeb, the rate at which new pages link to
	// each node of epoch 0 (attachRates); nil otherwise.
	linkRate   []float64
	crawlDelay time.Duration
	hosts      []hostSpec
	hostIndex  map[string]uint32
	seeds      []uint32
	regular    []uint32 // regular hosts, for evolution
	dormant    []uint32 // EvolveWeb: hosts without pages until epoch i+1 (dormant[i])
	// ProfileDocs: per host the navigation every page carries (nil for
	// hosts without), and the paragraphs pages are padded with.
	profile Profile
	nav     [][]uint32
	corpus  [][]byte

	mu     sync.Mutex
	states map[int]*state
	truths map[int]*Truth
}

// Name describes where the site came from, for dataset headers.
func (s *Site) Name() string { return s.name }

// Preset returns the site's preset.
func (s *Site) Preset() Preset { return s.preset }

// Hosts returns the site's hosts in a stable order.
func (s *Site) Hosts() []Host {
	hs := make([]Host, len(s.hosts))
	for i := range s.hosts {
		hs[i] = s.hosts[i].Host
	}
	return hs
}

// HostsWith returns the hosts that have role r.
func (s *Site) HostsWith(r Role) []Host {
	var hs []Host
	for i := range s.hosts {
		if s.hosts[i].Role == r {
			hs = append(hs, s.hosts[i].Host)
		}
	}
	return hs
}

// Seeds returns the canonical URLs of the site's seed pages: host roots of
// the generated core, or well-connected pages of a graph.
func (s *Site) Seeds() []string {
	st := s.base()
	out := make([]string, len(s.seeds))
	for i, id := range s.seeds {
		out[i] = s.url(st, id)
	}
	return out
}

func (s *Site) base() *state {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[0]
}

// url returns the canonical URL of node id.
func (s *Site) url(st *state, id uint32) string {
	n := &st.nodes[id]
	h := &s.hosts[n.host]
	scheme := h.Scheme
	if n.flags&flagAltScheme != 0 {
		scheme = otherScheme(scheme)
	}
	return scheme + "://" + h.Name + n.path
}

func otherScheme(s string) string {
	if s == "https" {
		return "http"
	}
	return "https"
}

// epochState returns the web at epoch e, computing and caching the epochs
// in between. Each epoch is derived from the previous one with a generator
// seeded by the site's seed and the epoch, so the same seed and epoch always
// give the same web.
func (s *Site) epochState(e int) (*state, error) {
	if e < 0 || e > maxEpoch {
		return nil, fmt.Errorf("%w: %d (want 0..%d)", ErrEpoch, e, maxEpoch)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.states[e]; ok {
		return st, nil
	}
	from := 0
	for k := range s.states {
		if k < e && k > from {
			from = k
		}
	}
	st := s.states[from]
	for k := from + 1; k <= e; k++ {
		st = s.evolve(st, k)
	}
	s.states[e] = st
	return st, nil
}

// newSite returns a site with the common fields set and no nodes.
func newSite(seed int64, name string, preset Preset, evo Evolution, crawlDelay time.Duration) *Site {
	evo = evo.withDefaults()
	scale := 0.0
	if evo.Model == EvolveWeb {
		scale = rateScale(evo.Change)
	}
	return &Site{
		rateScale:  scale,
		seed:       uint64(seed),
		name:       name,
		preset:     preset,
		evo:        evo,
		crawlDelay: crawlDelay,
		hostIndex:  make(map[string]uint32),
		states:     make(map[int]*state),
		truths:     make(map[int]*Truth),
	}
}

// siteBuilder accumulates hosts and nodes of epoch 0.
type siteBuilder struct {
	s     *Site
	nodes []node
	keys  []map[string]uint32
}

func (b *siteBuilder) addHost(h hostSpec) uint32 {
	if _, dup := b.s.hostIndex[h.Name]; dup {
		panic("testweb: duplicate host " + h.Name)
	}
	id := uint32(len(b.s.hosts))
	b.s.hosts = append(b.s.hosts, h)
	b.s.hostIndex[h.Name] = id
	b.keys = append(b.keys, make(map[string]uint32))
	return id
}

// addNode adds a node; an existing node with the same URL is returned instead.
func (b *siteBuilder) addNode(host uint32, path string, k Kind, status int, flags uint16) uint32 {
	key := path
	if flags&flagAltScheme != 0 {
		key = "*" + path
	}
	if id, ok := b.keys[host][key]; ok {
		return id
	}
	id := uint32(len(b.nodes))
	b.nodes = append(b.nodes, node{host: host, path: path, kind: k, status: uint16(status), flags: flags})
	b.keys[host][key] = id
	return id
}

func (b *siteBuilder) link(from, to uint32) {
	b.nodes[from].links = append(b.nodes[from].links, link{to: to})
}

func (b *siteBuilder) linkNofollow(from, to uint32) {
	b.nodes[from].links = append(b.nodes[from].links, link{to: to, nofollow: true})
}

func (b *siteBuilder) redirect(from, to uint32, code int) {
	n := &b.nodes[from]
	n.kind, n.status, n.target = KindRedirect, uint16(code), to
}

func (b *siteBuilder) resource(host uint32, path string, ct uint8) uint32 {
	id := b.addNode(host, path, KindResource, 200, 0)
	b.nodes[id].ctype = ct
	return id
}

// finish dedups links and stores epoch 0.
func (b *siteBuilder) finish() *Site {
	for i := range b.nodes {
		b.nodes[i].links = dedupLinks(b.nodes[i].links)
	}
	st := &state{epoch: 0, nodes: b.nodes}
	st.seal(nil, b.keys)
	b.s.states[0] = st
	if b.s.evo.Model == EvolveWeb {
		b.s.linkRate = attachRates(st, b.s.evo, len(b.s.hosts))
	}
	return b.s
}

// dedupLinks keeps the first link to each target, in order. A target with
// both a followed and a nofollow link keeps only the followed one, so a
// link's nofollow status is unambiguous.
func dedupLinks(ls []link) []link {
	if len(ls) < 2 {
		return ls
	}
	if len(ls) > 48 {
		return dedupLinksMap(ls)
	}
	out := make([]link, 0, len(ls))
	for i, l := range ls {
		keep := true
		for j, m := range ls {
			if m.to == l.to && (j < i && (!m.nofollow || l.nofollow) || l.nofollow && !m.nofollow) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, l)
		}
	}
	return out
}

func dedupLinksMap(ls []link) []link {
	followed := make(map[uint32]bool, len(ls))
	for _, l := range ls {
		if !l.nofollow {
			followed[l.to] = true
		}
	}
	seen := make(map[uint32]bool, len(ls))
	out := make([]link, 0, len(ls))
	for _, l := range ls {
		if seen[l.to] || (l.nofollow && followed[l.to]) {
			continue
		}
		seen[l.to] = true
		out = append(out, l)
	}
	return out
}
