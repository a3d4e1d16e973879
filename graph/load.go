package graph

import "fmt"

// Stream is the node and arc stream Load reads. Package storage's DB
// provides one over the crawled link graph in a single cursor pass.
type Stream interface {
	// Nodes returns the number of nodes; ids are 0..n-1.
	Nodes() (int, error)
	// EachNode calls fn for every node in id order with its URL.
	EachNode(fn func(id uint32, url string) error) error
	// EachOut calls fn once per node that has out-arcs, in increasing id
	// order, with its targets in document order. dsts is only valid during
	// the call.
	EachOut(fn func(src uint32, dsts []uint32) error) error
}

// Load builds a CSR graph from a stream: URLs (and hosts) from EachNode, then
// arcs from EachOut in one pass, appending straight into the CSR arrays
// (trimmed afterwards if append left more than an eighth of them unused).
func Load(s Stream) (*CSR, error) {
	n, err := s.Nodes()
	if err != nil {
		return nil, fmt.Errorf("graph: load: count nodes: %w", err)
	}
	urls := make([]string, n)
	withURLs := false
	err = s.EachNode(func(id uint32, url string) error {
		if int(id) >= n {
			return fmt.Errorf("node %d out of range 0..%d", id, n-1)
		}
		urls[id] = url
		withURLs = withURLs || url != ""
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("graph: load nodes: %w", err)
	}
	off := make([]uint64, n+1)
	var tg []uint32
	next := uint32(0) // next node whose offset is unset
	err = s.EachOut(func(src uint32, dsts []uint32) error {
		if int(src) >= n || src < next {
			return fmt.Errorf("source %d out of order or range (n=%d)", src, n)
		}
		for ; next <= src; next++ {
			off[next] = uint64(len(tg))
		}
		for _, d := range dsts {
			if int(d) >= n {
				return fmt.Errorf("arc %d->%d out of range (n=%d)", src, d, n)
			}
		}
		tg = append(tg, dsts...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("graph: load arcs: %w", err)
	}
	for ; int(next) <= n; next++ {
		off[next] = uint64(len(tg))
	}
	g := &CSR{Offsets: off, Targets: shrink(tg)}
	if withURLs {
		g.SetURLs(urls)
	}
	return g, nil
}
