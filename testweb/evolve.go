package testweb

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/mix"
)

// EvolveModel selects how a site changes from one epoch to the next (see
// Evolution.Model and the package documentation, "Epochs").
type EvolveModel uint8

const (
	// EvolveUniform gives every evolving page the same odds of changing,
	// disappearing or moving, and attaches new pages at random on their
	// host. It is the zero value, the model existing tests were written
	// against.
	EvolveUniform EvolveModel = iota
	// EvolveWeb gives every page its own Poisson change rate, heavy-tailed
	// across pages and across hosts, attaches new pages near hubs and near
	// recently changed pages (preferential attachment), and lets hosts
	// appear.
	EvolveWeb
)

// evolve derives epoch e from epoch e-1 (prev) under the site's model.
func (s *Site) evolve(prev *state, e int) *state {
	if s.evo.Model == EvolveWeb {
		return s.evolveWeb(prev, e)
	}
	return s.evolveUniform(prev, e)
}

// evolveUniform derives epoch e from epoch e-1 (prev). Only evolving pages (regular
// pages and graph pages; never the zoo) change. In node id order, each
// evolving page, drawing from a generator seeded by (site seed, e):
//   - with probability Gone disappears: it answers 404 or 410 from now on
//     and its links are gone (links to it stay: they are broken links now);
//   - with probability Move moves: its content, links and history go to a
//     new URL /moved/E/OLDPATH and the old URL answers 301 to it;
//   - with probability Change gets new content: version bump, and it may
//     gain a link to another live page of its host or lose one.
//
// Seed pages and host roots only change content. Then New × (evolving pages)
// new pages /new/E/K.html appear on regular hosts chosen in proportion to
// their live pages, each linking to a few live pages and linked from one or
// two live pages of its host (whose content thereby changes). Every content
// change sets the page's Last-Modified to epoch e and changes its ETag.
func (s *Site) evolveUniform(prev *state, e int) *state {
	evo := s.evo
	rng := rand.New(rand.NewPCG(s.seed, 0xe90c_0000_0000_0000|uint64(e)))
	nodes := slices.Clone(prev.nodes)
	live, all, evolving := livePages(nodes, len(s.hosts))
	nodes = drawFates(nodes, evo, e, prev, rng, func(nodes []node, id int, x float64) {
		n := &nodes[id]
		if !(x < evo.Gone+evo.Move+evo.Change) {
			return
		}
		n.touch(e)
		links := slices.Clone(n.links)
		if c := live[n.host]; rng.Float64() < 0.5 && len(c) > 0 {
			if t := c[rng.IntN(len(c))]; t != uint32(id) && !hasLink(links, t) {
				links = append(links, link{to: t})
			}
		}
		n.links = maybeDropLink(links, rng)
	})
	k := int(math.Round(evo.New * float64(evolving)))
	for i := 0; i < k && len(all) > 0; i++ {
		h := nodes[all[rng.IntN(len(all))]].host
		id := uint32(len(nodes))
		n := newPage(h, e, i)
		for range 2 + rng.IntN(5) {
			c := live[h]
			if rng.Float64() < 0.05 {
				c = all
			}
			if t := c[rng.IntN(len(c))]; !hasLink(n.links, t) {
				n.links = append(n.links, link{to: t})
			}
		}
		nodes = append(nodes, n)
		for range 1 + rng.IntN(2) {
			src := &nodes[live[h][rng.IntN(len(live[h]))]]
			if src.kind != KindPage || hasLink(src.links, id) {
				continue
			}
			src.links = append(slices.Clip(src.links), link{to: id})
			src.touch(e)
		}
	}
	st := &state{epoch: e, nodes: nodes}
	st.seal(prev, nil)
	return st
}

// isLive reports whether n is a live page that takes part in evolution: a
// regular or graph page, or a host root, that has neither gone nor moved.
func isLive(n *node) bool { return n.kind == KindPage && n.flags&(flagEvolve|flagRoot) != 0 }

// livePages lists the live pages of nodes (isLive) in id order, per host
// (live, for hosts below nh) and all together, and counts those that are
// not host roots: the pages that may go, move or grow new pages.
func livePages(nodes []node, nh int) (live [][]uint32, all []uint32, evolving int) {
	live = make([][]uint32, nh)
	for id := range nodes {
		n := &nodes[id]
		if !isLive(n) {
			continue
		}
		live[n.host] = append(live[n.host], uint32(id))
		all = append(all, uint32(id))
		if n.flags&flagRoot == 0 {
			evolving++
		}
	}
	return live, all, evolving
}

