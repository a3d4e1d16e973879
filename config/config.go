package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/andybalholm/cascadia"

	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Config is every setting of a crawl. Default returns the documented
// defaults; the comment on each field names its key (the same string in
// files and as a flag) and its default.
type Config struct {
	// Seeds are seed URLs (key "seeds"; on the command line they are the
	// positional arguments). Default none.
	Seeds []string
	// SeedsFile is a file of seed URLs, one per line, "#" starts a comment
	// (key "seeds-file", flag --seeds). Default none.
	SeedsFile string
	// DB is the bbolt file the crawl reads and writes (key "db").
	// Default "seedcrawl.db".
	DB string
	// Scope limits which discovered URLs are crawled (key "scope"):
	// "seeds-hosts" (default): the exact hosts of the seeds;
	// "seeds-domains": the registered domains (eTLD+1) of the seeds and
	// their subdomains; "hosts:H1,H2,...": an explicit host list, where
	// ".example.com" means example.com and its subdomains;
	// "regexp:RE": URLs matching the regular expression RE; "all": no limit.
	Scope string
	// Scheduler names the crawl-ordering policy (key "scheduler"):
	// bfs (default), fpr, fpr@M, opic, ... as package scheduler knows them.
	Scheduler string

	// MaxPages stops the crawl after this many page requests in this run
	// (key "max-pages"): a retry and an answer that is an error count, a
	// URL robots.txt denies does not, so a crawl of N pages of a flaky site
	// stores fewer than N. 0 (default) means no limit.
	MaxPages int64
	// MaxDepth is the largest link distance from a seed that is fetched
	// (key "max-depth"); seeds have depth 0; -1 means no limit. Default
	// 20, Heritrix's default hop limit: real sites are shallow (large
	// documentation sites go 8 links deep), while crawler traps (calendars,
	// session-id loops, ever-deeper paths) go on for ever.
	MaxDepth int
	// MaxDuration stops the crawl after this long (key "max-duration").
	// 0 (default) means no limit.
	MaxDuration time.Duration
	// HostMaxPages is the most URLs queued from one host over the life of
	// the db (key "host-max-pages"): the trap guard that stops an infinite
	// calendar, whose URLs look harmless one by one. 0 means no limit.
	// Default 50000.
	HostMaxPages int64

	// Workers is the number of concurrent fetchers (key "workers").
	// Default 16.
	Workers int
	// Politeness holds the per-host settings the frontier enforces.
	Politeness

	// UserAgent is the User-Agent header (key "user-agent").
	// Default version.UserAgent: seedcrawl, its version and a project URL.
	UserAgent string
	// RobotsToken is the product token matched against robots.txt
	// User-agent lines (key "robots-token"). Default "seedcrawl".
	RobotsToken string
	// RobotsTTL is how long a fetched robots.txt is trusted
	// (key "robots-ttl"). Default 24h.
	RobotsTTL time.Duration
	// RobotsBackoff is the first wait after a robots.txt fetch failed (5xx,
	// timeout); the host is deferred and the wait doubles per failure, and
	// after 4 failures the host counts as disallowed until robots-ttl
	// (RFC 9309 2.3.1.4) (key "robots-backoff"): 30+60+120 s by default. A
	// failure to connect at all (refused, no such host, TLS) waits a third
	// of it, so such a host is given up after about a minute; an address
	// the SSRF guard refuses is given up at once (private-address).
	// Default 30s.
	RobotsBackoff time.Duration
	// RespectNofollow skips the links of pages with meta robots nofollow and
	// links marked rel=nofollow (key "respect-nofollow"). Default true.
	RespectNofollow bool
	// RespectNoindex marks pages with meta robots noindex as such and keeps
	// them out of exports of indexable pages (key "respect-noindex").
	// Default true.
	RespectNoindex bool
	// Sitemaps reads each host's sitemaps, the robots.txt Sitemap: lines
	// and /sitemap.xml, once per cycle after its robots.txt is
	// known, and queues the URLs they list as links of kind sitemap, as
	// Heritrix and Nutch do (key "sitemaps"). The fetches go through the
	// frontier like any page. Default true.
	Sitemaps bool

	// Resolve maps host names to addresses, "HOST=ADDR" with ADDR an IP or
	// IP:PORT (key "resolve", repeatable flag). Default none.
	Resolve []string
	// ResolveFile is a file of "HOST ADDR" lines, "#" comments, merged with
	// Resolve (key "resolve-file"). Default none.
	ResolveFile string
	// CAFile is a PEM file of extra trusted root certificates
	// (key "ca-file"). Default none.
	CAFile string
	// AllowPrivate allows fetching hosts that resolve to loopback, private,
	// link-local or multicast addresses even when they did not come from the
	// seeds or Resolve (key "allow-private"). Default false.
	AllowPrivate bool
	// HTTP2 offers HTTP/2 to https servers and speaks it with those that
	// accept (key "http2"). Default false: HTTP/1.1, since a polite crawl
	// sends one request at a time to a host and HTTP/2's framing then costs
	// CPU at both ends for nothing.
	HTTP2 bool

	// ConnectTimeout bounds TCP connection set-up (key "connect-timeout").
	// Default 10s.
	ConnectTimeout time.Duration
	// TLSTimeout bounds the TLS handshake (key "tls-timeout"). Default 10s.
	TLSTimeout time.Duration
	// HeaderTimeout bounds the wait for response headers once the request
	// is sent (key "header-timeout"). Default 30s.
	HeaderTimeout time.Duration
	// FetchTimeout bounds one whole fetch, body included
	// (key "fetch-timeout"). Default 60s.
	FetchTimeout time.Duration
	// MaxBody is the most body bytes kept per page, after decompression
	// (key "max-body"); longer bodies are truncated and marked.
	// Default 10MiB.
	MaxBody ByteSize
	// MaxCompressionRatio is the decoded:encoded size ratio beyond which a
	// compressed body that also exceeds MaxBody is refused as a compression
	// bomb (key "max-compression-ratio"). Default 100.
	MaxCompressionRatio int64
	// MaxRedirects bounds a redirect chain (key "max-redirects"): the
	// target of the hop after this many is recorded, not fetched.
	// Default 5.
	MaxRedirects int

	// MaxURLLength rejects longer URLs (key "max-url-length"). Default 2048.
	MaxURLLength int
	// MaxPathSegments rejects URLs with more path segments
	// (key "max-path-segments"). Default 32.
	MaxPathSegments int
	// MaxRepeatedSegments rejects URLs in which one path segment (or run of
	// segments) repeats more than this many times (key
	// "max-repeated-segments"); this stops ever-deeper relative paths.
	// Default 3.
	MaxRepeatedSegments int
	// MaxQueryParams rejects URLs with more query parameters
	// (key "max-query-params"). Default 32.
	MaxQueryParams int
	// MaxOutLinks is the most distinct in-scope links taken from one page
	// (key "max-out-links"); the rest are counted (too-many-links) and
	// dropped. Out-of-scope links are recorded up to as many again. The cap
	// is applied while the page is parsed, so a page costs memory bounded
	// by it. Default 10000: long real pages (changelogs, indexes) keep
	// their links.
	MaxOutLinks int
	// LinkSelector, a CSS selector, makes the crawl follow only links
	// inside elements it matches, like Scrapy's LinkExtractor restrict_css
	// (key "link-selector"). Such pages are parsed into a DOM (goquery),
	// which costs several times the CPU and memory of the default
	// streaming extraction. Default "" (every link).
	LinkSelector string

	// CommitInterval is how long fetched results wait before they are
	// committed to the db (key "commit-interval"). A batch of fewer than 8
	// results waits up to 10 intervals, so a crawl bound by politeness
	// commits every few pages, not after each (a cluster node commits
	// every interval, and sooner when it starves). Default 1s.
	CommitInterval time.Duration
	// CommitPages commits a batch once it holds this many results
	// (key "commit-pages"). Default 256.
	CommitPages int

	// WARC is the directory the crawl writes WARC/1.1 files (and their
	// CDXJ indexes) to, keeping the exact bytes of every response (key
	// "warc"). Recording speaks HTTP/1.1 only. Default "": none.
	WARC string
	// Listen is the address (host:port; port 0 picks one) the crawl
	// serves its status on while it runs: /metrics, /status, /debug/pprof
	// and a status page (key "listen"). Default "": none.
	Listen string

	// RevisitGone is the number of cycles of seedcrawl run between two
	// refetches of a URL that answered with a redirect, 404 or 410, or
	// 401, 403 or 451, or that robots.txt denied (key "revisit-gone"), each
	// in the cycles of its own phase; 0 means such URLs follow their
	// revisit interval like any page. Default 4. Other commands ignore it.
	RevisitGone int
	// RefreshPolicy spreads seedcrawl run's refresh share of each cycle's
	// budget over the known pages (key "refresh-policy"): "optimal"
	// (default: by estimated change rate and stored PageRank), "importance",
	// "uniform" or "pagerank" (RefreshPolicies). Other commands ignore it.
	RefreshPolicy string
	// RefreshShare is the largest share (0..1) of a seedcrawl run cycle's
	// page budget (--pages-per-cycle, else max-pages) spent on refetching
	// known pages; the rest is kept for URLs not fetched before (key
	// "refresh-share"). It has no effect without a budget. Default 0.5:
	// half of a budgeted cycle may refresh, paced over the cycle, and the
	// other half is kept for discovery (1: no cap). Other commands ignore
	// it.
	RefreshShare float64
	// RefreshPace says how a seedcrawl run cycle with a page budget spends
	// a refresh share below 1 (key "refresh-pace"): "even" (default:
	// refetches spread evenly over the budget, so URLs first found in the
	// cycle are fetched from its start) or "front" (refetches as the crawl
	// reaches known pages, which puts most of them first) (RefreshPaces).
	// Other commands ignore it.
	RefreshPace string
}

