package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/recrawl"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// evalRecrawlUsage is the usage line of `eval recrawl`.
const evalRecrawlUsage = "usage: seedcrawl eval recrawl [--pages 20000] [--hosts 40] [--epochs 5] [--budget N] [--schedulers bfs,fpr,history]\n" +
	"       [--seed-algos given] [--refresh-policies optimal] [--refresh-share 0.5] [--refresh-pace even] [--reseed-every N] [--k N] [--csv FILE] [--plot FILE.svg|png|pdf]\n"

// evalRecrawlSteps are the shares of a cycle's budget at which the curves
// are sampled (CSV rows, tables, plot points).
var evalRecrawlSteps = []float64{0.05, 0.10, 0.15, 0.20, 0.30, 0.40, 0.50, 0.60, 0.70, 0.80, 0.90, 1.00}

// recrawlCurve is one cycle of one configuration, scored against the test
// web's truth of the epoch the cycle crawled.
type recrawlCurve struct {
	Scheduler, SeedAlgo, Refresh string
	Cycle, Epoch                 int
	// Fetches is the number of page requests of the cycle (robots.txt
	// left out), in the order the server answered them; Requests counts
	// robots.txt too, NotModified the 304 answers.
	Fetches, Requests, NotModified int
	Seconds                        float64
	// At step i (evalRecrawlSteps[i] of the budget): cumulative true
	// PageRank of the distinct pages fetched, the best possible (the
	// largest PageRank values), and the share of the epoch's new pages
	// fetched.
	PR, Omni, New []float64
	// NewPages is the number of pages new in the epoch (Truth.New).
	NewPages int
	// Fresh is the share of stored pages with a copy (an ETag) whose copy
	// is the epoch's: same ETag as the page the web serves now; FreshPR
	// the same share weighted by the epoch's true PageRank.
	Fresh, FreshPR float64
	// Diag says why the cycle found what it found early.
	Diag recrawlDiag
	// Found10 is, in the means of recrawlMeans, the mean of found10.
	Found10 float64
}

// found10 is the share of the epoch's new pages discovered (their URL
// read on a page requested) in the first 10% of the budget, fetched or
// not.
func (c *recrawlCurve) found10() float64 {
	if c.NewPages == 0 {
		return 0
	}
	return float64(c.Diag.Found10) / float64(c.NewPages)
}