// drawFates draws the fate of every live page of the previous epoch (the
// first len(nodes) nodes) in id order: one draw x from rng, with which
// goneOrMoved may remove or move the page; a page that stays is handed to
// change with x, which may change its content. It returns the nodes (a
// move appends to them: change gets the current ones).
func drawFates(nodes []node, evo Evolution, e int, prev *state, rng *rand.Rand, change func(nodes []node, id int, x float64)) []node {
	nprev := len(nodes)
	for id := 0; id < nprev; id++ {
		n := &nodes[id]
		if !isLive(n) {
			continue
		}
		x := rng.Float64()
		root := n.flags&flagRoot != 0
		var ended bool
		if nodes, ended = goneOrMoved(nodes, id, x, root, evo, e, prev, rng); ended {
			continue
		}
		change(nodes, id, x)
	}
	return nodes
}

// newPage returns the i-th new page of epoch e, /new/E/I.html on host h,
// without links yet.
func newPage(h uint32, e, i int) node {
	return node{host: h, path: "/new/" + strconv.Itoa(e) + "/" + strconv.Itoa(i) + ".html",
		kind: KindPage, status: 200, flags: flagEvolve, mod: uint32(e), born: uint32(e)}
}

// maybeDropLink drops one of links, chosen at random, with probability 0.3
// when there are at least two.
func maybeDropLink(links []link, rng *rand.Rand) []link {
	if len(links) > 1 && rng.Float64() < 0.3 {
		j := rng.IntN(len(links))
		links = slices.Delete(links, j, j+1)
	}
	return links
}

func hasLink(ls []link, t uint32) bool {
	for _, l := range ls {
		if l.to == t {
			return true
		}
	}
	return false
}

// Heavy tails of the EvolveWeb change rates: λ_v = c·H_host·P_v with
// Pareto factors of mean 1. Page factors have shape 1.5 (infinite
// variance: a few pages change almost every epoch, most rarely), host
// factors shape 2.5 (some hosts are news sites, most are archives).
const (
	pageRateShape = 1.5
	hostRateShape = 2.5
	rateSalt      = 0x0c4a_46e5_0000_0000
	hostRateSalt  = 0x0c4a_46e5_0000_0001
)

// pareto maps u in (0, 1] to a Pareto value of shape alpha and mean 1:
// x_m/u^(1/alpha) with x_m = (alpha−1)/alpha.
func pareto(u, alpha float64) float64 {
	return (alpha - 1) / alpha / math.Pow(u, 1/alpha)
}

// unit returns a uniform value in (0, 1] from a hash of (site seed, salt,
// x): per-node and per-host draws that need no generator state, so a
// node's rate is the same at every epoch whatever order epochs are
// computed in. It is the SplitMix64 finaliser (Steele, Lea and Flood 2014).
func (s *Site) unit(salt, x uint64) float64 {
	z := mix.Finalize(s.seed ^ salt ^ (x+1)*mix.Golden)
	return (float64(z>>11) + 1) / (1 << 53)
}

// rateFactor returns H_host·P_id, the unscaled change rate of node id.
func (s *Site) rateFactor(host, id uint32) float64 {
	return pareto(s.unit(hostRateSalt, uint64(host)), hostRateShape) * pareto(s.unit(rateSalt, uint64(id)), pageRateShape)
}

