package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/cluster"
	"github.com/seedcrawl/seedcrawl/compare"
	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/sitemap"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

const crawlUsage = `usage: seedcrawl crawl [flags] [SEED_URL...]

Crawls from the seed URLs (and --seeds FILE) into one bbolt file (--db),
politely: robots.txt, one connection per host, at least --delay between
requests to a host (more if robots.txt asks with Crawl-delay or the host is
slow), Retry-After honoured. Rerunning the same command on the same --db
resumes where the crawl stopped, also after kill -9. Ctrl-C stops gracefully.
Progress goes to stderr, the summary to stdout (--json for a machine).

Settings come from the defaults, then --config FILE (YAML or TOML, keys named
like the flags), then the flags.

flags:
`

// runCrawl implements `seedcrawl crawl`.
func runCrawl(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("crawl", stderr)
	cf := registerCrawlFlags(fs)
	jsonOut := fs.Bool("json", false, "print the final summary as JSON on stdout")
	refetch := fs.Bool("refetch", false, "fetch seeds the db already has again, with conditional GET (If-None-Match, If-Modified-Since)")
	clusterURL := fs.String("cluster", "", "crawl as the single node of a cluster on the NATS server at `URL` (see seedcrawl node)")
	if err := parseFlagsUsage(fs, args, crawlUsage); err != nil {
		return err
	}
	cfg, err := cf.load(fs, "no seed URLs: give SEED_URL arguments or --seeds FILE (or --db of a crawl to resume)")
	if err != nil {
		return err
	}
	if *clusterURL != "" {
		return nodeCrawl(ctx, cfg, nodeOptions{url: *clusterURL, name: "seedcrawl", id: 0, nodes: 1,
			command: "seedcrawl crawl " + strings.Join(args, " "), progress: cf.progress, json: *jsonOut}, stdout, stderr)
	}
	sess, err := openCrawl(cfg, crawlExtras{
		command: "seedcrawl crawl " + strings.Join(args, " "),
		refetch: *refetch,
		logger:  warnLogger(stderr),
	})
	if err != nil {
		return err
	}
	defer sess.close()
	if err := sess.serve(ctx, "crawl", stderr); err != nil {
		return err
	}
	sum, err := sess.run(ctx, cf.progress, stderr)
	if err != nil {
		return err
	}
	if err := sess.closeObserver(); err != nil {
		return err
	}
	switch {
	case sum.Stopped == monitor.StopExhausted && sum.Pages > 0 && sum.Fetches == 0:
		fmt.Fprintf(stderr, "seedcrawl crawl: no page could be requested (%s)%s\n",
			crawlFormatCounts(sum.Skipped), crawlUnreachedHint(sum.Skipped))
	case sum.Stopped == monitor.StopExhausted && sum.Pages == 0 && !*refetch:
		fmt.Fprintf(stderr, "seedcrawl crawl: nothing fetched, the crawl in %s is finished; %s\n", cfg.DB, crawlFinishedHint(sess.db, cfg.DB))
	case sum.Stopped != monitor.StopExhausted && sum.Pending > 0:
		// Stopped early (Ctrl-C, --max-pages, --max-duration): say how to
		// go on, as run does.
		fmt.Fprintf(stderr, "seedcrawl crawl: stopped (%s) with %d URLs pending in %s; rerun the same command to go on\n",
			sum.Stopped, sum.Pending, cfg.DB)
	}
	return crawlPrintSummary(stdout, cfg.DB, sum, *jsonOut)
}

// crawlUnreachedHint tells a user whose crawl requested no page what to
// check, from why its URLs were not fetched (Summary.Skipped).
func crawlUnreachedHint(skipped map[string]uint64) string {
	var tls, conn bool
	for reason := range skipped {
		switch _, class, _ := strings.Cut(reason, ": "); class { // "robots-unreachable: refused"
		case "tls":
			tls = true
		case "refused", "dns", "unreachable":
			conn = true
		}
	}
	switch {
	case tls:
		return ": a server's certificate was not trusted; give its CA with --ca-file (a test web writes testweb-ca.pem) and add --refetch to ask again on this db"
	case conn:
		return ": check the seed URLs, and --resolve or --resolve-file for names only this machine knows (with --refetch to ask again on this db)"
	}
	return ""
}