// runEvalRecrawl runs the recrawl experiment: seedcrawl run, cycle after
// cycle, against an evolving test web served on loopback, one epoch per
// cycle, for every scheduler × seed selector × refresh policy asked.
func runEvalRecrawl(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval recrawl", stderr)
	pages := fs.Int("pages", 20000, "regular HTML pages `N` of the generated test web")
	hosts := fs.Int("hosts", 40, "regular hosts `H` of the test web")
	epochs := fs.Int("epochs", 5, "epochs `E`: cycle e+1 crawls epoch e")
	budget := fs.Int64("budget", 0, "fetch budget `B` of every cycle (0: pages/4)")
	scheds := fs.String("schedulers", "bfs,fpr,history", "comma-separated scheduler `LIST`")
	algos := fs.String("seed-algos", recrawl.AlgoGiven, "comma-separated `LIST` of seed selectors of cycles 2, 3, ... (given keeps cycle 1's)")
	policies := fs.String("refresh-policies", recrawl.RefreshOptimal, "comma-separated `LIST` of refresh policies: "+strings.Join(recrawl.RefreshPolicies(), ", "))
	share := fs.Float64("refresh-share", 0.5, "share `F` of each cycle's budget that may refetch known pages")
	pace := fs.String("refresh-pace", recrawl.PaceEven, "`PACE` of the refetches in a cycle (seedcrawl run --refresh-pace): "+strings.Join(recrawl.RefreshPaces(), ", "))
	workers := fs.Int("workers", 4, "crawl workers `N`")
	webSeed := fs.Int64("web-seed", 7, "generator seed `N` of the test web")
	change := fs.Float64("change", 0.2, "expected share `F` of pages whose content changes per epoch")
	newShare := fs.Float64("new", 0.08, "new pages per epoch, as a share `F` of the evolving pages")
	csvPath := fs.String("csv", "", "write the curves (one row per configuration, cycle and budget step) to `FILE`")
	plotPath := fs.String("plot", "", "plot the curves of cycles 2.. (mean) to `FILE` (.svg, .png or .pdf)")
	reseedEvery := fs.Uint64("reseed-every", 0, "rerun each selector but given every `N` fetched pages inside a cycle (seedcrawl run --reseed-every; 0: never)")
	k := fs.Int("k", 0, "seeds `K` a selector picks per cycle (0: as many as the test web's given seeds)")
	verbose := fs.Bool("v", false, "pass each cycle's progress lines to stderr")
	if err := parseFlagsOnly(fs, args, evalRecrawlUsage+`
Generates an evolving test web (EvolveWeb: heavy-tailed per-page change rates, new pages near
hubs and recently changed pages, new hosts), serves it on 127.0.0.1 and runs seedcrawl run on it,
cycle e+1 at epoch e with --pages-per-cycle B, for each configuration. Per cycle: cumulative true
PageRank (epoch e) of the pages fetched, against the best possible; share of the epoch's new pages
fetched; freshness of the stored copies after the cycle; requests, 304s and seconds. Then why
each cycle found what it found in its first 10%, and an oracle bound: the new pages it would have
found there had it also refetched first K known pages chosen knowing the epoch (those linking to
the most new pages, those adding the most) or knowing the web model (expected attachments).
`+recrawlColumnsHelp()); err != nil {
		return err
	}
	sl, al, pl := splitList(*scheds), splitList(*algos), splitList(*policies)
	switch {
	case *pages < 10 || *hosts < 1 || *epochs < 2:
		return fmt.Errorf("%w: want --pages ≥ 10, --hosts ≥ 1, --epochs ≥ 2", errUsage)
	case *budget < 0 || *workers < 1 || *k < 0:
		return fmt.Errorf("%w: --budget and --k must not be negative, --workers at least 1", errUsage)
	case len(sl) == 0 || len(al) == 0 || len(pl) == 0:
		return fmt.Errorf("%w: --schedulers, --seed-algos and --refresh-policies must not be empty", errUsage)
	case !(*share >= 0 && *share <= 1): // NaN fails too
		return fmt.Errorf("%w: --refresh-share %g: want 0..1", errUsage, *share)
	case !slices.Contains(recrawl.RefreshPaces(), *pace):
		return fmt.Errorf("%w: --refresh-pace %q: want one of %s", errUsage, *pace, strings.Join(recrawl.RefreshPaces(), ", "))
	}
	for _, s := range sl {
		if _, err := scheduler.ByName(s, scheduler.Options{Truth: func(uint64) float64 { return 0 }}); err != nil {
			return fmt.Errorf("%w: --schedulers: %w", errUsage, err)
		}
		if strings.HasPrefix(s, "omniscient") {
			return fmt.Errorf("%w: --schedulers: omniscient needs the truth inside the crawler; the table shows the best possible instead", errUsage)
		}
	}
	for _, a := range al {
		if a != recrawl.AlgoGiven && a != recrawl.AlgoNewPages && !seedsKnownAlgo(a) {
			return fmt.Errorf("%w: --seed-algos: unknown selector %q", errUsage, a)
		}
	}
	for _, p := range pl {
		if !slices.Contains(recrawl.RefreshPolicies(), p) {
			return fmt.Errorf("%w: --refresh-policies: unknown policy %q (known: %s)", errUsage, p, strings.Join(recrawl.RefreshPolicies(), ", "))
		}
	}
	if err := checkPlotPath(*plotPath); err != nil {
		return err
	}
	if *budget == 0 {
		*budget = int64(max(*pages/4, 1))
	}
	out, err := createResults("--csv", *csvPath, *plotPath)
	if err != nil {
		return err
	}
	defer out.discard()

	site, err := testweb.Generate(testweb.GenOptions{Seed: *webSeed, Pages: *pages, Hosts: *hosts, Preset: testweb.Clean,
		Evolution: testweb.Evolution{Model: testweb.EvolveWeb, Change: *change, New: *newShare}})
	if err != nil {
		return fmt.Errorf("generate test web: %w", err)
	}
	log := &testweb.Recorder{}
	web, err := testweb.New(site, testweb.Options{OnRequest: log.Add})
	if err != nil {
		return fmt.Errorf("test web: %w", err)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv, err := web.Start(sctx, "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("start test web: %w", err)
	}
	defer srv.Close()
	dir, err := os.MkdirTemp("", "seedcrawl-eval-recrawl-")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	resolve := filepath.Join(dir, "resolve.txt")
	if err := srv.WriteResolveFile(resolve); err != nil {
		return fmt.Errorf("write resolve file: %w", err)
	}
	truths := make([]*testweb.Truth, *epochs)
	for e := range truths {
		if truths[e], err = site.Truth(e); err != nil {
			return fmt.Errorf("truth of epoch %d: %w", e, err)
		}
	}
	given := site.Seeds()
	if *k == 0 {
		*k = len(given)
	}
	progressOut := io.Discard
	if *verbose {
		progressOut = stderr
	}
	var curves []recrawlCurve
	run := 0
	for _, s := range sl {
		for _, a := range al {
			for _, p := range pl {
				run++
				db := filepath.Join(dir, fmt.Sprintf("run%d.db", run))
				for e := 0; e < *epochs; e++ {
					if err := ctx.Err(); err != nil {
						return err
					}
					if err := web.SetEpoch(e); err != nil {
						return fmt.Errorf("epoch %d: %w", e, err)
					}
					log.Reset()
					cargs := []string{"--db", db, "--resolve-file", resolve, "--ca-file", srv.CAFile(), "--scope", "hosts:.test",
						"--delay", "0", "--delay-factor", "0", "--workers", strconv.Itoa(*workers), "--progress", "0",
						"--commit-interval", "100ms", "--scheduler", s, "--seed-algo", a, "--k", strconv.Itoa(*k),
						"--refresh-policy", p, "--refresh-share", strconv.FormatFloat(*share, 'g', -1, 64),
						"--pages-per-cycle", strconv.FormatInt(*budget, 10), "--cycles", strconv.Itoa(e + 1)}
					if *share < 1 {
						// run refuses a pace that has no share to pace.
						cargs = append(cargs, "--refresh-pace", *pace)
					}
					if *reseedEvery > 0 && a != recrawl.AlgoGiven {
						cargs = append(cargs, "--reseed-every", strconv.FormatUint(*reseedEvery, 10))
					}
					cargs = append(cargs, given...)
					t0 := time.Now()
					if err := runCycles(ctx, cargs, io.Discard, progressOut); err != nil {
						return fmt.Errorf("%s / %s / %s, cycle %d: %w", s, a, p, e+1, err)
					}
					c, err := scoreRecrawlCycle(log.Entries(), truths[e], db, *budget)
					if err != nil {
						return err
					}
					var prev *testweb.Truth
					if e > 0 {
						prev = truths[e-1]
					}
					if c.Diag, err = diagnoseRecrawlCycle(log.Entries(), truths[e], prev, db, uint32(e+1), *budget); err != nil {
						return err
					}
					c.Scheduler, c.SeedAlgo, c.Refresh, c.Cycle, c.Epoch = s, a, p, e+1, e
					c.Seconds = time.Since(t0).Seconds()
					curves = append(curves, c)
					fmt.Fprintf(stderr, "eval recrawl: %s / %s / %s cycle %d: %d fetches in %.1fs, PR@10%% %.4f, new@10%% %.3f, fresh %.3f\n",
						s, a, p, e+1, c.Fetches, c.Seconds, c.PR[1], c.New[1], c.Fresh)
				}
			}
		}
	}
	writeRecrawlTables(stdout, curves, *budget, *pages, *epochs)
	writeRecrawlDiag(stdout, curves, *budget)
	writeRecrawlOracle(stdout, curves)
	if err := out.table.write(func(w io.Writer) error { return writeRecrawlCSV(w, curves, *budget) }); err != nil {
		return err
	}
	if out.plot != nil {
		fig := recrawlFigure(curves, *budget, *pages, *epochs)
		if err := out.plot.writeFigure(fig); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
	}
	return nil
}

// scoreRecrawlCycle scores one cycle: the server's log of it (arrival
// order), the truth of the epoch it crawled and the db it left.
func scoreRecrawlCycle(log []testweb.Entry, t *testweb.Truth, db string, budget int64) (recrawlCurve, error) {
	var c recrawlCurve
	var err error
	pr := t.PageRank()
	best := slices.Clone(pr)
	slices.SortFunc(best, func(a, b float64) int { return cmp.Compare(b, a) })
	isNew := map[uint32]bool{}
	for _, v := range t.New() {
		isNew[v] = true
	}
	c.NewPages = len(isNew)
	var order []uint32 // page id per fetch; ^0 for a URL the truth does not know
	for _, e := range log {
		c.Requests++
		if e.Target == "/robots.txt" {
			continue
		}
		if e.Status == 304 {
			c.NotModified++
		}
		id, ok := t.ID(e.URL())
		if !ok {
			id = ^uint32(0)
		}
		order = append(order, id)
	}
	c.Fetches = len(order)
	seen := map[uint32]bool{}
	cum, found, k, bestSum := 0.0, 0, 0, 0.0
	for _, f := range evalRecrawlSteps {
		n := int(f * float64(budget))
		for ; k < n && k < len(order); k++ {
			id := order[k]
			if id == ^uint32(0) || seen[id] {
				continue
			}
			seen[id] = true
			cum += pr[id]
			if isNew[id] {
				found++
			}
		}
		bestSum = 0
		for _, x := range best[:min(n, len(best))] {
			bestSum += x
		}
		c.PR = append(c.PR, cum)
		c.Omni = append(c.Omni, bestSum)
		share := 0.0
		if c.NewPages > 0 {
			share = float64(found) / float64(c.NewPages)
		}
		c.New = append(c.New, share)
	}
	c.Fresh, c.FreshPR, err = recrawlFreshness(db, t)
	return c, err
}

// recrawlFreshness returns the share of stored pages with a copy (an
// ETag) whose ETag is the one the web serves at t's epoch, unweighted and
// weighted by t's PageRank.
func recrawlFreshness(path string, t *testweb.Truth) (float64, float64, error) {
	db, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if err != nil {
		return 0, 0, fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	pr := t.PageRank()
	var copies, fresh int
	var wAll, wFresh float64
	err = db.EachPage(func(p *storage.Page) error {
		if p.ETag == "" {
			return nil
		}
		copies++
		id, ok := t.ID(p.URL)
		if ok {
			wAll += pr[id]
		}
		if ok && t.Nodes[id].Status == 200 && t.Nodes[id].ETag == p.ETag {
			fresh++
			wFresh += pr[id]
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("read pages of %s: %w", path, err)
	}
	if copies == 0 || wAll == 0 {
		return 0, 0, nil
	}
	return float64(fresh) / float64(copies), wFresh / wAll, nil
}

// recrawlKey names a configuration.
func recrawlKey(c *recrawlCurve) string { return c.Scheduler + " / " + c.SeedAlgo + " / " + c.Refresh }

// recrawlMeans averages each configuration's cycles 2.. (curves in run
// order), keeping the order of first appearance; the counts of the
// oracle bound (Diag.Found10, Oracle, OracleBest, OracleExp) are summed.
func recrawlMeans(curves []recrawlCurve) ([]string, map[string]*recrawlCurve) {
	var keys []string
	sums := map[string]*recrawlCurve{}
	counts := map[string]int{}
	for i := range curves {
		c := &curves[i]
		if c.Cycle < 2 {
			continue
		}
		k := recrawlKey(c)
		m := sums[k]
		if m == nil {
			m = &recrawlCurve{Scheduler: c.Scheduler, SeedAlgo: c.SeedAlgo, Refresh: c.Refresh,
				PR: make([]float64, len(c.PR)), Omni: make([]float64, len(c.PR)), New: make([]float64, len(c.PR))}
			sums[k] = m
			keys = append(keys, k)
		}
		counts[k]++
		for j := range c.PR {
			m.PR[j] += c.PR[j]
			m.Omni[j] += c.Omni[j]
			m.New[j] += c.New[j]
		}
		m.Fresh += c.Fresh
		m.FreshPR += c.FreshPR
		m.Found10 += c.found10()
		m.Diag.add(&c.Diag)
		m.Seconds += c.Seconds
		m.Fetches += c.Fetches
		m.NotModified += c.NotModified
	}
	for k, m := range sums {
		n := float64(counts[k])
		for j := range m.PR {
			m.PR[j] /= n
			m.Omni[j] /= n
			m.New[j] /= n
		}
		m.Fresh /= n
		m.FreshPR /= n
		m.Found10 /= n
		m.Seconds /= n
		m.Fetches = int(float64(m.Fetches) / n)
		m.NotModified = int(float64(m.NotModified) / n)
	}
	return keys, sums
}

// writeRecrawlTables prints, for cycles 2.. averaged: PageRank at 5% and
// 10% of the budget and the share of the BFS→best gap it closes (against
// the bfs row with the same seeds and refresh policy, when there is one),
// new pages fetched at 10% and their gain over the given seeds, PageRank
// at the end, freshness; then the new pages discovered at 10% (found@10:
// their URL read, fetched or not) and, against the given seeds, that gain
// and the PageRank at 10%.
func writeRecrawlTables(w io.Writer, curves []recrawlCurve, budget int64, pages, epochs int) {
	keys, m := recrawlMeans(curves)
	fmt.Fprintf(w, "recrawl on an EvolveWeb test web of %d pages, %d epochs, budget %d fetches per cycle; cycles 2..%d averaged\n",
		pages, epochs, budget, epochs)
	fmt.Fprintf(w, "%-34s %8s %8s %7s %7s %8s %8s %8s %8s %7s %7s %6s %6s %8s %8s %8s\n", "scheduler / seeds / refresh",
		"PR@5%", "PR@10%", "gap@5", "gap@10", "new@10%", "vsgiven", "PR@100%", "vsgiven", "fresh", "freshPR", "304s", "secs",
		"found@10", "vsgiven", "PRvs@10")
	for _, k := range keys {
		c := m[k]
		gap := func(i int) string {
			b := m["bfs / "+c.SeedAlgo+" / "+c.Refresh]
			if b == nil || c.Omni[i] <= b.PR[i] {
				return "-"
			}
			return fmt.Sprintf("%.0f%%", 100*(c.PR[i]-b.PR[i])/(c.Omni[i]-b.PR[i]))
		}
		vs := func(x, ref float64) string {
			if ref <= 0 {
				return "-"
			}
			return fmt.Sprintf("%+.1f%%", 100*(x/ref-1))
		}
		newVs, prVs, foundVs, pr10Vs := "-", "-", "-", "-"
		if g := m[c.Scheduler+" / "+recrawl.AlgoGiven+" / "+c.Refresh]; g != nil {
			newVs, prVs = vs(c.New[1], g.New[1]), vs(c.PR[len(c.PR)-1], g.PR[len(g.PR)-1])
			foundVs, pr10Vs = vs(c.Found10, g.Found10), vs(c.PR[1], g.PR[1])
		}
		fmt.Fprintf(w, "%-34s %8.4f %8.4f %7s %7s %8.3f %8s %8.4f %8s %7.3f %7.3f %6d %6.1f %8.3f %8s %8s\n", k,
			c.PR[0], c.PR[1], gap(0), gap(1), c.New[1], newVs, c.PR[len(c.PR)-1], prVs, c.Fresh, c.FreshPR, c.NotModified, c.Seconds,
			c.Found10, foundVs, pr10Vs)
	}
	fmt.Fprintf(w, "best possible (largest PageRank values): PR@5%% %.4f, PR@10%% %.4f (mean over cycles)\n", firstOmni(m, keys, 0), firstOmni(m, keys, 1))
	fmt.Fprintln(w, "per cycle:")
	fmt.Fprintf(w, "%-34s %5s %7s %8s %8s %7s %7s %8s %7s %7s %6s %6s\n", "scheduler / seeds / refresh", "cycle", "fetches", "PR@5%", "PR@10%",
		"gap@5", "gap@10", "new@10%", "fresh", "freshPR", "304s", "secs")
	for i := range curves {
		c := &curves[i]
		gap := func(j int) string {
			for k := range curves {
				b := &curves[k]
				if b.Scheduler == "bfs" && b.SeedAlgo == c.SeedAlgo && b.Refresh == c.Refresh && b.Cycle == c.Cycle && c.Omni[j] > b.PR[j] {
					return fmt.Sprintf("%.0f%%", 100*(c.PR[j]-b.PR[j])/(c.Omni[j]-b.PR[j]))
				}
			}
			return "-"
		}
		fmt.Fprintf(w, "%-34s %5d %7d %8.4f %8.4f %7s %7s %8.3f %7.3f %7.3f %6d %6.1f\n", recrawlKey(c), c.Cycle, c.Fetches, c.PR[0], c.PR[1],
			gap(0), gap(1), c.New[1], c.Fresh, c.FreshPR, c.NotModified, c.Seconds)
	}
}

func firstOmni(m map[string]*recrawlCurve, keys []string, i int) float64 {
	if len(keys) == 0 {
		return 0
	}
	return m[keys[0]].Omni[i]
}

// writeRecrawlCSV writes one row per configuration, cycle and budget step.
func writeRecrawlCSV(w io.Writer, curves []recrawlCurve, budget int64) error {
	cw := csv.NewWriter(w)
	cw.Write(recrawlColumnNames())
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	for i := range curves {
		c := &curves[i]
		for j, s := range evalRecrawlSteps {
			cw.Write([]string{c.Scheduler, c.SeedAlgo, c.Refresh, strconv.Itoa(c.Cycle), strconv.Itoa(c.Epoch), f(s),
				strconv.Itoa(int(s * float64(budget))), f(c.PR[j]), f(c.Omni[j]), f(c.New[j]), strconv.Itoa(c.NewPages),
				f(c.Fresh), strconv.Itoa(c.Fetches), strconv.Itoa(c.Requests), strconv.Itoa(c.NotModified), f(c.Seconds), f(c.FreshPR),
				strconv.Itoa(c.Diag.Seeds), strconv.Itoa(c.Diag.SeedsAsked), strconv.Itoa(c.Diag.SeedsAsked10),
				strconv.Itoa(c.Diag.Known10), strconv.Itoa(c.Diag.Found10)})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// recrawlFigure plots the mean curves of cycles 2..: cumulative true
// PageRank and the share of new pages found against the share of the
// budget spent.
func recrawlFigure(curves []recrawlCurve, budget int64, pages, epochs int) *chart.Figure {
	keys, m := recrawlMeans(curves)
	xs := slices.Clone(evalRecrawlSteps)
	fig := &chart.Figure{
		Title:    "Recrawl cycles on an evolving test web",
		Subtitle: fmt.Sprintf("%d pages, %d epochs, %d fetches per cycle; mean of cycles 2..%d", pages, epochs, budget, epochs),
		XLabel:   "share of the cycle's budget fetched",
		Panels:   []chart.Panel{{YLabel: "cumulative true PageRank", FromZero: true}, {YLabel: "share of the epoch's new pages fetched", FromZero: true}},
	}
	for i, k := range keys {
		c := m[k]
		if i == 0 {
			fig.Panels[0].Series = append(fig.Panels[0].Series, chart.Series{Name: "best possible", X: xs, Y: c.Omni, Reference: true})
		}
		fig.Panels[0].Series = append(fig.Panels[0].Series, chart.Series{Name: k, X: xs, Y: c.PR})
		fig.Panels[1].Series = append(fig.Panels[1].Series, chart.Series{Name: k, X: xs, Y: c.New})
	}
	return fig
}
