package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/sitemap"
	"github.com/seedcrawl/seedcrawl/storage"
)

const runUsage = `usage: seedcrawl run --db FILE (--cycles N | --interval DUR) [--seed-algo ALGO] [--k K]
                     [--pages-per-cycle N] [every crawl flag] [SEED_URL...]

An incremental crawler. Cycle 1 crawls from the given seeds (SEED_URL
arguments, --seeds FILE). Every later cycle reruns seed selection on the graph
stored so far (--seed-algo; "given" keeps the previous cycle's seeds), then
crawls from the new seeds with --scheduler within --pages-per-cycle:
pages fetched before are refetched with conditional GET (If-None-Match,
If-Modified-Since) when their adaptive revisit interval has passed, and
traversed from storage otherwise, so the crawl reaches new pages behind them.
A seed that vanished (404, 410, a redirect, unreachable) is replaced by its
redirect target, else by its nearest fetched surviving neighbour that scores
best under the selector. Each cycle is recorded: seeds and why, replacements,
pages new / changed / unchanged / gone, fetches, bytes, duration (seedcrawl
stats --cycles, seedcrawl export --cycle N).

Cycles are numbered in the db: --cycles N stops once cycle N is complete, so
rerunning the same command after Ctrl-C or a crash resumes the unfinished
cycle. With --interval the next cycle starts that long after the previous one
ended, also when seedcrawl crawl made it (from the end of that crawl); run
says on stderr when it starts, and a rerun in the wait goes on waiting.
--interval without --cycles runs until interrupted.

flags:
`

// runFlags are the flags of seedcrawl run beyond the crawl settings.
type runFlags struct {
	cycles         uint
	interval       time.Duration
	seedAlgo       string
	k, hops, depth int
	perHost        bool
	randSeed       uint64
	pagesPerCycle  int64
	refreshShare   float64 // the "refresh-share" setting (config), set by runCycles
	refreshPace    string  // the "refresh-pace" setting (config), set by runCycles
	reseedEvery    uint64
	revisitInitial time.Duration
	initialSet     bool // --revisit-initial was given
	revisitMin     time.Duration
	revisitMax     time.Duration
	revisitInc     float64
	revisitDec     float64
	revisitGone    uint   // the "revisit-gone" setting (config), set by runCycles
	refreshPolicy  string // the "refresh-policy" setting (config), set by runCycles
	// cluster makes the run one node of a cluster (--cluster); nil: alone.
	cluster *cycleNode
}

func (f *runFlags) register(fs interface {
	UintVar(*uint, string, uint, string)
	DurationVar(*time.Duration, string, time.Duration, string)
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
	BoolVar(*bool, string, bool, string)
	Uint64Var(*uint64, string, uint64, string)
	Int64Var(*int64, string, int64, string)
	Float64Var(*float64, string, float64, string)
}) {
	fs.UintVar(&f.cycles, "cycles", 0, "stop once cycle `N` (numbered in the db) is complete; 0: run until interrupted (needs --interval)")
	fs.DurationVar(&f.interval, "interval", 0, "pause `DURATION` between the end of a cycle and the start of the next")
	fs.StringVar(&f.seedAlgo, "seed-algo", seeds.AlgoMaxWeight, "seed selector `ALGO` of cycles 2, 3, ...: given (keep the previous seeds), newpages (the most new pages expected, learned from earlier cycles), "+strings.Join(seeds.Algos(), ", "))
	fs.IntVar(&f.k, "k", 10, "number of seeds `K` selected per cycle")
	fs.IntVar(&f.hops, "hops", seeds.DefaultHops, "selector crawl horizon `H` (coverage within H hops)")
	fs.IntVar(&f.depth, "depth", seeds.DefaultDepth, "depth `D` of the maxweight / rootscc weight")
	fs.BoolVar(&f.perHost, "per-host", false, "spread the selected seeds over hosts in proportion to host value")
	fs.Uint64Var(&f.randSeed, "seed", 1, "random seed `N` of the selectors (random, hits-core)")
	fs.Int64Var(&f.pagesPerCycle, "pages-per-cycle", 0, "fetch budget `N` of each cycle (0: --max-pages, else no limit)")
	fs.Uint64Var(&f.reseedEvery, "reseed-every", 0, "rerun seed selection every `N` fetched pages inside a cycle and inject the seeds (0: never)")
	fs.DurationVar(&f.revisitInitial, "revisit-initial", 0, "revisit interval `DURATION` of a newly fetched page; unset: --interval; 0: every known page is due every cycle")
	fs.DurationVar(&f.revisitMin, "revisit-min", 0, "shortest revisit interval `DURATION`")
	fs.DurationVar(&f.revisitMax, "revisit-max", recrawl.DefaultMaxInterval, "longest revisit interval `DURATION`")
	fs.Float64Var(&f.revisitInc, "revisit-inc", recrawl.DefaultIncRate, "an unchanged page's interval grows by this `RATE` (Nutch inc_rate)")
	fs.Float64Var(&f.revisitDec, "revisit-dec", recrawl.DefaultDecRate, "a changed page's interval shrinks by this `RATE` (Nutch dec_rate)")
}

