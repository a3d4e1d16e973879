// Package graph holds a web graph as compressed sparse row (CSR) arrays and the
// algorithms seedcrawl runs on it: PageRank, HITS, strongly connected
// components and h-hop coverage.
//
// A CSR graph stores node v's out-neighbours in Targets[Offsets[v]:Offsets[v+1]].
// Node ids are dense uint32 values 0..N-1; results of algorithms are slices
// indexed by node id, never maps (vigna/webgraph-rs csr_graph.rs; gonum's
// network package copies to dense ids before iterating for the same reason).
//
// Graphs come from the ../shared/data format (ReadDataset) or from any edge
// stream (Build), such as the link graph stored by package storage.
package graph
