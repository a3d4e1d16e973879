package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/compare"
	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

const compareUsage = `usage: seedcrawl compare --db FILE --schedulers bfs,fpr,... --budget N [SEED_URL... | --seeds FILE]
                         [every crawl flag] [--window W] [--out results.csv] [--plot FILE] [--json]
       seedcrawl compare --db FILE --report [--out ...] [--plot ...] [--json]

Tests crawl schedulers against the live web at about the cost of one crawl.
Every scheduler runs its own logical crawl of --budget pages, in exactly the
order sim would give it on the web as revealed; each page is fetched once, by
the polite crawler (robots.txt, per-host delays, back-off, trap guards, SSRF
guard), stored in --db and served from there to every other scheduler. The
score is the cumulative PageRank on the union graph of what the crawls
downloaded (no ground truth needed), next to U(k) and an omniscient reference
on that graph (at each k the better of a crawl that downloads the seeds first
and one that does not): a linked URL nobody fetched counts as linking like the average
fetched page of its host, and after the crawls a tenth of the union more is
fetched from their frontier, the URLs holding the most estimated rank, so
that their links count too (--score-frontier-share); see package compare. Rerunning the same command continues every
scheduler, also after kill -9; --report rescores what the db holds.

--seeds takes a URL (repeatable) or a file of URLs, one per line.

flags:
`

// compareResultsBuffer is how many delivered pages wait for compare on the
// channel itself, beyond which they are queued (compareWeb.deliver).
const compareResultsBuffer = 1024

// compareOptions are the options a comparison stores in its db, so that a
// rerun continues the same comparison and --report rescores it.
type compareOptions struct {
	Schedulers []string `json:"schedulers"`
	Seeds      []string `json:"seeds"`
	Budget     int      `json:"budget"`
	Window     int      `json:"window"`
	Damping    float64  `json:"damping"`
	RandomSeed uint64   `json:"random_seed"`
}

func (o compareOptions) engine(log *slog.Logger) compare.Options {
	return compare.Options{Schedulers: o.Schedulers, Seeds: o.Seeds, Budget: o.Budget, Window: o.Window,
		Damping: o.Damping, RandomSeed: o.RandomSeed, Logger: log}
}

// compareOutputs are the result flags shared by compare and score.
type compareOutputs struct {
	graph     *string
	unfetched *string
	json      *bool
	out, plot *string
	logX      *bool
	lower     *string
	title     *string
}

func compareOutputFlags(fs interface {
	Bool(string, bool, string) *bool
	String(string, string, string) *string
}) compareOutputs {
	return compareOutputs{
		graph:     fs.String("score-graph", "union", "`GRAPH` to rank pages on: union (fetched pages and every URL they link to) or crawl (fetched pages alone, as Cho et al. and Baeza-Yates et al. rank)"),
		unfetched: fs.String("score-unfetched", "host", "how a linked URL nobody fetched passes on its PageRank in the union graph: `MODEL` host (it links like the average fetched page of its host) or dangling (spread over all pages)"),
		json:      fs.Bool("json", false, "print the report as JSON on stdout"),
		out:       fs.String("out", "", "write the scores as CSV (sim's long form) to `FILE`"),
		plot:      fs.String("plot", "", "write the plot to `FILE` (.svg, .png or .pdf)"),
		logX:      fs.Bool("plot-logx", false, "plot pages downloaded on a log scale"),
		lower:     fs.String("plot-lower", "diff", "lower `PANEL` of the plot: "+chart.LowerHelp),
		title:     fs.String("title", "", "plot `TITLE`"),
	}
}

