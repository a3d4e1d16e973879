package crawler

import (
	"fmt"
	"log/slog"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Options configure a Crawler. Frontier, Store and Fetchers are
// required; every other zero value is usable and documented.
type Options struct {
	// Frontier hands out jobs and takes their outcomes.
	Frontier Frontier
	// Store is the crawl database.
	Store Store
	// Fetchers has one Fetcher per worker; len(Fetchers) is the number of
	// workers.
	Fetchers []Fetcher

	// Scope decides which discovered URLs are crawled. The zero Scope
	// allows nothing but the seeds.
	Scope urlnorm.Scope
	// SeedRedirects brings the host of a seed's redirect target (and of the
	// next hops) into scope, so a seed http://example.com/ answering 301 to
	// https://www.example.com/ does not end a seeds-hosts crawl (Heritrix's
	// seedsRedirectNewSeeds). Pages at depth 0 are the seeds and their
	// redirect targets.
	SeedRedirects bool
	// Settings are the crawl's settings, as package config defines and
	// documents them; the crawler reads the budgets (MaxPages, MaxDepth,
	// MaxDuration), the link rules (MaxRedirects, MaxOutLinks,
	// RespectNofollow, RespectNoindex, RobotsToken, the URL guards) and
	// the commit settings; the politeness settings and the host page
	// budget are the frontier's (frontier.Options.Politeness and
	// HostMaxPages: with HostMaxPages set here too, a resumed crawl
	// rebuilds the frontier's per-host counts). A zero value means: no
	// budget, the defaults of config.Default for MaxOutLinks,
	// CommitInterval and CommitPages, urlnorm's default guards. Settings are
	// stored, as JSON, in the run record.
	Settings config.Config

	// Refetch queues seeds that were fetched before again (with
	// If-None-Match / If-Modified-Since): a recrawl of the seeds.
	Refetch bool

	// Cycle, when set, runs the crawl as a cycle of an incremental crawler
	// (seedcrawl run; package recrawl's Cycle): known pages are revisited
	// by its refresh decision, the cycle is recorded and its seeds
	// watched. A Cycle serves one crawl. nil: a plain crawl.
	Cycle Cycle

	// Command is stored in the run record: the command line.
	Command string

	// Feed, when set, brings URLs from outside the crawl's links
	// (package compare's Injection); see Feed. A Feed that is a Cluster
	// makes this crawl one node of a cluster: URLs of hosts other nodes
	// own are handed to them, and Run returns when the Feed's Done closes
	// rather than when the frontier runs dry. nil: a plain crawl.
	Feed Feed
	// FedOnly queues only the Feed's URLs: the links of fetched pages are
	// stored, not queued, and no sitemap is read (seedcrawl compare).
	FedOnly bool
	// Sitemaps reads the sites' sitemaps (package sitemap's Crawl) when
	// Settings.Sitemaps is set: each site's sitemaps are read once per
	// cycle. nil: no sitemap is read.
	Sitemaps Sitemaps

	// Logger receives warnings (robots store failures, ...). nil: discard.
	Logger *slog.Logger

	// Recorder, when set, is told of every request and counter increment
	// (live metrics, --listen). nil: nothing is told.
	Recorder Recorder
	// Archive, when set, keeps the exact bytes of every request that got
	// a response (WARC, --warc; *warc.Writer); the Fetchers must record
	// (fetch.Options.Record). Workers call it concurrently, before the
	// outcome is stored: an archive failure stops the crawl with that
	// request's URL still in the stored frontier, so a rerun fetches it
	// again. Across a crash a request may thus be archived twice, never
	// lost. nil: nothing is kept.
	Archive fetch.Archiver
}

func (o *Options) setDefaults() error {
	if o.Frontier == nil || o.Store == nil || len(o.Fetchers) == 0 {
		return fmt.Errorf("%w: Frontier, Store and at least one Fetcher are required", ErrOptions)
	}
	for i, f := range o.Fetchers {
		if f == nil {
			return fmt.Errorf("%w: Fetchers[%d] is nil", ErrOptions, i)
		}
	}
	s := &o.Settings
	if s.MaxPages < 0 || s.MaxDuration < 0 || s.HostMaxPages < 0 || s.MaxRedirects < 0 ||
		s.MaxOutLinks < 0 || s.CommitInterval < 0 || s.CommitPages < 0 {
		return fmt.Errorf("%w: negative limit", ErrOptions)
	}
	def := config.Default()
	if s.CommitInterval == 0 {
		s.CommitInterval = def.CommitInterval
	}
	if s.MaxOutLinks == 0 {
		s.MaxOutLinks = def.MaxOutLinks
	}
	if s.CommitPages == 0 {
		s.CommitPages = def.CommitPages
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}
