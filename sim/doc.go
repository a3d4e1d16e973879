// Package sim replays crawl schedulers on a known graph and scores them.
//
// A simulated crawl needs no HTTP: downloading node v reveals its out-arcs,
// which the simulator hands to the scheduler as the page's distinct out-links
// (parallel arcs merged, self-links included as already downloaded), exactly
// as the live frontier does. Politeness is off: the queue always hands out the
// pending URL with the highest priority, ties first-discovered first, from an
// indexed heap (internal/pq) with a dense index by node id. The crawl runs
// until the frontier is empty, so every scheduler downloads the same set: the
// pages reachable from the seeds.
//
// The score of a scheduler after k pages is S(k), the sum of the true
// PageRank (graph.PageRank with its defaults: normalised to sum 1 over the
// whole graph) of the first k pages it downloaded. The report gives S(k) at
// 1, 2, 5, 10, 20, 50 and 100% of the reachable pages and on a fine grid, next
// to the upper bound U(k), the sum of the k largest PageRank values of the
// graph, and the gap closure (S − S_bfs)/(S_omniscient − S_bfs): 0 is as good
// as breadth-first, 1 as good as knowing every page's PageRank in advance.
// bfs and omniscient are always run, as references, when not asked for.
//
// The omniscient reference knows every page's true PageRank in advance. It
// is, at each k, the better of two greedy crawls with that knowledge (both
// timed in its cost): one downloads the seeds first, highest PageRank
// first, then the highest PageRank discovered (scheduler.SeedsFirst, the
// rule compare's reference follows too); the other ranks a seed like any
// page. Neither is best alone: ranked by PageRank alone, a seed of low rank
// that opens a site of high rank waits behind a whole site of pages that
// outrank it, and the reference scored below bfs (cnr-2000, 160 random
// seeds: 0.171 against 0.233 at 1%); seeds first, seeds of low rank take
// the budget from the pages of high rank the first seeds link to (epa, 160
// random seeds of 670 reachable pages). It is a greedy reference, not the
// optimum: a scheduler can still beat it at some k (backlink on epa at 20%).
//
// Hosts: FPR@M needs to know which links cross hosts. They come from the
// graph's URLs, from a host map (ReadHosts), or, for a graph without URLs
// such as cnr-2000, nowhere: then every link counts as intra-host, so FPR@M
// orders exactly like FPR, and the report says so.
//
// History: the history and history@M schedulers rank a page by its PageRank
// on the graph the previous cycle stored (Options.History). It comes from an
// older graph of the same web (ReadHistory, HistoryFrom: matched by URL, or
// by id for graphs without URLs; seedcrawl sim --history BASENAME) or, on a
// test web, from a complete crawl of the previous epoch (CrawledPageRank of
// epoch e−1's truth, scored on epoch e's truth).
//
// Cost: each run is timed on its own and reported per link examined (an
// out-arc of a downloaded page) and per page downloaded, with the peak heap
// in use above the level before the run.
package sim