// validate checks the run flags against each other.
func (f *runFlags) validate() error {
	switch {
	case f.cycles == 0 && f.interval == 0:
		return fmt.Errorf("%w: give --cycles N (stop after cycle N) or --interval DUR (run until interrupted)", errUsage)
	case f.cycles > 1<<31:
		return fmt.Errorf("%w: --cycles %d: too many", errUsage, f.cycles)
	case f.interval < 0:
		return fmt.Errorf("%w: --interval %v: must not be negative", errUsage, f.interval)
	case f.k < 1 || f.hops < 1 || f.depth < 1:
		return selectionFlagsErr(f.k, f.hops, f.depth)
	case f.pagesPerCycle < 0:
		return fmt.Errorf("%w: --pages-per-cycle %d: must be 0 (no limit) or more", errUsage, f.pagesPerCycle)
	case f.seedAlgo != recrawl.AlgoGiven && f.seedAlgo != recrawl.AlgoNewPages && !seedsKnownAlgo(f.seedAlgo):
		return fmt.Errorf("%w: --seed-algo %q: want given, newpages or one of %s", errUsage, f.seedAlgo, strings.Join(seeds.Algos(), ", "))
	case f.reseedEvery > 0 && f.seedAlgo == recrawl.AlgoGiven:
		return fmt.Errorf("%w: --reseed-every needs a seed selector (--seed-algo), not given", errUsage)
	}
	return nil
}

// revisit returns the revisit schedule the flags ask for.
func (f *runFlags) revisit() recrawl.Revisit {
	initial := f.revisitInitial
	if !f.initialSet {
		initial = f.interval
	}
	return recrawl.Revisit{Initial: initial, Min: f.revisitMin, Max: f.revisitMax, IncRate: f.revisitInc, DecRate: f.revisitDec,
		GoneCycles: uint32(f.revisitGone)}
}

// checkRevisit checks the revisit schedule the flags ask for and names
// the flag recrawl refuses: each value is tried alone, so a value out of
// range is told from a --revisit-min above --revisit-max.
func (f *runFlags) checkRevisit() error {
	r := f.revisit()
	err := r.Validate()
	if err == nil {
		return nil
	}
	for _, alone := range []struct {
		flag string
		r    recrawl.Revisit
		got  string // the value, where recrawl's message leaves it out
	}{
		{"revisit-initial", recrawl.Revisit{Initial: r.Initial}, fmt.Sprintf(", got %v", r.Initial)},
		{"revisit-min", recrawl.Revisit{Min: r.Min}, fmt.Sprintf(", got %v", r.Min)},
		{"revisit-max", recrawl.Revisit{Max: r.Max}, fmt.Sprintf(", got %v", r.Max)},
		{"revisit-inc", recrawl.Revisit{IncRate: r.IncRate}, ""},
		{"revisit-dec", recrawl.Revisit{DecRate: r.DecRate}, ""},
	} {
		if aloneErr := alone.r.Validate(); aloneErr != nil {
			return fmt.Errorf("%w: %w", errUsage, &config.KeyError{Origin: config.Origin{Flag: alone.flag}, Key: alone.flag,
				Err: fmt.Errorf("%w: %w%s", config.ErrBadValue, aloneErr, alone.got)})
		}
	}
	return fmt.Errorf("%w: --revisit-min, --revisit-max: %w", errUsage, err)
}

