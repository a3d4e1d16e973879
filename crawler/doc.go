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
// host's page budget are stored as nodes of the graph (with a status saying
// why) but not queued; a URL first seen too deep is queued later if a link
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
// and no sitemap request bypasses the frontier: sitemap URLs are frontier
// jobs like pages, marked as sitemaps. When the disposer records the
// first fetched page of a site (scheme, host and port) in a run, the
// site's robots.txt is known, because the frontier asked for it before
// handing the page out; the crawl loop takes its Sitemap: lines from the
// robots cache (Options.Sitemaps, no request) and adds /sitemap.xml. Those
// URLs are interned (discovered from that page), marked
// (storage.Batch.MarkSitemap, so the mark outlives a restart) and queued
// with frontier.Add at that page's priority, bypassing the scheduler but
// not the politeness: Next checks robots.txt for them (a disallowed
// sitemap is recorded robots-denied, not fetched), the host's delay,
// concurrency and back-off apply, the fetcher's SSRF guard, timeouts and
// max-body bound them, and the fetch is stored as a page record.
//
// A worker that takes a sitemap job fetches it with fetch.Request.KeepBody
// and parses it with package sitemap (XML urlset or index, text, gzip)
// instead of extracting HTML links. The URLs a file lists are its links,
// of kind storage.LinkSitemap, deduplicated, checked by the trap guards and
// admitted like any link (scope, max-depth, host budget; robots.txt when
// the frontier hands them out); their lastmod is stored
// (storage.Batch.SetLastMod, read with storage.DB.LastMod) for the
// revisit policy: in a recrawl, a known page whose lastmod is later than
// its last fetch is refetched even when the RevisitPolicy says it is not
// due (the refresh cap still applies). An index's child sitemaps are links of kind sitemap too,
// and queued as sitemaps one level deeper, as sitemap.Walker would:
//
//   - per file: sitemap.Limits.MaxURLs entries, MaxBytes uncompressed,
//     MaxRatio expansion of a .gz file (a gzip bomb stops after about a
//     mebibyte), and the fetcher's max-body;
//   - per site and cycle: index depth MaxDepth, MaxSitemaps files,
//     MaxWalkURLs entries; each sitemap read once.
//
// A file cut by a bound keeps the entries read before the cut; the bound
// is stored as the page record's reason ("sitemap-cut: urls: ...",
// "sitemap-skipped: depth: ...", "sitemap-invalid: ..." for a file that is
// no sitemap) and counted (Summary.Sitemaps). A sitemap that redirects is
// followed as a sitemap at the same depth, unless the target is a URL the
// crawl already knows (sites redirect unknown paths to their home page); a
// URL already fetched as a page is never read as a sitemap, and a sitemap
// already read in this cycle (by a run that was then interrupted) is not
// read again. The mark of a sitemap job is looked up in memory, loaded
// once from storage, so a sitemap left in the stored frontier by a crash is
// still read as one. Sitemap files count against MaxPages like pages, not
// against HostMaxPages.
//
// # Recrawl cycles
//
// With Options.Recrawl the crawl is one cycle of seedcrawl run (package
// recrawl plans the cycles). Recrawl.Start begins a cycle in Run's
// first commit: the cycle record (storage.Batch.PutCycle), and a frontier
// rebuilt with new sequence numbers in the order seeds, URLs still pending
// from earlier cycles, known pages to revisit (Recrawl.Refresh), every
// priority reset to 0 and the scheduler's state dropped; then the seeds get
// the scheduler's seed weight (frontier.Seed). Without Start the stored
// cycle is resumed from the stored frontier.
//
// A job for a page fetched in an earlier cycle is refetched with
// If-None-Match / If-Modified-Since when the RevisitPolicy says it is due
// and the refresh cap (MaxRefresh) is not reached; otherwise the page is
// traversed from storage: its stored out-links go to the frontier as the
// links of a downloaded page (the scheduler propagates its priority), and
// nothing is stored for the page, no request made, no budget spent. A 304
// answer hands the stored out-links on the same way. Every fetch stores the
// policy's revisit interval (storage.Fetch.Interval). A page already
// fetched in this cycle that comes back (an injected seed) is traversed.
//
// The cycle's seeds are watched: a seed whose final answer is a redirect is
// replaced by the redirect target (queued like any redirect target); one
// answering 404 or 410, or unreachable once retries are spent, is replaced
// by the Replacer's pick, injected with the seed weight. With ReseedEvery a
// Reseeder runs on its own goroutine every ReseedEvery fetches and its
// seeds are injected likewise. Injected seeds and replacements are appended
// to the cycle record, stored in the commit that holds their cause.
//
// # Injection mode
//
// With Options.Inject (seedcrawl compare) only URLs given to Inject are
// queued: fetched pages and their links are stored as usual, link targets
// are interned but not queued, and every final outcome of an injected URL
// (fetched, redirected, failed, robots-denied, refused for scope or a
// budget) is handed to Injection.Deliver with the page's in-scope links.
// A URL with a final outcome in the database is delivered from there
// without a request. Workers wait for injections instead of stopping on an
// empty frontier; Sync commits what was delivered, so a caller stores
// nothing that refers to an outcome a crash could lose.
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
