package recrawl

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// StateRank is the storage state holding the PageRank of the stored graph
// as of the end of one cycle: computed once, when the cycle is closed (or
// when the next cycle is planned, if the close did not store it: a db of
// seedcrawl crawl), and read back by every later use (the refresh order,
// the history scheduler's prior, a resumed cycle), so the graph is ranked
// once per cycle and not while the next cycle starts.
//
// Layout: cycle (uint32), node count n (uint32), then n float64 values,
// all big-endian; the values are indexed by page id.
const StateRank = "recrawl/pagerank"

// Ranker reads and stores StateRank; *storage.DB implements it.
type Ranker interface {
	State(name string) ([]byte, error)
	Commit(b *storage.Batch) error
}

// StoredRank returns the PageRank stored for the graph as of cycle asOf,
// or nil when the state holds another cycle's (or none).
func StoredRank(st Ranker, asOf uint32) ([]float64, error) {
	b, err := st.State(StateRank)
	if err != nil {
		return nil, fmt.Errorf("recrawl: read stored pagerank: %w", err)
	}
	if len(b) < 8 || binary.BigEndian.Uint32(b) != asOf {
		return nil, nil
	}
	n := int(binary.BigEndian.Uint32(b[4:]))
	if len(b) != 8+8*n {
		return nil, fmt.Errorf("recrawl: stored pagerank of cycle %d: %d bytes for %d pages: %w", asOf, len(b), n, ErrCorrupt)
	}
	pr := make([]float64, n)
	for i := range pr {
		pr[i] = math.Float64frombits(binary.BigEndian.Uint64(b[8+8*i:]))
	}
	return pr, nil
}

// StoreRank writes pr as the PageRank of the graph as of cycle asOf (what
// the close of cycle asOf stores).
func StoreRank(st Ranker, asOf uint32, pr []float64) error {
	b := make([]byte, 8+8*len(pr))
	binary.BigEndian.PutUint32(b, asOf)
	binary.BigEndian.PutUint32(b[4:], uint32(len(pr)))
	for i, x := range pr {
		binary.BigEndian.PutUint64(b[8+8*i:], math.Float64bits(x))
	}
	var batch storage.Batch
	batch.SetState(StateRank, b)
	if err := st.Commit(&batch); err != nil {
		return fmt.Errorf("recrawl: store pagerank of cycle %d: %w", asOf, err)
	}
	return nil
}

// rank returns the PageRank of the graph as of cycle asOf (g, when it is
// already loaded): the stored one if the state holds it for this graph,
// else computed (graph.PageRank, its defaults) and stored.
func (r *Runner) rank(asOf uint32, g *graph.CSR) ([]float64, error) {
	pr, err := StoredRank(r.o.Store, asOf)
	if err != nil {
		return nil, err
	}
	if pr != nil && (g == nil || len(pr) == g.N()) {
		return pr, nil
	}
	if g == nil {
		l, err := r.load(asOf)
		if err != nil {
			return nil, err
		}
		g = l.g
	}
	pr, _ = graph.PageRank(g, graph.PageRankOptions{})
	if err := StoreRank(r.o.Store, asOf, pr); err != nil {
		return nil, err
	}
	r.ranked++
	return pr, nil
}
