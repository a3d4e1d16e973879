package seeds

import (
	"context"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/pq"
)

// hitsGraph returns (once) the graph hits-core ranks: the inter-host arcs
// (Daneshpajouh et al. drop intra-host links, which are navigation rather
// than endorsement), or, on a graph without hosts, every arc but self-loops
// (a self-loop is always intra-host).
func (s *selector) hitsGraph() *graph.CSR {
	if s.hits == nil {
		if s.g.HasHosts() {
			hosts := s.g.Hosts
			s.hits = s.g.Filter(func(a, b uint32) bool { return hosts[a] != hosts[b] })
		} else {
			s.hits = s.g.WithoutSelfLoops()
		}
	}
	return s.hits
}

// hitsCore is Daneshpajouh, Mohammadi Nasiri & Ghodsi's seed generator
// (WEBIST 2008, section 2, "Iterative HITS-Ranking & Pruning"): run HITS on the
// whole inter-host graph (Options.HITSIterations, 60 in the paper; a and h
// start at all ones, L2-normalized), grow a bipartite core around the page
// with the highest authority, draw one seed from the core's hubs with
// Options.Rand (every hub of a core links into the same community), remove
// the core's hubs and authorities from the graph, rerun HITS, and repeat until
// k seeds. Removing the core lets the next HITS run converge on another
// community, which is what spreads the seeds.
//
// With candidates, only arcs leaving candidate pages are kept, so every hub,
// and so every seed, is a candidate.
func (s *selector) hitsCore(ctx context.Context, cands []bool, k int) ([]Seed, string, error) {
	g := s.hitsGraph()
	if cands != nil {
		g = g.Filter(func(a, _ uint32) bool { return cands[a] })
	}
	n := g.N()
	removed := make([]bool, n)
	cg := newCoreGrower(n, s.o)
	var out []Seed
	for len(out) < k {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		if g.M() == 0 {
			return out, "no arcs left between the remaining pages", nil
		}
		hub, auth, st := graph.HITS(g, graph.HITSOptions{Iterations: s.o.HITSIterations, NoSelfLoops: true})
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		top := -1
		for v := 0; v < n; v++ {
			if !removed[v] && auth[v] > 0 && (top < 0 || auth[v] > auth[top]) {
				top = v
			}
		}
		if top < 0 {
			return out, "no page has authority left", nil
		}
		core := cg.grow(g, g.Transpose(), hub, auth, uint32(top))
		core.HITSIterations = st.Iterations
		if len(core.Hubs) > 0 {
			seed := core.Hubs[s.o.Rand.IntN(len(core.Hubs))]
			out = append(out, Seed{Node: seed, Score: hub[seed], Core: core})
		} // else no page links to top (its authority came from rounding): drop it
		for _, v := range core.Hubs {
			removed[v] = true
		}
		for _, v := range core.Authorities {
			removed[v] = true
		}
		g = g.Filter(func(a, b uint32) bool { return !removed[a] && !removed[b] })
	}
	return out, "", nil
}

const (
	roleNone uint8 = iota
	roleHub
	roleAuth
)

// coreGrower grows bipartite cores. It keeps, for every page, the number of
// its arcs into the authority set (inA) and the number of arcs it receives
// from the hub set (outH), so adding or removing a member updates |E(H,A)|
// and the candidate sets in time proportional to the member's degree.
type coreGrower struct {
	o          Options
	role       []uint8
	inA, outH  []int32
	g, gt      *graph.CSR
	hub, auth  []float64
	hubQ, auQ  *pq.Heap
	hubs, auts []uint32
	arcs       int
}

func newCoreGrower(n int, o Options) *coreGrower {
	return &coreGrower{o: o, role: make([]uint8, n), inA: make([]int32, n), outH: make([]int32, n)}
}

// grow extracts one core around top. The two variants of the paper:
//
//   - fixed size (Options.CoreSize > 0): alternately add the NewMembers
//     candidate hubs with the highest hub score (pages linking into A) and the
//     NewMembers candidate authorities with the highest authority score (pages
//     linked from H) until the core has CoreSize pages or no candidate is left;
//   - fixed cover density (otherwise): the same alternating steps, but a step
//     after which 100·|E(H,A)|/(|H|·|A|) < CoverDensity is undone; growth ends
//     when neither side can grow. At the default 100 every core is complete
//     bipartite.
//
// The hub set never exceeds Options.MaxHubs. Ties go to the lower node id.
func (c *coreGrower) grow(g, gt *graph.CSR, hub, auth []float64, top uint32) *Core {
	n := g.N()
	c.g, c.gt, c.hub, c.auth = g, gt, hub, auth
	c.hubQ, c.auQ = pq.NewDense(n), pq.NewDense(n)
	c.hubs, c.auts, c.arcs = c.hubs[:0], c.auts[:0], 0
	c.addAuth(top)
	fixed := c.o.CoreSize > 0
	for {
		progressed := c.step(true, fixed)
		if fixed && c.size() >= c.o.CoreSize {
			break
		}
		progressed = c.step(false, fixed) || progressed
		if !progressed || (fixed && c.size() >= c.o.CoreSize) {
			break
		}
	}
	core := &Core{
		TopAuthority: top,
		Hubs:         append([]uint32(nil), c.hubs...),
		Authorities:  append([]uint32(nil), c.auts...),
		Arcs:         c.arcs,
		Density:      c.density(),
	}
	c.reset()
	return core
}