// runCompare implements `seedcrawl compare`.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", stderr)
	cf := registerCrawlFlags(fs)
	scheds := fs.String("schedulers", "", "comma-separated `LIST` of schedulers to compare ("+strings.Join(scheduler.Names(), ", ")+"; not omniscient)")
	budget := fs.Int("budget", 0, "pages `N` each scheduler downloads")
	window := fs.Int("window", 1, "URLs `W` a scheduler may have in flight at once (1: exactly sim's order)")
	damping := fs.Float64("damping", scheduler.DefaultDamping, "damping `d` for PageRank, fpr, fpr@M and rankmass-window")
	randomSeed := fs.Uint64("random-seed", 1, "seed of the random scheduler (random@SEED overrides)")
	report := fs.Bool("report", false, "rescore the comparison stored in --db without crawling")
	outs := compareOutputFlags(fs)
	frontier := fs.Bool("score-frontier", false, "when every scheduler is done, fetch once each URL the crawls discovered but none downloaded, and score with their links too (overrides --score-frontier-share; about 15-20% more requests)")
	share := fs.Float64("score-frontier-share", compare.DefaultFrontierShare, "when every scheduler is done, fetch `F` × |union of the downloaded sets| of the URLs the crawls discovered but none downloaded, those holding the most estimated PageRank, and score with their links too (0: none)")
	if err := parseFlagsUsage(fs, args, compareUsage); err != nil {
		return err
	}
	if err := outs.check(); err != nil {
		return err
	}
	log := warnLogger(stderr)
	if *report {
		if fs.NArg() > 0 {
			return fmt.Errorf("%w: --report takes no seed URLs", errUsage)
		}
		return compareReport(ctx, cf.cfg.DB, outs, stdout, log)
	}
	// --seeds FILE: a value that is not a URL but names a file is a file of
	// seeds, as the command line spells it; crawl's --seeds URL
	// keeps working.
	var fromFiles []string
	urls := cf.cfg.Seeds[:0:0]
	for _, s := range cf.cfg.Seeds {
		if !strings.Contains(s, "://") {
			if st, err := os.Stat(s); err == nil && !st.IsDir() {
				got, err := crawlReadSeedsFile(s)
				if err != nil {
					return err
				}
				fromFiles = append(fromFiles, got...)
				continue
			}
		}
		urls = append(urls, s)
	}
	cf.cfg.Seeds = append(urls, fromFiles...)
	cfg, err := cf.load(fs, "no seed URLs: give SEED_URL arguments or --seeds FILE (or --db of a comparison to continue)")
	if err != nil {
		return err
	}
	if cfg.MaxPages > 0 {
		return fmt.Errorf("%w: --max-pages limits one crawl; a comparison gives each scheduler --budget pages", errUsage)
	}
	if err := checkDamping(*damping); err != nil {
		return err
	}
	if !(*share >= 0) || math.IsInf(*share, 1) {
		return fmt.Errorf("%w: --score-frontier-share %v: want a share of the union of at least 0, e.g. %g (--score-frontier fetches all of the frontier)", errUsage, *share, compare.DefaultFrontierShare)
	}
	if *frontier {
		*share = math.Inf(1)
	}
	opts := compareOptions{Schedulers: splitList(*scheds), Budget: *budget, Window: *window, Damping: *damping, RandomSeed: *randomSeed}
	if err := compareCheckFlags(opts); err != nil {
		return err
	}
	for _, s := range cfg.Seeds {
		n, err := urlnorm.Normalize(s)
		if err != nil {
			return fmt.Errorf("%w: seed %q: %w", errUsage, s, err)
		}
		opts.Seeds = append(opts.Seeds, n)
	}
	cfg.Seeds = opts.Seeds
	// The crawler's own queue holds only what the comparison asks for, in
	// the order it asks: first come, first served.
	cfg.Scheduler = "bfs"
	maxDur := cfg.MaxDuration
	cfg.MaxDuration = 0

	inj := &compareWeb{results: make(chan compare.Page, compareResultsBuffer), done: make(chan struct{})}
	inj.inj = &compare.Injection{Deliver: inj.deliver}
	sess, err := openCrawlBase(cfg, crawlExtras{
		command: "seedcrawl compare " + strings.Join(args, " "),
		logger:  log,
		inject:  inj.inj,
	})
	if err != nil {
		return err
	}
	defer sess.close()
	if err := compareMatchOptions(sess.db, &opts); err != nil {
		return err
	}
	if err := sess.newCrawler(nil, 0); err != nil {
		return err
	}
	if err := sess.serve(ctx, "compare", stderr); err != nil {
		return err
	}
	store := &compareStore{db: sess.db, sync: inj.inj.Sync}
	eo := opts.engine(log)
	eo.FrontierShare = *share
	cmp, err := compare.New(store, eo)
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if maxDur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxDur)
		defer cancel()
	}
	runErr := compareRun(ctx, sess, cmp, inj, cf.progress, stderr)
	// The frontier sample's pages are held back by the store until a
	// sequence needs them, and none will: write them now, also after
	// Ctrl-C, so --report scores what this run scored.
	if err := store.flush(context.WithoutCancel(ctx)); err != nil {
		return errors.Join(runErr, err)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded) {
		return runErr
	}
	if runErr != nil {
		// "compare: bfs after 2 pages: context canceled" says where, in
		// the words of the code; the user asked for the stop.
		why, where := "interrupted", strings.TrimPrefix(runErr.Error(), "compare: ")
		if errors.Is(runErr, context.DeadlineExceeded) {
			why = "out of time (--max-duration)"
		}
		for _, e := range []error{context.Canceled, context.DeadlineExceeded} {
			where = strings.TrimSuffix(where, ": "+e.Error())
		}
		fmt.Fprintf(stderr, "seedcrawl compare: %s (%s); rerun the same command to continue\n", why, where)
	}
	// Score what the comparison holds, as --report does with the db: the
	// pages revealed to the crawls and the frontier pages fetched for the
	// score.
	rep, err := cmp.Report(outs.scoreOptions())
	if err != nil {
		return fmt.Errorf("score: %w", err)
	}
	return outs.write(rep, filepath.Base(cfg.DB), stdout)
}

