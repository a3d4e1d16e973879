package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

const demoUsage = `usage: seedcrawl demo [flags]

Starts the built-in test web on loopback (many hosts under .test, with
robots.txt files, redirects, slow, flaky and rate-limited hosts, a spider
trap, a 50 MiB page and a gzip bomb), crawls it politely but fast, prints
the summary and compares the crawl with the test web's ground truth. Needs
no network. Without --db the crawl goes to a temporary file that is removed
afterwards; with --db FILE it is kept for seedcrawl stats and export. A
--db FILE that holds a complete crawl already is not crawled again: the
stored crawl is checked (give a new FILE, or delete it, for a new crawl).
`

// runDemo implements `seedcrawl demo`.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", stderr)
	dbPath := fs.String("db", "", "keep the crawl in `FILE` (default: a temporary file)")
	pages := fs.Int("pages", 400, "regular pages of the test web")
	hosts := fs.Int("hosts", 12, "regular hosts of the test web")
	seed := fs.Int64("seed", 1, "test web generator seed")
	preset := fs.String("preset", "hostile", "test web preset: hostile (every misbehaviour) or clean")
	delay := fs.Duration("delay", 20*time.Millisecond, "minimum gap between requests to one host")
	workers := fs.Int("workers", 8, "concurrent fetchers")
	schedName := fs.String("scheduler", "bfs", "crawl-ordering policy")
	jsonOut := fs.Bool("json", false, "print the summary as JSON on stdout")
	cycles := fs.Int("cycles", 1, "with N > 1, then move the test web to epoch 1, 2, ... (pages change, vanish, move, appear) and recrawl it as seedcrawl run cycles 2..N")
	seedAlgo := fs.String("seed-algo", "maxweight", "seed selector of cycles 2..N (see seedcrawl run)")
	progress := fs.Duration("progress", time.Second, "progress line interval on stderr (0: never)")
	sitemaps := fs.Bool("sitemaps", true, "read sitemaps, and add sitemap.test to the test web: pages only its sitemaps lead to, a huge, a deep and a gzip-bomb sitemap")
	if err := parseFlagsOnly(fs, args, demoUsage); err != nil {
		return err
	}
	p, err := testweb.ParsePreset(*preset)
	if err != nil {
		return fmt.Errorf("%w: --preset: %w", errUsage, err)
	}
	if *cycles < 1 || *cycles > 100 {
		return fmt.Errorf("%w: --cycles %d: want 1..100", errUsage, *cycles)
	}
	if *seedAlgo != "given" && !seedsKnownAlgo(*seedAlgo) {
		return fmt.Errorf("%w: --seed-algo %q: want given or a selector of seedcrawl seeds", errUsage, *seedAlgo)
	}
	if *pages < 1 || *hosts < 1 || *hosts > *pages {
		return fmt.Errorf("%w: want 1 ≤ --hosts ≤ --pages, got %d hosts, %d pages", errUsage, *hosts, *pages)
	}
	site, err := testweb.Generate(testweb.GenOptions{Seed: *seed, Pages: *pages, Hosts: *hosts, Preset: p, Sitemaps: *sitemaps})
	if err != nil {
		return fmt.Errorf("generate test web: %w", err)
	}
	web, err := testweb.New(site, demoWebOptions())
	if err != nil {
		return fmt.Errorf("test web: %w", err)
	}
	srvCtx, stopSrv := context.WithCancel(context.WithoutCancel(ctx))
	defer stopSrv()
	srv, err := web.Start(srvCtx, "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer srv.Close()

	path := *dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "seedcrawl-demo-")
		if err != nil {
			return fmt.Errorf("make temporary directory: %w", err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "demo.db")
	}
	cfg := demoConfig(path, site.Seeds(), srv, *delay, *workers)
	// No regular host has more pages than the web; the spider trap's
	// infinite calendar stops at this budget.
	cfg.HostMaxPages = int64(*pages)
	cfg.Scheduler = *schedName
	cfg.Sitemaps = *sitemaps
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	sess, err := openCrawl(cfg, crawlExtras{
		command: "seedcrawl demo",
		logger:  textLogger(stderr, slog.LevelError),
	})
	if err != nil {
		return err
	}
	done, err := demoComplete(sess.db)
	if err != nil {
		sess.close()
		return err
	}
	web1 := fmt.Sprintf("test web: %d hosts on http://%s and https://%s", len(site.Hosts()), srv.HTTPAddr(), srv.HTTPSAddr())
	var sum monitor.Summary
	if done {
		// Crawling again would fetch nothing (its seeds are known) and
		// print a summary of that, 0 URLs in 0.0 s, above a ground-truth
		// line that reads as if this command had crawled.
		fmt.Fprintf(stderr, "%s\nseedcrawl demo: %s already holds a complete crawl (%d URLs), so nothing is crawled; "+
			"the ground-truth check is of that stored crawl against this command's test web. For a new crawl give a new --db or delete %s\n",
			web1, path, sess.db.NextID(), shellQuote(path))
	} else {
		fmt.Fprintf(stderr, "%s; crawling from %d seeds into %s\n", web1, len(cfg.Seeds), path)
		if sum, err = sess.run(ctx, *progress, stderr); err != nil {
			sess.close()
			return err
		}
	}
	diff, truthURLs, err := demoCompareWithTruth(sess.db, web, site.Seeds(), *sitemaps)
	if cerr := sess.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if *jsonOut {
		return writeJSON(stdout, struct {
			DB string `json:"db"`
			monitor.Summary
			TruthURLs   int  `json:"truth_urls"`
			MissingURLs int  `json:"missing_urls"`
			ExtraURLs   int  `json:"extra_urls"`
			MissingArcs int  `json:"missing_arcs"`
			ExtraArcs   int  `json:"extra_arcs"`
			TrapURLs    int  `json:"trap_urls"`
			Match       bool `json:"match"`
			// AlreadyComplete: the db held a complete crawl, nothing was
			// crawled and the check is of the stored crawl.
			AlreadyComplete bool `json:"already_complete"`
		}{path, sum, truthURLs, len(diff.MissingURLs), len(diff.ExtraURLs), len(diff.MissingArcs), len(diff.ExtraArcs), diff.TrapURLs, diff.Empty(), done})
	}
	which := "the crawl"
	if done {
		which = "the stored crawl"
		fmt.Fprintf(stdout, "crawl of %s: complete already, nothing crawled now; %d URLs stored\n", path, sess.db.NextID())
	} else if err := crawlPrintSummary(stdout, path, sum, false); err != nil {
		return err
	}
	if diff.Empty() {
		fmt.Fprintf(stdout, "ground truth: %s found exactly the %d URLs and their links a polite crawler can reach (%d trap URLs cut off by the guards)\n", which, truthURLs, diff.TrapURLs)
	} else {
		fmt.Fprintf(stdout, "ground truth of %s (%d URLs reachable): %s\n", which, truthURLs, diff)
	}
	if *cycles > 1 {
		if err := demoCycles(ctx, cfg, web, *cycles, *seedAlgo, *progress, stdout, stderr); err != nil {
			return err
		}
	}
	if *dbPath != "" {
		fmt.Fprintf(stdout, "next: seedcrawl stats --db %s --cycles; seedcrawl export --db %s --what graph --out demo\n", path, path)
	}
	return nil
}

