package recrawl

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

// A cycle's seeds: selected on the stored graph, agreed on by a cluster, or
// the previous cycle's with vanished seeds replaced.

// selectSeeds runs the selector on the stored graph, the candidates being
// the fetched, live HTML pages, and fills p.Seeds.
func (r *Runner) selectSeeds(ctx context.Context, l *loaded, n uint32, p *Plan) ([]uint32, error) {
	o := &r.o
	if !slices.Contains(l.cs.live, true) {
		return nil, nil
	}
	if o.SeedAlgo == AlgoNewPages {
		return r.newPages(ctx, l, n, nil, p)
	}
	so := o.Select
	so.Algo, so.Candidates, so.Rand = o.SeedAlgo, l.cs.live, r.rng(n, 0)
	res, err := seeds.Select(ctx, l.input(), so)
	if err != nil {
		return nil, fmt.Errorf("recrawl: cycle %d: select seeds: %w", n, err)
	}
	p.Cycle.SeedAlgo = o.SeedAlgo
	ids := res.Nodes()
	for _, s := range res.Seeds {
		p.Seeds = append(p.Seeds, Pick{URL: l.g.URLs[s.Node], Score: s.Score, Why: why(res, &s)})
	}
	return ids, nil
}

// agree replaces p's seeds with the ones the cluster agreed on
// (Options.Agree) and returns those this node's graph holds.
func (r *Runner) agree(ctx context.Context, l *loaded, n uint32, p *Plan) ([]uint32, error) {
	agreed, err := r.o.Agree(ctx, n, p.Seeds)
	if err != nil {
		return nil, fmt.Errorf("recrawl: cycle %d: agree on seeds: %w", n, err)
	}
	if len(agreed) == 0 {
		return nil, fmt.Errorf("recrawl: cycle %d: %w", n, ErrNoSeeds)
	}
	if !slices.Equal(agreed, p.Seeds) {
		// Another node's selection: this node's replacements of vanished
		// seeds are not part of it.
		p.Seeds, p.Cycle.Replaced = agreed, nil
	}
	var ids []uint32
	if l == nil {
		// A budget-limited cycle with the seeds given loads no graph: the
		// agreed seeds this node holds are looked up in its db.
		urls := make([]string, len(p.Seeds))
		for i, s := range p.Seeds {
			urls[i] = s.URL
		}
		found, err := r.o.Store.Lookup(urls)
		if err != nil {
			return nil, fmt.Errorf("recrawl: cycle %d: look up agreed seeds: %w", n, err)
		}
		for _, id := range found {
			if id != storage.NoPage && id <= math.MaxUint32 {
				ids = append(ids, uint32(id))
			}
		}
		return ids, nil
	}
	for _, s := range p.Seeds {
		if v, ok := nodeOf(l.g, s.URL); ok {
			ids = append(ids, v)
		}
	}
	return ids, nil
}

// why explains a selected seed for the cycle record.
func why(res *seeds.Result, s *seeds.Seed) string {
	w := fmt.Sprintf("%s rank %d: %s %.4g; covers %d new pages (value %.1f) within %d hops",
		res.Algo, s.Rank, res.Score, s.Score, s.Pages, s.Value, res.Hops)
	if s.Filled {
		w += " (filled)"
	}
	if s.Core != nil {
		w += fmt.Sprintf("; core %d hubs x %d authorities, density %.0f%%", len(s.Core.Hubs), len(s.Core.Authorities), s.Core.Density)
	}
	return w
}