// rateScale returns c such that the expected share of evolving pages that
// change in an epoch, E[1 − exp(−c·H·P)] over the model's factors, equals
// Evolution.Change. The expectation is taken over a fixed sample of 4096
// factor pairs (the same for every site), and c is found by bisection on
// log c (60 halvings: far below float64 resolution of the share).
func rateScale(change float64) float64 {
	if change <= 0 {
		return 0
	}
	if change >= 1 {
		return math.Inf(1)
	}
	r := rand.New(rand.NewPCG(0x5a3b1e, 0xc4a46e))
	fs := make([]float64, 4096)
	for i := range fs {
		fs[i] = pareto(1-r.Float64(), hostRateShape) * pareto(1-r.Float64(), pageRateShape)
	}
	share := func(c float64) float64 {
		var sum float64
		for _, f := range fs {
			sum += -math.Expm1(-c * f)
		}
		return sum / float64(len(fs))
	}
	lo, hi := math.Log(1e-9), math.Log(1e6)
	for range 60 {
		mid := (lo + hi) / 2
		if share(math.Exp(mid)) < change {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2)
}

// changeRate returns the expected number of content changes of node n (id)
// per epoch: its Poisson rate λ. Pages that never change (resources, the
// zoo, gone pages, redirects) have 0. scale is rateScale(Change) under
// EvolveWeb and unused otherwise.
func (s *Site) changeRate(n *node, id uint32, scale float64) float64 {
	if !isLive(n) {
		return 0
	}
	if s.evo.Model == EvolveWeb {
		return scale * s.rateFactor(n.host, id)
	}
	// Under EvolveUniform a page changes with probability Change per epoch
	// (if it neither disappears nor moves): a Poisson rate of −ln(1−Change).
	if s.evo.Change >= 1 {
		return math.Inf(1)
	}
	return -math.Log1p(-s.evo.Change)
}

// Last-Modified under EvolveWeb. A page changes as a Poisson process, but
// the web is served in snapshots, one per epoch: a change "at epoch e"
// stands for the last event of the process in the day before EpochTime(e),
// and epoch 0's pages were last changed at some time before the web was
// generated. modTime places that last event on the web's clock, so that a
// crawler reading Last-Modified against the served Date (EpochTime of the
// epoch served) sees exactly what it would see of a Poisson process
// sampled once a day (Cho and Garcia-Molina's last-modified estimators,
// changerate.LastModified, then apply as they would to a real server).
const (
	modSalt = 0x1a57_0d1f_0000_0000
	// maxPreAge bounds how long before epoch 0 a page was last changed: a
	// page whose rate is tiny was still created at some point.
	maxPreAge = 365 * 24 * time.Hour
)

// attachRates returns, per node of st (epoch 0), the expected number of new
// pages that link to it in an epoch under EvolveWeb: evolveWeb adds
// New × (evolving pages) new pages to hosts in proportion to their live
// pages, and each draws about one hub of its host in proportion to
// in-degree + 1 (its parent half the time, a second hub half the time),
// which changes the hub. A hub's content thus changes far more often than
// its own rate says, and its Last-Modified must show it.
func attachRates(st *state, evo Evolution, hosts int) []float64 {
	indeg := make([]float64, len(st.nodes))
	live := make([]float64, hosts)
	weight := make([]float64, hosts)
	all, evolving := 0, 0
	for id := range st.nodes {
		n := &st.nodes[id]
		if !isLive(n) {
			continue
		}
		all++
		live[n.host]++
		if n.flags&flagRoot == 0 {
			evolving++
		}
		for _, l := range n.links {
			indeg[l.to]++
		}
	}
	out := make([]float64, len(st.nodes))
	if all == 0 {
		return out
	}
	for id := range st.nodes {
		if n := &st.nodes[id]; isLive(n) {
			weight[n.host] += indeg[id] + 1
		}
	}
	k := math.Round(evo.New * float64(evolving))
	for id := range st.nodes {
		n := &st.nodes[id]
		if !isLive(n) || weight[n.host] == 0 {
			continue
		}
		out[id] = k * live[n.host] / float64(all) * (indeg[id] + 1) / weight[n.host]
	}
	return out
}

// modTime returns the Last-Modified time of node n (id) under EvolveWeb,
// to the second:
//   - a page that changes (rate λ > 0 per epoch: its own, plus for a node
//     of epoch 0 the rate at which new pages link to it, attachRates) and
//     last changed at
//     epoch e ≥ 1: EpochTime(e) − d, d the time from the last event of its
//     process in (e−1, e] to e, drawn from its conditional law given at
//     least one event there, density λe^(−λd)/(1 − e^(−λ)) on [0, 1) day;
//   - such a page unchanged since epoch 0: EpochTime(0) − a, a the age of
//     a stationary Poisson process at a random moment, Exp(λ), at most
//     maxPreAge;
//   - anything else (resources, gone pages, pages that never change):
//     EpochTime(mod).
//
// The draws are hashes of (site seed, node, epoch): the same at every
// epoch the page is served, whatever order epochs are computed in.
func (s *Site) modTime(n *node, id uint32) time.Time {
	base := EpochTime(int(n.mod))
	lam := s.changeRate(n, id, s.rateScale)
	if lam > 0 && int(id) < len(s.linkRate) {
		lam += s.linkRate[id]
	}
	if !(lam > 0) || math.IsInf(lam, 1) {
		return base
	}
	u := s.unit(modSalt, uint64(id)<<20|uint64(n.mod))
	var days float64
	if n.mod == 0 {
		days = min(-math.Log(u)/lam, maxPreAge.Hours()/24)
	} else {
		days = -math.Log1p(-u*-math.Expm1(-lam)) / lam
	}
	return base.Add(-time.Duration(days * 24 * float64(time.Hour))).Truncate(time.Second)
}

// addDormantHosts adds the hosts that appear under EvolveWeb: regular
// hosts (named and served like the others, robots.txt included) without
// pages until their epoch, dormant[i] at epoch i+1.
func addDormantHosts(b *siteBuilder, o GenOptions) {
	evo := o.Evolution
	if evo.Model != EvolveWeb || evo.NewHosts < 0 {
		return
	}
	n := evo.NewHosts
	if n == 0 {
		n = max(1, o.Hosts/10)
	}
	for i := range n {
		h := o.Hosts + i
		b.s.dormant = append(b.s.dormant, b.addHost(regularHostSpec(h, !o.NoHTTPS && h%8 == 3)))
	}
}

// evolveWeb derives epoch e from epoch e-1 (prev) under EvolveWeb, with a
// generator seeded by (site seed, e). In node id order, each evolving page
// (regular and graph pages, never the zoo):
//   - with probability Gone disappears (404 or 410), with probability Move
//     moves to /moved/E/OLDPATH (the old URL answers 301), as under
//     EvolveUniform; seed pages and host roots do neither;
//   - otherwise changes content with probability 1 − exp(−λ_v): at least
//     one event of a Poisson process of rate λ_v = c·H_host·P_v per epoch
//     (H, P Pareto factors of mean 1, shapes 2.5 and 1.5, fixed per host
//     and per page; c makes the expected share of changing pages Change).
//     A change may add a link to a hub of the page's host (drawn in
//     proportion to in-degree + 1) or drop one.
//
// Then New × (evolving pages) new pages /new/E/K.html appear on hosts
// chosen in proportion to their live pages. Each is linked from a parent:
// a page of its host changed in this epoch (half the time, when there is
// one) or a hub of the host; half of them also from a second hub. A new
// page links to up to two of its parent's targets (the copying model of
// Kumar et al. 2000) and to one to four hubs, mostly of its host, one
// draw in twenty over the whole web. Linking to a new page changes the
// parent's content. In-degree grows where links already point: hubs and
// busy pages gain more (preferential attachment, Barabási and Albert 1999).
//
// Finally the host dormant[e−1], if any, appears: a root and 4 to 15
// pages linking to each other, linked from one or two hubs of the web and
// from a page changed in this epoch.
func (s *Site) evolveWeb(prev *state, e int) *state {
	evo := s.evo
	scale := rateScale(evo.Change)
	rng := rand.New(rand.NewPCG(s.seed, 0xe90c_0000_0000_0000|uint64(e)|1<<40))
	nodes := slices.Clone(prev.nodes)
	nprev := len(nodes)
	nh := len(s.hosts)
	_, all, evolving := livePages(nodes, nh)
	// Hubs: live pages weighted by in-degree + 1 from live pages, per host
	// and over the whole web, as the previous epoch left them.
	indeg := make([]float64, nprev)
	for _, id := range all {
		for _, l := range nodes[id].links {
			if int(l.to) < nprev {
				indeg[l.to]++
			}
		}
	}
	hubs := make([]weighted, nh)
	var global weighted
	for _, id := range all {
		w := indeg[id] + 1
		hubs[nodes[id].host].add(id, w)
		global.add(id, w)
	}
	changed := make([][]uint32, nh)
	var changedAll []uint32
	nodes = drawFates(nodes, evo, e, prev, rng, func(nodes []node, id int, _ float64) {
		n := &nodes[id]
		if !(rng.Float64() < -math.Expm1(-scale*s.rateFactor(n.host, uint32(id)))) {
			return
		}
		n.touch(e)
		changed[n.host] = append(changed[n.host], uint32(id))
		changedAll = append(changedAll, uint32(id))
		links := slices.Clone(n.links)
		if rng.Float64() < 0.5 {
			if t, ok := hubs[n.host].pick(rng); ok && t != uint32(id) && isLive(&nodes[t]) && !hasLink(links, t) {
				links = append(links, link{to: t})
			}
		}
		n.links = maybeDropLink(links, rng)
	})
	// livePage reports whether id serves a page now (it may have gone or
	// moved earlier in this epoch).
	livePage := func(id uint32) bool { return isLive(&nodes[id]) }
	addLink := func(src, dst uint32) bool {
		n := &nodes[src]
		if src == dst || !livePage(src) || hasLink(n.links, dst) {
			return false
		}
		n.links = append(slices.Clip(n.links), link{to: dst})
		n.touch(e)
		return true
	}
	k := int(math.Round(evo.New * float64(evolving)))
	for i := 0; i < k && len(all) > 0; i++ {
		h := nodes[all[rng.IntN(len(all))]].host
		id := uint32(len(nodes))
		n := newPage(h, e, i)
		var parent uint32
		found := false
		for try := 0; try < 4 && !found; try++ {
			if c := changed[h]; len(c) > 0 && rng.IntN(2) == 0 {
				parent = c[rng.IntN(len(c))]
			} else {
				parent, _ = hubs[h].pick(rng)
			}
			found = livePage(parent)
		}
		if found {
			pl := nodes[parent].links
			for range min(2, len(pl)) {
				if t := pl[rng.IntN(len(pl))].to; livePage(t) && !hasLink(n.links, t) {
					n.links = append(n.links, link{to: t})
				}
			}
		}
		for range 1 + rng.IntN(4) {
			w := &hubs[h]
			if rng.IntN(20) == 0 {
				w = &global
			}
			if t, ok := w.pick(rng); ok && livePage(t) && !hasLink(n.links, t) {
				n.links = append(n.links, link{to: t})
			}
		}
		nodes = append(nodes, n)
		if found {
			addLink(parent, id)
		}
		if rng.IntN(2) == 0 {
			if hub, ok := hubs[h].pick(rng); ok {
				addLink(hub, id)
			}
		}
	}
	if e-1 < len(s.dormant) {
		s.bearHost(&nodes, s.dormant[e-1], e, rng, &global, changedAll, addLink)
	}
	st := &state{epoch: e, nodes: nodes}
	st.seal(prev, nil)
	return st
}

// bearHost gives host h its first pages at epoch e: a root and 4 to 15
// pages, each linking to the root and to one to three siblings, the root
// linking to all of them; one or two hubs of the web and a page changed in
// this epoch (when there is one) link to the root.
func (s *Site) bearHost(nodes *[]node, h uint32, e int, rng *rand.Rand, global *weighted, changed []uint32, addLink func(src, dst uint32) bool) {
	root := uint32(len(*nodes))
	*nodes = append(*nodes, node{host: h, path: "/", kind: KindPage, status: 200, flags: flagRoot, mod: uint32(e), born: uint32(e)})
	m := 4 + rng.IntN(12)
	first := root + 1
	for k := range m {
		*nodes = append(*nodes, node{host: h, path: "/p/" + strconv.Itoa(k) + ".html", kind: KindPage, status: 200,
			flags: flagEvolve, mod: uint32(e), born: uint32(e), links: []link{{to: root}}})
	}
	for k := range uint32(m) {
		(*nodes)[root].links = append((*nodes)[root].links, link{to: first + k})
		n := &(*nodes)[first+k]
		for range 1 + rng.IntN(3) {
			if t := first + uint32(rng.IntN(m)); t != first+k && !hasLink(n.links, t) {
				n.links = append(n.links, link{to: t})
			}
		}
	}
	for range 1 + rng.IntN(2) {
		if hub, ok := global.pick(rng); ok {
			addLink(hub, root)
		}
	}
	if len(changed) > 0 {
		addLink(changed[rng.IntN(len(changed))], root)
	}
}

// goneOrMoved draws the fate of page id in epoch e from x: below evo.Gone
// it is gone (404, or 410 by one more draw from rng), below
// evo.Gone+evo.Move it moves to /moved/E/PATH and answers 301 there, unless
// that path is taken. A root stays. It returns the nodes (a move appends
// the page at its new place, so pointers into nodes are stale) and whether
// either happened.
func goneOrMoved(nodes []node, id int, x float64, root bool, evo Evolution, e int, prev *state, rng *rand.Rand) ([]node, bool) {
	n := &nodes[id]
	moved := "/moved/" + strconv.Itoa(e) + n.path
	_, taken := prev.index[n.host][moved]
	switch {
	case !root && x < evo.Gone:
		n.kind, n.status, n.links = KindGone, 404, nil
		if rng.IntN(2) == 1 {
			n.status = 410
		}
		n.flags &^= flagEvolve
		n.touch(e)
	case !root && x < evo.Gone+evo.Move && !taken:
		m := *n
		m.path, m.mod, m.born = moved, uint32(e), uint32(e)
		nodes = append(nodes, m)
		n = &nodes[id]
		n.kind, n.status, n.target, n.links = KindRedirect, 301, uint32(len(nodes)-1), nil
		n.flags &^= flagEvolve | flagMetaNofollow | flagMalformed | flagCanonical | flagBase | flagJunkLinks
		n.touch(e)
	default:
		return nodes, false
	}
	return nodes, true
}

// touch marks n changed in epoch e.
func (n *node) touch(e int) {
	n.ver++
	n.mod = uint32(e)
}
