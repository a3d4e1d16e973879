package main

import (
	"fmt"
	"io"
	"strconv"

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
	// page requested in the first 10% (discovered, fetched or not).
	Found10 int
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
}

// diagnoseRecrawlCycle reads cycle n's record from the db it left and
// matches it against the server's log of the cycle (arrival order) and
// the truth of the epoch it crawled.
func diagnoseRecrawlCycle(log []testweb.Entry, t *testweb.Truth, path string, n uint32, budget int64) (recrawlDiag, error) {
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
	d.new10 = map[uint32]bool{}
	for v, at := range pos {
		if at < early && isNew[v] {
			d.new10[v] = true
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
	for _, r := range recs {
		if !isNew[r.id] || r.first != n || r.from == storage.NoPage {
			continue
		}
		if src, ok := truthOf[r.from]; ok {
			if at, asked := pos[src]; asked && at < early {
				d.Found10++
			}
		}
	}
	return d, nil
}

// writeRecrawlDiag prints the diagnostics of cycles 2.., per cycle.
func writeRecrawlDiag(w io.Writer, curves []recrawlCurve, budget int64) {
	fmt.Fprintf(w, "why (first 10%% = %d fetches): seeds requested, refetches of known pages, new pages discovered vs fetched\n", budget/10)
	fmt.Fprintf(w, "%-34s %5s %6s %7s %8s %8s %8s %8s %8s %8s %6s %6s %6s %7s %6s %6s %6s %6s %7s\n", "scheduler / seeds / refresh", "cycle", "seeds", "asked", "asked10", "known10",
		"found10", "fetch10", "newpages", "seednew", "sn10", "snask", "snfnd", "seed200", "s304", "ref10", "old10", "oth10", "snGiv10")
	for i := range curves {
		c := &curves[i]
		if c.Cycle < 2 {
			continue
		}
		// snGiv10: the seeds' new out-links that the cycle started from
		// the given seeds fetched in its first 10% anyway.
		snGiv := "-"
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
			}
		}
		fmt.Fprintf(w, "%-34s %5d %6d %7d %8d %8d %8d %8.0f %8d %8d %6d %6d %6d %7d %6d %6d %6d %6d %7s\n", recrawlKey(c), c.Cycle, c.Diag.Seeds, c.Diag.SeedsAsked,
			c.Diag.SeedsAsked10, c.Diag.Known10, c.Diag.Found10, c.New[1]*float64(c.NewPages), c.NewPages, c.Diag.SeedNew,
			c.Diag.SeedNew10, c.Diag.SeedNewAsked, c.Diag.SeedNewFound, c.Diag.SeedsChanged, c.Diag.SeedsNotModified,
			c.Diag.Refetch10, c.Diag.Old10, c.Diag.Other10, snGiv)
	}
}