// errDemoQueued stops demoComplete's read of the frontier at its first
// entry.
var errDemoQueued = errors.New("demo: frontier holds a URL")

// demoComplete reports whether db holds a crawl that is complete: URLs
// known and none left in the frontier. A new db, or one whose crawl was
// stopped, is crawled (on).
func demoComplete(db *storage.DB) (bool, error) {
	if db.NextID() == 0 {
		return false, nil
	}
	err := db.LoadFrontier(func(storage.Entry) error { return errDemoQueued })
	switch {
	case errors.Is(err, errDemoQueued):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read the frontier of %s: %w", db.Path(), err)
	}
	return true, nil
}

// demoCycles recrawls the demo's db as seedcrawl run cycles 2..n, moving
// the test web one epoch forward before each, and prints the cycle table.
func demoCycles(ctx context.Context, cfg config.Config, web *testweb.Web, n int, algo string, progress time.Duration, stdout, stderr io.Writer) error {
	sess, err := openCrawlBase(cfg, crawlExtras{
		command: "seedcrawl demo --cycles",
		logger:  textLogger(stderr, slog.LevelError),
	})
	if err != nil {
		return err
	}
	defer sess.close()
	for i := 2; i <= n && ctx.Err() == nil; i++ {
		if err := web.SetEpoch(i - 1); err != nil {
			return fmt.Errorf("test web epoch %d: %w", i-1, err)
		}
		fmt.Fprintf(stderr, "test web moved to epoch %d\n", i-1)
		rf := runFlags{cycles: uint(i), seedAlgo: algo, k: 10, hops: 5, depth: 2, randSeed: 1, refreshShare: 1, initialSet: true,
			revisitMax: recrawl.DefaultMaxInterval, revisitInc: recrawl.DefaultIncRate, revisitDec: recrawl.DefaultDecRate}
		if err := runSession(ctx, sess, rf, progress, false, stdout, stderr); err != nil {
			return err
		}
	}
	st, err := sess.db.Stats()
	if err != nil {
		return err
	}
	statsWriteCycles(stdout, st.Cycles, func(id uint64) string {
		if p, err := sess.db.Page(id); err == nil {
			return p.URL
		}
		return ""
	})
	return nil
}

