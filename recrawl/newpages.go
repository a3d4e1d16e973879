package recrawl

import (
	"container/heap"
	"context"
	"fmt"
	"math"

	"github.com/seedcrawl/seedcrawl/crawler"
)

// hopDecay is the weight of a page one hop farther from the seed.
const hopDecay = 0.5

// AlgoNewPages selects seeds by the new pages they are expected to lead to
// within Hops hops (the recrawl objective; see newPages).
const AlgoNewPages = "newpages"

// newPageValue estimates, per page of the stored graph, the new pages a
// crawl reaching it is expected to find there (Zheng, Dmitriev & Giles,
// CIKM 2009, value a page by P_uniq, the probability that it is new, per
// host; here P_uniq is observed instead of a default of 1):
//
//   - a URL never fetched and not settled (out of scope, rejected,
//     robots-denied): 1 in cycle 2, when nothing else is known, it is new
//     to the crawl; from cycle 3 on, when growth has been observed, its
//     host's growth rate like a fetched page (an old unfetched URL is not
//     what appears on the web between cycles);
//   - a fetched page: the new pages its host grew by per fetched page and
//     per cycle, observed: (host pages first interned in cycles 2..n-1) /
//     ((n−2) · fetched pages of the host), plus the new pages first found
//     on the page itself per cycle (new pages attach near the pages that
//     already led to new ones: hubs, pages that change); 0 before there
//     are two cycles to compare;
//   - a settled page: 0, the crawl will not fetch it (this is what keeps
//     out-of-scope URLs out of the counts).
func newPageValue(l *loaded, n uint32) []float64 {
	g := l.g
	val := make([]float64, g.N())
	type hs struct{ grown, fetched float64 }
	byHost := map[string]*hs{}
	for v := range val {
		h := byHost[l.cs.hosts[v]]
		if h == nil {
			h = &hs{}
			byHost[l.cs.hosts[v]] = h
		}
		if l.cs.first[v] >= 2 && !l.cs.settled[v] {
			h.grown++
		}
		if l.fetched[v] && !l.cs.settled[v] {
			h.fetched++
		}
	}
	for v := range val {
		switch {
		case l.cs.settled[v]:
		case !l.fetched[v] && n <= 2:
			val[v] = 1
		case n > 2:
			if h := byHost[l.cs.hosts[v]]; h.fetched > 0 {
				val[v] = h.grown / (float64(n-2) * h.fetched)
			}
			if l.fetched[v] {
				val[v] += float64(l.cs.spawned[v]) / float64(n-2)
			}
		}
	}
	return val
}

// ball calls fn with every node within hops hops of s (s included), once.
// mark and stamp are the caller's scratch (stamp distinct per call).
type baller struct {
	out   func(v uint32) []uint32
	mark  []uint32
	stamp uint32
	cur   []uint32
	next  []uint32
}

func (b *baller) ball(s uint32, hops int, fn func(v uint32, d int)) {
	b.stamp++
	b.mark[s] = b.stamp
	fn(s, 0)
	b.cur = append(b.cur[:0], s)
	for h := 0; h < hops && len(b.cur) > 0; h++ {
		b.next = b.next[:0]
		for _, u := range b.cur {
			for _, w := range b.out(u) {
				if b.mark[w] != b.stamp {
					b.mark[w] = b.stamp
					fn(w, h+1)
					b.next = append(b.next, w)
				}
			}
		}
		b.cur, b.next = b.next, b.cur
	}
}

// gainHeap is a max-heap of candidate gains for lazy greedy selection.
type gainHeap []gainItem

type gainItem struct {
	v    uint32
	gain float64
	at   int // number of seeds chosen when gain was computed
}