// crawlFinishedHint tells a user who reran crawl on a finished crawl what
// does crawl it again: a command line to copy, with the db at path quoted
// for a POSIX shell and the number of the cycle after the last one db
// completed (a db of seedcrawl crawl alone is cycle 1), so `run` crawls
// one more cycle.
func crawlFinishedHint(db *storage.DB, path string) string {
	next := runLastCycle(db, 1) + 1
	return fmt.Sprintf("seeds it already has are not fetched again: rerun with them and --refetch, or recrawl once with: seedcrawl run --db %s --cycles %d",
		shellQuote(path), next)
}

// shellQuote returns s as one word of a POSIX shell command line: as it
// is when it holds only characters no shell treats specially, else in
// single quotes (a single quote inside ends the quoted run, is escaped
// with a backslash, and a new quoted run starts).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// crawlExtras are the inputs of a crawl that are not settings.
type crawlExtras struct {
	command string
	refetch bool
	logger  *slog.Logger
	// noSync skips fsync at commit (benchmarks only).
	noSync bool
	// inject feeds the crawler the URLs a comparison asks for, and only
	// those (seedcrawl compare).
	inject *compare.Injection
	// cluster makes the crawl one node of a cluster (seedcrawl node,
	// crawl --cluster); nil: a single crawler.
	cluster *cluster.Node
}

// crawlSession is one open crawl: the db and everything wired to it.
type crawlSession struct {
	cfg   config.Config
	x     crawlExtras
	db    *storage.DB
	fr    *frontier.Frontier
	c     *crawler.Crawler
	share *cluster.Crawl // the crawler's part in a cluster (x.cluster); nil without
	seeds []string
	tr    *http.Transport

	// Built once, shared by the crawlers of successive cycles (run).
	fetchers  []crawler.Fetcher
	robots    *robots.Cache
	scope     urlnorm.Scope
	seedScope bool

	obs observer // --warc, --listen
	// memLimit: the session sets the Go soft memory limit (GOMEMLIMIT is
	// unset), and raises it as the db learns URLs (setMemoryLimit).
	memLimit bool
	// seeding is the number of seeds the crawl stores in its first
	// transaction, which the memory limit allows for until they are
	// stored (crawlSeedBytes each).
	seeding int
	// gcPercent is the collector's setting before the session raised it
	// (crawlGCPercent; -1: GOGC is set and was left alone).
	gcPercent int
	// history is the prior of the history schedulers (run, cycle 2 on).
	history scheduler.Options
}

