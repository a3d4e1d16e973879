package robots

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Decision reasons, stable strings for counting.
const (
	// ReasonDisallowed: a Disallow rule for our token matches the URL.
	ReasonDisallowed = "robots-disallowed"
	// ReasonDeferred: robots.txt could not be fetched yet (5xx, timeout,
	// network error); ask again at Decision.RetryAt.
	ReasonDeferred = "robots-deferred"
	// ReasonUnreachable: robots.txt stayed unreachable for MaxFailures
	// attempts; the whole origin is disallowed until the TTL passes.
	ReasonUnreachable = "robots-unreachable"
	// ReasonPrivateAddress: the origin's address was refused
	// (Options.Refused): a private, loopback or otherwise special-purpose
	// address the crawl may not fetch. Decided at the first attempt.
	ReasonPrivateAddress = "private-address"
)

// Decision is Check's answer for one URL.
type Decision struct {
	// Allowed reports whether the URL may be fetched now.
	Allowed bool
	// CrawlDelay is the Crawl-delay of the group that applies to us, 0 if
	// none. It is set whenever the origin's rules are known, allowed or
	// not. Capping it is the caller's business.
	CrawlDelay time.Duration
	// RetryAt is set when the origin is deferred (ReasonDeferred): do not
	// ask again before it. Zero otherwise.
	RetryAt time.Time
	// Reason says why Allowed is false (a Reason constant); "" if allowed.
	Reason string
	// Cause is the failure behind ReasonDeferred, ReasonUnreachable and
	// ReasonPrivateAddress, as the last attempt saw it, led by its class
	// ("refused: dial tcp ...: connection refused", "http-503: 503 Service
	// Unavailable"); "" otherwise. CauseClass returns the class.
	Cause string
	// Requests are the requests this Check made to answer: the robots.txt
	// request and each redirect hop, in order; empty when the answer came
	// from the cache or the Store. Every caller waiting on one fetch gets
	// them. They count for the politeness of the hosts they went to, which
	// the caller enforces.
	Requests []Request
}

// Request is one request a Check made.
type Request struct {
	// Host is the host the request went to.
	Host urlnorm.Host
	// At is when it started, on Options.Now.
	At time.Time
}

// Defaults for Options' zero fields.
const (
	DefaultTTL          = 24 * time.Hour
	DefaultMaxSize      = 500 << 10
	DefaultMaxRedirects = 5
	DefaultMaxFailures  = 4
	DefaultBackoff      = 30 * time.Second
	DefaultMaxBackoff   = time.Hour
	DefaultTimeout      = 30 * time.Second
	DefaultMaxCached    = 4096
)

// Options configure a Cache. The zero value of each field means the
// default named in its comment.
type Options struct {
	// Client fetches robots.txt. Its Transport is used as is (the crawler
	// passes one built by fetch.NewTransport: resolver override, SSRF
	// guard, timeouts); its CheckRedirect is replaced to follow at most
	// MaxRedirects hops. nil: a client on http.DefaultTransport.
	Client *http.Client
	// UserAgent is sent with each robots.txt request. "": version.UserAgent.
	UserAgent string
	// Token is the product token matched against User-agent lines.
	// "": version.Token.
	Token string
	// Store persists entries. nil: entries live only in memory.
	Store Store
	// TTL is how long a fetched (or given-up) robots.txt is trusted.
	// Default 24h.
	TTL time.Duration
	// MaxSize is how many bytes of robots.txt are read. Default 500 KiB.
	MaxSize int64
	// MaxRedirects is how many redirect hops are followed. Default 5.
	MaxRedirects int
	// MaxFailures is how many consecutive failed fetches defer an origin
	// before it is treated as disallow-all until TTL. Default 4.
	MaxFailures int
	// Backoff is the wait after the first failure; each further failure
	// doubles it, up to MaxBackoff. Default 30s: a robots.txt answering
	// 5xx or timing out is given up after 30+60+120 s.
	Backoff time.Duration
	// ConnBackoff replaces Backoff after a failure to connect at all
	// (connection refused or reset, no such host, TLS handshake or
	// certificate failure): such hosts rarely come back within minutes, so
	// they are given up sooner. Default Backoff/3 (10s: given up after
	// 10+20+40 s, about a minute).
	ConnBackoff time.Duration
	// Refused, when set, reports a fetch error that refuses the origin for
	// good, such as the SSRF guard refusing a private address: the origin
	// is decided at once (ReasonPrivateAddress) without retries. nil:
	// every error is retried.
	Refused func(error) bool
	// MaxBackoff caps the wait between attempts. Default 1h.
	MaxBackoff time.Duration
	// Timeout bounds one robots.txt fetch, redirects included. Default 30s.
	Timeout time.Duration
	// MaxCached is how many origins' parsed rules are kept in memory;
	// older ones are reloaded from Store when asked for. Default 4096.
	MaxCached int
	// Now is the clock. nil: time.Now.
	Now func() time.Time
	// Archive, when set, keeps every robots.txt exchange, redirect hops
	// included, as the crawl keeps its pages (--warc: fetch.Recording
	// over a Client transport that records); it wraps Client's transport.
	// An exchange that could not be archived does not change the
	// decision: Check returns the failure with it, and the entry stays
	// in memory but is not saved in Store, so the next process fetches
	// robots.txt again and archives it. nil: nothing is archived.
	Archive Archiver
}