// runCycles implements `seedcrawl run`.
func runCycles(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stderr)
	cf := registerCrawlFlags(fs)
	cf.cfg.RegisterRunFlags(fs)
	jsonOut := fs.Bool("json", false, "print one JSON object per cycle on stdout")
	var rf runFlags
	rf.register(fs)
	clusterURL := fs.String("cluster", "", "run as one node of a cluster on the NATS server at `URL` (see seedcrawl node): one elected node selects each cycle's seeds")
	clusterName := fs.String("cluster-name", "seedcrawl", "`NAME` of the crawl on the NATS server (--cluster)")
	nodeID := fs.Int("node-id", 0, "this node's id `N`, 0 ≤ N < --nodes (--cluster)")
	nodes := fs.Int("nodes", 1, "number of nodes `K` of the cluster (--cluster)")
	if err := parseFlagsUsage(fs, args, runUsage); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { rf.initialSet = rf.initialSet || f.Name == "revisit-initial" })
	if err := rf.validate(); err != nil {
		return err
	}
	if *clusterURL != "" && (*nodes < 1 || *nodeID < 0 || *nodeID >= *nodes) {
		return fmt.Errorf("%w: --node-id %d must be in 0..--nodes-1 (--nodes %d)", errUsage, *nodeID, *nodes)
	}
	cfg, err := cf.load(fs, "no seed URLs for cycle 1: give SEED_URL arguments or --seeds FILE (or --db of an earlier crawl)")
	if err != nil {
		return err
	}
	// Settings of the cycles that a config file may hold too (config
	// validated them).
	rf.revisitGone, rf.refreshPolicy, rf.refreshShare, rf.refreshPace = uint(cfg.RevisitGone), cfg.RefreshPolicy, cfg.RefreshShare, cfg.RefreshPace
	if err := rf.checkRevisit(); err != nil {
		return err
	}
	if err := runRefreshNeedsBudget(rf, cfg, config.SetKeys(fs), stderr); err != nil {
		return err
	}
	sess, err := openCrawlBase(cfg, crawlExtras{
		command: "seedcrawl run " + strings.Join(args, " "),
		logger:  warnLogger(stderr),
	})
	if err != nil {
		return err
	}
	defer sess.close()
	if err := sess.serve(ctx, "run", stderr); err != nil {
		return err
	}
	if *clusterURL != "" {
		no := &nodeOptions{url: *clusterURL, name: *clusterName, id: *nodeID, nodes: *nodes}
		if rf.cluster, err = openCycleNode(ctx, no, sess.x.logger, stderr); err != nil {
			return err
		}
		defer rf.cluster.close()
	}
	if err := runSession(ctx, sess, rf, cf.progress, *jsonOut, stdout, stderr); err != nil {
		return err
	}
	return sess.closeObserver()
}