// compareCheckFlags checks what the command line gives of o before the db
// is opened, so that a mistyped scheduler, a negative budget or window
// creates no db; the options a db stores are checked against it later
// (compareMatchOptions, compare.New). Omniscient is left to compare.New,
// which says why a comparison cannot run it.
func compareCheckFlags(o compareOptions) error {
	if o.Budget < 0 {
		return fmt.Errorf("%w: --budget %d: give each scheduler at least 1 page", errUsage, o.Budget)
	}
	if o.Window < 0 {
		return fmt.Errorf("%w: --window %d: want 1 or more URLs in flight per scheduler (1: exactly sim's order)", errUsage, o.Window)
	}
	for _, name := range o.Schedulers {
		if strings.EqualFold(strings.TrimSpace(name), "omniscient") {
			continue
		}
		var ke *config.KeyError
		if errors.As(checkScheduler(name), &ke) {
			ke.Origin, ke.Key = config.Origin{Flag: "schedulers"}, "schedulers"
			return fmt.Errorf("%w: %w", errUsage, ke)
		}
	}
	return nil
}

// compareMatchOptions takes the options a db stores for what the command
// line leaves out, stores them on a first run, and refuses a mismatch: a
// comparison continued with other options would not replay.
func compareMatchOptions(db *storage.DB, o *compareOptions) error {
	raw, err := db.CompareOptions()
	if err != nil {
		return err
	}
	if raw != nil {
		var st compareOptions
		if err := json.Unmarshal(raw, &st); err != nil {
			return fmt.Errorf("read the comparison stored in %s: %w", db.Path(), err)
		}
		if len(o.Schedulers) == 0 {
			o.Schedulers = st.Schedulers
		}
		if o.Budget == 0 {
			o.Budget = st.Budget
		}
		if len(o.Seeds) == 0 {
			o.Seeds = st.Seeds
		}
		mine, _ := json.Marshal(o)
		if string(mine) != string(raw) {
			return fmt.Errorf("%w: %s holds a comparison with other options (%s); give the same schedulers, seeds, budget, window and damping to continue it, or use another --db", errUsage, db.Path(), raw)
		}
		return nil
	}
	if len(o.Schedulers) == 0 {
		return fmt.Errorf("%w: --schedulers is empty: name the schedulers to compare, e.g. bfs,fpr,fpr@100,opic", errUsage)
	}
	if o.Budget < 1 {
		return fmt.Errorf("%w: --budget %d: give each scheduler at least 1 page", errUsage, o.Budget)
	}
	if len(o.Seeds) == 0 {
		return fmt.Errorf("%w: no seed URLs: give SEED_URL arguments or --seeds FILE", errUsage)
	}
	// Validate before storing, so a typo does not pin the db.
	if _, err := compare.New(&compare.MemStore{}, o.engine(nil)); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	raw, err = json.Marshal(o)
	if err != nil {
		return fmt.Errorf("encode compare options: %w", err)
	}
	return db.SetCompareOptions(raw)
}

