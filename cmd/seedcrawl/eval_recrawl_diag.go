package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/seedcrawl/seedcrawl/urlnorm"

	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// recrawlDiag says why a cycle finds the new pages it finds early: what
// its seeds were, whether they were requested at all (a known seed can be
// traversed from storage, which hands on only the links of its stored
// copy), how much of the first 10% of the budget went to pages known
// before the cycle, and how many of the epoch's new pages the crawl had
// discovered (a link to them read on a page requested in that window) as
// against fetched.
type recrawlDiag struct {
	// Seeds is the number of seeds of the cycle; SeedsAsked how many of
	// them were requested in the cycle, SeedsAsked10 in its first 10%.
	Seeds, SeedsAsked, SeedsAsked10 int
	// Known10 is the number of requests in the first 10% for pages the
	// db had fetched before the cycle (refetches).
	Known10 int
	// Found10 is the number of the epoch's new pages first found on a
	// page requested in the first 10% (discovered, fetched or not);
	// FoundSeed10, FoundRefetch10 and FoundFirst10 split it by that page:
	// a seed of the cycle, another page fetched in an earlier cycle
	// (refetched), or a page fetched for the first time (traversal).
	Found10, FoundSeed10, FoundRefetch10, FoundFirst10 int
	// SeedNew is the number of the epoch's new pages the cycle's seeds
	// link to in the truth: what refetching the seeds can reveal.
	SeedNew int
	// The first 10% split by what each request was: Refetch10 pages
	// fetched in an earlier cycle, Old10 first fetches of URLs an earlier
	// cycle found and left unfetched (not new in the epoch), Other10 the
	// rest (first fetches of pages new in the epoch, or older pages the
	// crawl first found in this cycle).
	Refetch10, Old10, Other10 int
	// SeedNew10 is the number of SeedNew requested in the first 10%,
	// SeedNewAsked of them in the whole cycle, SeedNewFound of them the
	// cycle found on a seed (their first-found-on page is a seed).
	SeedNew10, SeedNewAsked, SeedNewFound int
	// SeedsChanged counts the seeds whose request in the cycle got a 200
	// (a fresh copy, its links read), SeedsNotModified a 304.
	SeedsChanged, SeedsNotModified int
	// seedNew lists SeedNew's pages (truth ids) and new10 the epoch's new
	// pages fetched in the first 10%: writeRecrawlDiag compares a
	// selector's seeds against what the given seeds' cycle fetched early.
	seedNew []uint32
	new10   map[uint32]bool
	// seeds lists the seeds (truth ids) and asked10 the pages requested
	// in the first 10%: writeRecrawlDiag counts a selector's seeds the
	// given seeds' cycle requested early anyway.
	seeds   []uint32
	asked10 map[uint32]bool
	// Oracle[i] is the number of the epoch's new pages the cycle would
	// have discovered in its first 10% had it also refetched, first, the
	// oracleKs[i] pages known before the cycle that link to the most of
	// them (Found10's pages plus their new out-links), OracleBest[i] the
	// same for the oracleKs[i] pages that add the most to Found10's (greedy
	// maximum coverage). Seeds are refetched first in a paced cycle, so
	// this is what a perfect seed selector could add; it leaves out the
	// fetches the seeds take from the rest, so it is an upper bound.
	Oracle, OracleBest []int
	// OracleExp[i] is the same for the oracleKs[i] pages known before the
	// cycle and not requested in its first 10% that the web model expects
	// the most new pages to attach to: in-degree + 1 in the previous
	// epoch's truth, over its host's total, times the host's pages. It
	// knows the model and the true graph but not the epoch's draws: the
	// most a selector that predicts well could add.
	OracleExp []int
}

// oracleKs are the seed counts the oracle bound is computed for; 0 stands
// for the cycle's own number of seeds.
var oracleKs = []int{0, 10, 40}

