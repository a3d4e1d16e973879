package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
)

// runStats implements `seedcrawl stats`.
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stats", stderr)
	db := fs.String("db", "seedcrawl.db", "crawl database `FILE`")
	jsonOut := fs.Bool("json", false, "print JSON")
	cycles := fs.Bool("cycles", false, "print a per-cycle table (seedcrawl run)")
	if err := parseFlagsOnly(fs, args, "usage: seedcrawl stats [--db FILE] [--json] [--cycles]\n\nPrints what a crawl db holds: pages by status, hosts, links, frontier size,\nrejections and errors by reason, runs.\n"); err != nil {
		return err
	}
	st, urls, err := statsRead(*db)
	if errors.Is(err, storage.ErrLocked) {
		// A running crawl holds the db: ask it, if it serves its status.
		if live, lerr := statsLive(ctx, *db, stdout, *jsonOut); live {
			return lerr
		}
	}
	if err != nil {
		return err
	}
	if *jsonOut {
		return writeJSON(stdout, statsJSON(st, urls))
	}
	statsWrite(stdout, st, *cycles, urls)
	return nil
}

// statsRead opens db read-only and reads its summary, and the URLs of the
// pages the cycle records name.
func statsRead(path string) (storage.Stats, func(uint64) string, error) {
	db, err := openDBReadOnly(path)
	if errors.Is(err, storage.ErrLocked) {
		return storage.Stats{}, nil, fmt.Errorf("%w (a crawl started with --listen lets stats read its live status)", err)
	}
	if err != nil {
		return storage.Stats{}, nil, err
	}
	defer db.Close()
	st, err := db.Stats()
	if err != nil {
		return st, nil, err
	}
	byID := map[uint64]string{}
	note := func(id uint64) {
		if _, ok := byID[id]; !ok && id != storage.NoPage {
			if p, err := db.Page(id); err == nil {
				byID[id] = p.URL
			}
		}
	}
	for _, c := range st.Cycles {
		for _, s := range c.Seeds {
			note(s.ID)
		}
		for _, r := range c.Replaced {
			note(r.Old)
			note(r.New)
		}
	}
	return st, func(id uint64) string { return byID[id] }, nil
}

// statsJSONOut is the JSON form of storage.Stats, with names instead of codes.
type statsJSONOut struct {
	DB          string            `json:"db"`
	Size        int64             `json:"size_bytes"`
	Schema      int               `json:"schema"`
	Cycle       uint32            `json:"cycle"`
	Pages       uint64            `json:"pages"`
	Fetched     uint64            `json:"fetched"`
	Novel       uint64            `json:"novel"`
	ByStatus    map[string]uint64 `json:"by_status"`
	Reasons     map[string]uint64 `json:"reasons"`
	Hosts       uint64            `json:"hosts"`
	Links       uint64            `json:"links"`
	LinkSources uint64            `json:"link_sources"`
	Frontier    uint64            `json:"frontier"`
	Rejected    map[string]uint64 `json:"rejected"`
	Skipped     map[string]uint64 `json:"skipped"`
	Errors      map[string]uint64 `json:"errors"`
	Retries     map[string]uint64 `json:"retries"`
	Counters    map[string]uint64 `json:"counters"`
	Runs        []statsRunOut     `json:"runs"`
	Cycles      []statsCycleOut   `json:"cycles"`
}

type statsRunOut struct {
	ID          uint64            `json:"id"`
	Start       time.Time         `json:"start"`
	End         *time.Time        `json:"end"` // null: interrupted or running
	Command     string            `json:"command"`
	Counters    map[string]uint64 `json:"counters"`
	Interrupted bool              `json:"interrupted"`
}

type statsCycleOut struct {
	N        uint32         `json:"n"`
	Start    *time.Time     `json:"start"` // null: not recorded (a db made by crawl)
	End      *time.Time     `json:"end"`   // null: the cycle is not complete
	Stats    cycleStatsJSON `json:"stats"`
	SeedAlgo string         `json:"seed_algo,omitempty"`
	Seeds    []cycleSeedOut `json:"seeds,omitempty"`
	Replaced []cycleReplOut `json:"replaced,omitempty"` // every vanished seed, replaced or not
	cycleVanishedOut
}

// cycleSeedOut and cycleReplOut are the JSON forms of a cycle's seeds and
// vanished seeds (stats --json, run --json).
type cycleSeedOut struct {
	ID    uint64  `json:"id"`
	URL   string  `json:"url,omitempty"`
	Score float64 `json:"score"`
	Why   string  `json:"why"`
}

type cycleReplOut struct {
	Old    uint64 `json:"old"`
	New    *int64 `json:"new"` // null: no replacement found
	Reason string `json:"reason"`
}

