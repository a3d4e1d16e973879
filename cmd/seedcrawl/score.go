package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/compare"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
)

// runScore implements `seedcrawl score`: the real fetch order of an
// ordinary crawl (or of one cycle of run), scored the way compare scores
// its schedulers, on the graph the crawl itself revealed.
func runScore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", stderr)
	dbPath := fs.String("db", "", "crawl database `FILE` (of crawl or run)")
	cycle := fs.Uint("cycle", 1, "score the fetches of cycle `N` (a plain crawl is cycle 1)")
	damping := fs.Float64("damping", scheduler.DefaultDamping, "damping `d` for PageRank")
	outs := compareOutputFlags(fs)
	if err := parseFlagsOnly(fs, args, `usage: seedcrawl score --db FILE [--cycle N] [--out results.csv] [--plot FILE] [--json]

Scores the order in which a crawl really fetched its pages (politeness
interleaves it) the way compare scores schedulers: cumulative PageRank on the
crawl's own graph (fetched pages with their links; a linked but unfetched URL
links like the average fetched page of its host, see --score-unfetched), at 1, 2, 5, 10, 20, 50 and 100% of the
pages fetched, beside U(k) and an omniscient reference on that graph from
the same seeds (at each k the better of a crawl that downloads the seeds
first and one that does not). The row is named after the scheduler of the runs that made the
cycle's fetches. The gap closure's baseline is a breadth-first crawl of the
same graph from the same seeds, simulated as the omniscient crawl is (the
db holds one crawl, not a BFS crawl of the same web). The fetch order is the order of the fetches' start times. A
cycle of run after the first also walks through pages of earlier cycles
from storage without refetching them: they are in the graph with their
stored links, and the omniscient crawl passes through them free, as the
cycle did, so it scores at least what the cycle's real order scores.
`); err != nil {
		return err
	}
	if *dbPath == "" {
		return fmt.Errorf("%w: --db FILE is required", errUsage)
	}
	if err := checkDamping(*damping); err != nil {
		return err
	}
	if err := outs.check(); err != nil {
		return err
	}
	db, err := openDBReadOnly(*dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	sr, err := scoreRead(ctx, db, uint32(*cycle))
	if err != nil {
		return err
	}
	pages, seq, seeds := sr.pages, sr.seq, sr.seeds
	if len(seq.URLs) == 0 {
		return fmt.Errorf("%w: %s has no fetches in cycle %d", errUsage, *dbPath, *cycle)
	}
	rep, err := compare.Score(pages, seeds, []compare.Sequence{seq}, compare.ScoreOptions{Budget: len(seq.URLs), Damping: *damping,
		Crawl: *outs.graph == "crawl", Unfetched: outs.scoreOptions().Unfetched, Walked: sr.walked, BFSReference: true})
	if err != nil {
		return fmt.Errorf("score: %w", err)
	}
	rep.Requests = len(seq.URLs)
	return outs.write(rep, filepath.Base(*dbPath), stdout)
}

// scoreInput is what score reads from a db: the pages with their stored
// links, the fetch order of the cycle, its seeds and its walked pages.
type scoreInput struct {
	pages []compare.Page
	seq   compare.Sequence
	seeds []string
	// walked are the pages fetched in an earlier cycle and not in this
	// one: a recrawl cycle passes through them from storage, following
	// their stored links without a request (compare.ScoreOptions.Walked).
	walked []string
}

