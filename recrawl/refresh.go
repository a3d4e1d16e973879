package recrawl

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/seedcrawl/seedcrawl/changerate"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Refresh policies (Options.RefreshPolicy): how the refresh share of a
// cycle's budget is spread over the known pages.
const (
	// RefreshPageRank orders the known pages by stored PageRank alone,
	// every cycle the same order: a capped refresh share refetches the same
	// most important pages each cycle. The zero value.
	RefreshPageRank = "pagerank"
	// RefreshUniform gives every known page the same refresh frequency:
	// the pages fetched longest ago come first (round robin).
	RefreshUniform = "uniform"
	// RefreshImportance gives each page a refresh frequency proportional to
	// its stored PageRank (changerate.ByScore).
	RefreshImportance = "importance"
	// RefreshOptimal gives each page the refresh frequency that maximises
	// the PageRank-weighted expected freshness given its estimated change
	// rate (changerate.Optimal): the change-aware policy.
	RefreshOptimal = "optimal"
)

// RefreshPolicies lists the refresh policies.
func RefreshPolicies() []string {
	return []string{RefreshPageRank, RefreshUniform, RefreshImportance, RefreshOptimal}
}

// defaultRate is the change rate (per cycle) assumed for a page whose
// history holds no second fetch, when no page of the db has one either.
const defaultRate = 0.5

// changeStats streams the fetch records of cycles 1..last and returns, per
// page id below n, the number of refetches that compared the content with
// an earlier copy (obs), how many of them found it changed (x) and the
// cycles between those fetches, summed (gaps). One pass over every fetch
// stored: a cycle without a budget, which revisits every known page.
func changeStats(st Store, last uint32, n int) (obs, x []uint16, gaps []uint32, err error) {
	obs, x, gaps = make([]uint16, n), make([]uint16, n), make([]uint32, n)
	prev := make([]uint32, n) // cycle of the previous successful fetch
	for c := uint32(1); c <= last; c++ {
		err := st.EachFetch(c, func(r storage.FetchRecord) error {
			if r.ID < uint64(n) {
				observe(r, &prev[r.ID], &obs[r.ID], &x[r.ID], &gaps[r.ID])
			}
			return nil
		})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("recrawl: fetch history of cycle %d: %w", c, err)
		}
	}
	return obs, x, gaps, nil
}

// observe adds fetch record r, the next of its page in cycle order, to the
// page's change statistics (see changeStats); prev is the cycle of its
// previous successful fetch.
func observe(r storage.FetchRecord, prev *uint32, obs, x *uint16, gaps *uint32) {
	switch r.Change {
	case storage.ChangeChanged, storage.ChangeUnchanged:
		if *obs < ^uint16(0) {
			*obs++
			if r.Change == storage.ChangeChanged {
				*x++
			}
			if *prev > 0 {
				*gaps += r.Cycle - *prev
			} else {
				*gaps++
			}
		}
		*prev = r.Cycle
	case storage.ChangeNew:
		*prev = r.Cycle
	}
}