func (h gainHeap) Len() int { return len(h) }
func (h gainHeap) Less(i, j int) bool {
	if h[i].gain != h[j].gain {
		return h[i].gain > h[j].gain
	}
	return h[i].v < h[j].v
}
func (h gainHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *gainHeap) Push(x any)   { *h = append(*h, x.(gainItem)) }
func (h *gainHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// newPages selects K seeds among the candidates (fetched, live, in-scope
// HTML pages) by greedy maximum coverage of newPageValue within Hops hops:
// each seed adds the value of the pages in its ball that no earlier seed
// covers (lazy greedy, Minoux's accelerated greedy, exact for this
// submodular objective). Seeds are spread over hosts: a host gets at most
// max(1, K · its share of the total value, rounded) seeds, so one site takes most
// seeds only when its value dominates. The previous cycle's seeds in keep
// that are still live stay, unless a selected seed dominates one (reaches
// it in one hop, so its crawl starts where the old seed's would); they
// come first and do not count against K.
func (r *Runner) newPages(ctx context.Context, l *loaded, n uint32, keep []uint32, p *Plan) ([]uint32, error) {
	o := &r.o
	g := l.g
	hops := o.Select.Hops
	if hops <= 0 {
		hops = 5
	}
	val := newPageValue(l, n)
	b := &baller{out: g.Out, mark: make([]uint32, g.N())}
	hostVal := map[string]float64{}
	total := 0.0
	for v, x := range val {
		hostVal[l.cs.hosts[v]] += x
		total += x
	}
	covered := make([]bool, g.N())
	// A page d hops from the seed counts decay^d: new pages appear on the
	// pages the crawl refetches, and the farther a page is, the less
	// likely the crawl reaches and refetches it early.
	gain := func(s uint32) (x float64, pages int) {
		b.ball(s, hops, func(v uint32, d int) {
			if !covered[v] && val[v] > 0 {
				x += val[v] * math.Pow(hopDecay, float64(d))
				pages++
			}
		})
		return x, pages
	}
	h := &gainHeap{}
	for v, ok := range l.cs.live {
		if !ok {
			continue
		}
		if v%4096 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("recrawl: cycle %d: newpages: %w", n, ctx.Err())
		}
		x, _ := gain(uint32(v))
		if x > 0 {
			*h = append(*h, gainItem{v: uint32(v), gain: x})
		}
	}
	heap.Init(h)
	k := o.Select.K
	perHost := map[string]int{}
	capOf := func(host string) int {
		if total <= 0 {
			return k
		}
		return max(1, int(math.Round(float64(k)*hostVal[host]/total)))
	}
	var ids []uint32
	type pick struct {
		v     uint32
		gain  float64
		pages int
	}
	var picks []pick
	for h.Len() > 0 && len(picks) < k {
		it := heap.Pop(h).(gainItem)
		host := l.cs.hosts[it.v]
		if perHost[host] >= capOf(host) {
			continue
		}
		if it.at != len(picks) {
			x, _ := gain(it.v)
			it.gain, it.at = x, len(picks)
			if x > 0 {
				heap.Push(h, it)
			}
			continue
		}
		x, pages := gain(it.v)
		b.ball(it.v, hops, func(v uint32, _ int) { covered[v] = true })
		picks = append(picks, pick{it.v, x, pages})
		perHost[host]++
	}
	// Keep the previous seeds that no selected seed dominates.
	reach := make([]bool, g.N())
	for _, pk := range picks {
		b.ball(pk.v, 1, func(v uint32, _ int) { reach[v] = true })
	}
	chosen := map[uint32]bool{}
	for _, s := range keep {
		if int(s) >= g.N() || !l.cs.live[s] || reach[s] || chosen[s] {
			continue
		}
		chosen[s] = true
		ids = append(ids, s)
		p.Seeds = append(p.Seeds, crawler.Pick{URL: g.URLs[s],
			Why: "kept: a seed of cycle 1, alive and neither selected nor linked from a selected seed"})
	}
	for i, pk := range picks {
		if chosen[pk.v] {
			continue
		}
		chosen[pk.v] = true
		ids = append(ids, pk.v)
		p.Seeds = append(p.Seeds, crawler.Pick{URL: g.URLs[pk.v], Score: pk.gain,
			Why: fmt.Sprintf("%s rank %d: %.1f new pages expected within %d hops, over %d in-scope URLs not covered by earlier seeds (host %s)",
				AlgoNewPages, i+1, pk.gain, hops, pk.pages, l.cs.hosts[pk.v])})
	}
	p.Cycle.SeedAlgo = AlgoNewPages
	return ids, nil
}
