// Package seeds chooses crawl seeds on a stored link graph with the seed
// selectors of the literature, explains each choice, and evaluates seed sets.
//
// Select runs one selector on an Input (a graph.CSR plus what the crawl knows
// about each page) and returns a Result that lists every chosen seed with the
// selector's score, the pages and page value it newly covers within Hops hops
// and, for hits-core, the bipartite core it came from. Evaluate runs several
// selectors side by side against random seeds.
//
// # Selectors
//
// Sharma & Bhagat (the BUDG seed-selection comparison): random, indegree0 (pages
// nobody links to, by descending out-degree, filled with the highest
// out-degree pages when there are fewer than K), outdegree and pagerank, with
// their coverage measure: the number of pages reachable from the seeds
// (Result.Reachable).
//
// Zheng, Dmitriev & Giles, "Graph-based seed selection for web-scale
// crawlers" (CIKM 2009; poster "Graph based crawler seed selection", WWW 2009):
// seed selection in an incremental crawler is maximum k-coverage on the graph
// of the previous crawl. A crawl from seed set S reaches the pages within h hops
// (BFS distance ≤ h, the seed at distance 0); the goal is to maximise the total
// value of the covered pages. They give the heuristics random, pagerank and
// outdegree and four greedy algorithms that pick one seed at a time and then set
// the value of every page the seed covers within h hops to 0:
//
//   - maxout (Maximal Out-degree First): the page whose uncovered out-neighbours
//     (and itself) carry the most value, i.e. the depth-1 weight;
//   - maxweight (Maximal Depth-d Weight First): the page with the largest sum of
//     current values over the pages at distance 0..d from it (d = 2 by default;
//     the paper also uses 3). With d ≥ h the depth-d weight is exactly the
//     marginal gain of the coverage objective, so maxweight is the classic
//     greedy algorithm with its (1 − 1/e) guarantee (Nemhauser, Wolsey & Fisher
//     1978);
//   - maxscc (Maximal Weighted SCC First): the strongly connected component with
//     the largest current value; inside it, the member with the largest depth-1
//     weight (any member reaches the whole component, so the entry point is
//     chosen for its immediate reach);
//   - rootscc (Root SCC First): candidates are the members of the root
//     components of the condensation DAG (no other page can lead a crawler
//     there), ranked as maxweight ranks them; once they are used up the rest
//     is filled by maxweight.
//
// The greedy algorithms use lazy evaluation (Minoux 1978; Leskovec et al.'s
// CELF, KDD 2007): a depth-d weight can only fall when values are set to 0, so
// a stale weight is an upper bound and only the candidate on top of the heap is
// recomputed. Negative user values would break that bound; when some exist, the
// covering of a negative page raises the stored bound of every page within d
// reverse hops of it, which keeps the lazy scheme exact.
//
// Page value, after Zheng et al.: w(p) = 1 + n_uncrawled(p) · P_uniq(host(p)),
// where n_uncrawled(p) counts p's out-links to pages not fetched yet and
// P_uniq(h) is the share of h's fetched pages whose content was new to the
// crawl. A user weights file (ReadWeights) replaces w(p) of the pages it names,
// e.g. −10 for spam or +10 for pages users visit.
//
// Daneshpajouh, Mohammadi Nasiri & Ghodsi, "A fast community based algorithm
// for generating web crawler seeds set" (WEBIST 2008): hits-core drops
// intra-host links, runs HITS (60 iterations), grows a bipartite core (hubs H,
// authorities A) around the top authority either to a fixed size or while its
// cover density 100·|E(H,A)|/(|H|·|A|) stays at or above a threshold (default
// 100, i.e. a complete bipartite core), picks one seed at random from H, removes
// the core's pages from the graph, reruns HITS and repeats until K seeds.
//
// # Crawl state
//
// Input.Fetched and Input.Novel describe the crawl: which pages were fetched
// and which fetched pages had a content hash new to the crawl. For a stored
// crawl they come from the database. A dataset in the ../shared/data format
// carries no crawl state; FetchedByOutDegree then treats pages with no out-arcs
// as the uncrawled frontier. That is Zheng et al.'s incremental model: the
// previous crawl's graph holds fetched pages with their out-links and the URLs
// it discovered but did not fetch, which have no known out-links; crawl
// datasets such as hollins and cnr-2000 keep such frontier URLs as dangling
// nodes.
//
// # Per host
//
// With Options.PerHost the K seeds are spread over hosts in proportion to host
// importance (the sum of the host's positive page values) by largest-remainder
// apportionment, and each host's seeds are selected independently, with the
// host's pages as the only candidates.
package seeds
