// Package graph holds a web graph as compressed sparse row (CSR) arrays and the
// algorithms seedcrawl runs on it: PageRank, HITS, strongly connected
// components, condensation and h-hop coverage.
//
// A CSR graph stores node v's out-neighbours in Targets[Offsets[v]:Offsets[v+1]].
// Node ids are dense uint32 values 0..N-1; results of algorithms are slices
// indexed by node id, never maps (vigna/webgraph-rs csr_graph.rs; gonum's
// network package copies to dense ids before iterating for the same reason).
// A graph costs 8 bytes per node and 4 per arc; algorithms that need in-arcs
// build the transpose themselves.
//
// Graphs come from files or from any edge stream (Load), such as the link
// graph stored by package storage. Three file formats are read:
//
//   - the ../shared/data format (ReadDataset: BASENAME.arcs.tsv.gz with a
//     four-line header, plus BASENAME.urls.gz), sorted input appended
//     straight into the CSR arrays;
//   - SNAP-style edge lists (ReadSNAP), whose arbitrary ids are remapped
//     densely and kept as CSR.Labels;
//   - LAW WebGraph BVGraph files (ReadBVGraph), decoded from the
//     compressed bit stream without any library.
//
// No reader sizes anything from a count its header states before the data
// confirms it: memory is bounded by the input, and a header that lies gets
// an error naming the file and line (or node and bit). Graphs are written
// back as datasets (WriteDataset) or for networkx and igraph (WriteEdgeList,
// WriteGraphML, WritePajek).
//
// The algorithms and their stop rules:
//
//   - PageRank: power iteration, uniform teleport, dangling rank spread
//     uniformly, normalised to sum 1 (networkx.pagerank conventions), or the
//     unnormalised (1−d) form of Sharma & Bhagat; L1 change < 1e-10 or 200
//     iterations.
//   - HITS: Kleinberg's hub/authority iteration from all ones, L2-normalised,
//     K = 60 rounds (Daneshpajouh et al.) or an L1 tolerance.
//   - SCC: Tarjan with an explicit stack; Condense and RootComponents build
//     the component DAG and its sources.
//   - BFS and Reachable: h-hop coverage from a seed set with reusable,
//     generation-stamped scratch space.
package graph
