package sim

import (
	"fmt"
	"math"

	"github.com/seedcrawl/seedcrawl/graph"
)

// HistoryFrom carries prior values of the nodes of an older graph prev
// (prior[v] for node v of prev, e.g. its PageRank) over to the nodes of g,
// for Options.History. Nodes are matched by URL when both graphs have URLs,
// and by id otherwise (node v of prev is node v of g; ids beyond g are
// dropped). A node of g that prev does not have gets 0: unknown to the
// history. A URL that occurs twice in prev keeps its first node's value.
func HistoryFrom(prev *graph.CSR, prior []float64, g *graph.CSR) ([]float64, error) {
	if len(prior) != prev.N() {
		return nil, fmt.Errorf("%w: history: %d prior values for %d nodes", ErrOptions, len(prior), prev.N())
	}
	out := make([]float64, g.N())
	if prev.URLs == nil || g.URLs == nil {
		copy(out, prior)
		return out, nil
	}
	byURL := make(map[string]uint32, prev.N())
	for v, u := range prev.URLs {
		if _, dup := byURL[u]; !dup {
			byURL[u] = uint32(v)
		}
	}
	for v, u := range g.URLs {
		if p, ok := byURL[u]; ok {
			out[v] = prior[p]
		}
	}
	return out, nil
}

// CrawledPageRank returns the PageRank (damping d, graph.PageRank's
// defaults otherwise) of the graph that a complete crawl of g from seeds
// stores: the pages reachable from the seeds with their out-arcs, and
// nothing else. It is indexed by node id of g; pages the crawl never reaches
// get 0, so as a history they are unknown. The values of the reached pages
// sum to 1.
func CrawledPageRank(g *graph.CSR, seeds []uint32, d float64) []float64 {
	seen := graph.Reachable(g, seeds, -1)
	idx := make([]uint32, g.N())
	var nodes []uint32
	for v, ok := range seen {
		if ok {
			idx[v] = uint32(len(nodes))
			nodes = append(nodes, uint32(v))
		}
	}
	// Every target of a reached page is reached, so the subgraph is closed.
	b := graph.NewBuilder(len(nodes), false)
	for _, v := range nodes {
		for _, w := range g.Out(v) {
			b.Add(idx[v], idx[w])
		}
	}
	pr, _ := graph.PageRank(b.Build(), graph.PageRankOptions{Damping: d})
	out := make([]float64, g.N())
	for i, v := range nodes {
		out[v] = pr[i]
	}
	return out
}

// historyMass returns the total of the known (positive finite) values of h
// and how many there are.
func historyMass(h []float64) (float64, int) {
	var sum float64
	n := 0
	for _, v := range h {
		if v > 0 && !math.IsInf(v, 1) {
			sum += v
			n++
		}
	}
	return sum, n
}

// ReadHistory reads the dataset basename (graph.ReadDataset), an older
// graph of the same web such as the previous cycle's stored crawl, and
// returns its PageRank (damping d) carried over to g by HistoryFrom: the
// Options.History of a simulation of g.
func ReadHistory(basename string, g *graph.CSR, d float64) ([]float64, error) {
	prev, err := graph.ReadDataset(basename)
	if err != nil {
		return nil, fmt.Errorf("sim: read history graph %s: %w", basename, err)
	}
	pr, _ := graph.PageRank(prev, graph.PageRankOptions{Damping: d})
	h, err := HistoryFrom(prev, pr, g)
	if err != nil {
		return nil, fmt.Errorf("sim: history graph %s: %w", basename, err)
	}
	return h, nil
}
