package scheduler

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/seedcrawl/seedcrawl/internal/mix"
)

// bfs never changes a priority; the queue's FIFO tie-break does the rest.
type bfs struct{}

func (bfs) Name() string            { return "bfs" }
func (bfs) Seed([]Link)             {}
func (bfs) Downloaded(Link, []Link) {}

// backlink ranks a URL by the number of downloaded pages seen linking to it
// (Cho, Garcia-Molina and Page 1998, "backlink count"). A page's link to
// itself does not count: it is Done when the page is downloaded.
type backlink struct{}

func (backlink) Name() string { return "backlink" }
func (backlink) Seed([]Link)  {}
func (backlink) Downloaded(_ Link, out []Link) {
	for i := range out {
		if out[i].State != Done {
			out[i].Prio++
		}
	}
}

// random gives every URL a priority drawn from a hash of (seed, id): a random
// permutation of the frontier that needs no generator state, so the order is
// the same for a fixed seed whatever the interleaving of calls, and a resumed
// crawl continues it exactly. The seed is its Stateful state.
type random struct {
	name string
	seed uint64
}

func (s *random) Name() string { return s.name }

func (s *random) Seed(seeds []Link) { rankNew(seeds, s.prio) }

func (s *random) Downloaded(_ Link, out []Link) { rankNew(out, s.prio) }

// prio maps id to a uniform value in [0, 1) with the SplitMix64 finaliser
// (Steele, Lea and Flood 2014) applied to seed-mixed id.
func (s *random) prio(id uint64) float64 {
	z := mix.Finalize(s.seed ^ (id+1)*mix.Golden)
	return float64(z>>11) / (1 << 53)
}

const randomStateVersion = 1

// MarshalState returns the seed, so a resumed crawl keeps the same order even
// if it is started with another one.
func (s *random) MarshalState() ([]byte, error) {
	b := make([]byte, 9)
	b[0] = randomStateVersion
	binary.BigEndian.PutUint64(b[1:], s.seed)
	return b, nil
}

// UnmarshalState restores the seed saved by MarshalState.
func (s *random) UnmarshalState(b []byte) error {
	if len(b) != 9 || b[0] != randomStateVersion {
		return fmt.Errorf("%w: random: want 9 bytes of version %d, got %d bytes", ErrState, randomStateVersion, len(b))
	}
	s.seed = binary.BigEndian.Uint64(b[1:])
	return nil
}

// omniscient ranks every URL by its true importance, known in advance. It is
// an evaluation reference: the best a greedy crawler could do with perfect
// knowledge of importance (but not of the link structure ahead).
type omniscient struct {
	truth func(id uint64) float64
}

func (omniscient) Name() string { return "omniscient" }

func (s *omniscient) Seed(seeds []Link) { rankNew(seeds, s.truth) }

func (s *omniscient) Downloaded(_ Link, out []Link) { rankNew(out, s.truth) }

// SeedBoost is what SeedsFirst adds to a seed's truth: more than any
// truth in [0, 1), such as a PageRank normalised to sum 1.
const SeedBoost = 1

// SeedsFirst returns a Truth for omniscient under which the seeds (those
// seed reports true for) are downloaded before every other URL, highest
// truth first: a seed ranks at SeedBoost plus its truth. truth must lie in
// [0, 1) for the URLs that are not seeds. Every crawl starts from its
// seeds; ranked by truth alone, a seed of low truth that opens a site of
// high truth waits behind every page of a higher-ranked seed's site (a
// site whose pages all link to each other ties them above it), and the
// omniscient crawl can score below breadth-first. Both evaluation
// references, sim's and compare's, rank their seeds with this rule.
func SeedsFirst(truth func(id uint64) float64, seed func(id uint64) bool) func(id uint64) float64 {
	return func(id uint64) float64 {
		if seed(id) {
			return SeedBoost + truth(id)
		}
		return truth(id)
	}
}

// rankNew sets the Prio of every New link to prio(ID). random and omniscient
// rank a URL by a fixed function of its id, once, when it is discovered;
// Queued links keep the priority they got then.
func rankNew(links []Link, prio func(id uint64) float64) {
	for i := range links {
		if links[i].State == New {
			links[i].Prio = prio(links[i].ID)
		}
	}
}

// putFloats appends the IEEE bits of vs, big-endian.
func putFloats(b []byte, vs ...float64) []byte {
	for _, v := range vs {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}
