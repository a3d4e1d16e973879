package testweb

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// evolve derives epoch e from epoch e-1 (prev). Only evolving pages (regular
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
func (s *Site) evolve(prev *state, e int) *state {
	evo := s.evo
	rng := rand.New(rand.NewPCG(s.seed, 0xe90c_0000_0000_0000|uint64(e)))
	nodes := slices.Clone(prev.nodes)
	nprev := len(nodes)
	live := make([][]uint32, len(s.hosts))
	var all []uint32
	evolving := 0
	for id := 0; id < nprev; id++ {
		n := &nodes[id]
		if n.kind != KindPage || n.flags&(flagEvolve|flagRoot) == 0 {
			continue
		}
		live[n.host] = append(live[n.host], uint32(id))
		all = append(all, uint32(id))
		if n.flags&flagRoot == 0 {
			evolving++
		}
	}
	touch := func(n *node) {
		n.ver++
		n.mod = uint32(e)
	}
	for id := 0; id < nprev; id++ {
		n := &nodes[id]
		if n.kind != KindPage || n.flags&(flagEvolve|flagRoot) == 0 {
			continue
		}
		x := rng.Float64()
		root := n.flags&flagRoot != 0
		moved := "/moved/" + strconv.Itoa(e) + n.path
		_, taken := prev.index[n.host][moved]
		switch {
		case !root && x < evo.Gone:
			n.kind, n.status, n.links = KindGone, 404, nil
			if rng.IntN(2) == 1 {
				n.status = 410
			}
			n.flags &^= flagEvolve
			touch(n)
		case !root && x < evo.Gone+evo.Move && !taken:
			m := *n
			m.path, m.mod = moved, uint32(e)
			nodes = append(nodes, m)
			n = &nodes[id] // nodes may have moved in memory
			n.kind, n.status, n.target, n.links = KindRedirect, 301, uint32(len(nodes)-1), nil
			n.flags &^= flagEvolve | flagMetaNofollow | flagMalformed | flagCanonical | flagBase | flagJunkLinks
			touch(n)
		case x < evo.Gone+evo.Move+evo.Change:
			touch(n)
			links := slices.Clone(n.links)
			if c := live[n.host]; rng.Float64() < 0.5 && len(c) > 0 {
				if t := c[rng.IntN(len(c))]; t != uint32(id) && !hasLink(links, t) {
					links = append(links, link{to: t})
				}
			}
			if len(links) > 1 && rng.Float64() < 0.3 {
				j := rng.IntN(len(links))
				links = slices.Delete(links, j, j+1)
			}
			n.links = links
		}
	}
	k := int(math.Round(evo.New * float64(evolving)))
	for i := 0; i < k && len(all) > 0; i++ {
		h := nodes[all[rng.IntN(len(all))]].host
		id := uint32(len(nodes))
		n := node{host: h, path: "/new/" + strconv.Itoa(e) + "/" + strconv.Itoa(i) + ".html",
			kind: KindPage, status: 200, flags: flagEvolve, mod: uint32(e)}
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
			touch(src)
		}
	}
	st := &state{epoch: e, nodes: nodes}
	st.seal(prev, nil)
	return st
}

func hasLink(ls []link, t uint32) bool {
	for _, l := range ls {
		if l.to == t {
			return true
		}
	}
	return false
}