// Cache answers robots.txt questions for every origin of a crawl. It is
// safe for concurrent use; share one per crawl.
type Cache struct {
	opts   Options
	client *http.Client
	flight singleflight.Group
	lru    *lru
}

// New returns a Cache; it fails with ErrOptions on negative sizes or
// durations.
func New(opts Options) (*Cache, error) {
	if opts.TTL < 0 || opts.MaxSize < 0 || opts.MaxRedirects < 0 || opts.MaxFailures < 0 ||
		opts.Backoff < 0 || opts.ConnBackoff < 0 || opts.MaxBackoff < 0 || opts.Timeout < 0 || opts.MaxCached < 0 {
		return nil, fmt.Errorf("robots: new cache: %w: negative limit", ErrOptions)
	}
	setDefault(&opts.TTL, DefaultTTL)
	setDefault(&opts.MaxSize, DefaultMaxSize)
	setDefault(&opts.MaxRedirects, DefaultMaxRedirects)
	setDefault(&opts.MaxFailures, DefaultMaxFailures)
	setDefault(&opts.Backoff, DefaultBackoff)
	setDefault(&opts.ConnBackoff, opts.Backoff/3)
	setDefault(&opts.MaxBackoff, DefaultMaxBackoff)
	setDefault(&opts.Timeout, DefaultTimeout)
	setDefault(&opts.MaxCached, DefaultMaxCached)
	if opts.UserAgent == "" {
		opts.UserAgent = version.UserAgent
	}
	if opts.Token == "" {
		opts.Token = version.Token
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	var client http.Client
	if opts.Client != nil {
		client = *opts.Client // shallow copy: same Transport, own CheckRedirect
	}
	if opts.Archive != nil {
		next := client.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		client.Transport = opts.Archive.Wrap(next, opts.MaxSize, noteArchiveFailure)
	}
	maxRedirects := opts.MaxRedirects
	now := opts.Now
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return errTooManyRedirects
		}
		noteRequest(req, now())
		return nil
	}
	return &Cache{opts: opts, client: &client, lru: newLRU(opts.MaxCached)}, nil
}

func setDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v == 0 {
		*v = def
	}
}

// Check decides whether u may be fetched, fetching the origin's robots.txt
// first if nothing fresh is known about it. Concurrent calls for one origin
// share a single fetch; each caller stops waiting when its own ctx ends.
// Errors: ErrURL for a URL that is not absolute http(s), ctx's error, or a
// Store or Archive failure (the decision is still computed and returned
// with it).
func (c *Cache) Check(ctx context.Context, u *url.URL) (Decision, error) {
	if u == nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Decision{}, fmt.Errorf("robots: check %v: %w", u, ErrURL)
	}
	origin := urlnorm.Origin(u)
	now := c.opts.Now()
	if r, ok := c.lru.get(origin); ok && now.Before(r.entry.Expires) {
		return c.decide(r, u), nil
	}
	ch := c.flight.DoChan(origin, func() (any, error) {
		return c.refresh(origin)
	})
	select {
	case <-ctx.Done():
		return Decision{}, fmt.Errorf("robots: check %s: %w", origin, ctx.Err())
	case res := <-ch:
		fl := res.Val.(flight)
		d := c.decide(fl.rec, u)
		d.Requests = fl.requests
		if res.Err != nil {
			return d, res.Err
		}
		return d, nil
	}
}

// decide answers for u from a known record.
func (c *Cache) decide(r *record, u *url.URL) Decision {
	switch State(r.entry.State) {
	case StateAllowAll:
		return Decision{Allowed: true}
	case StateDeferred:
		return Decision{RetryAt: r.entry.Expires, Reason: ReasonDeferred, Cause: r.entry.Err}
	case StateDisallowAll:
		return Decision{Reason: ReasonUnreachable, Cause: r.entry.Err}
	case StateRefused:
		return Decision{Reason: ReasonPrivateAddress, Cause: r.entry.Err}
	}
	d := Decision{CrawlDelay: r.group.crawlDelay}
	if r.group.allowed(pathQuery(u)) {
		d.Allowed = true
	} else {
		d.Reason = ReasonDisallowed
	}
	return d
}

// pathQuery returns the part of u robots rules match: path and query,
// escaped as they are sent.
func pathQuery(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	return p
}

// CauseClass returns the class of d.Cause, one stable word to count
// failures by: refused, reset, unreachable, dns, tls, timeout, network or
// http-NNN; "" when there is no cause or it has no class.
func (d Decision) CauseClass() string {
	class, _, ok := strings.Cut(d.Cause, ": ")
	if !ok || strings.ContainsAny(class, " \t") {
		return ""
	}
	return class
}
