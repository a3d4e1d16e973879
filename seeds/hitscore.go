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

// coreSide is one side of a growing core, hubs or authorities. The two sides
// mirror each other: a hub's arcs go to authorities (the graph), an
// authority's come from hubs (the transpose), so one piece of code grows,
// shrinks and resets both.
type coreSide struct {
	role    uint8
	members []uint32   // in the order they joined
	adj     *graph.CSR // a member's arcs to the other side: g for hubs, gt for authorities
	score   []float64  // hub or authority score of the current HITS run
	q       *pq.Heap   // candidates by score
	// links[v] counts the arcs between page v and the other side's members
	// (a hub candidate's arcs into A, an authority candidate's arcs from H).
	links []int32
}

// coreGrower grows bipartite cores. It keeps, for every page, the number of
// its arcs into the authority set and from the hub set (coreSide.links), so
// adding or removing a member updates |E(H,A)| and the candidate sets in
// time proportional to the member's degree.
type coreGrower struct {
	o          Options
	role       []uint8
	hubs, auts coreSide
	arcs       int
}

func newCoreGrower(n int, o Options) *coreGrower {
	return &coreGrower{o: o, role: make([]uint8, n),
		hubs: coreSide{role: roleHub, links: make([]int32, n)},
		auts: coreSide{role: roleAuth, links: make([]int32, n)}}
}

// grow extracts one core around top. The two variants of the paper:
//
//   - fixed size (Options.CoreSize > 0): alternately add the NewMembers
//     candidate hubs with the highest hub score (pages linking into A) and the
//     NewMembers candidate authorities with the highest authority score (pages
//     linked from H) until the core has CoreSize pages or no candidate is left;
//   - fixed cover density (otherwise): the same alternating steps, but a
//     growth step (NewMembers hubs, or NewMembers authorities) after which
//     100·|E(H,A)|/(|H|·|A|) < CoverDensity is undone: this is our reading of
//     "the round that broke the density is undone". The other side may still
//     grow, and growth ends when neither side can, so a planted biclique with
//     noisy neighbours is recovered whole (undoing the whole hub+authority
//     round and stopping would end the core at the first noisy candidate).
//     At the default 100 every core is complete bipartite.
//
// The hub set never exceeds Options.MaxHubs. Ties go to the lower node id.
func (c *coreGrower) grow(g, gt *graph.CSR, hub, auth []float64, top uint32) *Core {
	n := g.N()
	c.hubs.adj, c.hubs.score, c.hubs.q, c.hubs.members = g, hub, pq.NewDense(n), c.hubs.members[:0]
	c.auts.adj, c.auts.score, c.auts.q, c.auts.members = gt, auth, pq.NewDense(n), c.auts.members[:0]
	c.arcs = 0
	c.add(&c.auts, &c.hubs, top)
	fixed := c.o.CoreSize > 0
	for {
		progressed := c.step(&c.hubs, &c.auts, fixed)
		if fixed && c.size() >= c.o.CoreSize {
			break
		}
		progressed = c.step(&c.auts, &c.hubs, fixed) || progressed
		if !progressed || (fixed && c.size() >= c.o.CoreSize) {
			break
		}
	}
	core := &Core{
		TopAuthority: top,
		Hubs:         append([]uint32(nil), c.hubs.members...),
		Authorities:  append([]uint32(nil), c.auts.members...),
		Arcs:         c.arcs,
		Density:      c.density(),
	}
	c.reset(&c.hubs, &c.auts)
	c.reset(&c.auts, &c.hubs)
	return core
}

func (c *coreGrower) size() int { return len(c.hubs.members) + len(c.auts.members) }

func (c *coreGrower) density() float64 {
	h, a := len(c.hubs.members), len(c.auts.members)
	if h == 0 || a == 0 {
		return 100
	}
	return 100 * float64(c.arcs) / float64(h*a)
}

// step adds up to NewMembers members to side s (other is the opposite side)
// and reports whether any stayed. In density mode a step that breaks the
// density is undone, most recent member first, and its members return to
// the candidates.
func (c *coreGrower) step(s, other *coreSide, fixed bool) bool {
	m := c.o.NewMembers
	if fixed && c.o.CoreSize-c.size() < m {
		m = c.o.CoreSize - c.size()
	}
	if s.role == roleHub && c.o.MaxHubs-len(s.members) < m {
		m = c.o.MaxHubs - len(s.members)
	}
	added := 0
	for ; added < m; added++ {
		v, ok := c.next(s)
		if !ok {
			break
		}
		c.add(s, other, v)
	}
	if added == 0 {
		return false
	}
	if !fixed && c.density() < c.o.CoverDensity-1e-9 {
		for ; added > 0; added-- {
			c.drop(s, other)
		}
		return false
	}
	return true
}

// next pops the best valid candidate of side s: a page with no role and an
// arc to the other side's members.
func (c *coreGrower) next(s *coreSide) (uint32, bool) {
	for {
		it, ok := s.q.Pop()
		if !ok {
			return 0, false
		}
		v := uint32(it.ID)
		if c.role[v] == roleNone && s.links[v] > 0 {
			return v, true
		}
	}
}

// add makes x a member of s: its arcs to the other side join |E(H,A)|, and
// the pages it links with become candidates of the other side.
func (c *coreGrower) add(s, other *coreSide, x uint32) {
	c.role[x] = s.role
	s.members = append(s.members, x)
	c.arcs += int(s.links[x])
	for _, y := range s.adj.Out(x) {
		other.links[y]++
		if c.role[y] == roleNone {
			other.q.Push(pq.Item{ID: uint64(y), Prio: other.score[y], Seq: uint64(y)})
		}
	}
}

// drop undoes the last add to s; the page becomes a candidate again.
func (c *coreGrower) drop(s, other *coreSide) {
	x := s.members[len(s.members)-1]
	s.members = s.members[:len(s.members)-1]
	c.role[x] = roleNone
	c.arcs -= int(s.links[x])
	for _, y := range s.adj.Out(x) {
		other.links[y]--
	}
	s.q.Push(pq.Item{ID: uint64(x), Prio: s.score[x], Seq: uint64(x)})
}

// reset clears what the members of s set, walking their arcs, and drops the
// references to this core's graphs and scores.
func (c *coreGrower) reset(s, other *coreSide) {
	for _, x := range s.members {
		c.role[x] = roleNone
		for _, y := range s.adj.Out(x) {
			other.links[y] = 0
		}
	}
	s.adj, s.score, s.q = nil, nil, nil
}
