// Package crawler is seedcrawl's crawl loop: workers take jobs from the
// frontier, fetch, extract and vet links, and a single disposer goroutine
// hands every outcome back to the frontier and to storage, committing
// batches that are consistent on disk. Where it sits among the other
// packages, the crash-consistency contract its commits keep and which
// package implements each of its hooks are in ARCHITECTURE.md ("The
// loop", "Crash consistency"); politeness is the frontier's, not here.
//
// # Shape
//
//	           ┌──────── Next(ctx) ────────┐  (a URL whose host is ready and robots.txt allows,
//	frontier ◄─┤                           │   or one to record as skipped)
//	           └──────── Done(result) ◄─┐  ▼
//	                                    │  worker × N: Fetch → Response.Record →
//	                                    │              extract → vet (pure, parallel)
//	                                    │                       │ outcome (fetched, skipped,
//	                             disposer (one goroutine) ◄─────┘  traversed, abandoned, fatal)
//	                               intern ids → frontier.Done → storage.Batch → Commit
//
// Workers never touch the frontier's mutating methods or the database's
// write path: everything that changes state goes through the disposer, in
// the order the frontier made the changes, so one Commit holds a page's
// result with everything the frontier changed for it. A worker reads its
// job's URL and previous record with storage.DB.PageOrURL; a page
// answering 304, or traversed by a recrawl, hands on its stored links
// (storage.DB.OutLinks), vetted again.
//
// Batches are committed as storage.Cadence decides (full, interval
// passed, a trickle of results lingering, a cluster node's workers all
// waiting on the frontier) and when the crawl ends;
// Commit runs on the disposer while workers keep fetching. The frontier is
// held (frontier.Hold) while the disposer applies an outcome, which may
// queue URLs after its Done, and while a Feed may bring URLs: a worker
// that finds it dry then waits instead of ending the crawl.
//
// # Links
//
// Links a polite crawler does not follow (RespectNofollow) are counted,
// not recorded, as testweb's ground truth records a crawl. Which links are
// queued is scope's decision (scope.Admission.Targets, whose doc says how
// a refusal is recorded and lifted); the crawl's own links and the links
// other nodes offer (Loop.Offer) go through the one Admission. Redirects
// are not followed by the fetcher: each hop is stored as a link of kind
// redirect and the target goes through the frontier, MaxRedirects hops at
// most per chain (the hop count lives in memory: after a restart a
// chain's count starts again).
//
// # Extensions
//
// What is not fetch → extract → report plugs in through the small
// interfaces this package declares (Cycle, Feed, Cluster, Sitemaps,
// Recorder, Options.Archive; ARCHITECTURE.md names their implementations)
// and drives the loop through Loop.
//
// # Stopping
//
// Run returns when the frontier is exhausted, a budget is spent
// (Settings.MaxPages, MaxDuration) or ctx is cancelled: workers stop taking jobs,
// requests in flight finish, the last batch is committed and the run
// record is closed. A fatal error (a failed commit) stops the crawl and is
// returned.
// Counters and Progress (monitor.Progress, from the run's monitor.Tally)
// are safe to read while Run goes on.
package crawler
