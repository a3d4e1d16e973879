// Package recrawl runs seedcrawl as an incremental crawler (seedcrawl
// run): cycle after cycle it reruns seed selection on the link
// graph it has stored and crawls again from the new seeds, refreshing the
// pages it knows and discovering new ones.
//
// Zheng, Dmitriev & Giles ("Graph-based seed selection for web-scale
// crawlers", CIKM 2009) assume exactly this model: the seeds of crawl i+1
// are chosen on the graph of crawl i. Daneshpajouh et al. found that only
// 11% of the seeds of an old crawl survive in a newer web and name "finding
// similar nodes in the newer graph" as future work; Replacer does that for
// seeds that vanish. Nutch, Heritrix and StormCrawler recrawl with
// conditional GET and adaptive revisit intervals (Revisit follows Nutch's
// AdaptiveFetchSchedule) but never choose new seeds from their own graph.
//
// # A cycle
//
// Runner.Run loops over cycles numbered in the database (storage.Cycle):
//
//  1. Plan. Cycle 1 uses the given seeds. Cycle n ≥ 2 loads the graph as of
//     cycle n-1 (storage.DB.AsOf) with the crawl state of its pages and runs
//     the selector (Options.SeedAlgo, package seeds) with the fetched, live
//     HTML pages as the only candidates, so a seed is never an unfetched
//     trap URL or a page that answered 404. AlgoGiven keeps the previous
//     cycle's seeds instead, replacing those the stored crawl shows
//     vanished. The refresh list is every page fetched before, ordered by
//     the refresh policy (see Change-aware refresh), so a refresh cap
//     refetches its head.
//  2. Crawl (Options.Crawl; cmd wires package crawler). The first commit
//     stores the cycle record and a new frontier: the seeds first, with the
//     scheduler's seed weight, then the URLs pending from earlier cycles,
//     then the refresh list, every priority reset to 0 so that the cycle's
//     mass flows from its own seeds and the list order breaks ties. A known
//     page is refetched with If-None-Match / If-Modified-Since when its
//     revisit interval has passed and the refresh share of the budget is
//     not spent; otherwise it is traversed from storage (its stored links go
//     to the frontier, no request), so new pages behind it are still found.
//     A 304 also hands the stored links on. A seed that redirects is
//     replaced by its target; one that answers 404 or 410 or stays
//     unreachable by Replacer's pick, injected with the seed weight.
//  3. Close. Once the crawl ends (nothing left, budget spent) the cycle's
//     end time is stored; its figures (pages new / changed / unchanged /
//     gone, fetches, bytes) are kept by storage as the crawl commits.
//
// With Options.Interval the next cycle starts that long after the last one
// ended. A cycle interrupted by ctx or a crash has a record without an end
// and is resumed by the next Run: its frontier, budget (what is left of
// PagesPerCycle), seeds and the refetches a paced cycle owed (see Refresh
// pacing) come from the database, and the graph it plans
// replacements on is again the one as of the previous cycle, so it
// completes as an uninterrupted cycle would. A db of seedcrawl crawl alone
// has cycle 1 without a record; if its frontier still holds URLs (the
// crawl was interrupted or stopped by a limit), Run stores a record of
// cycle 1 and resumes it from that frontier before planning cycle 2 (only
// the frontier's first entry is read to tell).
//
// # The crawl of a cycle
//
// Cycle (NewCycle, CycleOptions) is the crawl side of a cycle: package
// crawler calls it through crawler.Cycle and lends it the loop's mechanics
// (crawler.Loop). CycleOptions.Start begins a cycle in the crawl's first
// commit: the cycle record (storage.Batch.PutCycle), and a frontier
// rebuilt with new sequence numbers in the order seeds, URLs still pending
// from earlier cycles, known pages to revisit (Refresh), every priority
// reset to 0 (or the Prior) and the scheduler's state dropped; then the
// seeds get the scheduler's seed weight (frontier.Seed). Without Start the
// stored cycle is resumed from the stored frontier.
//
// A job for a page fetched in an earlier cycle is refetched when the
// RevisitPolicy says it is due (or a sitemap's lastmod says it changed),
// it is in the refetch head (RefetchHead) and the refresh cap (MaxRefresh)
// is not reached; otherwise it is traversed from storage. A seed of the
// cycle is refetched whatever the RevisitPolicy says (a paced cycle
// refetches it first, ahead of the rate): the cycle starts from a seed for
// the links it has now, and traversed from storage it would hand on only
// those of its stored copy, hiding the new links a selector chose it for.
// A page already
// fetched in this cycle that comes back (an injected seed) is traversed.
// With Lazy, a known page or a URL an earlier cycle left pending is queued
// when a link of this cycle reaches it, once per cycle (a bitmap of the
// ids queued in the cycle).
//
// The cycle's seeds are watched: a seed whose final answer is a redirect
// is replaced by the redirect target (queued like any redirect target);
// one answering 404 or 410, or unreachable once retries are spent (or its
// robots.txt), is replaced by the SeedReplacer's pick, injected with the
// seed weight. With ReseedEvery a SeedReseeder runs on its own goroutine
// every ReseedEvery fetches and the crawl's disposer injects its seeds
// (crawler.Loop.Post). Injected seeds and replacements are appended to the
// cycle record, stored in the commit that holds their cause.
//
// # Stored PageRank and history-aware ordering
//
// Planning cycle n ranks the graph as of cycle n-1 once (graph.PageRank)
// and stores the vector in the db (StateRank), so the refresh order, a
// resumed cycle and the crawl's history schedulers (scheduler history and
// history@M, Baeza-Yates et al. 2005: the previous crawl's ranking is the
// best practical ordering) read it instead of ranking again. Plan.Rank
// carries it; cmd gives it to the scheduler as Options.History.
//
// # Change-aware refresh
//
// The refresh share of the budget (MaxRefresh refetches) is spread over
// the known pages by Options.RefreshPolicy. RefreshOptimal estimates each
// known page's change rate from its fetch history. When the server sends
// Date and Last-Modified, on the server's own clock (a test web's epochs
// are days apart while its cycles run seconds apart; a real server's clock
// may be off the crawler's by any amount): Cho and Garcia-Molina's
// last-modified estimator, which also reads the age of the copy at the
// first fetch (changerate.Exposure), with a Gamma prior per host
// (changerate.FitGamma); a cycle's length on the server's clock comes from
// the Dates of consecutive fetches. Otherwise from content comparisons:
// Cho and Garcia-Molina's bias-reduced estimator over its refetches, with
// its host's pages pooled (changerate.FitPrior), floored by
// changerate.Unseen. A page whose Last-Modified disagrees with its content
// (a server that stamps every answer with the time) is estimated from its
// content. The cycle then refetches the pages of the largest PageRank ×
// chance of a change since the last fetch (changerate.StaleChance): what
// most raises the PageRank-weighted share of fresh copies at the end of
// the cycle. Cho and Garcia-Molina's freshness-optimal frequencies
// (changerate.Optimal) average freshness over continuous time and give no
// refetch to a page that changes faster than it can be refetched; a
// cycle's copies are used when it ends, and such a page is then made fresh
// by one refetch, so it is worth the most. RefreshCount, for the share
// of fresh pages counted alike, uses the same rates but looks past the
// next cycle: a fast page refetched is stale again by the next cycle's
// end, a slow one stays fresh through many, so it gives each page Cho and
// Garcia-Molina's optimal frequency for copies judged at each cycle's end
// (changerate.OptimalCycles) and orders by what pages owe, as below. Both
// plan no refetch for a URL whose last answer left no copy (a redirect,
// 404/410, 401/403/451, robots-denied) before it is due by
// Revisit.GoneCycles, when the revisit policy would not make it.
// RefreshImportance and RefreshUniform allocate frequencies (in
// proportion to PageRank, equal); a page with frequency f last fetched in
// cycle c owes f·(n−c) refetches, and their list is ordered by what pages
// owe, so a capped share refetches each page about f times per cycle.
//
// Redirects, 404/410, refusals (401/403/451) and robots-denied URLs are
// refetched every Revisit.GoneCycles cycles instead of every cycle, each
// in the cycles of its own phase, so those found in the same cycle come
// due spread over GoneCycles cycles rather than together; 5xx answers and
// network failures are transient and tried again whenever due.
//
// # Seeds that find new pages
//
// AlgoNewPages (newpages) is the recrawl objective: a seed is worth the
// share of its weight that reaches new pages in the first steps of the
// crawl, as FPR hands weight on: the new links the seed gains, each
// getting 1/(out-degree+1) of its weight when the crawl refetches seeds,
// plus those its out-neighbours gain, each getting d/((D(s)+1)(D(v)+1))
// (Baeza-Yates et al.: start one hop from where new pages appear; a seed
// with hundreds of links spreads its weight too thin for new links to be
// fetched early). Seeds are traversed from storage, not refetched, when a
// capped refresh share goes to a policy other than pagerank, and then
// only the neighbours count. A page's rate of new links is learned from
// the fetch history: a URL first found on a page after that page's first
// fetch is a link the page gained; a URL first found on a page fetched
// for the first time is only new to the crawl and counts nothing. Pages
// with few refetches lean on a prior: their host's observed rate (Zheng et
// al.'s P_uniq per host, observed rather than a default of 1), spread over
// the host's pages by in-degree and by how often the page changed, where
// new links appear. Only fetched live HTML pages count, so out-of-scope
// URLs and old unfetched URLs are worth nothing, also in the explanations.
// A paced cycle (PaceEven with a capped refresh share) refetches its
// seeds first, and a seed is then worth all the links it gains; but the
// pacer also refetches the pages of highest stored PageRank first, so the
// first earlyShare × MaxRefresh of them show their new links early
// without being seeds, and are worth nothing as seeds. Seed refetches
// count against the refresh share, so a seed pays off only where it gains
// more new links than the refetch it takes the place of.
// Seeds are chosen by greedy maximum coverage among fetched live HTML
// pages, at most max(1, round(K × host's share of the value)) per host,
// and cycle 1's seeds that are still alive are kept unless a selected seed
// is one or links to it, or the selected seeds cover more than half of
// its gain.
//
// # Reseeding inside a cycle
//
// With Options.ReseedEvery the crawl reruns the selector every ReseedEvery
// fetched pages on the graph stored so far (Reseeder, on its own goroutine)
// and injects the seeds into the frontier with the scheduler's seed weight:
// a pending seed gains the weight, a seed fetched earlier in the cycle is
// traversed again from storage and hands the weight to its out-links.
//
// # Budget and the cost of starting a cycle
//
// A budget-limited cycle (PagesPerCycle > 0) is lazy (Plan.Lazy): its
// refresh list keeps only what the budget can use, and the crawler queues
// any other known page, or a URL an earlier cycle left pending, when a link
// of the cycle reaches it, so the cycle still reaches everything it would
// have. Planning it reads what the budget needs, not the db:
//
//   - The refresh policy allocates over a pool of the known pages with the
//     highest stored PageRank (max(4 × refetch budget, 5,000) pages); the
//     list is the pool in the policy's order, then PagesPerCycle more pages
//     by PageRank. The pool is found from the stored PageRank vector (ids
//     in rank order, one pass over 8 bytes a page), and only its page
//     records and fetch histories are read (lazyRefreshOrder). The result
//     equals what a pass over every page would give.
//   - With the seeds given, no graph is loaded: the previous seeds' records
//     are read one by one, and the graph is loaded only if a vanished seed
//     needs a neighbour as replacement. Selectors other than given read the
//     whole stored graph: choosing seeds on it is their job.
//   - The crawler takes the per-host URL counts (--host-max-pages) from
//     storage's admitted index, which every commit keeps in the same
//     transaction as the pages, so it is exact after kill -9 too.
//
// When the cycle ends its unused frontier entries are deleted, 10,000 per
// transaction, so none stays behind and no transaction grows with the db.
// The PageRank the next cycle needs is computed when this one closes. See
// the benchmark BenchmarkCycleStart in cmd/seedcrawl for what starting a
// cycle costs.
//
// # Refresh pacing
//
// A budget-limited cycle with a capped refresh share paces its refetches
// (Options.RefreshPace, PaceEven by default; seedcrawl run
// --refresh-pace): a refetch is granted while the refetches so far stay
// below 1 + MaxRefresh/100 + MaxRefresh × fetches / budget, the share's even
// rate. Known pages are the best-connected part of the graph, so every
// scheduler reaches them first; granted as reached (PaceFront), refetches
// took 80-90% of a cycle's first tenth and the URLs first found in the
// cycle waited behind them. A candidate ahead of the rate is traversed
// from storage at once (the scheduler's order of discovery is unchanged)
// and its refetch owed; after each fetch owed pages are released at the
// rate, largest stored PageRank first (in the order owed, the first
// refetches followed the neighbourhood of the seeds, and a reseeded cycle
// refetched minor pages early instead of the hubs where new links
// appear), queued again (crawler.Loop.Credit) at their stored PageRank so
// they come out promptly, and the others are
// held in the frontier at priority 0 so the crawl cannot run dry while
// refetches are owed. The last held page coming out with no refetch under
// way means nothing else is left: the cycle is then dry and every owed
// refetch is made at once, until a fetch of a page that is not a refetch
// shows that URLs were left. A few held pages in a row mean less: a host
// with nothing but held pages is ready while the hosts with other URLs
// are busy. The owed pages are stored with each commit (storage.Owed, at
// most MaxRefresh of them), so a cycle resumed after a crash or kill -9
// owes them again and makes the refetches the uninterrupted cycle would
// have made. See pace.go.
//
// PagesPerCycle bounds the fetches of a cycle. DiscoveryShare keeps a share
// of it from refetches: at most (1 − DiscoveryShare) × PagesPerCycle known
// pages are refetched, the rest go to URLs never fetched (and whatever
// refetches leave unused). Known pages past the cap are traversed from
// storage, so the crawl keeps reaching beyond them.
package recrawl