func (c *coreGrower) size() int { return len(c.hubs) + len(c.auts) }

func (c *coreGrower) density() float64 {
	if len(c.hubs) == 0 || len(c.auts) == 0 {
		return 100
	}
	return 100 * float64(c.arcs) / float64(len(c.hubs)*len(c.auts))
}

// step adds up to NewMembers hubs (hubs = true) or authorities and reports
// whether any stayed. In density mode a step that breaks the density is
// undone, most recent member first, and its members return to the candidates.
func (c *coreGrower) step(hubs, fixed bool) bool {
	m := c.o.NewMembers
	if fixed && c.o.CoreSize-c.size() < m {
		m = c.o.CoreSize - c.size()
	}
	if hubs && c.o.MaxHubs-len(c.hubs) < m {
		m = c.o.MaxHubs - len(c.hubs)
	}
	added := 0
	for ; added < m; added++ {
		v, ok := c.next(hubs)
		if !ok {
			break
		}
		if hubs {
			c.addHub(v)
		} else {
			c.addAuth(v)
		}
	}
	if added == 0 {
		return false
	}
	if !fixed && c.density() < c.o.CoverDensity-1e-9 {
		for ; added > 0; added-- {
			if hubs {
				c.dropHub()
			} else {
				c.dropAuth()
			}
		}
		return false
	}
	return true
}

// next pops the best valid candidate of one side: a hub candidate has no role
// and an arc into A; an authority candidate has no role and an arc from H.
func (c *coreGrower) next(hubs bool) (uint32, bool) {
	q := c.auQ
	if hubs {
		q = c.hubQ
	}
	for {
		it, ok := q.Pop()
		if !ok {
			return 0, false
		}
		v := uint32(it.ID)
		if c.role[v] != roleNone {
			continue
		}
		if (hubs && c.inA[v] > 0) || (!hubs && c.outH[v] > 0) {
			return v, true
		}
	}
}

func (c *coreGrower) addHub(x uint32) {
	c.role[x] = roleHub
	c.hubs = append(c.hubs, x)
	c.arcs += int(c.inA[x])
	for _, y := range c.g.Out(x) {
		c.outH[y]++
		if c.role[y] == roleNone {
			c.auQ.Push(pq.Item{ID: uint64(y), Prio: c.auth[y], Seq: uint64(y)})
		}
	}
}

func (c *coreGrower) addAuth(y uint32) {
	c.role[y] = roleAuth
	c.auts = append(c.auts, y)
	c.arcs += int(c.outH[y])
	for _, x := range c.gt.Out(y) {
		c.inA[x]++
		if c.role[x] == roleNone {
			c.hubQ.Push(pq.Item{ID: uint64(x), Prio: c.hub[x], Seq: uint64(x)})
		}
	}
}

func (c *coreGrower) dropHub() {
	x := c.hubs[len(c.hubs)-1]
	c.hubs = c.hubs[:len(c.hubs)-1]
	c.role[x] = roleNone
	c.arcs -= int(c.inA[x])
	for _, y := range c.g.Out(x) {
		c.outH[y]--
	}
	c.hubQ.Push(pq.Item{ID: uint64(x), Prio: c.hub[x], Seq: uint64(x)})
}

func (c *coreGrower) dropAuth() {
	y := c.auts[len(c.auts)-1]
	c.auts = c.auts[:len(c.auts)-1]
	c.role[y] = roleNone
	c.arcs -= int(c.outH[y])
	for _, x := range c.gt.Out(y) {
		c.inA[x]--
	}
	c.auQ.Push(pq.Item{ID: uint64(y), Prio: c.auth[y], Seq: uint64(y)})
}

// reset clears the per-core counters by walking the members' arcs.
func (c *coreGrower) reset() {
	for _, x := range c.hubs {
		c.role[x] = roleNone
		for _, y := range c.g.Out(x) {
			c.outH[y] = 0
		}
	}
	for _, y := range c.auts {
		c.role[y] = roleNone
		for _, x := range c.gt.Out(y) {
			c.inA[x] = 0
		}
	}
	c.g, c.gt, c.hub, c.auth, c.hubQ, c.auQ = nil, nil, nil, nil, nil, nil
}