// cycleVanishedOut counts a cycle's vanished seeds (the entries of its
// replaced list) and those of them given a replacement (run --json,
// stats --json; the text forms say "N vanished, M replaced").
type cycleVanishedOut struct {
	SeedsVanished int `json:"seeds_vanished"`
	SeedsReplaced int `json:"seeds_replaced"`
}

// cycleVanished counts c's vanished seeds: c.Replaced lists every one,
// with New == storage.NoPage where no replacement was found.
func cycleVanished(c storage.Cycle) cycleVanishedOut {
	v := cycleVanishedOut{SeedsVanished: len(c.Replaced)}
	for _, r := range c.Replaced {
		if r.New != storage.NoPage {
			v.SeedsReplaced++
		}
	}
	return v
}

// cycleSeedsOut converts a cycle's seeds and replacements; url names a page
// id's URL ("" when unknown).
func cycleSeedsOut(c storage.Cycle, url func(uint64) string) ([]cycleSeedOut, []cycleReplOut) {
	var ss []cycleSeedOut
	for _, s := range c.Seeds {
		ss = append(ss, cycleSeedOut{ID: s.ID, URL: url(s.ID), Score: s.Score, Why: s.Why})
	}
	var rs []cycleReplOut
	for _, r := range c.Replaced {
		o := cycleReplOut{Old: r.Old, Reason: r.Reason}
		if r.New != storage.NoPage {
			n := int64(r.New)
			o.New = &n
		}
		rs = append(rs, o)
	}
	return ss, rs
}

func statsJSON(st storage.Stats, url func(uint64) string) statsJSONOut {
	o := statsJSONOut{
		DB: st.Path, Size: st.Size, Schema: st.Schema, Cycle: st.Cycle, Pages: st.Pages, Fetched: st.Fetched,
		Novel: st.Novel, ByStatus: map[string]uint64{}, Reasons: st.Reasons, Hosts: st.Hosts, Links: st.Links,
		LinkSources: st.LinkSources, Frontier: st.Frontier, Counters: st.Counters,
	}
	for s, n := range st.ByStatus {
		o.ByStatus[s.String()] = n
	}
	g := statsGroupCounters(st.Counters)
	o.Rejected, o.Skipped, o.Errors, o.Retries = g["reject"], g["skip"], g["error"], g["retry"]
	for _, r := range st.Runs {
		// A run without an end was killed (or is running); one with an
		// end may still have been stopped by a signal or --max-duration.
		ro := statsRunOut{ID: r.ID, Start: r.Start, Command: r.Command, Counters: r.Counters,
			Interrupted: r.End.IsZero() || r.Counters["stop/"+monitor.StopInterrupted] > 0}
		if !r.End.IsZero() {
			e := r.End
			ro.End = &e
		}
		o.Runs = append(o.Runs, ro)
	}
	for _, c := range st.Cycles {
		ss, rs := cycleSeedsOut(c, url)
		o.Cycles = append(o.Cycles, statsCycleOut{N: c.N, Start: timeOrNil(c.Start), End: timeOrNil(c.End),
			Stats: cycleStatsOut(c.Stats), SeedAlgo: c.SeedAlgo, Seeds: ss, Replaced: rs, cycleVanishedOut: cycleVanished(c)})
	}
	return o
}

// statsGroupCounters splits "group/name" counters by group.
func statsGroupCounters(c map[string]uint64) map[string]map[string]uint64 {
	out := map[string]map[string]uint64{"reject": {}, "skip": {}, "error": {}, "retry": {}}
	for k, v := range c {
		if g, name, ok := strings.Cut(k, "/"); ok {
			if out[g] == nil {
				out[g] = map[string]uint64{}
			}
			out[g][name] += v
		}
	}
	return out
}

func statsWrite(w io.Writer, st storage.Stats, cycles bool, url func(uint64) string) {
	fmt.Fprintf(w, "db %s: %s, schema %d, cycle %d\n", st.Path, monitor.ByteCount(uint64(st.Size)), st.Schema, st.Cycle)
	fmt.Fprintf(w, "pages     %d URLs known (%d fetched, %d with new content)\n", st.Pages, st.Fetched, st.Novel)
	statuses := storage.Statuses()
	for _, s := range statuses {
		if n := st.ByStatus[s]; n > 0 {
			fmt.Fprintf(w, "  %-14s %d\n", s, n)
		}
	}
	fmt.Fprintf(w, "hosts     %d\nlinks     %d (from %d pages)\nfrontier  %d pending\n", st.Hosts, st.Links, st.LinkSources, st.Frontier)
	if len(st.Reasons) > 0 {
		fmt.Fprintf(w, "pages by status/reason:\n")
		statsWriteCounts(w, st.Reasons)
	}
	g := statsGroupCounters(st.Counters)
	for _, sec := range []struct{ title, group string }{
		{"links rejected (trap guards, bad URLs):", "reject"},
		{"URLs not fetched or not queued:", "skip"},
		{"errors:", "error"},
		{"retries:", "retry"},
	} {
		if len(g[sec.group]) > 0 {
			fmt.Fprintln(w, sec.title)
			statsWriteCounts(w, g[sec.group])
		}
	}
	if len(st.Runs) > 0 {
		fmt.Fprintln(w, "runs:")
		for _, r := range st.Runs {
			end := "interrupted (or running)"
			if !r.End.IsZero() {
				end = fmt.Sprintf("ended after %s", r.End.Sub(r.Start).Round(time.Millisecond))
			}
			fmt.Fprintf(w, "  #%d %s  %s  fetches %d (requests), pages %d (URLs done)  %s\n", r.ID, r.Start.Format(time.RFC3339), end,
				r.Counters["fetches"], r.Counters["pages"], r.Command)
		}
	}
	if cycles && len(st.Cycles) > 0 {
		statsWriteCycles(w, st.Cycles, url)
	}
}

