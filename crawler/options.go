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

	// Scope and SeedRedirects decide which discovered URLs are crawled
	// (scope.Options). The zero Scope allows nothing but the seeds.
	Scope         urlnorm.Scope
	SeedRedirects bool
	// Settings are the crawl's settings (config.Config documents them and
	// their defaults; zero values as config.Config.CrawlDefaults fills
	// them in); the politeness settings are the frontier's, and
	// HostMaxPages set here too lets a resumed crawl rebuild the
	// frontier's per-host counts. They are stored, as JSON, in the run
	// record.
	Settings config.Config

	// Refetch queues seeds that were fetched before again (with
	// If-None-Match / If-Modified-Since): a recrawl of the seeds.
	Refetch bool

	// Cycle, when set, runs the crawl as a cycle of an incremental
	// crawler (see Cycle); it serves one crawl. nil: a plain crawl.
	Cycle Cycle

	// Command is stored in the run record: the command line.
	Command string

	// Feed, when set, brings URLs from outside the crawl's links (see
	// Feed and Cluster). nil: a plain crawl.
	Feed Feed
	// FedOnly queues only the Feed's URLs: the links of fetched pages are
	// stored, not queued, and no sitemap is read (seedcrawl compare).
	FedOnly bool
	// Sitemaps reads the sites' sitemaps when Settings.Sitemaps is set
	// (see Sitemaps). nil: no sitemap is read.
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
	if err := o.Settings.CrawlDefaults(); err != nil {
		return fmt.Errorf("%w: %w", ErrOptions, err)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}