// openCrawl opens the db and wires the frontier, scheduler, robots cache,
// fetchers and crawler from cfg. Shutdown order (close): crawler (Run has
// returned), frontier (in memory), transport, db.
func openCrawl(cfg config.Config, x crawlExtras) (*crawlSession, error) {
	s, err := openCrawlBase(cfg, x)
	if err != nil {
		return nil, err
	}
	if err := s.newCrawler(nil, cfg.MaxPages); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// openCrawlBase opens the db and builds what every crawl of the session
// shares: transport, fetchers, robots cache, scope.
func openCrawlBase(cfg config.Config, x crawlExtras) (_ *crawlSession, err error) {
	// The collector's settings come first: opening the db and the crawl's
	// first allocations take the heap past the runtime's initial 4 MB
	// goal, which at the default GOGC costs a collection, about an eighth
	// of the CPU of a crawl of a few pages. The limit is raised for the
	// db's URLs once it is open (setMemoryLimit).
	// A failure before the session exists puts both back.
	memLimit, gcPercent, prevLimit := os.Getenv("GOMEMLIMIT") == "", -1, int64(-1)
	if memLimit {
		prevLimit = debug.SetMemoryLimit(crawlMemoryLimit(cfg, 0))
		if os.Getenv("GOGC") == "" {
			gcPercent = debug.SetGCPercent(crawlGCPercent)
		}
	}
	handedOver := false
	defer func() {
		if err == nil || handedOver {
			return
		}
		if prevLimit >= 0 {
			debug.SetMemoryLimit(prevLimit)
		}
		if gcPercent >= 0 {
			debug.SetGCPercent(gcPercent)
		}
	}()
	if x.logger == nil {
		x.logger = slog.New(slog.DiscardHandler)
	}
	resolve := fetch.ResolveMap{}
	for _, r := range cfg.Resolve {
		if err := resolve.Add(r); err != nil {
			return nil, fmt.Errorf("%w: %w", errUsage, &config.KeyError{Key: "resolve", Err: fmt.Errorf("%w: %w", config.ErrBadValue, err)})
		}
	}
	if cfg.ResolveFile != "" {
		m, err := fetch.LoadResolveFile(cfg.ResolveFile)
		if err != nil {
			return nil, fmt.Errorf("%w: resolve-file: %w", errUsage, err)
		}
		for k, v := range m {
			resolve[k] = v
		}
	}
	// The settings were checked (loadSettings), the scheduler name and the
	// CA file too, before any db is made.
	if cfg.WARC != "" {
		// The WARC directory is made before the db, so one that cannot be
		// made creates no db.
		if err := os.MkdirAll(cfg.WARC, 0o755); err != nil {
			return nil, fmt.Errorf("open warc: %w", err)
		}
	}
	db, err := storage.Open(cfg.DB, &storage.Options{NoSync: x.noSync})
	if err != nil {
		return nil, fmt.Errorf("open db: %w", err) // storage's ErrLocked text already says what to do
	}
	s := &crawlSession{cfg: cfg, x: x, db: db, memLimit: memLimit, gcPercent: gcPercent}
	handedOver = true // s.close restores GOGC from here on
	s.setMemoryLimit()
	ok := false
	defer func() {
		if !ok {
			s.close()
		}
	}()
	if s.x.logger, err = s.openObserver(s.x.logger); err != nil {
		return nil, err
	}
	s.seeds = cfg.Seeds
	scopeSeeds := cfg.Seeds
	s.seedScope = strings.HasPrefix(cfg.Scope, "seeds-")
	if len(cfg.Seeds) == 0 || s.seedScope {
		// The scope and the SSRF exemption come from the seeds the db was
		// started with too, and from their redirect targets (depth 0).
		stored, err := crawlStoredSeeds(db)
		if err != nil {
			return nil, err
		}
		if len(s.seeds) == 0 {
			s.seeds = stored
		}
		scopeSeeds = append(append([]string(nil), cfg.Seeds...), stored...)
	}
	if s.scope, err = urlnorm.ParseScopeSpec(cfg.Scope, scopeSeeds); err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, &config.KeyError{Key: "scope", Err: fmt.Errorf("%w: %w", config.ErrBadValue, err)})
	}
	var seedHosts []string
	for _, u := range scopeSeeds {
		if n, err := urlnorm.Normalize(u); err == nil {
			seedHosts = append(seedHosts, urlnorm.HostName(n))
		}
	}
	fopts := fetch.Options{
		UserAgent:      cfg.UserAgent,
		ConnectTimeout: cfg.ConnectTimeout,
		TLSTimeout:     cfg.TLSTimeout,
		HeaderTimeout:  cfg.HeaderTimeout,
		Timeout:        cfg.FetchTimeout,
		MaxIdlePerHost: max(2, cfg.HostConcurrency),
		Resolve:        resolve,
		CAFile:         cfg.CAFile,
		AllowPrivate:   cfg.AllowPrivate,
		AllowHosts:     seedHosts,
		HTTP2:          cfg.HTTP2,
		MaxBody:        int64(cfg.MaxBody),
		MaxRatio:       cfg.MaxCompressionRatio,
		Record:         cfg.WARC != "",
	}
	if s.tr, err = fetch.NewTransport(fopts); err != nil {
		if cfg.CAFile != "" && !errors.Is(err, fetch.ErrOptions) {
			return nil, fmt.Errorf("%w: %w", errUsage, &config.KeyError{Key: "ca-file", Err: fmt.Errorf("%w: %w", config.ErrBadValue, err)})
		}
		return nil, fmt.Errorf("build transport: %w", err)
	}
	fopts.Transport = s.tr
	s.fetchers = make([]crawler.Fetcher, cfg.Workers)
	for i := range s.fetchers {
		f, err := fetch.New(fopts)
		if err != nil {
			return nil, fmt.Errorf("build fetcher: %w", err)
		}
		s.fetchers[i] = f
	}
	ropts := robots.Options{
		Client:    &http.Client{Transport: s.tr},
		UserAgent: cfg.UserAgent,
		Token:     cfg.RobotsToken,
		Store:     db,
		TTL:       cfg.RobotsTTL,
		Backoff:   cfg.RobotsBackoff,
		Refused:   func(err error) bool { return errors.Is(err, fetch.ErrPrivateAddress) },
		Timeout:   cfg.FetchTimeout,
	}
	if a := s.archive(); a != nil {
		// robots.txt goes into the WARC files beside the pages, over the
		// same recording transport.
		ropts.Archive = fetch.Recording{Archive: a}
	}
	if s.robots, err = robots.New(ropts); err != nil {
		return nil, fmt.Errorf("build robots cache: %w", err)
	}
	ok = true
	return s, nil
}