// scoreRead returns the fetched pages of cycle with their stored links, the
// fetch order and the crawl's seeds (its depth-0 URLs), and the pages of
// earlier cycles the cycle could walk through, with their stored links.
// The sequence is named after the scheduler of the runs that made the
// cycle's fetches (scoreName).
func scoreRead(ctx context.Context, db *storage.DB, cycle uint32) (scoreInput, error) {
	type fetch struct {
		at time.Time
		id uint64
	}
	var fetches []fetch
	err := db.EachFetch(cycle, func(r storage.FetchRecord) error {
		fetches = append(fetches, fetch{r.FetchedAt, r.ID})
		return nil
	})
	if err != nil {
		return scoreInput{}, err
	}
	inCycle := make(map[uint64]bool, len(fetches))
	for _, f := range fetches {
		inCycle[f.id] = true
	}
	var before []uint64 // fetched in an earlier cycle only, in cycle then fetch order
	seen := map[uint64]bool{}
	for c := uint32(1); c < cycle; c++ {
		err := db.EachFetch(c, func(r storage.FetchRecord) error {
			if !inCycle[r.ID] && !seen[r.ID] {
				seen[r.ID] = true
				before = append(before, r.ID)
			}
			return nil
		})
		if err != nil {
			return scoreInput{}, err
		}
	}
	slices.SortFunc(fetches, func(a, b fetch) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	seq := compare.Sequence{Name: "crawl", Done: true}
	if runs, err := db.Runs(); err == nil {
		at := make([]time.Time, len(fetches))
		for i, f := range fetches {
			at[i] = f.at
		}
		if name := scoreName(runs, at); name != "" {
			seq.Name = name
		}
	}
	in := scoreInput{seq: seq, pages: make([]compare.Page, 0, len(fetches)+len(before))}
	for i, f := range fetches {
		p, err := scorePage(ctx, db, f.id)
		if err != nil {
			return scoreInput{}, err
		}
		in.pages = append(in.pages, p)
		in.seq.URLs = append(in.seq.URLs, in.pages[i].URL)
	}
	for _, id := range before {
		p, err := scorePage(ctx, db, id)
		if err != nil {
			return scoreInput{}, err
		}
		in.pages = append(in.pages, p)
		in.walked = append(in.walked, p.URL)
	}
	if in.seeds, err = scoreSeeds(db, cycle); err != nil {
		return scoreInput{}, err
	}
	return in, nil
}

// scoreName returns the scheduler of the runs that made the fetches at
// the times at (ascending): each fetch belongs to the last run started at
// or before it, since one db is crawled by one seedcrawl at a time (a run
// killed has no end). Several schedulers (a cycle resumed with another
// one) are joined with "+" in the order of their first fetch; "" when no
// run names one.
func scoreName(runs []storage.Run, at []time.Time) string {
	slices.SortFunc(runs, func(a, b storage.Run) int { return a.Start.Compare(b.Start) })
	var names []string
	seen := make([]bool, len(runs)) // run i's scheduler joined (or it names none)
	i := -1                         // the last run started at or before the fetch
	for _, t := range at {
		for i+1 < len(runs) && !runs[i+1].Start.After(t) {
			i++
		}
		if i < 0 || seen[i] {
			continue
		}
		seen[i] = true
		var c struct{ Scheduler string }
		if json.Unmarshal([]byte(runs[i].Config), &c) == nil && c.Scheduler != "" && !slices.Contains(names, c.Scheduler) {
			names = append(names, c.Scheduler)
		}
	}
	return strings.Join(names, "+")
}

// scorePage reads page id as the crawler would deliver it: its status and
// stored links.
func scorePage(ctx context.Context, db *storage.DB, id uint64) (compare.Page, error) {
	if err := ctx.Err(); err != nil {
		return compare.Page{}, err
	}
	p, err := db.Page(id)
	if err != nil {
		return compare.Page{}, fmt.Errorf("read page %d: %w", id, err)
	}
	d := compare.Delivery{URL: p.URL, Status: p.Status, Code: p.Code, Reason: p.Reason}
	if p.Status.Fetched() || p.Status == storage.StatusRedirect {
		links, err := db.Links(id)
		if err != nil {
			return compare.Page{}, fmt.Errorf("read links of page %d: %w", id, err)
		}
		seen := map[uint64]bool{}
		for _, l := range links {
			if (p.Status == storage.StatusRedirect) != (l.Kind == storage.LinkRedirect) || seen[l.To] {
				continue
			}
			seen[l.To] = true
			u, err := db.URL(l.To)
			if err != nil {
				return compare.Page{}, fmt.Errorf("read URL %d: %w", l.To, err)
			}
			d.Links = append(d.Links, u)
		}
	}
	return comparePage(d), nil
}

// scoreSeeds returns the seeds of cycle: those its record names (a cycle
// of seedcrawl run after the first starts from the seeds its selector
// chose), else the crawl's stored seeds.
func scoreSeeds(db *storage.DB, cycle uint32) ([]string, error) {
	cycles, err := db.Cycles()
	if err != nil {
		return nil, fmt.Errorf("read cycles of %s: %w", db.Path(), err)
	}
	for _, c := range cycles {
		if c.N != cycle || len(c.Seeds) == 0 {
			continue
		}
		out := make([]string, 0, len(c.Seeds))
		for _, sd := range c.Seeds {
			u, err := db.URL(sd.ID)
			if err != nil {
				return nil, fmt.Errorf("read seed %d of cycle %d: %w", sd.ID, cycle, err)
			}
			out = append(out, u)
		}
		return out, nil
	}
	return crawlStoredSeeds(db)
}
