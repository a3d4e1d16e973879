// Package scheduler holds the crawl-ordering policies seedcrawl can put behind
// its frontier: bfs, fpr, fpr@M, opic, backlink, random, rankmass-window@P and
// omniscient, selected by name with ByName.
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
//     advance; an evaluation reference only.
//
// Schedulers are not safe for concurrent use; the queue serialises calls.
package scheduler