// rates estimates each known page's change rate per cycle from its fetch
// history: obs[i] refetches that compared the content with an earlier
// copy, x[i] of them finding it changed, gaps[i] cycles between them in
// all. With one to three refetches per page a page's own counts are mostly
// noise (one change seen in one refetch reads as a rate above 1 per cycle,
// and Optimal then gives the page no refresh at all), so each host's pages
// are pooled: changerate.FitPrior fits the spread of change chances among
// them, and each page's rate is Cho and Garcia-Molina's bias-reduced
// estimate with the host's prior added (changerate.Prior.Rate), floored by
// changerate.Unseen so that "no change seen yet" never becomes "never
// changes". A page refetched never takes its host's rate (else the rate of
// all pages pooled, else defaultRate).
//
// Every slice is indexed like hosts: one entry per page of the pool.
func rates(hosts []string, obs, x []uint16, gaps []uint32) []float64 {
	byHost := map[string][]changerate.Counts{}
	var all []changerate.Counts
	for i, h := range hosts {
		if obs[i] == 0 {
			continue
		}
		c := changerate.Counts{X: int(x[i]), N: int(obs[i]), Interval: float64(gaps[i]) / float64(obs[i])}
		byHost[h] = append(byHost[h], c)
		all = append(all, c)
	}
	prior := func(cs []changerate.Counts) (changerate.Prior, bool) {
		p, err := changerate.FitPrior(cs)
		return p, err == nil && p.Weight() > 0
	}
	global, haveGlobal := prior(all)
	priors := make(map[string]changerate.Prior, len(byHost))
	for h, cs := range byHost {
		if p, ok := prior(cs); ok {
			priors[h] = p
		}
	}
	out := make([]float64, len(hosts))
	for i, h := range hosts {
		p, ok := priors[h]
		if !ok {
			p, ok = global, haveGlobal
		}
		n := int(obs[i])
		if n == 0 {
			out[i] = defaultRate
			if ok {
				if r, err := p.GroupRate(); err == nil {
					out[i] = r
				}
			}
			continue
		}
		iv := float64(gaps[i]) / float64(n)
		lam, err := p.Rate(int(x[i]), n, iv)
		if err != nil {
			out[i] = defaultRate
			continue
		}
		if u, err := changerate.Unseen(n, iv); err == nil {
			lam = max(lam, u)
		}
		out[i] = lam
	}
	return out
}

// allocate returns each known page's refresh frequency (refetches per
// cycle, at most 1) under policy, for a budget of refetches per cycle.
func allocate(policy string, known []uint64, pr, rate []float64, budget float64) ([]float64, error) {
	if len(known) == 0 {
		return nil, nil
	}
	budget = min(budget, float64(len(known)))
	w := make([]float64, len(known))
	for i, id := range known {
		if id < uint64(len(pr)) {
			w[i] = pr[id]
		}
	}
	var f []float64
	var err error
	switch policy {
	case RefreshUniform:
		f, err = changerate.Uniform(len(known), budget, 1)
	case RefreshImportance:
		f, err = changerate.ByScore(w, budget, 1)
	case RefreshOptimal:
		pages := make([]changerate.Page, len(known))
		for i := range known {
			pages[i] = changerate.Page{Weight: w[i], Rate: rate[i]}
		}
		f, err = changerate.Optimal(pages, budget, 1)
	default:
		return nil, fmt.Errorf("%w: refresh policy %q (known: %v)", ErrOptions, policy, RefreshPolicies())
	}
	if err != nil {
		return nil, fmt.Errorf("recrawl: allocate %g refetches over %d pages (%s): %w", budget, len(known), policy, err)
	}
	return f, nil
}

// refreshPlan orders the known pages for cycle n under an allocation: a
// page given f refetches per cycle and last fetched in cycle c owes
// f·(n − c) refetches, and the pages owing most come first (ties by
// PageRank, then id). With the refresh share capped at the budget the
// allocation was made for, the crawl refetches the head of this list and
// traverses the rest from storage, so over the cycles each page is
// refetched about f times per cycle: the fixed-order schedule Cho and
// Garcia-Molina's freshness formula assumes. last[i] is the cycle of
// known[i]'s last fetch.
func refreshPlan(known []uint64, last []uint32, n uint32, f, pr []float64) []uint64 {
	owe := make([]float64, len(known))
	for i := range known {
		owe[i] = f[i] * float64(n-min(n, last[i]))
	}
	idx := make([]int, len(known))
	for i := range idx {
		idx[i] = i
	}
	rank := func(id uint64) float64 {
		if id < uint64(len(pr)) {
			return pr[id]
		}
		return 0
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(owe[b], owe[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(rank(known[b]), rank(known[a])); c != 0 {
			return c
		}
		return cmp.Compare(known[a], known[b])
	})
	out := make([]uint64, len(known))
	for i, j := range idx {
		out[i] = known[j]
	}
	return out
}