// crawlScheduler builds the scheduler named by the config.
func crawlScheduler(name string) (scheduler.Scheduler, error) {
	sched, err := scheduler.ByName(name, scheduler.Options{})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, checkScheduler(name))
	}
	return sched, nil
}

// newCrawler builds a fresh scheduler, frontier and crawler on the session
// (one per crawl: a Crawler runs once). cy, when not nil, makes the crawl
// a cycle of seedcrawl run; maxPages is its fetch budget (0: none).
func (s *crawlSession) newCrawler(cy crawler.Cycle, maxPages int64) error {
	cfg := s.cfg
	sched, err := crawlScheduler(cfg.Scheduler)
	if err != nil {
		return err
	}
	if s.history.History != nil {
		if sched, err = scheduler.ByName(cfg.Scheduler, s.history); err != nil {
			return fmt.Errorf("build scheduler %s: %w", cfg.Scheduler, err)
		}
	}
	s.fr, err = frontier.New(frontier.Options{
		Scheduler:  sched,
		Politeness: cfg.Politeness,
		Robots:     robots.NewGate(s.robots, s.db, s.x.logger),
		DropFor:    cfg.RobotsTTL,
		// The host page budget is counted by the frontier.
		HostMaxPages: cfg.HostMaxPages,
		Logger:       s.x.logger,
	})
	if err != nil {
		return fmt.Errorf("build frontier: %w", err)
	}
	cfg.MaxPages = maxPages
	var feed crawler.Feed
	s.share = nil
	switch {
	case s.x.inject != nil:
		feed = s.x.inject
	case s.x.cluster != nil:
		s.share = cluster.NewCrawl(s.x.cluster)
		feed = s.share
	}
	s.c, err = crawler.New(crawler.Options{
		Frontier:      s.fr,
		Store:         s.db,
		Fetchers:      s.fetchers,
		Scope:         s.scope,
		SeedRedirects: s.seedScope,
		Settings:      cfg,
		Refetch:       s.x.refetch,
		Cycle:         cy,
		Command:       s.x.command,
		Logger:        s.x.logger,
		Recorder:      s.recorder(),
		Archive:       s.archive(),
		Feed:          feed,
		FedOnly:       s.x.inject != nil,
		Sitemaps:      sitemap.NewCrawlWith(sitemap.CrawlOptions{Source: s.robots, GoneCycles: uint32(cfg.RevisitGone), Logger: s.x.logger}),
	})
	if err != nil {
		return err
	}
	s.publish(cy, maxPages)
	return nil
}