// RefreshPolicies returns the values of the "refresh-policy" setting: the
// refresh policies of package recrawl (a test of seedcrawl run checks that
// the two lists agree; config imports no crawl package).
func RefreshPolicies() []string {
	return []string{"pagerank", "uniform", "importance", "optimal", "count"}
}

// RefreshPaces returns the values of the "refresh-pace" setting: the
// refresh paces of package recrawl (a test of seedcrawl run checks that the
// two lists agree).
func RefreshPaces() []string { return []string{"even", "front"} }

// Politeness is the part of a Config that governs how often one host is
// asked: the frontier takes it as it is (frontier.Options.Politeness), so
// these settings are defined here once. Its fields are promoted into
// Config and keep their keys.
type Politeness struct {
	// HostConcurrency is the most requests in flight to one host
	// (key "host-concurrency"). Default 1.
	HostConcurrency int
	// Delay is the minimum time between two requests to one host, measured
	// from the end of one response to the start of the next request
	// (key "delay"). Default 1s.
	Delay time.Duration
	// MaxCrawlDelay caps the robots.txt Crawl-delay honoured
	// (key "max-crawl-delay"); a host asking for more is deferred, not
	// crawled, with the reason recorded. Default 30s.
	MaxCrawlDelay time.Duration
	// DelayFactor is the adaptive part of the per-host delay: the delay is at
	// least DelayFactor × the host's last response time (Heritrix's
	// delayFactor) (key "delay-factor"). 0 turns it off. Default 2.
	DelayFactor float64
	// Backoff is the first wait after a transient failure (5xx, timeout,
	// connection error) or a 429/503 without Retry-After; it doubles with
	// each further failure of the host (key "backoff"). Default 1s.
	Backoff time.Duration
	// MaxBackoff caps the exponential back-off of a host answering 429 or
	// 503 without Retry-After, and of hosts whose fetches fail
	// (key "max-backoff"). A Retry-After header is honoured even when
	// longer; one above an hour (and MaxBackoff) is not waited out: the
	// host is given up until then (at most a day), with the reason
	// recorded. Default 10m.
	MaxBackoff time.Duration
	// MaxRetries is how many times a URL whose fetch failed transiently
	// (429, 5xx, timeout, connection error) is retried before its failure is
	// recorded (key "max-retries"). Default 3.
	MaxRetries int
	// HostMaxFailures gives a host up once this many of its URLs in a row
	// failed transiently after all their retries (key "host-max-failures"):
	// its queued URLs are recorded deferred ("host-failing"), and seedcrawl
	// run asks for them again next cycle. 0 (the default) never gives a host
	// up for failures: a dead or tarpit host then costs each of its URLs
	// its retries, spaced by a back-off that grows to MaxBackoff, which can
	// hold a crawl for hours (as Heritrix and Nutch do by default).
	HostMaxFailures int
}

