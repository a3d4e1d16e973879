// Package crawler is seedcrawl's crawl loop: workers take jobs from the
// frontier, fetch, extract and filter links, and a single disposer
// goroutine hands every outcome back to the frontier and to storage,
// committing batches that are consistent on disk. Politeness is not here:
// the frontier owns it (robots.txt verdicts through robots.Gate, per-host
// delays, back-off, retries).
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
// the order the frontier made the changes. That is the crash-consistency
// contract of ARCHITECTURE.md: one Commit holds page results, their links,
// the URLs they discovered (interned ids), the frontier puts and deletes
// the frontier reported for them, host ready times and counters. A URL
// leaves the stored frontier only in the transaction that stores its
// result, so after kill -9 the URLs whose results were not committed are
// fetched again and nothing else is.
//
// Run's seeds are normalized and deduplicated by urlnorm.Seeds; a resumed
// crawl's frontier is rebuilt from the stored one by frontier.Resume. A
// worker reads its job's URL and previous record with
// storage.DB.PageOrURL, and a page answering 304 or traversed hands on its
// stored links (storage.DB.OutLinks), vetted again.
//
// Batches are committed when they hold Settings.CommitPages results, when
// Settings.CommitInterval has passed, when every worker is waiting on an
// empty frontier (starvation; at most every 100 ms) and when the crawl
// ends. Commit runs on the disposer; workers keep fetching meanwhile.
//
// # Politeness
//
// The frontier decides when a host may be asked (package frontier,
// "Politeness"). The crawl loop reports what it saw in frontier.Result:
// whether a request was made, its response time, a transient failure and
// Retry-After; the frontier answers whether the URL is retried. A job the
// frontier hands out with Skip set (robots.txt denied it, its host was
// dropped for a Crawl-delay above the cap) is recorded without a request,
// with the URLs dropped along with it.
//
// # Links
//
// What a response means (its stored record, its status, whether it is
// retried) is fetch.Response.Record; a job skipped without a request is
// stored with robots.SkipStatus. Only HTML is parsed (package extract):
// links are resolved, normalized and deduplicated in document order, at
// most MaxOutLinks per page; with RespectNofollow, links a polite crawler
// does not follow are counted and not recorded, as testweb's ground truth
// records a crawl. A page's robots directives are its meta robots merged
// with its X-Robots-Tag header (extract.Robots.Merge); the crawler decides
// only whether it respects them. Each link is vetted and admitted by scope.Rules (trap
// guards, scope, redirect hops, depth, and the frontier's dropped hosts
// and host page budgets); a link refused is stored as a node of the graph
// with a status saying why but not queued, and a URL first seen too deep
// is queued later if a link at an allowed depth reaches it in the same
// run: the crawl's own links and the links other nodes offer (Loop.Offer)
// go through one admission step (scope.Admission: the rules, and the URLs
// refused for a reason a later link may lift; the skip counters) and one
// queueing.
// Redirects are not followed by the fetcher: each hop is stored as a
// link of kind redirect and the target goes through the frontier,
// MaxRedirects hops at most per chain (the hop count lives in memory:
// after a restart a chain's count starts again); with SeedRedirects a
// seed's redirect brings its target's host into scope.
//
// # Extensions
//
// What is not fetch → extract → report lives with the package that owns
// the concept and plugs in through a small interface this package
// declares, driving the loop through Loop (the loop's own mechanics:
// storage, the batch, admission, the frontier, Post to run on the
// disposer):
//
//   - Cycle (package recrawl): a crawl as one cycle of seedcrawl run:
//     its first URLs, refetch or traverse a known page (a traversed page's
//     stored links go on as a downloaded page's; nothing is stored for it),
//     the revisit interval of each fetch, its seeds' outcomes.
//   - Feed (package compare's Injection, package cluster's Crawl): URLs
//     from outside the crawl's links, queued through Loop.Post and told
//     of every final outcome; workers wait for them instead of stopping
//     on an empty frontier. A Feed that is a Cluster makes the crawl one
//     node of several: links to other nodes' hosts are priced by the
//     scheduler (frontier.Target.Remote), handed off after the frontier's
//     Done from the page's Remote targets (which then carry their share,
//     frontier.Target.Mass), and every commit waits until the hand-offs
//     are durable (Cluster.Flush).
//   - Sitemaps (package sitemap's Crawl, with Settings.Sitemaps): sitemap
//     files are frontier jobs whose bodies Sitemaps reads instead of HTML
//     (vetting the URLs they list through Loop.Vet); the URLs they list
//     are links of kind storage.LinkSitemap, admitted like any link. Sitemap files count against MaxPages, not against the
//     host page budget.
//   - Recorder and Archive (live metrics, WARC): told of every request
//     and counter increment from the very calls that update the stored
//     counters; Archive gets each request's wire bytes before the outcome
//     is committed (fetch.Response.Archive builds the exchange), and a
//     failure to archive stops the crawl.
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
