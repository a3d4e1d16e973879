// Package scheduler holds the crawl-ordering policies seedcrawl can put behind
// its frontier: bfs, fpr, fpr@M, history, history@M, opic, backlink, random,
// rankmass-window@P and omniscient, selected by name with ByName.
//
// A scheduler only ranks URLs. The queue that uses it (the live frontier, or
// the simulator in package sim) stores one float64 priority per pending URL,
// hands out the URL with the highest priority, and breaks ties by discovery
// order (first discovered first). Politeness is the queue's business: a
// scheduler never sees hosts, delays or robots rules.
//
// # Fractional PageRank (fpr) — exact semantics
//
// Alam, Ha and Lee, "Fractional PageRank Crawler" (DASFAA 2009), and Alam, Ha,
// Sim and Lee, "The impact of inter-host links in crawling important pages
// early". With damping d (Options.Damping, default 0.85):
//
//   - Seeds. Given the seed set S, seed i starts with fpr_i = (1−d)·t_i,
//     t_i = 1/|S|. (A seed that is already queued gets (1−d)/|S| added; the
//     share of a seed that is already downloaded is dropped.)
//   - Download. When page p with value f = fpr_p is downloaded, every distinct
//     out-link target q of p that is not yet downloaded gets
//     fpr_q += d·f/N_p, where N_p counts ALL distinct out-link targets of p,
//     including targets already downloaded (or in flight) and p itself: the
//     shares of those are dropped, not redistributed. Then fpr_p = 0 (the queue
//     forgets p).
//   - A page that is downloaded is never queued again and never propagates
//     again. Links to pages that are still queued accumulate.
//   - A dangling page (N_p = 0) propagates nothing: its mass is dropped.
//   - Ties go to the URL discovered first (FIFO by discovery order), as in the
//     paper's Figure 2; the queue provides this.
//
// Emitted mass: when all targets of p are undownloaded, Σ_q Δfpr_q = d·f.
//
// # FPR@M — inter-host links weighted M times
//
// fpr@M (M ≥ 1, e.g. fpr@100) splits p's d·f unevenly: with N_intra targets on
// p's host and N_inter targets on other hosts (self-links and downloaded
// targets counted, as above),
//
//	D_p = N_intra + M·N_inter
//	intra-host target q:  fpr_q += d·f/D_p
//	inter-host target q:  fpr_q += M·d·f/D_p
//
// A host is the exact lower-cased host name: www.a.com and a.com are different
// hosts (Link.Intra carries the comparison). FPR@1 gives exactly FPR's
// download order: D_p = N_p and M·x = x in floating point, so every share is
// bit-for-bit equal.
//
// # History-aware ordering (history, history@M) — exact semantics
//
// Baeza-Yates, Castillo, Marin and Rodriguez, "Crawling a country: better
// strategies than breadth-first for web page ordering" (WWW 2005), found
// that ordering a crawl by the previous crawl's information beats every other
// practical ordering. From the second cycle on the crawler holds the graph
// it stored in the previous cycle; history ranks by the PageRank of that
// graph and uses FPR for what the history does not know. Options.History
// gives the prior π(q) of a URL id q, Options.HistoryMass its total mass Π
// (1 for a normalised PageRank; 0 means 1). With damping d and M = 1 for
// history, M for history@M:
//
//   - Known and unknown. q is known when π(q) is a positive finite number.
//     Anything else (0, NaN, ±Inf, negative, an id the history never saw)
//     means unknown: a URL new since the previous cycle. PageRank with
//     teleportation is positive on every page of the graph it ranks, so 0
//     is never a real prior.
//   - Seeds. A known seed gets Prio = max(Prio, π(q)). An unknown seed gets
//     FPR's seed value on the history's scale: Prio += (1−d)·Π/|S|. A Done
//     seed is left alone.
//   - Download. Page p is handed out with value f = its Prio: π(p) if p is
//     known, else the FPR mass it gathered. Its distinct out-link targets
//     share d·f exactly as in FPR@M: with N_intra and N_inter targets
//     (Done targets and p itself counted, their shares dropped),
//     D_p = N_intra + M·N_inter, intra share d·f/D_p, inter share
//     M·d·f/D_p. A known target q that is New or Queued gets
//     Prio = max(Prio, π(q)) and no share: its prior already counts every
//     in-link of the previous graph, so adding shares would count them twice.
//     An unknown target accumulates its share: Prio += share. So the
//     priority of a new URL is the part of its PageRank that flows from the
//     pages downloaded so far, Σ d·f_p/D_p, the same quantity (and scale)
//     FPR estimates, with the previous cycle's PageRank standing in for the
//     FPR value of known pages.
//   - Dangling mass. A downloaded page with no out-links (N_p = 0), or with
//     Prio 0, sends nothing: its mass is dropped, as in FPR. Shares of Done
//     targets are dropped too; nothing is redistributed.
//   - No history (Options.History nil, the first cycle): every URL is
//     unknown and Π = 1, so history orders exactly as fpr and history@M
//     exactly as fpr@M (the same shares, bit for bit).
//   - A known page that disappeared (404, a redirect) is still ranked by its
//     prior until it is fetched; the queue learns the rest from the fetch.
//
// The history is read, never written: history keeps no state of its own and
// is not Stateful. A resumed crawl gets the same Options.History again.
//
// # The other policies
//
//   - bfs: priorities never change, so the queue's FIFO tie-break makes it a
//     breadth-first crawl.
//   - opic: Abiteboul, Preda and Cobena, "Adaptive on-line page importance
//     computation" (WWW 2003), greedy policy. Seeds share a cash of 1 equally;
//     a downloaded page's cash c is added to its history and split equally over
//     its N_p distinct out-links (no damping); the shares of downloaded targets
//     and the whole cash of a dangling page go to the paper's virtual page. The
//     priority of a queued URL is its cash. Cash is conserved: the queued cash
//     plus the virtual page's cash equals the cash put in by Seed.
//   - backlink: the number of downloaded pages seen linking to the URL (Cho,
//     Garcia-Molina and Page, "Efficient crawling through URL ordering", 1998).
//   - random: a pseudo-random priority per URL, a hash of (seed, id), so a run
//     is deterministic for a fixed seed whatever the call order; random@SEED
//     picks the seed by name.
//   - rankmass-window@P: Cho and Schonfeld, "RankMass crawler" (VLDB 2007),
//     Windowed-RankMass with a window of P% of the frontier (the FPR paper's
//     baseline is P = 5). It keeps the rank mass rm of every known page and the
//     out-links of every downloaded page. Seeds start with rm = (1−d)/|S|.
//     The queue downloads the top P% of the frontier by rm as ranked at the
//     last flush; then Flush propagates, for every downloaded page p with
//     rm_p > 0, rm_q += d·rm_p/N_p to each out-link target q (downloaded or
//     not: unlike FPR, mass keeps flowing through downloaded pages) and sets
//     rm_p = 0, and re-ranks the frontier by rm. It implements Batcher. It
//     holds the out-links of every downloaded page in memory (the cost the
//     FPR papers measure it against) and is not Stateful: after a resume its
//     rank mass restarts from the stored priorities.
//   - omniscient: the true importance of each URL (Options.Truth), known in
//     advance; an evaluation reference only. Seeds are ranked by their truth
//     like any URL; SeedsFirst wraps a Truth so that the seeds come first
//     (sim's and compare's references take, at each k, the better of the
//     two crawls).
//
// Schedulers are not safe for concurrent use; the queue serialises calls.
package scheduler
