package scope

import (
	"sync"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Link is one distinct, vetted link of a page.
type Link struct {
	URL     string // normalized
	Host    string // urlnorm.Authority of URL: the politeness key
	Kind    storage.LinkKind
	InScope bool
	// note is what Rules keeps of URL in the extractor memo's Note (nil
	// for a link without one).
	note *vetted
}

// Hosts is what admission asks the frontier about a link's host;
// *frontier.Frontier implements it.
type Hosts interface {
	// Dropped reports a host given up, whose links are not queued, and why.
	Dropped(host string) (reason string, ok bool)
	// HostFull reports that host's page budget is spent.
	HostFull(host string) bool
}

// Options configure Rules. The zero Scope allows nothing but what
// SeedRedirects brings in.
type Options struct {
	// Scope decides which URLs are crawled.
	Scope urlnorm.Scope
	// SeedRedirects brings the host of a seed's redirect target into scope
	// (Redirect).
	SeedRedirects bool
	// Settings give MaxDepth (negative: no limit), MaxRedirects and the
	// trap guards (MaxURLLength, MaxPathSegments, MaxRepeatedSegments,
	// MaxQueryParams; zero: urlnorm's defaults).
	Settings config.Config
	// Hosts is asked about a link's host when it is admitted; Admit
	// needs it.
	Hosts Hosts
}

// Rules vets and admits a crawl's links. Build it with New.
type Rules struct {
	opts  Options
	guard urlnorm.Guard
	kinds [256]storage.LinkKind // extract.Kind -> the storage kind (Extracted)

	mu    sync.RWMutex
	hosts map[string]bool // hosts brought into scope by seed redirects
}

// New returns the Rules of opts.
func New(opts Options) *Rules {
	s := &opts.Settings
	// Calendars link to next month for ever: a dated URL more than a year
	// past the current one is a trap page (urlnorm.ReasonCalendarDate).
	// The year changes too slowly for the frontier's clock to matter.
	guard := urlnorm.Guard{MaxLen: s.MaxURLLength, MaxSegments: s.MaxPathSegments, MaxRepeats: s.MaxRepeatedSegments,
		MaxQueryParams: s.MaxQueryParams, MaxYear: time.Now().Year() + 1}
	return &Rules{opts: opts, guard: guard, kinds: linkKinds(), hosts: map[string]bool{}}
}

// InScope reports whether u (normalized) is in the crawl's scope, hosts
// brought in by seed redirects included.
func (r *Rules) InScope(u string) bool { return r.inScope(u, urlnorm.Authority(u)) }

func (r *Rules) inScope(u, host string) bool {
	return r.opts.Scope.Allows(u) || r.added(host)
}

// added reports whether a seed redirect brought host into scope.
func (r *Rules) added(host string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.hosts[host]
}

// Vet checks u (normalized), a link of kind, against the trap guards and
// the scope. When the guards refuse it, ok is false and reason says why.
func (r *Rules) Vet(u string, kind storage.LinkKind) (l Link, reason string, ok bool) {
	return r.Checked(u, kind, r.InScope(u))
}

// Checked is Vet for a URL whose scope is already known (an extracted
// link, which the extractor asked InScope about).
func (r *Rules) Checked(u string, kind storage.LinkKind, inScope bool) (l Link, reason string, ok bool) {
	if reason, ok := r.check(u); !ok {
		return Link{}, reason, false
	}
	return Link{URL: u, Host: urlnorm.Authority(u), Kind: kind, InScope: inScope}, "", true
}

// check runs the trap guards and storage's length limit on u.
func (r *Rules) check(u string) (reason string, ok bool) {
	if reason, ok := r.guard.Check(u); !ok {
		return reason, false
	}
	if len(u) > storage.MaxURLLen {
		return "url-too-long", false
	}
	return "", true
}

// Admit decides whether l, a link at depth redirectHops into a redirect
// chain, may be queued. When it may not, status and reason say why, and
// soft reports that a later link may still queue it (one found at a
// smaller depth).
func (r *Rules) Admit(l *Link, depth, redirectHops int) (status storage.Status, reason string, soft, ok bool) {
	return r.admit(l, depth, redirectHops, nil)
}

// admit is Admit, asking full (nil: Hosts) whether l's host is full.
func (r *Rules) admit(l *Link, depth, redirectHops int, full *fullHost) (status storage.Status, reason string, soft, ok bool) {
	s := &r.opts.Settings
	switch {
	case !l.InScope:
		return storage.StatusOutOfScope, "", false, false
	case redirectHops > s.MaxRedirects:
		return storage.StatusRejected, "too-many-redirects", false, false
	}
	if why, dropped := r.opts.Hosts.Dropped(l.Host); dropped {
		return storage.StatusDeferred, why, false, false
	}
	switch {
	case s.MaxDepth >= 0 && depth > s.MaxDepth:
		return storage.StatusRejected, "max-depth", true, false
	case full.hostFull(r.opts.Hosts, l.Host):
		return storage.StatusRejected, "host-max-pages", false, false
	}
	return 0, "", false, true
}

// fullHost remembers Hosts.HostFull's answer for one host while nothing is
// queued: a page's links are nearly all of its own host, and each asked
// the frontier (a lock and a map lookup) in turn. A host's budget fills
// only as URLs are queued (Crawl.Queue), so forget is called after each.
type fullHost struct {
	host      string
	full, set bool
}

// hostFull is hosts.HostFull(host), remembered in f; f nil asks hosts.
func (f *fullHost) hostFull(hosts Hosts, host string) bool {
	if f == nil {
		return hosts.HostFull(host)
	}
	if !f.set || f.host != host {
		f.host, f.full, f.set = host, hosts.HostFull(host), true
	}
	return f.full
}

// forget drops what f remembers: a URL was queued.
func (f *fullHost) forget() { f.set = false }

// Check decides, as for a link at depth, whether u (normalized) may be
// queued: its scope, its host's state and page budget, MaxDepth (Admit).
// When it may not, status and reason say why.
func (r *Rules) Check(u string, depth int) (status storage.Status, reason string, ok bool) {
	status, reason, _, ok = r.Admit(&Link{URL: u, Host: urlnorm.Authority(u), InScope: r.InScope(u)}, depth, 0)
	return status, reason, ok
}

// Redirect is told of target, the redirect target of a page at depth.
// With SeedRedirects, the target of a page at depth 0 (a seed, or a
// seed's redirect target) out of scope is a seed too: its host comes into
// scope and target.InScope is set. It reports whether the scope grew.
func (r *Rules) Redirect(target *Link, depth int) bool {
	if !r.opts.SeedRedirects || depth != 0 || target.InScope {
		return false
	}
	target.InScope = true
	r.mu.Lock()
	r.hosts[target.Host] = true
	r.mu.Unlock()
	return true
}
