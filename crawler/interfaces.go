package crawler

import (
	"context"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Frontier is what the crawl loop needs from the frontier, which owns
// politeness; *frontier.Frontier implements it. Workers call only Next;
// the disposer calls the methods that report Changes, in order.
type Frontier interface {
	// Next hands out a URL whose host is ready (robots.txt, delay,
	// back-off), or one to record without a request (Job.Skip).
	Next(ctx context.Context) (frontier.Job, error)
	// Done reports how a job ended; retried is true when the frontier put
	// the URL back for another attempt.
	Done(job frontier.Job, r frontier.Result, ch *frontier.Changes) (retried bool, err error)
	Seed(seeds []frontier.Target, ch *frontier.Changes) error
	// Add queues targets outside the scheduler at priority prio, ahead
	// of their hosts' other URLs (sitemaps: Loop.Add), and returns how
	// many were queued.
	Add(targets []frontier.Target, prio float64, ch *frontier.Changes) int
	// Credit applies the priority mass and depth other nodes of a cluster
	// computed for URLs this node owns (Loop.Credit).
	Credit(targets []frontier.Target, ch *frontier.Changes) int
	Restore(s frontier.Snapshot) error
	Stats() frontier.Stats
	// Hold and Release bracket a time when URLs may come while nothing
	// is queued or in flight: Next waits rather than report exhaustion.
	Hold()
	Release()

	// Hosts (Dropped, HostFull) tell which hosts' links are not queued:
	// given up, or their page budget (--host-max-pages) spent.
	scope.Hosts
	// Admit counts a URL queued as a page against its host's budget.
	Admit(host string)
}

// Store is what the crawl loop needs from the database; *storage.DB
// implements it. Intern and Commit are called by the disposer only. A
// resumed crawl hands it to frontier.LoadSnapshot.
type Store interface {
	frontier.Stored
	Intern(urls []string, from uint64, depth uint32) ([]storage.Interned, error)
	Commit(b *storage.Batch) error
	// URL returns the URL of an id, committed or only interned.
	URL(id uint64) (string, error)
	Page(id uint64) (storage.Page, error)
	// PageOrURL returns the URL of page id and its committed record (zero
	// for a URL interned since the last commit).
	PageOrURL(id uint64) (string, storage.Page, error)
	// OutLinks returns the stored out-links of page src with their
	// targets' URLs.
	OutLinks(src uint64) ([]storage.OutLink, error)
	// LastFull returns when page id (stored as prev) was last fetched
	// with content, for the WARC revisit record of a 304.
	LastFull(id uint64, prev *storage.Page) time.Time
	StartRun(start time.Time, command, config string) (storage.Run, error)
	// Cycle is the cycle the db's fetches are stored in when no Cycle
	// runs the crawl.
	Cycle() uint32
	// OlderHashes reports that the db holds content hashes of an older
	// kind, which fetches then carry too (storage.HashesOf).
	OlderHashes() (bool, error)
}

// Fetcher fetches one URL per call and is used by one worker at a time;
// *fetch.Fetcher implements it.
type Fetcher interface {
	Fetch(ctx context.Context, req fetch.Request) fetch.Response
}
