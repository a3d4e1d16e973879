package crawler

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Options configure a Crawler. Frontier, Store, Robots and Fetchers are
// required; every other zero value is usable and documented.
type Options struct {
	// Frontier hands out jobs and takes their outcomes.
	Frontier Frontier
	// Store is the crawl database.
	Store Store
	// Robots decides whether a URL may be fetched.
	Robots Robots
	// Fetchers has one Fetcher per worker; len(Fetchers) is the number of
	// workers.
	Fetchers []Fetcher
	// HostLog, when set, sees the requests package robots makes (wrap the
	// robots client's transport with HostLog.Wrap), so a job whose host
	// just had its robots.txt fetched waits for the host's delay. nil: the
	// robots.txt request and the first page request of a host may follow
	// each other without a gap.
	HostLog *HostLog

	// Scope decides which discovered URLs are crawled. The zero Scope
	// allows nothing but the seeds.
	Scope urlnorm.Scope
	// SeedRedirects brings the host of a seed's redirect target (and of the
	// next hops) into scope, so a seed http://example.com/ answering 301 to
	// https://www.example.com/ does not end a seeds-hosts crawl (Heritrix's
	// seedsRedirectNewSeeds). Pages at depth 0 are the seeds and their
	// redirect targets.
	SeedRedirects bool
	// Guard rejects trap-shaped URLs; the zero Guard uses urlnorm's
	// defaults.
	Guard urlnorm.Guard
	// Token is the robots product token honoured in <meta name=TOKEN>;
	// "" means version.Token.
	Token string

	// MaxPages stops the run after this many page fetches; 0: no limit.
	MaxPages int64
	// MaxDepth is the largest depth queued (seeds are 0); negative: no
	// limit. The zero value allows only the seeds.
	MaxDepth int
	// MaxDuration stops the run after this long; 0: no limit.
	MaxDuration time.Duration
	// HostMaxPages caps the URLs queued per host over the db's life; 0:
	// no limit.
	HostMaxPages int64

	// Delay is the minimum gap between requests to one host.
	Delay time.Duration
	// MaxCrawlDelay caps the robots.txt Crawl-delay honoured; a host asking
	// more is dropped with the reason recorded. 0: no cap.
	MaxCrawlDelay time.Duration
	// DelayFactor makes the gap at least DelayFactor × the host's last
	// response time; 0: off.
	DelayFactor float64
	// Backoff is the first back-off after a transient failure or a
	// 429/503 without Retry-After; it doubles per consecutive failure of
	// the host. 0 means 1s.
	Backoff time.Duration
	// MaxBackoff caps the back-off (not Retry-After). 0 means 10m.
	MaxBackoff time.Duration
	// MaxRetries is how many times a transiently failing URL is retried.
	MaxRetries int
	// MaxRedirects bounds redirect chains: a hop beyond it is stored as a
	// link but its target is not queued.
	MaxRedirects int
	// MaxOutLinks is the most distinct links kept per page; 0 means 1000.
	MaxOutLinks int
	// RespectNofollow: links of meta-robots-nofollow pages and rel=nofollow
	// links are neither followed nor recorded (only counted).
	RespectNofollow bool
	// RespectNoindex: pages with meta robots (or X-Robots-Tag) noindex get
	// Reason "noindex".
	RespectNoindex bool
	// RobotsTTL is how long a host dropped for its Crawl-delay stays
	// deferred in the stored host record. 0 means 24h.
	RobotsTTL time.Duration

	// Refetch queues seeds that were fetched before again (with
	// If-None-Match / If-Modified-Since): a recrawl of the seeds.
	Refetch bool

	// Recrawl, when set, runs the crawl as a cycle of an incremental
	// crawler (seedcrawl run): known pages are revisited by the refresh
	// policy, the cycle is recorded and its seeds watched. nil: a plain
	// crawl.
	Recrawl *Recrawl

	// CommitInterval is the longest a result waits to be committed.
	// 0 means 1s.
	CommitInterval time.Duration
	// CommitPages commits once a batch holds this many results. 0 means 256.
	CommitPages int

	// Command and Config are stored in the run record: the command line
	// and the effective configuration (JSON).
	Command string
	Config  string

	// Cluster, when set, makes this crawl one node of a cluster: URLs of
	// hosts other nodes own are handed to them, URLs arrive through
	// Inject, and Run returns when Cluster.Done closes rather than when the
	// frontier runs dry. nil: a single crawler.
	Cluster Cluster

	// Logger receives warnings (robots store failures, ...). nil: discard.
	Logger *slog.Logger
}

func (o *Options) setDefaults() error {
	if o.Frontier == nil || o.Store == nil || o.Robots == nil || len(o.Fetchers) == 0 {
		return fmt.Errorf("%w: Frontier, Store, Robots and at least one Fetcher are required", ErrOptions)
	}
	for i, f := range o.Fetchers {
		if f == nil {
			return fmt.Errorf("%w: Fetchers[%d] is nil", ErrOptions, i)
		}
	}
	if o.MaxPages < 0 || o.MaxDuration < 0 || o.HostMaxPages < 0 || o.Delay < 0 || o.MaxCrawlDelay < 0 ||
		o.DelayFactor < 0 || o.Backoff < 0 || o.MaxBackoff < 0 || o.MaxRetries < 0 || o.MaxRedirects < 0 ||
		o.MaxOutLinks < 0 || o.RobotsTTL < 0 || o.CommitInterval < 0 || o.CommitPages < 0 {
		return fmt.Errorf("%w: negative limit", ErrOptions)
	}
	if r := o.Recrawl; r != nil {
		if r.Cycle.N == 0 {
			return fmt.Errorf("%w: Recrawl.Cycle.N is 0 (cycles count from 1)", ErrOptions)
		}
		if !r.Start && (len(r.Seeds) > 0 || len(r.Refresh) > 0) {
			return fmt.Errorf("%w: Recrawl.Seeds and Refresh start a cycle: set Recrawl.Start", ErrOptions)
		}
		if r.ReseedEvery > 0 && r.Reseeder == nil {
			return fmt.Errorf("%w: Recrawl.ReseedEvery without a Reseeder", ErrOptions)
		}
	}
	if o.Backoff == 0 {
		o.Backoff = time.Second
	}
	if o.MaxBackoff == 0 {
		o.MaxBackoff = 10 * time.Minute
	}
	if o.MaxOutLinks == 0 {
		o.MaxOutLinks = 1000
	}
	if o.RobotsTTL == 0 {
		o.RobotsTTL = 24 * time.Hour
	}
	if o.CommitInterval == 0 {
		o.CommitInterval = time.Second
	}
	if o.CommitPages == 0 {
		o.CommitPages = 256
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}
