// Package pq is an indexed binary max-heap of uint64 ids ordered by a float64
// priority, ties broken by a sequence number (smaller first). It supports
// O(log n) push, pop, update and remove by id, as crawl frontiers and the
// scheduler simulator need: priorities of queued URLs change on every
// download (FPR, OPIC, backlink count).
//
// A NaN priority is stored as -Inf, so it ranks last instead of breaking the
// heap order (NaN compares false with everything).
package pq