// compareRun runs the crawler and the comparison together until the
// comparison is done or ctx ends, then stops the crawler (shutdown order:
// comparison, crawler, and the caller closes the db).
func compareRun(ctx context.Context, sess *crawlSession, cmp *compare.Compare, web *compareWeb, progressEvery time.Duration, stderr io.Writer) error {
	crawlCtx, stopCrawl := context.WithCancel(ctx)
	defer stopCrawl()
	g := errgroup.Group{}
	g.Go(func() error {
		_, err := sess.c.Run(crawlCtx, nil)
		web.close()
		return err
	})
	start := time.Now()
	stopProgress := every(progressEvery, func() {
		var parts []string
		for _, s := range cmp.Sequences() {
			parts = append(parts, fmt.Sprintf("%s %d", s.Name, len(s.URLs)))
		}
		// Requests made, then the URLs asked of the crawler and not
		// answered yet: those wait in the crawler's frontier for their
		// host's turn, so their count can jump by every crawl's window
		// while the servers see one request per host and delay.
		sent, asked := cmp.RequestCounts()
		line := fmt.Sprintf("%7.1fs  requests %d (+%d asked)  downloaded: %s", time.Since(start).Seconds(), sent, asked, strings.Join(parts, ", "))
		if note := web.waitingNote(cmp.Waiting(), sess.fr, time.Now()); note != "" {
			line += "  " + note
		}
		fmt.Fprintln(stderr, line)
	})
	err := cmp.Run(ctx, web)
	close(web.done)
	stopProgress()
	stopCrawl()
	if cerr := g.Wait(); cerr != nil && err == nil {
		err = cerr
	}
	if ctx.Err() != nil && err != nil && !errors.Is(err, ctx.Err()) {
		err = fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	return err
}

// compareReport implements compare --report: New, Load, Report on the
// stored comparison.
func compareReport(ctx context.Context, path string, outs compareOutputs, stdout io.Writer, log *slog.Logger) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("open db: %w", err)
	}
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("open db: %w", err)
	}
	defer db.Close()
	raw, err := db.CompareOptions()
	if err != nil {
		return err
	}
	if raw == nil {
		return fmt.Errorf("%w: %s holds no comparison (seedcrawl score --db scores an ordinary crawl)", errUsage, path)
	}
	var o compareOptions
	if err := json.Unmarshal(raw, &o); err != nil {
		return fmt.Errorf("read the comparison stored in %s: %w", path, err)
	}
	cmp, err := compare.New(&compareStore{db: db}, o.engine(log))
	if err != nil {
		return err
	}
	if err := cmp.Load(ctx); err != nil {
		return err
	}
	rep, err := cmp.Report(outs.scoreOptions())
	if err != nil {
		return fmt.Errorf("score: %w", err)
	}
	return outs.write(rep, filepath.Base(path), stdout)
}

// scoreOptions are the scoring options the flags ask for. The frontier
// pages a comparison fetched for the score (--score-frontier-share) are
// always used; an ordinary crawl scored by seedcrawl score has none.
func (o compareOutputs) scoreOptions() compare.ScoreOptions {
	m, _ := compare.ParseUnfetched(*o.unfetched) // checked by check
	return compare.ScoreOptions{Crawl: *o.graph == "crawl", Frontier: true, Unfetched: m}
}

func (o compareOutputs) check() error {
	if *o.graph != "union" && *o.graph != "crawl" {
		return fmt.Errorf("%w: --score-graph %q: want union or crawl", errUsage, *o.graph)
	}
	if _, err := compare.ParseUnfetched(*o.unfetched); err != nil {
		return fmt.Errorf("%w: --score-unfetched %q: want host or dangling", errUsage, *o.unfetched)
	}
	if err := checkPlotPath(*o.plot); err != nil {
		return err
	}
	if _, err := chart.ParseLower(*o.lower); err != nil {
		return fmt.Errorf("%w: --plot-lower: %w", errUsage, err)
	}
	return nil
}

// write prints the report (table or JSON) and writes --out and --plot.
func (o compareOutputs) write(rep *compare.Report, name string, stdout io.Writer) error {
	out, err := createResults("--out", *o.out, *o.plot)
	if err != nil {
		return err
	}
	defer out.discard()
	if *o.json {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteTable(stdout)
	}
	if err != nil {
		return err
	}
	if err := out.table.write(rep.WriteCSV); err != nil {
		return err
	}
	if out.plot != nil {
		lower, _ := chart.ParseLower(*o.lower)
		c := chart.Crawl{
			Graph: name, Seeds: chart.Count(rep.Seeds, "seed"), Budget: rep.Reference,
			BudgetNote: "scored on the union graph of the pages downloaded",
			Pages:      rep.Pages, Upper: rep.Upper,
			Best:  chart.Curve{Name: "omniscient (union graph)", Cumulative: rep.Omniscient.Cumulative},
			Lower: lower, LogX: *o.logX, Title: *o.title,
		}
		for _, cv := range rep.Curves {
			c.Curves = append(c.Curves, chart.Curve{Name: cv.Scheduler, Cumulative: cv.Cumulative})
		}
		if !slices.ContainsFunc(rep.Curves, func(cv compare.Curve) bool { return cv.Scheduler == "bfs" }) {
			c.Baseline = c.Curves[0]
		}
		fig, err := c.Figure()
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		if err := out.plot.writeFigure(fig); err != nil {
			return err
		}
	}
	return nil
}