// Default returns the default configuration.
func Default() Config {
	return Config{
		DB:           "seedcrawl.db",
		Scope:        "seeds-hosts",
		Scheduler:    "bfs",
		MaxDepth:     20,
		HostMaxPages: 50000,
		Workers:      16,
		Politeness: Politeness{
			HostConcurrency: 1,
			Delay:           time.Second,
			MaxCrawlDelay:   30 * time.Second,
			DelayFactor:     2,
			Backoff:         time.Second,
			MaxBackoff:      10 * time.Minute,
			MaxRetries:      3,
		},
		UserAgent:           version.UserAgent,
		RobotsToken:         version.Token,
		RobotsTTL:           24 * time.Hour,
		RobotsBackoff:       30 * time.Second,
		RespectNofollow:     true,
		RespectNoindex:      true,
		Sitemaps:            true,
		ConnectTimeout:      10 * time.Second,
		TLSTimeout:          10 * time.Second,
		HeaderTimeout:       30 * time.Second,
		FetchTimeout:        60 * time.Second,
		MaxBody:             10 * MiB,
		MaxCompressionRatio: 100,
		MaxRedirects:        5,
		MaxURLLength:        2048,
		MaxPathSegments:     32,
		MaxRepeatedSegments: 3,
		MaxQueryParams:      32,
		MaxOutLinks:         10000,
		CommitInterval:      time.Second,
		CommitPages:         256,
		RevisitGone:         4,
		RefreshPolicy:       "optimal",
		RefreshShare:        0.5,
		RefreshPace:         "even",
	}
}