// diagnoseRecrawlCycle reads cycle n's record from the db it left and
// matches it against the server's log of the cycle (arrival order) and
// the truth of the epoch it crawled.
func diagnoseRecrawlCycle(log []testweb.Entry, t, prev *testweb.Truth, path string, n uint32, budget int64) (recrawlDiag, error) {
	var d recrawlDiag
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if err != nil {
		return d, fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	// pos is the position of a page's first request of the cycle, by the
	// truth's node id (the log's URLs and the db's are both the web's).
	pos := map[uint32]int{}
	status := map[uint32]int{}
	k := 0
	for _, e := range log {
		if e.Target == "/robots.txt" {
			continue
		}
		if id, ok := t.ID(e.URL()); ok {
			if _, seen := pos[id]; !seen {
				pos[id] = k
				status[id] = e.Status
			}
		}
		k++
	}
	// before holds the pages fetched in an earlier cycle.
	before := map[uint64]bool{}
	for c := uint32(1); c < n; c++ {
		err := db.EachFetch(c, func(r storage.FetchRecord) error {
			before[r.ID] = true
			return nil
		})
		if err != nil {
			return d, fmt.Errorf("fetches of cycle %d in %s: %w", c, path, err)
		}
	}
	early := int(0.10 * float64(budget))
	isNew := map[uint32]bool{}
	for _, v := range t.New() {
		isNew[v] = true
	}
	cycles, err := db.Cycles()
	if err != nil {
		return d, fmt.Errorf("cycles of %s: %w", path, err)
	}
	seedIDs := map[uint64]bool{}
	for _, c := range cycles {
		if c.N == n {
			for _, s := range c.Seeds {
				seedIDs[s.ID] = true
			}
		}
	}
	d.Seeds = len(seedIDs)
	// truthOf maps db ids to the truth's node ids; from is each page's
	// first-found-on page.
	truthOf := map[uint64]uint32{}
	dbOf := map[uint32]uint64{}
	type rec struct {
		id    uint32
		from  uint64
		first uint32
	}
	var recs []rec
	err = db.EachPage(func(p *storage.Page) error {
		id, ok := t.ID(p.URL)
		if !ok {
			return nil
		}
		truthOf[p.ID] = id
		dbOf[id] = p.ID
		recs = append(recs, rec{id, p.From, p.FirstCycle})
		if at, asked := pos[id]; asked && p.FirstCycle < n && p.Fetches > 0 && at < early {
			d.Known10++
		}
		if at, asked := pos[id]; asked && at < early {
			switch {
			case before[p.ID]:
				d.Refetch10++
			case p.FirstCycle < n && !isNew[id]:
				d.Old10++
			default:
				d.Other10++
			}
		}
		if seedIDs[p.ID] {
			if at, asked := pos[id]; asked {
				d.SeedsAsked++
				if at < early {
					d.SeedsAsked10++
				}
				switch status[id] {
				case 200:
					d.SeedsChanged++
				case 304:
					d.SeedsNotModified++
				}
			}
		}
		return nil
	})
	if err != nil {
		return d, fmt.Errorf("read pages of %s: %w", path, err)
	}
	seedNew := map[uint32]bool{}
	for sid := range seedIDs {
		if v, ok := truthOf[sid]; ok {
			for _, w := range t.Graph.Out(v) {
				if isNew[w] {
					seedNew[w] = true
				}
			}
		}
	}
	d.SeedNew = len(seedNew)
	d.new10, d.asked10 = map[uint32]bool{}, map[uint32]bool{}
	for v, at := range pos {
		if at < early && isNew[v] {
			d.new10[v] = true
		}
		if at < early {
			d.asked10[v] = true
		}
	}
	for sid := range seedIDs {
		if v, ok := truthOf[sid]; ok {
			d.seeds = append(d.seeds, v)
		}
	}
	for w := range seedNew {
		d.seedNew = append(d.seedNew, w)
		if at, asked := pos[w]; asked {
			d.SeedNewAsked++
			if at < early {
				d.SeedNew10++
			}
		}
	}
	for _, r := range recs {
		if seedNew[r.id] && r.first == n && seedIDs[r.from] {
			d.SeedNewFound++
		}
	}
	found := map[uint32]bool{}
	for _, r := range recs {
		if !isNew[r.id] || r.first != n || r.from == storage.NoPage {
			continue
		}
		if src, ok := truthOf[r.from]; ok {
			if at, asked := pos[src]; asked && at < early {
				d.Found10++
				found[r.id] = true
				switch {
				case seedIDs[r.from]:
					d.FoundSeed10++
				case before[r.from]:
					d.FoundRefetch10++
				default:
					d.FoundFirst10++
				}
			}
		}
	}
	// The oracle's candidates: pages fetched before the cycle that link to
	// a new page of the epoch in the truth.
	var cands [][]uint32
	var expCands []expCand
	for _, r := range recs {
		if dbID, ok := dbOf[r.id]; !ok || !before[dbID] {
			continue
		}
		if at, asked := pos[r.id]; prev != nil && (!asked || at >= early) {
			expCands = append(expCands, expCand{r.id, 0})
		}
		if outs := newOuts(t, r.id, isNew); len(outs) > 0 {
			cands = append(cands, outs)
		}
	}
	expOrder := expectedAttach(prev, expCands, t, isNew)
	for _, k := range oracleKs {
		if k == 0 {
			k = d.Seeds
		}
		d.Oracle = append(d.Oracle, oracleFound(found, cands, k, false, false))
		d.OracleBest = append(d.OracleBest, oracleFound(found, cands, k, true, false))
		d.OracleExp = append(d.OracleExp, oracleFound(found, expOrder, k, false, true))
	}
	return d, nil
}

// expCand is a page and the number of new pages the web model expects to
// attach to it.
type expCand struct {
	id  uint32
	exp float64
}

// expectedAttach ranks cands by the new pages the web model expects to
// attach to them (EvolveWeb: a host gets new pages in proportion to its
// pages, and a new page's parent is one of the host's pages drawn in
// proportion to in-degree + 1, as prev, the previous epoch, left them)
// and returns their new out-links in t (isNew), in that order.
func expectedAttach(prev *testweb.Truth, cands []expCand, t *testweb.Truth, isNew map[uint32]bool) [][]uint32 {
	if prev == nil {
		return nil
	}
	g := prev.Graph
	live := func(v uint32) bool { return prev.Nodes[v].Kind == testweb.KindPage && prev.Nodes[v].Status == 200 }
	indeg := make([]float64, g.N())
	weight, pages := map[string]float64{}, map[string]float64{}
	for v := range uint32(g.N()) {
		if !live(v) {
			continue
		}
		for _, w := range g.Out(v) {
			indeg[w]++
		}
	}
	host := func(v uint32) string { return urlnorm.Authority(g.URLs[v]) }
	for v := range uint32(g.N()) {
		if live(v) {
			weight[host(v)] += indeg[v] + 1
			pages[host(v)]++
		}
	}
	for i := range cands {
		v := cands[i].id
		if int(v) < g.N() && live(v) {
			cands[i].exp = (indeg[v] + 1) / weight[host(v)] * pages[host(v)]
		}
	}
	slices.SortStableFunc(cands, func(a, b expCand) int { return cmp.Compare(b.exp, a.exp) })
	out := make([][]uint32, 0, len(cands))
	for _, c := range cands {
		out = append(out, newOuts(t, c.id, isNew))
	}
	return out
}

// newOuts returns v's out-links in t to the epoch's new pages (isNew).
func newOuts(t *testweb.Truth, v uint32, isNew map[uint32]bool) []uint32 {
	var outs []uint32
	for _, w := range t.Graph.Out(v) {
		if isNew[w] {
			outs = append(outs, w)
		}
	}
	return outs
}

// oracleFound returns the size of found united with the new out-links
// (cands, one list per page) of k pages: those with the most new
// out-links, or with marginal (greedy maximum coverage of what found
// lacks).
func oracleFound(found map[uint32]bool, cands [][]uint32, k int, marginal, ordered bool) int {
	have := maps.Clone(found)
	if have == nil {
		have = map[uint32]bool{}
	}
	order := slices.Clone(cands)
	if !ordered {
		slices.SortStableFunc(order, func(a, b []uint32) int { return cmp.Compare(len(b), len(a)) })
	}
	used := make([]bool, len(order))
	for range k {
		best, bestGain := -1, 0
		for i, outs := range order {
			if used[i] {
				continue
			}
			if !marginal {
				best = i
				break
			}
			if len(outs) <= bestGain {
				break // sorted by size: no later page can add more
			}
			g := 0
			for _, w := range outs {
				if !have[w] {
					g++
				}
			}
			if g > bestGain {
				best, bestGain = i, g
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		for _, w := range order[best] {
			have[w] = true
		}
	}
	return len(have)
}

// writeRecrawlOracle prints, per configuration, the oracle bound of
// recrawlDiag over cycles 2..: new pages discovered in the first 10% with
// the oracle's seeds added, as a gain over what the configuration
// discovered, and over what the one with the given seeds (same scheduler
// and refresh policy) discovered.
func writeRecrawlOracle(w io.Writer, curves []recrawlCurve) {
	keys, m := recrawlMeans(curves)
	fmt.Fprintln(w, "new pages discovered in the first 10% (cycles 2.. summed), on a seed, a refetched page or a page fetched for the first time; oracle bound: those discovered had the cycle also refetched first the K known pages linking to the most new pages (top), adding the most (best), or not requested early and expected by the web model to gain the most (exp); gain vs this row, vs given")
	fmt.Fprintf(w, "%-34s %8s %6s %6s %6s", "scheduler / seeds / refresh", "found10", "seed", "refet", "first")
	for _, k := range oracleKs {
		name := "K=seeds"
		if k > 0 {
			name = fmt.Sprintf("K=%d", k)
		}
		fmt.Fprintf(w, " %17s %17s %17s", "top "+name, "best "+name, "exp "+name)
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		d := &m[k].Diag
		var ref *recrawlDiag
		if g := m[m[k].Scheduler+" / "+recrawl.AlgoGiven+" / "+m[k].Refresh]; g != nil {
			ref = &g.Diag
		}
		gain := func(x int) string {
			out := fmt.Sprintf("%+.1f%%", 100*(float64(x)/float64(max(d.Found10, 1))-1))
			if ref != nil {
				out += fmt.Sprintf(",%+.1f%%", 100*(float64(x)/float64(max(ref.Found10, 1))-1))
			}
			return out
		}
		fmt.Fprintf(w, "%-34s %8d %6d %6d %6d", k, d.Found10, d.FoundSeed10, d.FoundRefetch10, d.FoundFirst10)
		for j := range oracleKs {
			fmt.Fprintf(w, " %17s %17s %17s", gain(d.Oracle[j]), gain(d.OracleBest[j]), gain(d.OracleExp[j]))
		}
		fmt.Fprintln(w)
	}
}

// add sums the counts of the oracle bound of e into d.
func (d *recrawlDiag) add(e *recrawlDiag) {
	d.Found10 += e.Found10
	d.FoundSeed10 += e.FoundSeed10
	d.FoundRefetch10 += e.FoundRefetch10
	d.FoundFirst10 += e.FoundFirst10
	sum := func(a, b []int) []int {
		a = append(a, make([]int, max(0, len(b)-len(a)))...)
		for i, x := range b {
			a[i] += x
		}
		return a
	}
	d.Oracle, d.OracleBest, d.OracleExp = sum(d.Oracle, e.Oracle), sum(d.OracleBest, e.OracleBest), sum(d.OracleExp, e.OracleExp)
}

// writeRecrawlDiag prints the diagnostics of cycles 2.., per cycle.
func writeRecrawlDiag(w io.Writer, curves []recrawlCurve, budget int64) {
	fmt.Fprintf(w, "why (first 10%% = %d fetches): seeds requested, refetches of known pages, new pages discovered vs fetched\n", budget/10)
	fmt.Fprintf(w, "%-34s %5s %6s %7s %8s %8s %8s %8s %8s %8s %6s %6s %6s %7s %6s %6s %6s %6s %7s %6s %6s %6s %6s\n", "scheduler / seeds / refresh", "cycle", "seeds", "asked", "asked10", "known10",
		"found10", "fetch10", "newpages", "seednew", "sn10", "snask", "snfnd", "seed200", "s304", "ref10", "old10", "oth10", "snGiv10", "sGiv10", "fSeed", "fRef", "fFirst")
	for i := range curves {
		c := &curves[i]
		if c.Cycle < 2 {
			continue
		}
		// snGiv10: the seeds' new out-links that the cycle started from
		// the given seeds fetched in its first 10% anyway.
		snGiv, sGiv := "-", "-"
		for j := range curves {
			g := &curves[j]
			if g.SeedAlgo == recrawl.AlgoGiven && g.Scheduler == c.Scheduler && g.Refresh == c.Refresh && g.Cycle == c.Cycle {
				n := 0
				for _, v := range c.Diag.seedNew {
					if g.Diag.new10[v] {
						n++
					}
				}
				snGiv = strconv.Itoa(n)
				n = 0
				for _, v := range c.Diag.seeds {
					if g.Diag.asked10[v] {
						n++
					}
				}
				sGiv = strconv.Itoa(n)
			}
		}
		fmt.Fprintf(w, "%-34s %5d %6d %7d %8d %8d %8d %8.0f %8d %8d %6d %6d %6d %7d %6d %6d %6d %6d %7s %6s %6d %6d %6d\n", recrawlKey(c), c.Cycle, c.Diag.Seeds, c.Diag.SeedsAsked,
			c.Diag.SeedsAsked10, c.Diag.Known10, c.Diag.Found10, c.New[1]*float64(c.NewPages), c.NewPages, c.Diag.SeedNew,
			c.Diag.SeedNew10, c.Diag.SeedNewAsked, c.Diag.SeedNewFound, c.Diag.SeedsChanged, c.Diag.SeedsNotModified,
			c.Diag.Refetch10, c.Diag.Old10, c.Diag.Other10, snGiv, sGiv, c.Diag.FoundSeed10, c.Diag.FoundRefetch10, c.Diag.FoundFirst10)
	}
}
