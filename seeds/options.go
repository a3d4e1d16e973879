package seeds

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/seedcrawl/seedcrawl/graph"
)

// Selector names accepted in Options.Algo.
const (
	AlgoRandom    = "random"
	AlgoInDegree0 = "indegree0"
	AlgoOutDegree = "outdegree"
	AlgoPageRank  = "pagerank"
	AlgoMaxOut    = "maxout"
	AlgoMaxWeight = "maxweight"
	AlgoMaxSCC    = "maxscc"
	AlgoRootSCC   = "rootscc"
	AlgoHITSCore  = "hits-core"
)

// Defaults applied to zero Options fields.
const (
	DefaultHops           = 5
	DefaultDepth          = 2
	DefaultCoverDensity   = 100
	DefaultMaxHubs        = 999
	DefaultNewMembers     = 1
	DefaultHITSIterations = 60
)

// Algos returns the selector names in a fixed order: the BUDG heuristics,
// Zheng et al.'s greedy algorithms, then hits-core.
func Algos() []string {
	return []string{AlgoRandom, AlgoInDegree0, AlgoOutDegree, AlgoPageRank,
		AlgoMaxOut, AlgoMaxWeight, AlgoMaxSCC, AlgoRootSCC, AlgoHITSCore}
}

// Input is the graph seeds are chosen on and what the crawl knows about its
// pages. Slices are indexed by node id and must have G.N() entries when set.
type Input struct {
	// G is the link graph (required).
	G *graph.CSR
	// Fetched marks pages the crawl has fetched; nil means every page.
	Fetched []bool
	// Novel marks fetched pages whose content hash was new to the crawl; nil
	// means every fetched page.
	Novel []bool
	// Weights replaces the computed value w(p) of the pages it names (a user
	// weights file, see ReadWeights); nil overrides nothing. Values must be
	// finite.
	Weights map[uint32]float64
}

// Options selects and tunes a selector. The zero value of every field but
// Algo and K means its documented default.
type Options struct {
	// Algo is one of Algos().
	Algo string
	// K is the number of seeds wanted (≥ 1). Fewer come back when the
	// candidates run out or, for the greedy selectors, when no candidate adds
	// value.
	K int
	// Hops is the crawl horizon h used by the greedy selectors and by the
	// per-seed coverage explanation; 0 means DefaultHops.
	Hops int
	// Depth is d of maxweight and rootscc (depth-d weight); 0 means
	// DefaultDepth. Zheng et al. use 2 and 3.
	Depth int
	// PerHost spreads the seeds over hosts in proportion to host importance and
	// selects each host's seeds independently. The graph needs hosts.
	PerHost bool
	// Candidates restricts the pages that may become seeds; nil allows all.
	// hits-core keeps only the arcs leaving candidates, so every hub is one.
	Candidates []bool
	// AllowTrapLike keeps the pages TrapLike marks (calendar pages) as
	// candidates. By default, on a graph with URLs, they are left out: a
	// calendar's pages cover many "new" pages, all of them the trap's.
	AllowTrapLike bool

	// CoreSize, when > 0, makes hits-core grow fixed-size cores of CoreSize
	// pages (hubs plus authorities) instead of fixed cover density.
	CoreSize int
	// NewMembers is how many hubs, then authorities, one growth step of
	// hits-core adds; 0 means DefaultNewMembers.
	NewMembers int
	// CoverDensity is the minimum cover density 100·|E(H,A)|/(|H|·|A|) of a
	// hits-core core in percent, in (0, 100]; 0 means DefaultCoverDensity.
	CoverDensity float64
	// MaxHubs caps the hub set of a hits-core core; 0 means DefaultMaxHubs.
	MaxHubs int
	// HITSIterations is the number of HITS iterations per core; 0 means
	// DefaultHITSIterations (Daneshpajouh et al. use 60).
	HITSIterations int

	// PageRank tunes the PageRank of the pagerank selector; the zero value
	// means graph.PageRank's defaults (d = 0.85, L1 change < 1e-10 or 200
	// iterations).
	PageRank graph.PageRankOptions
	// Rand drives random and the hub choice of hits-core. nil means a
	// generator seeded with 1, so results are reproducible either way.
	Rand *rand.Rand
}

// withDefaults returns o with zero fields replaced by defaults, or an error
// naming the first invalid field.
func (o Options) withDefaults(n int) (Options, error) {
	if !slices.Contains(Algos(), o.Algo) {
		return o, fmt.Errorf("%w %q (known: %v)", ErrUnknownAlgo, o.Algo, Algos())
	}
	if o.K < 1 {
		return o, fmt.Errorf("%w: K = %d, want at least 1", ErrOptions, o.K)
	}
	o.Hops = cmp.Or(o.Hops, DefaultHops)
	if o.Hops < 0 {
		return o, fmt.Errorf("%w: Hops = %d, want at least 0", ErrOptions, o.Hops)
	}
	o.Depth = cmp.Or(o.Depth, DefaultDepth)
	if o.Depth < 1 {
		return o, fmt.Errorf("%w: Depth = %d, want at least 1", ErrOptions, o.Depth)
	}
	o.NewMembers = cmp.Or(o.NewMembers, DefaultNewMembers)
	o.CoverDensity = cmp.Or(o.CoverDensity, DefaultCoverDensity)
	o.MaxHubs = cmp.Or(o.MaxHubs, DefaultMaxHubs)
	o.HITSIterations = cmp.Or(o.HITSIterations, DefaultHITSIterations)
	switch {
	case o.NewMembers < 1:
		return o, fmt.Errorf("%w: NewMembers = %d, want at least 1", ErrOptions, o.NewMembers)
	case !(o.CoverDensity > 0 && o.CoverDensity <= 100): // NaN fails too
		return o, fmt.Errorf("%w: CoverDensity = %g, want a percentage in (0, 100]", ErrOptions, o.CoverDensity)
	case o.MaxHubs < 1:
		return o, fmt.Errorf("%w: MaxHubs = %d, want at least 1", ErrOptions, o.MaxHubs)
	case o.CoreSize < 0 || o.CoreSize == 1:
		return o, fmt.Errorf("%w: CoreSize = %d, want 0 (fixed cover density) or at least 2", ErrOptions, o.CoreSize)
	case o.HITSIterations < 1:
		return o, fmt.Errorf("%w: HITSIterations = %d, want at least 1", ErrOptions, o.HITSIterations)
	case o.Candidates != nil && len(o.Candidates) != n:
		return o, fmt.Errorf("%w: %d candidate flags for %d nodes", ErrOptions, len(o.Candidates), n)
	}
	if o.Rand == nil {
		o.Rand = rand.New(rand.NewPCG(1, 0))
	}
	return o, nil
}

func (in Input) validate() error {
	if in.G == nil {
		return fmt.Errorf("%w: Input.G is nil", ErrOptions)
	}
	n := in.G.N()
	if in.Fetched != nil && len(in.Fetched) != n {
		return fmt.Errorf("%w: %d fetched flags for %d nodes", ErrOptions, len(in.Fetched), n)
	}
	if in.Novel != nil && len(in.Novel) != n {
		return fmt.Errorf("%w: %d novel flags for %d nodes", ErrOptions, len(in.Novel), n)
	}
	for v, x := range in.Weights {
		if int(v) >= n {
			return fmt.Errorf("%w: weight override for node %d, out of range 0..%d", ErrOptions, v, n-1)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: weight override for node %d is %v, want a finite number", ErrOptions, v, x)
		}
	}
	return nil
}