// runRefreshNeedsBudget refuses refresh settings that would do nothing:
// --refresh-share below 1 caps the refetches at a share of a cycle's page
// budget (--pages-per-cycle, else max-pages), and --refresh-pace paces
// that capped share over the budget, so without a budget (or, for the
// pace, with a share of 1) they are ignored. A setting typed as a flag is
// a usage error: the same command line asks for something it cannot do,
// and the user is there to fix it. A setting from a config file, which
// may serve several commands and runs, is a warning on stderr. The pace
// from a file is noticed only when it differs from the default.
func runRefreshNeedsBudget(rf runFlags, cfg config.Config, flagKeys []string, stderr io.Writer) error {
	budget := rf.pagesPerCycle
	if budget == 0 {
		budget = cfg.MaxPages
	}
	var errs []string
	note := func(key, text string) {
		if slices.Contains(flagKeys, key) {
			errs = append(errs, "--"+key+" "+text)
		} else {
			fmt.Fprintf(stderr, "seedcrawl run: warning: %s %s (set in the config file)\n", key, text)
		}
	}
	if rf.refreshShare < 1 && budget == 0 && (slices.Contains(flagKeys, "refresh-share") || rf.refreshShare != config.Default().RefreshShare) {
		note("refresh-share", fmt.Sprintf("%g does nothing without a page budget: it caps refetches at that share of "+
			"--pages-per-cycle N (or --max-pages N), and this run has neither", rf.refreshShare))
	}
	if slices.Contains(flagKeys, "refresh-pace") || rf.refreshPace != config.Default().RefreshPace {
		switch {
		case budget == 0:
			note("refresh-pace", rf.refreshPace+" does nothing without a page budget: it paces the refetches of a "+
				"--refresh-share below 1 over --pages-per-cycle N (or --max-pages N), and this run has neither")
		case rf.refreshShare >= 1:
			note("refresh-pace", rf.refreshPace+" does nothing with --refresh-share 1 (no cap): it paces the refetches of a "+
				"share below 1, e.g. --refresh-share 0.5, over the budget")
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", errUsage, strings.Join(errs, "; "))
	}
	return nil
}

// runSession runs the cycles on an open session and reports each one.
func runSession(ctx context.Context, sess *crawlSession, rf runFlags, progress time.Duration, jsonOut bool, stdout, stderr io.Writer) error {
	cfg := sess.cfg
	budget := rf.pagesPerCycle
	if budget == 0 {
		budget = cfg.MaxPages
	}
	var last monitor.Summary
	var current uint32
	worked := false        // a cycle was crawled or reported
	var crawlEnd time.Time // read only when an interval asks for it
	if rf.interval > 0 {
		var err error
		if crawlEnd, err = runCrawlEnd(sess.db); err != nil {
			return err
		}
	}
	r, err := recrawl.New(recrawl.Options{
		Store:    sess.db,
		Seeds:    cfg.Seeds,
		SeedAlgo: rf.seedAlgo,
		Select: seeds.Options{K: rf.k, Hops: rf.hops, Depth: rf.depth, PerHost: rf.perHost,
			Rand: rand.New(rand.NewPCG(rf.randSeed, 0))},
		RandSeed: rf.randSeed,
		Cycles:   uint32(rf.cycles),
		Interval: rf.interval,
		CrawlEnd: crawlEnd,
		Pausing: func(p recrawl.Pause) {
			sess.obs.pause.Store(&p) // the wait for the next cycle, while in it
			fmt.Fprintf(stderr, "seedcrawl run: %s; Ctrl-C stops, and rerunning the same command goes on waiting\n", runPauseNote(p, time.Now()))
		},
		PagesPerCycle:  budget,
		DiscoveryShare: 1 - rf.refreshShare,
		Revisit:        rf.revisit(),
		RefreshPolicy:  rf.refreshPolicy,
		RefreshPace:    rf.refreshPace,
		ReseedEvery:    rf.reseedEvery,
		Scheduler:      cfg.Scheduler,
		Agree:          rf.cluster.agreeFunc(),
		Logger:         sess.x.logger,
		Crawl: func(ctx context.Context, p *recrawl.Plan) error {
			current, worked = p.Cycle.N, true
			sess.obs.pause.Store(nil)
			verb := "starting"
			if !p.Start {
				verb = "resuming"
			}
			fmt.Fprintf(stderr, "seedcrawl run: %s cycle %d (%s)\n", verb, p.Cycle.N, runPlanNote(p))
			sess.history = runHistory(cfg.Scheduler, p.Rank)
			rc := p.Recrawl()
			rc.Prior, rc.Logger = sess.history.History, sess.x.logger
			if cfg.Sitemaps {
				rc.Changed = sitemap.Lastmods{Store: sess.db, Logger: sess.x.logger}.Changed
			}
			cy, err := recrawl.NewCycle(rc)
			if err != nil {
				return err
			}
			if err := rf.cluster.prepare(ctx, sess, p.Cycle.N); err != nil {
				return err
			}
			if err := sess.newCrawler(cy, max(p.MaxPages, 0)); err != nil {
				return err
			}
			sum, err := rf.cluster.crawl(ctx, sess, func(ctx context.Context) (monitor.Summary, error) {
				return sess.crawl(ctx, nil, progress, stderr)
			})
			last = sum
			if errors.Is(err, crawler.ErrNoSeeds) {
				return nil // nothing left in the cycle: it is complete
			}
			return err
		},
		Report: func(c storage.Cycle) {
			// A reported cycle is complete: a stop from here on, in the
			// wait for the next, has no cycle to resume.
			worked, current = true, 0
			url := func(id uint64) string {
				if p, err := sess.db.Page(id); err == nil {
					return p.URL
				}
				return fmt.Sprint(id)
			}
			if err := runPrintCycle(stdout, c, last, jsonOut, url); err != nil {
				fmt.Fprintf(stderr, "seedcrawl run: print cycle %d: %v\n", c.N, err)
			}
			if note := runStarvedNote(c.N, c.Stats, budget, last.Stopped == monitor.StopMaxPages, rf.refreshShare); note != "" {
				fmt.Fprintf(stderr, "seedcrawl run: warning: %s\n", note)
			}
			last = monitor.Summary{}
		},
	})
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if err := r.Run(ctx); err != nil {
		if errors.Is(err, recrawl.ErrNoSeeds) {
			return fmt.Errorf("%w: %w: give SEED_URL arguments or --seeds FILE", errUsage, err)
		}
		return err
	}
	if waiting := sess.obs.pause.Load(); ctx.Err() != nil && waiting != nil {
		// Stopped in the wait for the next cycle, on a first run or a
		// rerun: nothing is left to resume, the wait goes on.
		fmt.Fprintf(stderr, "seedcrawl run: %s\n", runWaitStopNote(waiting, time.Now()))
		return nil
	}
	if !worked && ctx.Err() == nil {
		// Every cycle --cycles asks for is done: say so, or a rerun of
		// the same command looks like a crawl that did nothing.
		last := runLastCycle(sess.db, uint32(rf.cycles))
		fmt.Fprintf(stderr, "seedcrawl run: cycle %d is complete already; nothing to do (raise --cycles to run more: --cycles %d runs one more cycle)\n",
			last, last+1)
		return nil
	}
	if ctx.Err() != nil {
		if current > 0 {
			return runPrintInterrupted(stdout, stderr, cfg.DB, current, last, jsonOut)
		}
		fmt.Fprintln(stderr, "seedcrawl run: interrupted between cycles")
	}
	return nil
}

// runPartialOut is the JSON form of a cycle interrupted in its crawl: the
// crawl summary of this run's part of it, as crawl --json prints it, with
// the cycle's number and incomplete set (a complete cycle's object,
// runCycleOut, has no incomplete key).
type runPartialOut struct {
	Cycle      uint32 `json:"cycle"`
	Incomplete bool   `json:"incomplete"`
	DB         string `json:"db"`
	monitor.Summary
}

// runPrintInterrupted reports cycle n, interrupted in its crawl: on
// stdout, where a complete cycle's report goes, the summary sum of the
// crawl this run made of it (what crawl prints when interrupted), and on
// stderr that the cycle is incomplete and how to resume it. A cycle
// stopped before its crawl began (sum zero) has no summary to print.
func runPrintInterrupted(stdout, stderr io.Writer, db string, n uint32, sum monitor.Summary, asJSON bool) error {
	fmt.Fprintf(stderr, "seedcrawl run: interrupted in cycle %d, which is incomplete; rerun the same command to resume it\n", n)
	if sum.Stopped == "" {
		return nil
	}
	if asJSON {
		// One object per line, as the complete cycles'.
		return json.NewEncoder(stdout).Encode(runPartialOut{Cycle: n, Incomplete: true, DB: db, Summary: sum})
	}
	fmt.Fprintf(stdout, "cycle %d incomplete (interrupted); this run's crawl of it so far:\n", n)
	return crawlPrintSummary(stdout, db, sum, false)
}

// runWaitStopNote says where a run stopped after it began to wait for
// cycle p.Next: in the wait, before the cycle's start time, or past it,
// while the cycle was being planned (planning comes after the wait and
// before the cycle's first request), where a start time in the past
// would read as a clock gone wrong.
func runWaitStopNote(p *recrawl.Pause, now time.Time) string {
	if now.Before(p.Until) {
		return fmt.Sprintf("interrupted between cycles, before cycle %d starts at %s; rerun the same command to go on waiting",
			p.Next, runClock(p.Until, now))
	}
	return fmt.Sprintf("interrupted while planning cycle %d, after its wait ended at %s; rerun the same command to start it",
		p.Next, runClock(p.Until, now))
}

// runStarvedNote warns after cycle n, whose statistics are s, when it
// spent its whole budget of budget pages (spent: its last crawl stopped
// on the budget, which counts requests, retries too; or s counts as many
// requests, fetches and retries), fetched no new page, and at
// least half its fetches refetched known pages under a refresh share of
// 1, which puts no cap on refetches: they compete with new URLs in the
// scheduler's order and may take the whole budget. It states what the
// cycle did, not why: a cycle on a web it knows entirely finds nothing
// new whatever the share. A cycle whose fetches went mostly to new URLs
// that failed (not counted as new) gets no warning: a lower share would
// not have helped it. "" for any other cycle.
func runStarvedNote(n uint32, s storage.CycleStats, budget int64, spent bool, share float64) string {
	refetched := s.Changed + s.Unchanged + s.Gone
	spent = spent || budget > 0 && s.Fetches+s.Retries >= uint64(budget)
	if share < 1 || budget <= 0 || !spent || s.New > 0 || refetched == 0 || 2*refetched < s.Fetches {
		return ""
	}
	return fmt.Sprintf("cycle %d spent its whole budget of %d pages and fetched no new page: %d of its %d fetches refetched known pages, "+
		"which --refresh-share 1 does not cap; --refresh-share below 1, e.g. 0.8, keeps part of each cycle's budget for new URLs",
		n, budget, refetched, s.Fetches)
}

// runCrawlEnd returns when the last crawl that fetched anything in db
// ended (zero if none ended, e.g. after kill -9): on a db of seedcrawl
// crawl, whose cycle 1 has no stored end, --interval runs from there. A
// run that fetched nothing (one stopped in such a wait) does not count.
func runCrawlEnd(db *storage.DB) (time.Time, error) {
	runs, err := db.Runs()
	if err != nil {
		return time.Time{}, fmt.Errorf("read the runs of %s: %w", db.Path(), err)
	}
	var end time.Time
	for _, r := range runs {
		if r.Counters["fetches"] > 0 && r.End.After(end) {
			end = r.End
		}
	}
	return end, nil
}

// runPauseNote says when the next cycle starts and why then: "cycle 2
// starts at 14:23 UTC, in 6h (--interval 6h after cycle 1 ended at 08:23
// UTC)", with the date when it is not today's (UTC).
func runPauseNote(p recrawl.Pause, now time.Time) string {
	return fmt.Sprintf("cycle %d starts at %s, in %s (--interval %s after cycle %d ended at %s)",
		p.Next, runClock(p.Until, now), runRoundDuration(p.Until.Sub(now)), runRoundDuration(p.Interval), p.Next-1, runClock(p.Ended, now))
}

// runClock writes t in UTC to the minute, with its date unless it falls
// on now's day.
func runClock(t, now time.Time) string {
	t, now = t.UTC(), now.UTC()
	if t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return t.Format("15:04 UTC")
	}
	return t.Format("2006-01-02 15:04 UTC")
}

