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
//	                                    │  worker × N: Fetch → extract → normalize,
//	                                    │              guard, scope (pure, parallel)
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
// Only HTML is parsed. Every link is resolved and normalized (package
// extract, urlnorm), checked by the trap guards (urlnorm.Guard; a rejected
// URL is counted by reason and not stored) and deduplicated in document
// order, at most MaxOutLinks per page. Links a polite crawler does not
// follow (rel=nofollow, every link of a meta robots nofollow page, with
// RespectNofollow) are counted and not recorded, as testweb's ground truth
// records a crawl. Out-of-scope targets, targets beyond MaxDepth or over a
// host's page budget (which the frontier counts: Frontier.HostFull, Admit)
// are stored as nodes of the graph (with a status saying why) but not
// queued; a URL first seen too deep is queued later if a link
// at an allowed depth reaches it in the same run.
// Redirects are not followed by the fetcher: each hop is stored as a link
// of kind redirect and the target goes through the frontier (scope,
// robots, politeness apply), MaxRedirects hops at most per chain (the hop
// count lives in memory: after a restart a chain's count starts again).
// With SeedRedirects, a redirect from a depth-0 page (a seed, or a seed's
// redirect target: redirects keep the depth) brings the target's host into
// scope, so http://example.com/ → https://www.example.com/ keeps a
// seeds-hosts crawl going.
//
// # Sitemaps
//
// With Settings.Sitemaps, each site's sitemaps are read once per cycle,
// and no sitemap request bypasses the frontier. Package sitemap (Sites)
// keeps which URLs are sitemaps, the bounds per file, site and run, and
// reads the files; the crawl loop fetches, admits and records. When the
// disposer records the first page of a site, the site's robots.txt is
// known (the frontier asked before handing the page out): its Sitemap:
// lines (Options.Sitemaps, no request) and /sitemap.xml are interned,
// marked (storage.Batch.MarkSitemap, so the mark outlives a restart) and
// queued with frontier.Add at that page's priority, bypassing the
// scheduler but not the politeness, the SSRF guard or the fetcher's
// bounds. A worker that takes a sitemap job reads it (sitemap.Sites.Read)
// instead of extracting HTML links: the URLs it lists are its links, of
// kind storage.LinkSitemap, checked by the trap guards and admitted like
// any link; their lastmod is stored (storage.Batch.SetLastMod), and in a
// recrawl a known page whose lastmod is later than its last fetch is
// refetched even when the revisit policy says it is not due
// (Loop.SitemapChanged). An index's
// child sitemaps (and a sitemap's redirect target) are queued as sitemaps
// too. A bound that cut a file is stored as the page record's reason and
// counted (Summary.Sitemaps). Sitemap files count against MaxPages like
// pages, not against the host page budget.
//
// # Recrawl cycles
//
// With Options.Cycle the crawl is one cycle of seedcrawl run; package
// recrawl owns the cycle (recrawl.Cycle) and the crawl loop calls it
// through the Cycle interface at the few points where a cycle differs from
// a plain crawl: Start queues the cycle's first URLs (through Loop, the
// loop's own mechanics: storage, the batch, the frontier's restore and
// seed weights), Refresh decides whether a job for a page fetched before is
// refetched (with If-None-Match / If-Modified-Since) or traversed from
// storage, and the outcome methods watch the cycle's seeds. A traversed
// page's stored out-links go to the frontier as the links of a downloaded
// page (the scheduler propagates its priority) and nothing is stored for
// the page, no request made, no budget spent; a 304 answer hands the
// stored out-links on the same way. Every fetch stores the cycle's revisit
// interval (storage.Fetch.Interval).
//
// # Feeds
//
// A Feed (Options.Feed) brings URLs from outside the crawl's links:
// package compare's Injection queues the URLs a comparison asks for
// (with FedOnly, nothing else is queued). A feed queues through
// Loop.Post, on the disposer, and is told of every final outcome
// (Recorded); workers wait for its URLs instead of stopping on an empty
// frontier.
//
// # Stopping
//
// Run returns when the frontier is exhausted, a budget is spent
// (Settings.MaxPages, MaxDuration) or ctx is cancelled: workers stop taking jobs,
// requests in flight finish, the last batch is committed and the run
// record is closed. A fatal error (a failed commit) stops the crawl and is
// returned.
//
// # Watching and keeping
//
// Two optional seams let a command watch the crawl and keep what it
// fetched. Options.Recorder is told of every request (code, bytes,
// duration) and every counter increment, from the very calls that update
// the run's stored counters, so live metrics equal them by construction.
// Options.Archive gets each request's exact wire bytes from the worker
// that made it, before the outcome is committed (for a 304, with the time
// the page was last fetched in full); a failure to archive stops the
// crawl like a failed commit. Counters and Progress are safe to read while
// Run goes on.
package crawler
