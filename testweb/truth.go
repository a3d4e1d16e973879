package testweb

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
)

// Truth is what the test web serves at one epoch, in the terms a crawl is
// recorded in: canonical URLs and the links a polite crawler follows.
type Truth struct {
	// Epoch is the epoch described.
	Epoch int
	// Graph is the served web graph. Node v is the canonical URL
	// Graph.URLs[v] (Graph.Hosts and HostNames are derived from the URLs).
	// Node ids are stable across epochs: a later epoch only appends nodes.
	// Every URL the web answers for is a node, whether linked or not (pages
	// unreachable from the seeds included), except the infinitely many
	// trap pages beyond each trap's entry and the robots.txt files.
	//
	// Out-arcs, as a polite crawler records them:
	//   - a page (KindPage): its distinct link targets in document order
	//     (first occurrence), a <link rel="canonical"> self-link first;
	//     rel=nofollow links and every link of a page with
	//     <meta name="robots" content="nofollow"> are left out (see
	//     Nofollow); so are mailto:, javascript: and ftp: links and the fake
	//     links inside comments and scripts of malformed pages;
	//   - a redirect (KindRedirect): exactly one arc, to its Location;
	//   - everything else (resources, 404/410, trap entries, the huge page,
	//     the bomb, dropped pages): no arcs. A trap entry's links lead into
	//     an infinite space and are left out; the dropped pages' bodies
	//     never arrive whole.
	Graph *graph.CSR
	// Nodes describes each node.
	Nodes []NodeInfo
	// Nofollow lists links that pages carry but a polite crawler must not
	// follow, so tests can check they were not.
	Nofollow []Arc
	// Seeds are the site's seed URLs.
	Seeds []string

	site   *Site
	st     *state
	prOnce sync.Once
	pr     []float64
}

// NodeInfo describes one URL of a Truth.
type NodeInfo struct {
	Kind Kind
	// Status is what a GET answers: 200, 301, 302, 307, 308, 404 or 410 (a
	// dropped page answers 200, then the connection breaks).
	Status int
	// ContentType, ETag and Modified are set for 200 answers (except trap
	// pages' ETag, which is per trap URL): Modified is the epoch of the last
	// content change, so Last-Modified is EpochTime(Modified).
	ContentType string
	ETag        string
	Modified    int
	// LastModified is the page's Last-Modified time: EpochTime(Modified),
	// except for EvolveWeb's changing pages, whose last change is placed
	// on the web's clock before EpochTime(Modified) (see Site.modTime).
	LastModified time.Time
	// MetaNofollow is set on pages with <meta name="robots" content="nofollow,noindex">.
	MetaNofollow bool
	// Born is the epoch the URL first answered: 0 for the URLs of the
	// generated web, e for a page new at epoch e, a moved page's new URL
	// or a page of a host that appeared at e.
	Born int
	// ChangeRate is the expected number of content changes of the page per
	// epoch, the rate λ of its Poisson change process (see Evolution): the
	// value a change-rate estimator should recover. 0 for URLs that never
	// change (resources, gone pages, redirects, the zoo).
	ChangeRate float64
}

// Arc is a link between two node ids of a Truth.
type Arc struct{ From, To uint32 }

// Truth returns the ground truth of epoch e. Truths are cached; callers
// must not modify them.
func (s *Site) Truth(e int) (*Truth, error) {
	st, err := s.epochState(e)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.truths[e]; ok {
		return t, nil
	}
	t := s.buildTruth(st)
	s.truths[e] = t
	return t, nil
}