// crawlStoredSeeds returns the URLs the db holds at depth 0: the seeds and
// their redirect targets. The sitemaps planned for a seed's site are
// stored at depth 0 too, found on the seed; they are left out (a seed
// given as a sitemap URL has no page it was found on, and stays).
func crawlStoredSeeds(db *storage.DB) ([]string, error) {
	sitemaps := map[uint64]bool{}
	if err := db.EachSitemap(func(id uint64, _ storage.SitemapFile) error {
		sitemaps[id] = true
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read seeds of %s: %w", db.Path(), err)
	}
	var out []string
	err := db.EachPage(func(p *storage.Page) error {
		if p.Depth == 0 && !(sitemaps[p.ID] && p.From != storage.NoPage) {
			out = append(out, p.URL)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read seeds of %s: %w", db.Path(), err)
	}
	return out, nil
}

// run crawls until the crawl stops, printing progress to w every interval.
func (s *crawlSession) run(ctx context.Context, interval time.Duration, w io.Writer) (monitor.Summary, error) {
	var seeds []string
	if len(s.cfg.Seeds) > 0 {
		seeds = s.seeds
	}
	sum, err := s.crawl(ctx, seeds, interval, w)
	if errors.Is(err, crawler.ErrNoSeeds) {
		return sum, fmt.Errorf("%w: no seed URLs and nothing left to crawl in %s; give new SEED_URL arguments or --seeds FILE; %s", errUsage, s.cfg.DB, crawlFinishedHint(s.db, s.cfg.DB))
	}
	return sum, err
}

// crawl runs the session's crawler from seeds, printing progress to w every
// interval (0: never).
func (s *crawlSession) crawl(ctx context.Context, seeds []string, interval time.Duration, w io.Writer) (monitor.Summary, error) {
	s.seeding = len(seeds)
	s.setMemoryLimit()
	// The frontier grows with the URLs discovered, so the memory limit
	// follows them, on the progress line's ticker.
	// While the crawl is idle most of the time, it runs on one P (procs).
	tick, lineEvery := choreTicks(interval)
	ticks := 0
	p := newProcs()
	stopChores := every(tick, func() {
		s.setMemoryLimit()
		p.Tick()
		if ticks++; lineEvery > 0 && ticks%lineEvery == 0 {
			crawlPrintProgress(w, s.c.Progress())
		}
	})
	sum, err := s.c.Run(ctx, seeds)
	stopChores()
	p.Done()
	s.setMemoryLimit()
	return sum, err
}

// choreTicks returns the period of a crawl's one ticker and every how many
// ticks a progress line is printed (0: never, progress ≤ 0). The memory
// limit is raised at every tick, at most crawlMemoryLimitEvery apart; the
// progress line comes every progress exactly (progress is split into equal
// ticks). One ticker rather than one per chore: a polite crawl is idle
// most of the time, and each wake-up of an idle process costs CPU (a
// thread woken, the Go scheduler's idle threads and sysmon woken with it).
func choreTicks(progress time.Duration) (tick time.Duration, lineEvery int) {
	if progress <= 0 {
		return crawlMemoryLimitEvery, 0
	}
	n := (progress + crawlMemoryLimitEvery - 1) / crawlMemoryLimitEvery
	return progress / n, int(n)
}

// close releases the session: the WARC writer and the monitor, idle
// connections, then the db.
func (s *crawlSession) close() error {
	err := s.closeObserver()
	if s.gcPercent >= 0 {
		debug.SetGCPercent(s.gcPercent)
		s.gcPercent = -1
	}
	if s.tr != nil {
		s.tr.CloseIdleConnections()
	}
	if s.db != nil {
		err = errors.Join(err, s.db.Close())
	}
	return err
}

func crawlPrintProgress(w io.Writer, p monitor.Progress) {
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Pages) / p.Elapsed.Seconds()
	}
	// Ready, waiting and the rest (a request in flight, or nothing
	// queued) split the hosts; deferred, failing and dropped are what
	// some of those hosts are besides, so they overlap the three.
	other := max(p.Hosts-p.Ready-p.Waiting, 0)
	fmt.Fprintf(w, "%7.1fs  URLs done %d (%.1f/s)  requests %d  queued %d  in flight %d  hosts %d (%d ready, %d waiting, %d busy or idle; among them %d deferred, %d failing, %d dropped)  errors %d\n",
		p.Elapsed.Seconds(), p.Pages, rate, p.Fetches, p.Pending, p.InFlight, p.Hosts, p.Ready, p.Waiting, other, p.Deferred, p.Failing, p.Dropped, p.Errors)
}

// crawlPrintSummary writes the summary: JSON, or a few human lines.
func crawlPrintSummary(w io.Writer, db string, s monitor.Summary, asJSON bool) error {
	if asJSON {
		return writeJSON(w, struct {
			DB string `json:"db"`
			monitor.Summary
		}{db, s})
	}
	// The words of README's glossary of counts: URLs done (any outcome,
	// robots-denied included), of them fetched (a page stored); requests
	// sent, which are the URLs requested (what run's cycle line calls
	// fetches) plus retries.
	fmt.Fprintf(w, "crawl of %s stopped (%s) after %.1fs: %d URLs done (%d fetched), %.1f/s, %d requests (%d URLs requested, %d retries), %d new URLs queued, %d pending\n",
		db, s.Stopped, s.Seconds, s.Pages, s.ByStatus["fetched"], s.PagesPerSec, s.Fetches, sumCounts(s.ByStatus), sumCounts(s.Retries), s.Discovered, s.Pending)
	if s.Truncated > 0 {
		fmt.Fprintf(w, "  %-26s %d (bodies cut at --max-body)\n", "truncated:", s.Truncated)
	}
	for _, g := range []struct {
		name string
		m    map[string]uint64
	}{
		{"fetch outcomes", s.ByStatus}, {"not fetched or not queued", s.Skipped},
		{"links rejected", s.Rejected}, {"errors", s.Errors}, {"retries", s.Retries}, {"sitemaps", s.Sitemaps},
	} {
		if len(g.m) > 0 {
			fmt.Fprintf(w, "  %-26s %s\n", g.name+":", crawlFormatCounts(g.m))
		}
	}
	return nil
}

// sumCounts is the sum of m's counts.
func sumCounts(m map[string]uint64) uint64 {
	var n uint64
	for _, v := range m {
		n += v
	}
	return n
}

// crawlFormatCounts writes "a 3, b 1" sorted by count, then name.
func crawlFormatCounts(m map[string]uint64) string {
	keys := byCount(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// byCount returns the keys of m, largest count first, ties by name.
func byCount(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// crawlHeapPerURL is the heap a crawl may hold per URL its db knows: the
// frontier's slot and queue entry of each URL and what else grows with
// the crawl stay within it (BenchmarkCrawlScale measures about 40 bytes).
const crawlHeapPerURL = 150

// crawlGCPercent is the collector's GOGC during a crawl whose soft memory
// limit the session sets. A crawl's live heap is small (the frontier's
// 40 bytes per URL) and nearly all it allocates is dead a page later
// (bodies, links), so the default of 100 collects every few hundred pages
// for nothing: at 400 the collector runs a quarter as often, which saves
// about a tenth of the CPU per page (BenchmarkCrawlDocsInProcess), while
// the soft memory limit, not GOGC, keeps the heap within its documented
// bound. GOGC, when set, wins.
const crawlGCPercent = 400

// crawlSeedBytes is what storing one seed holds until the seeds are
// committed, in one transaction at the crawl's start: its URL, id and
// frontier entry in the batch and bbolt's dirty pages (about 1.3 KB
// measured). The memory limit allows for it while the seeds are stored;
// without, a list of a million seeds kept the heap at the limit and the
// collector running, 49 s instead of 9 s.
const crawlSeedBytes = 1400

// crawlMemoryLimitEvery is the longest a crawl goes between raises of its
// soft memory limit to cover the URLs discovered since. At 3,000 pages a
// second with 20 new URLs each, 2 s of discovery is 18 MB at
// crawlHeapPerURL, inside the limit's fixed 128 MiB.
const crawlMemoryLimitEvery = 2 * time.Second

// crawlMemoryLimit is the soft memory limit the Go collector keeps the
// process under during a crawl of a db that knows urls URLs (GOMEMLIMIT,
// when set, wins): each worker holds at most one body of --max-body bytes
// and the buffers of its decompression and parsing, about as much again,
// plus 128 MiB for bbolt's page cache and the runtime, plus
// crawlHeapPerURL per URL for the frontier, which grows with the crawl.
// Without the limit the collector lets the heap grow to twice the live
// data, and 16 endless 10 MiB bodies took 522 MiB; without the per-URL
// part a crawl of millions of URLs pushed its live heap up against a fixed
// limit and spent ever more CPU collecting. README.md states the bound.
func crawlMemoryLimit(cfg config.Config, urls uint64) int64 {
	return 2*int64(cfg.Workers)*int64(cfg.MaxBody) + 128<<20 + crawlHeapPerURL*int64(min(urls, math.MaxInt64/(2*crawlHeapPerURL)))
}

// setMemoryLimit sets the soft memory limit for the URLs the db knows now,
// unless GOMEMLIMIT set it.
func (s *crawlSession) setMemoryLimit() {
	if !s.memLimit {
		return
	}
	limit := crawlMemoryLimit(s.cfg, s.db.NextID())
	if s.seeding > 0 && (s.c == nil || !s.c.Seeded()) {
		limit += crawlSeedBytes * int64(s.seeding)
	}
	debug.SetMemoryLimit(limit)
}

// every runs fn every d (never when d ≤ 0) on its own goroutine until the
// returned stop is called; stop returns once fn is no longer running.
func every(d time.Duration, fn func()) (stop func()) {
	if d <= 0 {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				fn()
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}
