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
// Batches are committed when they hold Settings.CommitPages results, when
// Settings.CommitInterval has passed, when every worker is waiting on an
// empty frontier (starvation; about once a second at most, every 100 ms
// on a cluster node, whose hand-offs go out with its commits) and when the crawl
// ends. Commit runs on the disposer; workers keep fetching meanwhile.
//
// # Links
//
// Links a polite crawler does not follow (RespectNofollow) are counted,
// not recorded, as testweb's ground truth records a crawl. Each link is
// vetted and admitted by scope.Rules; a link refused is stored as a node
// of the graph with a status saying why but not queued, and a URL first
// seen too deep is queued later if a link at an allowed depth reaches it
// in the same run: the crawl's own links and the links other nodes offer
// (Loop.Offer) go through one admission step (scope.Admission: the
// rules, and the URLs refused for a reason a later link may lift) and one
// queueing. Redirects are not followed by the fetcher: each hop is stored
// as a link of kind redirect and the target goes through the frontier,
// MaxRedirects hops at most per chain (the hop count lives in memory:
// after a restart a chain's count starts again).
//
// # Extensions
//
// What is not fetch → extract → report lives with the package that owns
// the concept and plugs in through a small interface this package
// declares (Cycle, Feed, Cluster, Sitemaps, Recorder, Options.Archive),
// driving the loop through Loop: storage, the batch, admission, the
// frontier, and Post to run on the disposer.
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