// CrawlDefaults readies settings given in code for one crawl (package
// crawler's Options.Settings, where a caller may set only what it needs):
// a negative limit fails with ErrBadValue, and a zero MaxOutLinks,
// CommitInterval or CommitPages takes Default's. Settings that passed
// Validate are left as they are.
func (c *Config) CrawlDefaults() error {
	if c.MaxPages < 0 || c.MaxDuration < 0 || c.HostMaxPages < 0 || c.MaxRedirects < 0 ||
		c.MaxOutLinks < 0 || c.CommitInterval < 0 || c.CommitPages < 0 {
		return fmt.Errorf("%w: negative limit", ErrBadValue)
	}
	def := Default()
	if c.CommitInterval == 0 {
		c.CommitInterval = def.CommitInterval
	}
	if c.MaxOutLinks == 0 {
		c.MaxOutLinks = def.MaxOutLinks
	}
	if c.CommitPages == 0 {
		c.CommitPages = def.CommitPages
	}
	return nil
}

// Validate checks every setting and returns every problem, each a
// *KeyError naming the key, joined (errors.Join), so one edit fixes them
// all; nil when the settings are valid.
func (c *Config) Validate() error {
	type check struct {
		key string
		bad bool
		why string
	}
	checks := []check{
		{"db", c.DB == "", "must not be empty"},
		{"scheduler", c.Scheduler == "", "must not be empty"},
		{"max-pages", c.MaxPages < 0, fmt.Sprintf("must be 0 (no limit) or more, got %d", c.MaxPages)},
		{"max-depth", c.MaxDepth < -1, fmt.Sprintf("must be -1 (no limit) or more, got %d", c.MaxDepth)},
		{"max-duration", c.MaxDuration < 0, fmt.Sprintf("must not be negative, got %v", c.MaxDuration)},
		{"host-max-pages", c.HostMaxPages < 0, fmt.Sprintf("must be 0 (no limit) or more, got %d", c.HostMaxPages)},
		{"workers", c.Workers < 1 || c.Workers > 4096, fmt.Sprintf("must be in 1..4096, got %d", c.Workers)},
		{"host-concurrency", c.HostConcurrency < 1 || c.HostConcurrency > 1024, fmt.Sprintf("must be in 1..1024, got %d", c.HostConcurrency)},
		{"delay", c.Delay < 0, fmt.Sprintf("must not be negative, got %v", c.Delay)},
		{"max-crawl-delay", c.MaxCrawlDelay < 0, fmt.Sprintf("must not be negative, got %v", c.MaxCrawlDelay)},
		{"delay-factor", !(c.DelayFactor >= 0 && c.DelayFactor <= 1000), // NaN fails too
			fmt.Sprintf("must be in 0..1000, got %g", c.DelayFactor)},
		{"backoff", c.Backoff <= 0, fmt.Sprintf("must be positive, got %v", c.Backoff)},
		{"max-backoff", c.MaxBackoff < c.Backoff, fmt.Sprintf("must be at least backoff (%v), got %v", c.Backoff, c.MaxBackoff)},
		{"max-retries", c.MaxRetries < 0, fmt.Sprintf("must be 0 or more, got %d", c.MaxRetries)},
		{"host-max-failures", c.HostMaxFailures < 0, fmt.Sprintf("must be 0 or more, got %d", c.HostMaxFailures)},
		{"user-agent", strings.TrimSpace(c.UserAgent) == "" || strings.ContainsAny(c.UserAgent, "\r\n"), "must be a non-empty single line"},
		{"robots-token", !validToken(c.RobotsToken), fmt.Sprintf("must be a product token of letters, digits, '-' and '_', got %q", c.RobotsToken)},
		{"robots-ttl", c.RobotsTTL <= 0, fmt.Sprintf("must be positive, got %v", c.RobotsTTL)},
		{"robots-backoff", c.RobotsBackoff <= 0, fmt.Sprintf("must be positive, got %v", c.RobotsBackoff)},
		{"connect-timeout", c.ConnectTimeout <= 0, fmt.Sprintf("must be positive, got %v", c.ConnectTimeout)},
		{"tls-timeout", c.TLSTimeout <= 0, fmt.Sprintf("must be positive, got %v", c.TLSTimeout)},
		{"header-timeout", c.HeaderTimeout <= 0, fmt.Sprintf("must be positive, got %v", c.HeaderTimeout)},
		{"fetch-timeout", c.FetchTimeout <= 0, fmt.Sprintf("must be positive, got %v", c.FetchTimeout)},
		{"max-body", c.MaxBody <= 0, fmt.Sprintf("must be positive, got %d", c.MaxBody)},
		{"max-compression-ratio", c.MaxCompressionRatio < 1, fmt.Sprintf("must be at least 1, got %d", c.MaxCompressionRatio)},
		{"max-redirects", c.MaxRedirects < 0 || c.MaxRedirects > 100, fmt.Sprintf("must be in 0..100, got %d", c.MaxRedirects)},
		{"max-url-length", c.MaxURLLength < 16, fmt.Sprintf("must be at least 16, got %d", c.MaxURLLength)},
		{"max-path-segments", c.MaxPathSegments < 1, fmt.Sprintf("must be at least 1, got %d", c.MaxPathSegments)},
		{"max-repeated-segments", c.MaxRepeatedSegments < 1, fmt.Sprintf("must be at least 1, got %d", c.MaxRepeatedSegments)},
		{"max-query-params", c.MaxQueryParams < 1, fmt.Sprintf("must be at least 1, got %d", c.MaxQueryParams)},
		{"max-out-links", c.MaxOutLinks < 1, fmt.Sprintf("must be at least 1, got %d", c.MaxOutLinks)},
		{"link-selector", selectorErr(c.LinkSelector) != nil, fmt.Sprintf("must be a CSS selector, got %q: %v", c.LinkSelector, selectorErr(c.LinkSelector))},
		{"commit-interval", c.CommitInterval <= 0, fmt.Sprintf("must be positive, got %v", c.CommitInterval)},
		{"commit-pages", c.CommitPages < 1, fmt.Sprintf("must be at least 1, got %d", c.CommitPages)},
		{"listen", c.Listen != "" && listenErr(c.Listen) != nil, fmt.Sprintf("must be HOST:PORT: %v", listenErr(c.Listen))},
		{"revisit-gone", c.RevisitGone < 0 || c.RevisitGone > 1<<20, fmt.Sprintf("must be in 0..%d cycles, got %d", 1<<20, c.RevisitGone)},
		{"refresh-policy", !slices.Contains(RefreshPolicies(), c.RefreshPolicy), fmt.Sprintf("must be one of %s, got %q", strings.Join(RefreshPolicies(), ", "), c.RefreshPolicy)},
		{"refresh-share", !(c.RefreshShare >= 0 && c.RefreshShare <= 1), // NaN fails too
			fmt.Sprintf("must be a share in 0..1, got %g", c.RefreshShare)},
		{"refresh-pace", !slices.Contains(RefreshPaces(), c.RefreshPace), fmt.Sprintf("must be one of %s, got %q", strings.Join(RefreshPaces(), ", "), c.RefreshPace)},
	}
	var errs []error
	for _, ch := range checks {
		if ch.bad {
			errs = append(errs, badValue(ch.key, "%s", ch.why))
		}
	}
	if err := checkScope(c.Scope); err != nil {
		errs = append(errs, badValue("scope", "%v", err))
	}
	for _, seed := range c.Seeds {
		if err := CheckSeed(seed); err != nil {
			errs = append(errs, badValue("seeds", "%v", err))
		}
	}
	for _, r := range c.Resolve {
		if err := checkResolve(r); err != nil {
			errs = append(errs, badValue("resolve", "%v", err))
		}
	}
	return errors.Join(errs...)
}

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// CheckSeed tells whether s is usable as a seed URL at all (an absolute
// http or https URL with a host) and, if not, what the user likely meant:
// "example.org/docs" or "http//example.org/" get the URL to try, another
// scheme is named as such. A URL it accepts may still fail normalization.
// Its messages never repeat a password the seed holds (urlnorm.RedactUserinfo).
func CheckSeed(s string) error {
	shown := urlnorm.RedactUserinfo(s)
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return fmt.Errorf("seed %q: %v", shown, err)
	}
	switch {
	case (u.Scheme == "http" || u.Scheme == "https") && u.Host != "":
		return nil
	case u.Scheme == "http" || u.Scheme == "https":
		if fixed, ok := brokenScheme(shown); ok {
			return fmt.Errorf("seed %q has no host: want an absolute URL such as %s", shown, fixed)
		}
		return fmt.Errorf("seed %q has no host: want an absolute URL such as https://example.org/", shown)
	case u.Scheme != "" && !hostPort(u):
		// A URL of another scheme: prefixing https:// would suggest
		// nonsense such as https://ftp://example.org/.
		return fmt.Errorf("seed %q: scheme %q is not crawled: want an http or https URL", shown, u.Scheme)
	}
	if fixed, ok := brokenScheme(shown); ok {
		return fmt.Errorf("seed %q: want an absolute http or https URL such as %s", shown, fixed)
	}
	rest := strings.TrimPrefix(shown, "//")
	if !strings.Contains(rest, "/") {
		rest += "/"
	}
	if fixed := "https://" + rest; plausible(fixed) {
		return fmt.Errorf("seed %q: want an absolute http or https URL such as %s", shown, fixed)
	}
	return fmt.Errorf("seed %q: want an absolute http or https URL such as https://example.org/", shown)
}

