package main

import (
	"fmt"
	"io"

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
	k := 0
	for _, e := range log {
		if e.Target == "/robots.txt" {
			continue
		}
		if id, ok := t.ID(e.URL()); ok {
			if _, seen := pos[id]; !seen {
				pos[id] = k
			}
		}
		k++
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
		if seedIDs[p.ID] {
			if at, asked := pos[id]; asked {
				d.SeedsAsked++
				if at < early {
					d.SeedsAsked10++
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
	fmt.Fprintf(w, "%-34s %5s %6s %7s %8s %8s %8s %8s %8s %8s\n", "scheduler / seeds / refresh", "cycle", "seeds", "asked", "asked10", "known10",
		"found10", "fetch10", "newpages", "seednew")
	for i := range curves {
		c := &curves[i]
		if c.Cycle < 2 {
			continue
		}
		fmt.Fprintf(w, "%-34s %5d %6d %7d %8d %8d %8d %8.0f %8d %8d\n", recrawlKey(c), c.Cycle, c.Diag.Seeds, c.Diag.SeedsAsked,
			c.Diag.SeedsAsked10, c.Diag.Known10, c.Diag.Found10, c.New[1]*float64(c.NewPages), c.NewPages, c.Diag.SeedNew)
	}
}
