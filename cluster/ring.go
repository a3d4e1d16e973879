package cluster

import (
	"hash/fnv"

	"github.com/seedcrawl/seedcrawl/internal/mix"
)

// Ring assigns hosts to nodes by rendezvous (highest random weight)
// hashing: a host goes to the node with the largest hash of (node, host).
// When a node joins, only the hosts whose new largest weight is that node
// move (1/(K+1) of them on average); when one leaves, only its hosts move.
// The hash (FNV-1a, then a splitmix64 finalizer) has no per-process seed,
// so every process of a cluster computes the same owner.
type Ring struct {
	nodes []uint32
}

// NewRing returns a ring over the given node ids.
func NewRing(nodes []int) Ring {
	var r Ring
	for _, n := range nodes {
		r.nodes = append(r.nodes, uint32(n))
	}
	return r
}

// NewRingN returns a ring over the nodes 0..k-1.
func NewRingN(k int) Ring {
	ids := make([]int, k)
	for i := range ids {
		ids[i] = i
	}
	return NewRing(ids)
}

// Owner returns the id of the node that owns host, or -1 for an empty
// ring.
func (r Ring) Owner(host string) int {
	best, owner := uint64(0), -1
	for _, n := range r.nodes {
		if w := r.weight(n, host); owner < 0 || w > best {
			best, owner = w, int(n)
		}
	}
	return owner
}

// Len returns the number of nodes.
func (r Ring) Len() int { return len(r.nodes) }

func (r Ring) weight(node uint32, host string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(host))
	return mix.Finalize(h.Sum64() ^ mix.Finalize(uint64(node)+1))
}