// demoWebOptions makes the hostile hosts quick to get through: a crawl of
// the whole test web takes seconds, not minutes.
func demoWebOptions() testweb.Options {
	return testweb.Options{
		SlowLatency:  300 * time.Millisecond,
		RateInterval: 200 * time.Millisecond,
	}
}

// demoConfig is the polite-but-fast crawl of a test web served by srv.
func demoConfig(db string, seeds []string, srv *testweb.Server, delay time.Duration, workers int) config.Config {
	cfg := config.Default()
	cfg.DB = db
	cfg.Seeds = seeds
	cfg.Scope = "hosts:.test"
	cfg.Workers = workers
	cfg.Delay = delay
	cfg.DelayFactor = 1
	cfg.Backoff = 100 * time.Millisecond
	cfg.MaxBackoff = 2 * time.Second
	cfg.RobotsBackoff = 100 * time.Millisecond
	cfg.FetchTimeout = 10 * time.Second
	cfg.CAFile = srv.CAFile()
	keys := make([]string, 0, len(srv.Resolve()))
	for k := range srv.Resolve() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cfg.Resolve = append(cfg.Resolve, k+"="+srv.Resolve()[k])
	}
	return cfg
}

// demoCompareWithTruth compares the stored graph with what the test web says a
// polite crawler reaches from seeds: one that reads sitemaps too when
// sitemaps is set (the sitemap files themselves are not compared).
func demoCompareWithTruth(db *storage.DB, web *testweb.Web, seeds []string, sitemaps bool) (testweb.Diff, int, error) {
	reach, err := web.Truth().Reachable(seeds, version.Token)
	if sitemaps {
		reach, err = web.Truth().ReachableWithSitemaps(seeds, version.Token, testweb.SitemapLimits{})
	}
	if err != nil {
		return testweb.Diff{}, 0, fmt.Errorf("ground truth: %w", err)
	}
	view, err := db.Graph()
	if err != nil {
		return testweb.Diff{}, 0, err
	}
	g, err := graph.Load(view)
	if err != nil {
		return testweb.Diff{}, 0, fmt.Errorf("load crawled graph: %w", err)
	}
	d, err := truthWithoutSitemapFiles(db, reach.Compare(g))
	return d, len(reach.Order), err
}