// brokenScheme mends a seed whose "http://" or "https://" lost its colon
// or a slash ("http//example.org/", "https:/example.org"): the URL meant,
// and true; false for anything else, or when what it would make names no
// plausible host.
func brokenScheme(s string) (string, bool) {
	for _, scheme := range []string{"https", "http"} {
		if len(s) <= len(scheme) || !strings.EqualFold(s[:len(scheme)], scheme) {
			continue
		}
		sep := s[len(scheme):]
		rest := strings.TrimLeft(sep, ":/")
		if rest == "" || rest == sep || strings.HasPrefix(sep, "://") && !strings.HasPrefix(sep, ":///") {
			return "", false
		}
		if !strings.Contains(rest, "/") {
			rest += "/"
		}
		fixed := strings.ToLower(scheme) + "://" + rest
		return fixed, plausible(fixed)
	}
	return "", false
}

// plausible reports whether a URL suggested to the user parses with a
// host of letters, digits, '-', '_' and '.' (and a port), so a suggestion
// never reads "https://https//" or "http://?q/".
func plausible(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" || u.User != nil || strings.EqualFold(u.Hostname(), "http") || strings.EqualFold(u.Hostname(), "https") {
		return false // no host, or a scheme taken for one ("https//")
	}
	for _, c := range u.Hostname() {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c > 0x7f) {
			return false
		}
	}
	return strings.Trim(u.Hostname(), ".-_") != "" // more than punctuation
}

