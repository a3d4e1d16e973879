package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/seedcrawl/seedcrawl/seeds"
)

// evalSeedsUsage is the usage line of `eval seeds`, printed with that of
// `eval recrawl` by `eval -h` and a bare `eval` too.
const evalSeedsUsage = "usage: seedcrawl eval seeds (--db FILE | --graph BASENAME) [--algos all|a,b,c] [--k 10] [--hops 5] [--csv FILE]\n       [--plot FILE.svg|png|pdf [--plot-logx] [--title TEXT]]\n"

// runEval dispatches `eval seeds` and `eval recrawl`.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, evalSeedsUsage+evalRecrawlUsage)
		return fmt.Errorf("%w: name what to evaluate: seeds or recrawl", errUsage)
	}
	if isHelpWord(args[0]) {
		fmt.Fprint(helpOutput(stderr), evalSeedsUsage+evalRecrawlUsage)
		return nil
	}
	if args[0] == "recrawl" {
		return runEvalRecrawl(ctx, args[1:], stdout, stderr)
	}
	if args[0] != "seeds" {
		return fmt.Errorf("%w: unknown evaluation %q (known: seeds, recrawl)", errUsage, args[0])
	}
	return runEvalSeeds(ctx, args[1:], stdout, stderr)
}

// runEvalSeeds compares seed selectors on one graph against random seeds.
func runEvalSeeds(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval seeds", stderr)
	var sf seedsFlags
	sf.register(fs)
	algos := fs.String("algos", "all", "comma-separated selector `LIST`, or all: "+strings.Join(seeds.Algos(), ", "))
	trials := fs.Int("trials", seeds.DefaultRandomTrials, "random seed sets averaged into the random baseline (`N`)")
	samples := fs.Int("samples", seeds.DefaultDistanceSamples, "BFS sources sampled for the graph's average distance (`N`)")
	csvPath := fs.String("csv", "", "write one CSV row per selector to `FILE`")
	plotPath := fs.String("plot", "", "plot mean PageRank per BFS depth to `FILE` (.svg, .png or .pdf)")
	plotLogX := fs.Bool("plot-logx", false, "plot the depth on a log scale (depth 0, the seeds, is left out)")
	plotTitle := fs.String("title", "", "plot `TITLE` (default: GRAPH: mean PageRank by BFS depth from the seeds)")
	asJSON := fs.Bool("json", false, "print the evaluation as JSON instead of tables")
	if err := parseFlagsOnly(fs, args, evalSeedsUsage+`
Per selector: pages and value covered within H hops and the gain over random seeds, pages
reachable at any depth, min/mean/max shortest directed path between seed groups (hits-core
cores, single seeds otherwise) against the graph's sampled average distance, selection time,
and the mean PageRank of the pages at each BFS depth from the seeds (Daneshpajouh et al.).
`); err != nil {
		return err
	}
	if err := sf.validate(fs); err != nil {
		return err
	}
	if *trials < 1 || *samples < 1 {
		return fmt.Errorf("%w: --trials and --samples want at least 1", errUsage)
	}
	if err := checkPlotPath(*plotPath); err != nil {
		return err
	}
	var list []string
	if *algos != "all" {
		list = splitList(*algos)
		for _, a := range list {
			if !seedsKnownAlgo(a) {
				return fmt.Errorf("%w: --algos: unknown selector %q (known: %s)", errUsage, a, strings.Join(seeds.Algos(), ", "))
			}
		}
		if len(list) == 0 {
			return fmt.Errorf("%w: --algos is empty", errUsage)
		}
	}
	out, err := createResults("--csv", *csvPath, *plotPath)
	if err != nil {
		return err
	}
	defer out.discard()
	in, err := sf.input(ctx, stderr)
	if err != nil {
		return err
	}
	ev, err := seeds.Evaluate(ctx, in, seeds.EvalOptions{
		Algos: list, Select: sf.options(""), Seed: sf.seed, RandomTrials: *trials, DistanceSamples: *samples,
	})
	if err != nil {
		return err
	}
	if err := writeResult(stdout, *asJSON, evalJSON(ev), ev.WriteTable); err != nil {
		return err
	}
	if err := out.table.write(ev.WriteCSV); err != nil {
		return err
	}
	if out.plot != nil {
		name := filepath.Base(sf.graphBase)
		if sf.dbPath != "" {
			name = filepath.Base(sf.dbPath)
		}
		fig := ev.Figure(seeds.PlotOptions{Graph: name, Title: *plotTitle, LogX: *plotLogX})
		if err := out.plot.writeFigure(fig); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
	}
	return nil
}

// evalJSON replaces the NaNs JSON cannot carry (no page at a depth, no
// random baseline) with nulls.
func evalJSON(ev *seeds.Evaluation) any {
	type row struct {
		seeds.EvalRow
		PagesOverRandom *float64   `json:"pages_over_random"`
		ValueOverRandom *float64   `json:"value_over_random"`
		MeanPR          []*float64 `json:"mean_pr_by_depth"`
	}
	num := func(x float64) *float64 {
		if x != x {
			return nil
		}
		return &x
	}
	conv := func(r seeds.EvalRow) row {
		out := row{EvalRow: r, PagesOverRandom: num(r.PagesOverRandom), ValueOverRandom: num(r.ValueOverRandom)}
		for _, x := range r.MeanPR {
			out.MeanPR = append(out.MeanPR, num(x))
		}
		return out
	}
	rows := make([]row, len(ev.Rows))
	for i, r := range ev.Rows {
		rows[i] = conv(r)
	}
	return struct {
		*seeds.Evaluation
		Random row   `json:"random"`
		Rows   []row `json:"rows"`
	}{ev, conv(ev.Random), rows}
}