func (s *Site) buildTruth(st *state) *Truth {
	n := len(st.nodes)
	t := &Truth{Epoch: st.epoch, Nodes: make([]NodeInfo, n), site: s, st: st}
	scale := 0.0
	if s.evo.Model == EvolveWeb {
		scale = rateScale(s.evo.Change)
	}
	urls := make([]string, n)
	off := make([]uint64, n+1)
	var tg []uint32
	for id := range st.nodes {
		v := uint32(id)
		nd := &st.nodes[id]
		urls[id] = s.url(st, v)
		info := NodeInfo{Kind: nd.kind, Status: int(nd.status), MetaNofollow: nd.flags&flagMetaNofollow != 0,
			Born: int(nd.born), ChangeRate: s.changeRate(nd, v, scale)}
		switch nd.kind {
		case KindPage, KindResource, KindHuge, KindBomb, KindDrop, KindTrap:
			info.ContentType = "text/html; charset=utf-8"
			if nd.kind == KindResource {
				info.ContentType = resourceTypes[nd.ctype]
			}
			if nd.kind != KindTrap {
				info.ETag = s.etag(v, nd.ver)
			}
			info.Modified = int(nd.mod)
			info.LastModified = EpochTime(info.Modified)
			if s.evo.Model == EvolveWeb {
				info.LastModified = s.modTime(nd, v)
			}
		}
		t.Nodes[id] = info
		off[id] = uint64(len(tg))
		switch nd.kind {
		case KindRedirect:
			tg = append(tg, nd.target)
		case KindPage:
			start := len(tg)
			nav := s.navOf(nd) // ProfileDocs: navigation links come first
			if nd.flags&flagMetaNofollow != 0 {
				if nd.flags&flagCanonical != 0 {
					t.Nofollow = append(t.Nofollow, Arc{v, v})
				}
				for _, to := range nav {
					t.Nofollow = append(t.Nofollow, Arc{v, to})
				}
				for _, l := range nd.links {
					t.Nofollow = append(t.Nofollow, Arc{v, l.to})
				}
				break
			}
			if nd.flags&flagCanonical != 0 {
				tg = append(tg, v)
			}
			for _, to := range nav {
				if !containsU32(tg[start:], to) {
					tg = append(tg, to)
				}
			}
			for _, l := range nd.links {
				switch {
				case l.nofollow && containsU32(nav, l.to):
					// Also a navigation link, which is followed.
				case l.nofollow:
					t.Nofollow = append(t.Nofollow, Arc{v, l.to})
				case !containsU32(tg[start:], l.to):
					tg = append(tg, l.to)
				}
			}
		}
	}
	off[n] = uint64(len(tg))
	g := &graph.CSR{Offsets: off, Targets: tg}
	g.SetURLs(urls)
	t.Graph = g
	for _, id := range s.seeds {
		t.Seeds = append(t.Seeds, urls[id])
	}
	return t
}

// New returns the node ids of the URLs that first answered at this epoch
// (Born == Epoch), in id order: the pages a recrawl can discover. At
// epoch 0 that is every URL.
func (t *Truth) New() []uint32 {
	var out []uint32
	for v := range t.Nodes {
		if t.Nodes[v].Born == t.Epoch {
			out = append(out, uint32(v))
		}
	}
	return out
}

// Changed returns the node ids of the URLs that existed before this epoch
// and changed at it (Born < Epoch, last change at Epoch): content changes,
// pages that disappeared and pages that moved away. At epoch 0 it is empty.
func (t *Truth) Changed() []uint32 {
	var out []uint32
	for v := range t.Nodes {
		if nd := &t.st.nodes[v]; int(nd.born) < t.Epoch && int(nd.mod) == t.Epoch {
			out = append(out, uint32(v))
		}
	}
	return out
}

func containsU32(a []uint32, x uint32) bool {
	for _, y := range a {
		if y == x {
			return true
		}
	}
	return false
}

// PageRank returns the normalised PageRank of Graph (graph.PageRank with
// its defaults: d = 0.85, dangling rank spread uniformly), computed once.
func (t *Truth) PageRank() []float64 {
	t.prOnce.Do(func() { t.pr, _ = graph.PageRank(t.Graph, graph.PageRankOptions{}) })
	return t.pr
}