// runRoundDuration writes d to the second below a minute and to the
// minute above, without the zero units time.Duration.String keeps
// ("6h", not "6h0m0s").
func runRoundDuration(d time.Duration) string {
	if d < time.Minute {
		return max(d, 0).Round(time.Second).String()
	}
	s := d.Round(time.Minute).String()
	s = strings.TrimSuffix(s, "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// runLastCycle returns the last complete cycle of db, or want when db
// records none (a db of seedcrawl crawl is cycle 1).
func runLastCycle(db *storage.DB, want uint32) uint32 {
	cycles, err := db.Cycles()
	if err != nil {
		return want
	}
	for i := len(cycles) - 1; i >= 0; i-- {
		if !cycles[i].End.IsZero() {
			return max(cycles[i].N, want)
		}
	}
	return want
}

func runPlanNote(p *recrawl.Plan) string {
	var parts []string
	// Cycle 1 starts on a db that knows no page (a db of an unfinished
	// crawl resumes it as cycle 1 instead): nothing to revisit, so no
	// revisit figures and no refetch cap.
	first := p.Start && p.Cycle.N == 1
	switch {
	case first:
		parts = append(parts, fmt.Sprintf("%d seeds by %s, first cycle: nothing to revisit", len(p.Seeds), p.Cycle.SeedAlgo))
	case p.Start && p.Lazy:
		// A budget-limited cycle queues the known pages its budget can use
		// first and the others as links reach them: its figures are of
		// those it queued.
		parts = append(parts, fmt.Sprintf("%d seeds by %s, %d of the %d known pages queued at the start are due to revisit (other known pages are queued when a link reaches them)",
			len(p.Seeds), p.Cycle.SeedAlgo, p.Due, len(p.Refresh)))
	case p.Start:
		parts = append(parts, fmt.Sprintf("%d seeds by %s, %d of %d known pages due to revisit",
			len(p.Seeds), p.Cycle.SeedAlgo, p.Due, len(p.Refresh)))
	default:
		done := fmt.Sprintf("%d fetches done", p.Cycle.Stats.Fetches)
		if r := p.Cycle.Stats.Retries; r > 0 {
			// The budget counts them: say so, or "budget N" does not add up.
			done = fmt.Sprintf("%d fetches and %d retries done", p.Cycle.Stats.Fetches, r)
		}
		parts = append(parts, fmt.Sprintf("%d seeds by %s, %s", len(p.Cycle.Seeds), p.Cycle.SeedAlgo, done))
	}
	if v := cycleVanished(p.Cycle); v.SeedsVanished > 0 {
		parts = append(parts, fmt.Sprintf("%d vanished seeds, %d replaced", v.SeedsVanished, v.SeedsReplaced))
	}
	switch {
	case p.MaxPages > 0:
		parts = append(parts, fmt.Sprintf("budget %d pages", p.MaxPages))
	case p.MaxPages < 0:
		parts = append(parts, "budget spent")
	}
	switch {
	case first:
	case p.MaxRefresh > 0 && p.MaxPages > 0:
		// A resumed cycle can have more of its refresh share left than
		// budget (the refetches it reached were fewer than the share);
		// the budget caps the refetches too.
		parts = append(parts, fmt.Sprintf("at most %d refetches", min(p.MaxRefresh, p.MaxPages)))
	case p.MaxRefresh > 0:
		parts = append(parts, fmt.Sprintf("at most %d refetches", p.MaxRefresh))
	case p.MaxRefresh < 0:
		parts = append(parts, "no refetches")
	}
	return strings.Join(parts, ", ")
}

// runCycleOut is the JSON form of a completed cycle.
type runCycleOut struct {
	Cycle    uint32         `json:"cycle"`
	Start    time.Time      `json:"start"`
	End      time.Time      `json:"end"`
	Seconds  float64        `json:"seconds"`
	SeedAlgo string         `json:"seed_algo"`
	Seeds    []cycleSeedOut `json:"seeds"`
	Replaced []cycleReplOut `json:"replaced"` // every vanished seed, replaced or not
	cycleVanishedOut
	Stats   cycleStatsJSON    `json:"stats"`
	Stopped string            `json:"stopped,omitempty"`
	Refresh map[string]uint64 `json:"refresh,omitempty"`
}

// runPrintCycle prints a completed cycle: JSON (one object per line) or a
// few human lines.
func runPrintCycle(w io.Writer, c storage.Cycle, sum monitor.Summary, asJSON bool, url func(uint64) string) error {
	secs := c.End.Sub(c.Start).Seconds()
	v := cycleVanished(c)
	if asJSON {
		ss, rs := cycleSeedsOut(c, url)
		return json.NewEncoder(w).Encode(runCycleOut{Cycle: c.N, Start: c.Start, End: c.End, Seconds: secs,
			SeedAlgo: c.SeedAlgo, Seeds: ss, Replaced: rs, cycleVanishedOut: v,
			Stats: cycleStatsOut(c.Stats), Stopped: sum.Stopped, Refresh: sum.Refresh})
	}
	s := c.Stats
	// fetches are URLs requested (one per URL, retries not counted), as
	// in the crawl summary and the stats --cycles table. A vanished seed
	// is replaced only when one is found (a line per vanished seed says).
	fmt.Fprintf(w, "cycle %d done in %.1fs: %d seeds (%s), %d vanished, %d replaced; %d fetches (URLs requested): %d new, %d changed, %d unchanged, %d gone, %d errors; %s; %d URLs found\n",
		c.N, secs, len(c.Seeds), c.SeedAlgo, v.SeedsVanished, v.SeedsReplaced, s.Fetches, s.New, s.Changed, s.Unchanged, s.Gone, s.Errors,
		monitor.ByteCount(s.Bytes), s.Found)
	for _, r := range c.Replaced {
		to := "no replacement found"
		if r.New != storage.NoPage {
			to = "replaced by " + url(r.New)
		}
		fmt.Fprintf(w, "  seed %s vanished (%s): %s\n", url(r.Old), r.Reason, to)
	}
	return nil
}

// runHistory returns the scheduler options that give the history
// schedulers (history, history@M) the stored PageRank of the previous
// cycle as their prior; the zero Options for other schedulers and for
// cycle 1 (rank nil), where history orders as fpr (fpr@M).
func runHistory(sched string, rank []float64) scheduler.Options {
	if rank == nil || !strings.HasPrefix(sched, "history") {
		return scheduler.Options{}
	}
	return scheduler.Options{
		History: func(id uint64) float64 {
			if id < uint64(len(rank)) {
				return rank[id]
			}
			return 0
		},
		HistoryMass: 1, // graph.PageRank sums to 1
	}
}