// previousSeeds keeps the seeds of cycle n-1 (its replacements applied);
// seeds the stored crawl shows vanished are replaced now and recorded in
// p.Cycle.Replaced. l may be nil (a budget-limited cycle with given
// seeds): the seeds' records are then read one by one, and the graph is
// loaded only for a db that records no seeds.
func (r *Runner) previousSeeds(ctx context.Context, l *loaded, n uint32, cycles []storage.Cycle, p *Plan) ([]uint32, error) {
	var prev []storage.Seed
	var why []string
	for _, c := range cycles {
		if c.N == n-1 {
			prev = applyReplacements(c.Seeds, c.Replaced)
		}
	}
	for _, s := range prev {
		why = append(why, s.Why)
	}
	if len(prev) == 0 {
		// A plain crawl's db: its seeds are its depth-0 pages.
		if l == nil {
			var err error
			if l, err = r.load(n - 1); err != nil {
				return nil, err
			}
		}
		urls := r.o.Seeds
		if len(urls) == 0 {
			urls = l.cs.depth0
		}
		for _, u := range urls {
			if v, ok := nodeOf(l.g, u); ok {
				prev = append(prev, storage.Seed{ID: uint64(v)})
				why = append(why, "given")
			}
		}
	}
	seedPages, err := r.seedPages(l, prev)
	if err != nil {
		return nil, err
	}
	var ids []uint32
	isSeed := map[uint64]bool{}
	for _, s := range prev {
		isSeed[s.ID] = true
	}
	for i, s := range prev {
		sp, ok := seedPages[s.ID]
		if !ok {
			continue
		}
		id, w, u := uint32(s.ID), why[i], sp.url
		if reason := sp.vanish; reason != "" {
			rep := storage.Replacement{Old: s.ID, New: storage.NoPage, Reason: reason}
			pick, ok, err := p.Replacer.replace(ctx, s.ID, reason, func(x uint64) bool { return isSeed[x] })
			if err != nil {
				return nil, err
			}
			p.Cycle.Replaced = append(p.Cycle.Replaced, rep)
			if !ok {
				continue
			}
			v, err := r.idOf(l, pick.URL)
			if err != nil {
				return nil, err
			}
			p.Cycle.Replaced[len(p.Cycle.Replaced)-1].New = uint64(v)
			isSeed[uint64(v)] = true
			id, w, u = v, pick.Why, pick.URL
		}
		ids = append(ids, id)
		p.Seeds = append(p.Seeds, Pick{URL: u, Why: firstNonEmpty(w, "given")})
	}
	return ids, nil
}

// seedPage is what previousSeeds needs of a seed's page.
type seedPage struct {
	url    string
	vanish string // vanishReason
}

// seedPages returns the URL and vanish reason of each seed that is a page
// of the graph as of the previous cycle: from l, or read from the store
// when l is nil.
func (r *Runner) seedPages(l *loaded, seeds []storage.Seed) (map[uint64]seedPage, error) {
	out := make(map[uint64]seedPage, len(seeds))
	if l != nil {
		for _, s := range seeds {
			if s.ID < uint64(l.g.N()) {
				out[s.ID] = seedPage{url: l.g.URLs[s.ID], vanish: l.cs.vanish[s.ID]}
			}
		}
		return out, nil
	}
	ids := make([]uint64, len(seeds))
	for i, s := range seeds {
		ids[i] = s.ID
	}
	err := r.o.Store.EachPageOf(ids, func(p *storage.Page) error {
		out[p.ID] = seedPage{url: p.URL, vanish: vanishReason(p)}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recrawl: read %d seeds: %w", len(ids), err)
	}
	return out, nil
}

// idOf returns the page id of URL u: its node in l, or looked up in the
// store when l is nil.
func (r *Runner) idOf(l *loaded, u string) (uint32, error) {
	if l != nil {
		v, _ := nodeOf(l.g, u)
		return v, nil
	}
	ids, err := r.o.Store.Lookup([]string{u})
	if err != nil {
		return 0, fmt.Errorf("recrawl: look up replacement seed %s: %w", u, err)
	}
	if ids[0] == storage.NoPage || ids[0] > math.MaxUint32 {
		return 0, fmt.Errorf("recrawl: replacement seed %s: %w", u, storage.ErrNotFound)
	}
	return uint32(ids[0]), nil
}

// firstSeeds returns the seeds of cycle 1 (its replacements applied), or
// for a db of a plain crawl its given seeds (else its depth-0 pages).
func (r *Runner) firstSeeds(l *loaded, cycles []storage.Cycle) []uint32 {
	var out []uint32
	for _, c := range cycles {
		if c.N == 1 && len(c.Seeds) > 0 {
			for _, s := range applyReplacements(c.Seeds, c.Replaced) {
				out = append(out, uint32(s.ID))
			}
			return out
		}
	}
	urls := r.o.Seeds
	if len(urls) == 0 {
		urls = l.cs.depth0
	}
	for _, u := range urls {
		if v, ok := nodeOf(l.g, u); ok {
			out = append(out, v)
		}
	}
	return out
}

// applyReplacements returns seeds with each replaced seed swapped for its
// replacement (a seed whose replacement was not found stays).
func applyReplacements(ss []storage.Seed, reps []storage.Replacement) []storage.Seed {
	to := map[uint64]uint64{}
	for _, rp := range reps {
		if rp.New != storage.NoPage {
			to[rp.Old] = rp.New
		}
	}
	var out []storage.Seed
	seen := map[uint64]bool{}
	for _, s := range ss {
		if nw, ok := to[s.ID]; ok {
			// The replacement was appended to the seeds too, with its why;
			// keep the first seed's place.
			s = storage.Seed{ID: nw, Why: whyOf(ss, nw, s.Why)}
		}
		if !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, s)
		}
	}
	return out
}

func whyOf(ss []storage.Seed, id uint64, def string) string {
	for _, s := range ss {
		if s.ID == id && s.Why != "" {
			return s.Why
		}
	}
	return def
}
