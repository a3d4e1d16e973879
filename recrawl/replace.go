package recrawl

import (
	"context"
	"fmt"
	"sync"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Replacer replaces vanished seeds: a seed that redirects
// is replaced by its recorded redirect target; any other vanished seed by
// the nearest fetched, surviving neighbour in the stored graph (links
// followed in either direction, so a page that linked to the seed counts as
// much as one it linked to) that scores best under the cycle's selector
// (pagerank when the seeds are given), chosen by that selector run with
// those neighbours as its only candidates. It loads the graph stored at the
// start of the cycle the first time it is needed. Safe for concurrent use.
type Replacer struct {
	r *Runner
	n uint32

	mu sync.Mutex
	l  *loaded
	gt *graph.CSR // transpose of l.g
}

func (r *Runner) newReplacer(l *loaded, n uint32) *Replacer { return &Replacer{r: r, n: n, l: l} }

// Replace returns a replacement for seed old, which vanished for reason
// (a lasting answer's code such as "404" or "403", "unreachable" or
// "redirect"), among pages isSeed does not
// report; ok is false when no page qualifies. It implements
// SeedReplacer.
func (x *Replacer) Replace(ctx context.Context, old uint64, reason string, isSeed func(uint64) bool) (Pick, bool, error) {
	return x.replace(ctx, old, reason, isSeed)
}

func (x *Replacer) replace(ctx context.Context, old uint64, reason string, isSeed func(uint64) bool) (Pick, bool, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.r.o.Store
	if reason == "redirect" {
		links, err := st.Links(old)
		if err != nil {
			return Pick{}, false, fmt.Errorf("recrawl: links of seed %d: %w", old, err)
		}
		for _, l := range links {
			if l.Kind != storage.LinkRedirect || isSeed(l.To) {
				continue
			}
			p, err := st.Page(l.To)
			if err != nil {
				return Pick{}, false, fmt.Errorf("recrawl: redirect target of seed %d: %w", old, err)
			}
			return Pick{URL: p.URL, Why: fmt.Sprintf("replaces seed %d: its recorded redirect target", old)}, true, nil
		}
	}
	if x.l == nil {
		l, err := x.r.load(x.n - 1)
		if err != nil {
			return Pick{}, false, err
		}
		x.l = l
	}
	g := x.l.g
	if old >= uint64(g.N()) {
		return Pick{}, false, nil
	}
	if x.gt == nil {
		x.gt = g.Transpose()
	}
	ring, dist, err := x.nearest(uint32(old), isSeed)
	if err != nil || len(ring) == 0 {
		return Pick{}, false, err
	}
	algo := x.r.o.SeedAlgo
	if algo == AlgoGiven || algo == AlgoNewPages {
		algo = seeds.AlgoPageRank
	}
	mask := make([]bool, g.N())
	for _, v := range ring {
		mask[v] = true
	}
	so := x.r.o.Select
	so.Algo, so.K, so.PerHost, so.Candidates, so.Rand = algo, 1, false, mask, x.r.rng(x.n, old+1)
	res, err := seeds.Select(ctx, x.l.input(), so)
	if err != nil {
		return Pick{}, false, fmt.Errorf("recrawl: replace seed %d: %w", old, err)
	}
	v, score := ring[0], 0.0
	if len(res.Seeds) > 0 {
		v, score = res.Seeds[0].Node, res.Seeds[0].Score
	}
	return Pick{URL: g.URLs[v], Score: score,
		Why: fmt.Sprintf("replaces seed %d (%s): nearest surviving neighbour, %d hop(s) away, best of %d by %s (%s %.4g)",
			old, reason, dist, len(ring), algo, res.Score, score)}, true, nil
}

// nearest returns the candidates closest to v in the stored graph taken as
// undirected, and their distance: fetched live HTML pages, not seeds, not
// found vanished since (their stored record is read again).
func (x *Replacer) nearest(v uint32, isSeed func(uint64) bool) ([]uint32, int, error) {
	g, gt, l := x.l.g, x.gt, x.l
	dist := make([]int32, g.N())
	for i := range dist {
		dist[i] = -1
	}
	dist[v] = 0
	level := []uint32{v}
	for d := 1; len(level) > 0; d++ {
		var next, ring []uint32
		for _, u := range level {
			for _, nb := range [2][]uint32{g.Out(u), gt.Out(u)} {
				for _, w := range nb {
					if dist[w] >= 0 {
						continue
					}
					dist[w] = int32(d)
					next = append(next, w)
					if !l.cs.live[w] || isSeed(uint64(w)) {
						continue
					}
					p, err := x.r.o.Store.Page(uint64(w))
					if err != nil {
						return nil, 0, fmt.Errorf("recrawl: page %d: %w", w, err)
					}
					if vanishReason(&p) == "" && p.Status.Fetched() {
						ring = append(ring, w)
					}
				}
			}
		}
		if len(ring) > 0 {
			return ring, d, nil
		}
		level = next
	}
	return nil, 0, nil
}
