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
//     importance: PageRank on the stored graph, highest first (ties in
//     discovery order), so a refresh cap leaves out the least important.
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
// PagesPerCycle) and seeds come from the database, and the graph it plans
// replacements on is again the one as of the previous cycle, so it
// completes as an uninterrupted cycle would.
//
// # Reseeding inside a cycle
//
// With Options.ReseedEvery the crawl reruns the selector every ReseedEvery
// fetched pages on the graph stored so far (Reseeder, on its own goroutine)
// and injects the seeds into the frontier with the scheduler's seed weight:
// a pending seed gains the weight, a seed fetched earlier in the cycle is
// traversed again from storage and hands the weight to its out-links.
//
// # Budget
//
// PagesPerCycle bounds the fetches of a cycle. DiscoveryShare keeps a share
// of it from refetches: at most (1 − DiscoveryShare) × PagesPerCycle known
// pages are refetched, the rest go to URLs never fetched (and whatever
// refetches leave unused). Known pages past the cap are traversed from
// storage, so the crawl keeps reaching beyond them.
package recrawl