// statsWriteCycles prints the per-cycle table (seedcrawl run) and, below it,
// each recorded cycle's seeds and vanished seeds.
func statsWriteCycles(w io.Writer, cs []storage.Cycle, url func(uint64) string) {
	fmt.Fprintln(w, "cycles: (fetches: URLs requested, retries not counted; found: URLs first seen; "+
		"errors: failed fetches of pages, not of sitemaps (the crawl summary counts those under sitemaps); "+
		"vanished: seeds that vanished, replaced: those of them given a replacement)")
	fmt.Fprintf(w, "  %5s %8s %8s %8s %9s %8s %8s %10s %6s %8s %8s %10s %9s  %s\n", "cycle", "fetches", "new", "changed",
		"unchanged", "gone", "errors", "found", "seeds", "vanished", "replaced", "bytes", "seconds", "seed-algo")
	for _, c := range cs {
		s := c.Stats
		secs := "-"
		switch {
		case !c.Start.IsZero() && !c.End.IsZero():
			secs = fmt.Sprintf("%.1f", c.End.Sub(c.Start).Seconds())
		case !c.Start.IsZero():
			secs = "unfinished" // running, or stopped before its end: rerun resumes it
		}
		algo := c.SeedAlgo
		if algo == "" {
			algo = "(seedcrawl crawl)"
		}
		v := cycleVanished(c)
		fmt.Fprintf(w, "  %5d %8d %8d %8d %9d %8d %8d %10d %6d %8d %8d %10s %9s  %s\n", c.N, s.Fetches, s.New, s.Changed, s.Unchanged,
			s.Gone, s.Errors, s.Found, len(c.Seeds), v.SeedsVanished, v.SeedsReplaced, monitor.ByteCount(s.Bytes), secs, algo)
	}
	for _, c := range cs {
		if len(c.Seeds) == 0 && len(c.Replaced) == 0 {
			continue
		}
		fmt.Fprintf(w, "cycle %d seeds:\n", c.N)
		for _, sd := range c.Seeds {
			fmt.Fprintf(w, "  %-8d %s\n           %s\n", sd.ID, url(sd.ID), sd.Why)
		}
		for _, r := range c.Replaced {
			to := "no replacement found"
			if r.New != storage.NoPage {
				to = fmt.Sprintf("replaced by %d %s", r.New, url(r.New))
			}
			fmt.Fprintf(w, "  vanished %d %s (%s): %s\n", r.Old, url(r.Old), r.Reason, to)
		}
	}
}

func statsWriteCounts(w io.Writer, m map[string]uint64) {
	for _, k := range byCount(m) {
		fmt.Fprintf(w, "  %-32s %d\n", k, m[k])
	}
}

// cycleStatsJSON is storage.CycleStats with snake_case keys and null for
// times not recorded.
type cycleStatsJSON struct {
	Fetches   uint64     `json:"fetches"`
	New       uint64     `json:"new"`
	Changed   uint64     `json:"changed"`
	Unchanged uint64     `json:"unchanged"`
	Gone      uint64     `json:"gone"`
	Errors    uint64     `json:"errors"`
	Retries   uint64     `json:"retries"` // requests tried again: with fetches, what a budget counted
	Bytes     uint64     `json:"bytes"`
	Found     uint64     `json:"found"`
	NextID    uint64     `json:"next_id"`
	First     *time.Time `json:"first_fetch"`
	Last      *time.Time `json:"last_fetch"`
}

func cycleStatsOut(s storage.CycleStats) cycleStatsJSON {
	return cycleStatsJSON{Fetches: s.Fetches, New: s.New, Changed: s.Changed, Unchanged: s.Unchanged,
		Gone: s.Gone, Errors: s.Errors, Retries: s.Retries, Bytes: s.Bytes, Found: s.Found, NextID: s.NextID,
		First: timeOrNil(s.First), Last: timeOrNil(s.Last)}
}

// timeOrNil is nil for the zero time, so JSON says null rather than
// "0001-01-01T00:00:00Z".
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
