package seeds

import (
	"context"
	"fmt"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
)

// Seed is one chosen seed and why it was chosen.
type Seed struct {
	// Rank is the 1-based position in selection order.
	Rank int `json:"rank"`
	// Node is the page's node id in the input graph.
	Node uint32 `json:"node"`
	// URL and Host are empty when the graph has none.
	URL  string `json:"url,omitempty"`
	Host string `json:"host,omitempty"`
	// Score is the selector's criterion when the seed was chosen; Result.Score
	// says what it measures.
	Score float64 `json:"score"`
	// Pages and Value are the pages (and the sum of their values) this seed
	// brings within Hops hops that no earlier seed covered.
	Pages int     `json:"pages"`
	Value float64 `json:"value"`
	// Filled marks a seed taken by the selector's fill rule once its own
	// candidates ran out: for indegree0 a page with in-links taken by
	// out-degree, for rootscc a page outside the root components taken by
	// maxweight.
	Filled bool `json:"filled,omitempty"`
	// ComponentSize is the size of the strongly connected component the seed
	// was chosen from (maxscc, rootscc).
	ComponentSize int `json:"component_size,omitempty"`
	// Core is the bipartite core the seed was drawn from (hits-core).
	Core *Core `json:"core,omitempty"`
}

// Core is a bipartite core extracted by hits-core.
type Core struct {
	// TopAuthority is the page the core was grown around.
	TopAuthority uint32 `json:"top_authority"`
	// Hubs and Authorities are the two sides, in the order they joined.
	Hubs        []uint32 `json:"hubs"`
	Authorities []uint32 `json:"authorities"`
	// Arcs is |E(H,A)|, the arcs from hubs to authorities.
	Arcs int `json:"arcs"`
	// Density is the cover density 100·Arcs/(|H|·|A|).
	Density float64 `json:"density"`
	// HITSIterations is how many iterations the HITS run before this core did.
	HITSIterations int `json:"hits_iterations"`
}

// HostQuota is one host's share of the seeds under Options.PerHost.
type HostQuota struct {
	Host       string  `json:"host"`
	Importance float64 `json:"importance"`
	Seeds      int     `json:"seeds"`
}

// Result is the outcome of Select.
type Result struct {
	Algo  string `json:"algo"`
	K     int    `json:"k"`
	Hops  int    `json:"hops"`
	Depth int    `json:"depth,omitempty"`
	// Score names what Seed.Score measures for this selector.
	Score string `json:"score"`
	Seeds []Seed `json:"seeds"`
	// Pages and Value are covered within Hops hops by all the seeds together.
	Pages int     `json:"pages"`
	Value float64 `json:"value"`
	// TotalPages and TotalValue are those of the whole graph.
	TotalPages int     `json:"total_pages"`
	TotalValue float64 `json:"total_value"`
	// Reachable is Sharma & Bhagat's coverage: pages reachable from the seeds
	// at any distance.
	Reachable int `json:"reachable"`
	// Hosts lists the per-host quotas when PerHost was set.
	Hosts []HostQuota `json:"hosts,omitempty"`
	// Note says why fewer than K seeds came back, if they did.
	Note string `json:"note,omitempty"`
	// Elapsed is the selection time (values, selector), without the coverage
	// explanation.
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Nodes returns the seeds' node ids in selection order.
func (r *Result) Nodes() []uint32 {
	out := make([]uint32, len(r.Seeds))
	for i, s := range r.Seeds {
		out[i] = s.Node
	}
	return out
}

// Select chooses up to o.K seeds on in.G with selector o.Algo and explains
// each: its score, the pages and value it newly covers within o.Hops hops,
// and for hits-core the core it came from. It is deterministic for a given
// o.Rand state. ctx is checked between seeds and inside long passes.
func Select(ctx context.Context, in Input, o Options) (*Result, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	o, err := o.withDefaults(in.G.N())
	if err != nil {
		return nil, err
	}
	if o.PerHost && !in.G.HasHosts() {
		return nil, fmt.Errorf("select %s per host: %w", o.Algo, ErrNoHosts)
	}
	start := time.Now()
	val, err := Values(in)
	if err != nil {
		return nil, err
	}
	if !o.AllowTrapLike && in.G.URLs != nil {
		o.Candidates = withoutTrapLike(o.Candidates, in.G.URLs)
	}
	s := newSelector(in.G, val, o)
	var picks []Seed
	var quotas []HostQuota
	var note string
	if o.PerHost {
		picks, quotas, note, err = s.perHost(ctx)
	} else {
		picks, note, err = s.run(ctx, o.Candidates, o.K)
	}
	if err != nil {
		return nil, fmt.Errorf("seeds: select %s k=%d: %w", o.Algo, o.K, err)
	}
	res := &Result{
		Algo: o.Algo, K: o.K, Hops: o.Hops, Score: scoreName(o),
		Seeds: picks, Hosts: quotas, Note: note, Elapsed: time.Since(start),
	}
	if o.Algo == AlgoMaxWeight || o.Algo == AlgoRootSCC {
		res.Depth = o.Depth
	}
	explain(in.G, val, res)
	return res, nil
}

func scoreName(o Options) string {
	switch o.Algo {
	case AlgoRandom:
		return "none (uniform draw)"
	case AlgoInDegree0, AlgoOutDegree:
		return "out-degree"
	case AlgoPageRank:
		return "PageRank"
	case AlgoMaxOut:
		return "depth-1 weight (uncovered value of the page and its out-neighbours)"
	case AlgoMaxWeight, AlgoRootSCC:
		return fmt.Sprintf("depth-%d weight (uncovered value within %d hops)", o.Depth, o.Depth)
	case AlgoMaxSCC:
		return "uncovered value of the seed's strongly connected component"
	case AlgoHITSCore:
		return "hub score in the HITS run that found the core"
	}
	return ""
}

// explain fills in ranks, URLs, hosts, per-seed marginal coverage within
// res.Hops hops, the totals and the reachable count.
func explain(g *graph.CSR, val []float64, res *Result) {
	cov := newCoverage(g, res.Hops)
	for i := range res.Seeds {
		s := &res.Seeds[i]
		s.Rank = i + 1
		if g.URLs != nil {
			s.URL = g.URLs[s.Node]
		}
		if g.HasHosts() {
			s.Host = g.HostNames[g.Hosts[s.Node]]
		}
		var v float64
		s.Pages = cov.add(s.Node, func(u uint32) { v += val[u] })
		s.Value = v
		res.Pages += s.Pages
		res.Value += v
	}
	res.TotalPages = g.N()
	for _, x := range val {
		res.TotalValue += x
	}
	res.Reachable = graph.NewBFS(g).Run(res.Nodes(), -1, nil)
}