// hostPort reports whether u is a host and port without a scheme, such as
// "localhost:8080", which url.Parse reads as scheme "localhost".
func hostPort(u *url.URL) bool {
	port, _, _ := strings.Cut(u.Opaque, "/")
	if port == "" {
		return false
	}
	for _, r := range port {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// checkScope checks the syntax of a scope specification: "seeds-hosts",
// "seeds-domains", "hosts:H1,H2", "regexp:RE" or "all" (package urlnorm,
// ParseScopeSpec, builds the scope itself).
func checkScope(spec string) error {
	kind, arg, hasArg := strings.Cut(spec, ":")
	switch kind {
	case "seeds-hosts", "seeds-domains", "all":
		if hasArg {
			return fmt.Errorf("%q: only hosts: and regexp: take an argument", spec)
		}
		return nil
	case "hosts":
		n := 0
		for _, h := range strings.Split(arg, ",") {
			h = strings.TrimSpace(h)
			if h == "" {
				continue
			}
			if strings.ContainsAny(h, "/@ ") {
				return fmt.Errorf("host %q in %q: want a bare host name", h, spec)
			}
			n++
		}
		if n == 0 {
			return fmt.Errorf("%q lists no hosts", spec)
		}
		return nil
	case "regexp":
		if _, err := regexp.Compile(arg); err != nil {
			return fmt.Errorf("%q: %v", spec, err)
		}
		return nil
	}
	return fmt.Errorf("%q: want seeds-hosts, seeds-domains, hosts:H1,H2, regexp:RE or all", spec)
}

// checkResolve checks "HOST[:PORT]=ADDR" with ADDR an IP or IP:PORT
// (package fetch, ParseResolve, builds the map).
func checkResolve(s string) error {
	host, addr, ok := strings.Cut(strings.TrimSpace(s), "=")
	host, addr = strings.TrimSpace(host), strings.TrimSpace(addr)
	if !ok || host == "" || strings.ContainsAny(host, "/@ \t") {
		return fmt.Errorf("%q: want HOST=ADDR", s)
	}
	ip := addr
	if h, _, err := net.SplitHostPort(addr); err == nil {
		ip = h
	}
	if net.ParseIP(ip) == nil {
		return fmt.Errorf("%q: address %q is not an IP or IP:PORT", s, addr)
	}
	return nil
}

// selectorErr reports why a --link-selector does not compile; "" is valid
// (no selector).
func selectorErr(sel string) error {
	if strings.TrimSpace(sel) == "" {
		return nil
	}
	_, err := cascadia.ParseGroup(sel)
	return err
}

// listenErr checks a --listen address.
func listenErr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("port %q: not a number in 0..65535", port)
	}
	return nil
}