// SeedIDs returns the node ids of the seed URLs, each once, in the order
// of Seeds; a seed that is not a node is left out.
func (t *Truth) SeedIDs() []uint32 {
	ids := make([]uint32, 0, len(t.Seeds))
	for _, u := range t.Seeds {
		if id, ok := t.ID(u); ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// ID returns the node id of a URL, in any spelling that normalizes to a
// node's canonical URL.
func (t *Truth) ID(rawURL string) (uint32, bool) {
	scheme, host, port, rest, err := splitURL(rawURL)
	if err != nil || port != "" {
		return 0, false
	}
	hid, ok := t.site.hostIndex[host]
	if !ok {
		return 0, false
	}
	key := canonicalTarget(rest)
	if scheme != t.site.hosts[hid].Scheme {
		key = "*" + key
	}
	return t.st.lookup(hid, key)
}

// URL returns the canonical URL of node id.
func (t *Truth) URL(id uint32) string { return t.Graph.URLs[id] }

// Host returns the host of a URL of the web.
func (t *Truth) Host(rawURL string) (Host, bool) {
	_, host, _, _, err := splitURL(rawURL)
	if err != nil {
		return Host{}, false
	}
	hid, ok := t.site.hostIndex[host]
	if !ok {
		return Host{}, false
	}
	return t.site.hosts[hid].Host, true
}

// Allowed reports whether a crawler with product token may fetch rawURL
// under the robots.txt of its host, as RFC 9309 defines it: a missing
// robots.txt (404) allows everything; one answering 503 forbids everything
// (a crawler keeps the host deferred and then treats it as disallow-all);
// one that redirects to another host applies the rules found there. URLs
// of hosts outside the web are not allowed.
func (t *Truth) Allowed(rawURL, token string) bool {
	_, host, _, rest, err := splitURL(rawURL)
	if err != nil {
		return false
	}
	hid, ok := t.site.hostIndex[host]
	if !ok {
		return false
	}
	target := canonicalTarget(rest)
	if target == "/robots.txt" {
		return true
	}
	spec := &t.site.hosts[hid]
	switch {
	case spec.disallowAll:
		return false
	case spec.rules == nil:
		return true
	}
	return spec.rules.allowed(target, token)
}

// CrawlDelay returns the Crawl-delay the robots.txt of host asks of token
// (0 when none).
func (t *Truth) CrawlDelay(host, token string) time.Duration {
	hid, ok := t.site.hostIndex[host]
	if !ok || t.site.hosts[hid].rules == nil {
		return 0
	}
	_, d := t.site.hosts[hid].rules.forToken(token)
	return d
}

// Forbidden returns the node ids whose URLs robots.txt forbids to token.
func (t *Truth) Forbidden(token string) []uint32 {
	var out []uint32
	for v, u := range t.Graph.URLs {
		if !t.Allowed(u, token) {
			out = append(out, uint32(v))
		}
	}
	return out
}

// IsTrap reports whether rawURL is a page of a spider trap (the entry or
// any page beyond it).
func (t *Truth) IsTrap(rawURL string) bool {
	_, host, port, rest, err := splitURL(rawURL)
	if err != nil || port != "" {
		return false
	}
	hid, ok := t.site.hostIndex[host]
	return ok && t.site.hosts[hid].Role == RoleTrap && isTrapTarget(canonicalTarget(rest))
}

// LastModified returns the Last-Modified header value of node id.
func (t *Truth) LastModified(id uint32) string {
	if lm := t.Nodes[id].LastModified; !lm.IsZero() {
		return lm.Format(http.TimeFormat)
	}
	return EpochTime(t.Nodes[id].Modified).Format(http.TimeFormat)
}

// newReach starts a Reach for token with the seeds discovered; the error
// names the seed that is not a URL of the web.
func (t *Truth) newReach(seeds []string, token string) (*Reach, error) {
	n := t.Graph.N()
	r := &Reach{t: t, token: token, discovered: make([]bool, n), fetched: make([]bool, n)}
	for _, s := range seeds {
		id, ok := t.ID(s)
		if !ok {
			return nil, fmt.Errorf("seed %q: %w", s, ErrUnknownURL)
		}
		r.discover(id)
	}
	return r, nil
}

// Reachable returns what a polite crawler with product token discovers and
// fetches starting from seeds, without scope, depth or page limits:
//
//   - a URL is discovered if it is a seed or the target of an arc of a
//     fetched node (Graph's arcs: nofollow links are not followed, a
//     redirect leads to its target, even on another host);
//   - a discovered URL is fetched unless Allowed says robots.txt forbids it
//     (robots503.test: never; robotsredirect.test: the redirected rules).
//     Forbidden URLs are discovered, so a crawl records them, but their
//     links are never seen;
//   - 404 and 410 URLs, resources, the huge page and the gzip bomb are
//     fetched and have no arcs; so are the pages of drop.test (the crawler
//     sees an error) and each trap's entry (a crawl goes on into the trap
//     until its guards stop it; Diff counts those URLs separately);
//   - flaky.test and ratelimit.test pages are fetched: a crawler that
//     retries 5xx and honours Retry-After gets them.
//
// Seeds may be in any spelling; a seed that is not a URL of the web is an
// error wrapping ErrUnknownURL.
func (t *Truth) Reachable(seeds []string, token string) (*Reach, error) {
	r, err := t.newReach(seeds, token)
	if err != nil {
		return nil, fmt.Errorf("testweb: reachable from %w", err)
	}
	for i := 0; i < len(r.Order); i++ {
		v := r.Order[i]
		if !t.Allowed(t.Graph.URLs[v], token) {
			continue
		}
		r.fetched[v] = true
		for _, w := range t.Graph.Out(v) {
			r.discover(w)
		}
	}
	return r, nil
}
