package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/sim"
)

const simDefaultSchedulers = "bfs,fpr,fpr@2,fpr@20,fpr@100,opic,omniscient"

// runSim replays crawl schedulers on a known graph and scores them by the
// cumulative PageRank they download.
func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim", stderr)
	graphBase, graphFormat := graphFlags(fs)
	dbPath := fs.String("db", "", "crawl database `FILE`: simulate on the graph a crawl stored")
	histBase := fs.String("history", "", "older graph `BASENAME` (e.g. the previous cycle's): its PageRank is the prior of history and history@M, matched by URL (by id without URLs)")
	hostsPath := fs.String("hosts", "", "host map `FILE`: one host name or URL per node, line i = node i (.gz ok); for graphs without URLs")
	scheds := fs.String("schedulers", simDefaultSchedulers, "comma-separated `LIST` of "+strings.Join(scheduler.Names(), ", "))
	seedSpec := fs.String("seeds", "top-pagerank:160", "seeds `SPEC`: "+sim.SeedSpecHelp)
	damping := fs.Float64("damping", scheduler.DefaultDamping, "damping `d` for PageRank, fpr, fpr@M and rankmass-window")
	grid := fs.Int("grid", 200, "points of the fine grid in the CSV and plot (this many evenly and this many geometrically spaced)")
	randomSeed := fs.Uint64("random-seed", 1, "seed of the random scheduler (random@SEED overrides)")
	outPath := fs.String("out", "", "write the results as CSV (long form) to `FILE`")
	plotPath := fs.String("plot", "", "write the plot to `FILE` (.svg or .png)")
	plotLogX := fs.Bool("plot-logx", false, "plot pages downloaded on a log scale (spreads out the start of the crawl)")
	logX := fs.Bool("logx", false, "same as --plot-logx (the older name)")
	plotLower := fs.String("plot-lower", "diff", "lower `PANEL` of the plot, to tell apart curves that coincide: "+chart.LowerHelp)
	plotTitle := fs.String("title", "", "plot `TITLE` (default: GRAPH: cumulative PageRank of the pages downloaded)")
	gobench := fs.Bool("gobench", false, "also print one 'go test -bench' style line per scheduler (for benchstat)")
	quiet := fs.Bool("q", false, "no progress on stderr")
	if err := parseFlagsOnly(fs, args, `usage: seedcrawl sim (--graph BASENAME | --db FILE) [--schedulers LIST] [--seeds SPEC] [--out results.csv]
       [--plot curves.svg|png|pdf [--plot-logx] [--plot-lower diff|share|none] [--title TEXT]]

Replays each scheduler on the known graph (a download reveals a page's out-links; no HTTP,
politeness off) and reports the cumulative true PageRank of the pages downloaded after k pages.
The plot draws S(k) per scheduler with the upper bound U(k); below it, by default, each
curve minus bfs's, so that schedulers whose curves coincide above can be told apart.
`); err != nil {
		return err
	}
	if *grid < 1 {
		return fmt.Errorf("%w: --grid %d: want at least 1 point", errUsage, *grid)
	}
	// 0 would mean "default" to the libraries below: refuse it here.
	if err := checkDamping(*damping); err != nil {
		return err
	}
	if err := checkPlotPath(*plotPath); err != nil {
		return err
	}
	lower, err := chart.ParseLower(*plotLower)
	if err != nil {
		return fmt.Errorf("%w: --plot-lower: %w", errUsage, err)
	}
	names := splitList(*scheds)
	if len(names) == 0 {
		return fmt.Errorf("%w: --schedulers is empty", errUsage)
	}
	for _, n := range names {
		if _, err := scheduler.ByName(n, scheduler.Options{Damping: *damping, Truth: func(uint64) float64 { return 0 }}); err != nil {
			return fmt.Errorf("%w: --schedulers: %w", errUsage, err)
		}
	}
	out, err := createResults("--out", *outPath, *plotPath)
	if err != nil {
		return err
	}
	defer out.discard()

	log := progressLogger(stderr, *quiet)

	g, err := loadGraphFormat(ctx, *graphBase, *graphFormat, *dbPath)
	if err != nil {
		return fmt.Errorf("load graph: %w", err)
	}
	name := filepath.Base(*graphBase)
	if *dbPath != "" {
		name = strings.TrimSuffix(filepath.Base(*dbPath), filepath.Ext(*dbPath))
	}
	log.Info("graph loaded", "name", name, "nodes", g.N(), "arcs", g.M(), "hosts", g.HasHosts())

	var hosts []uint32
	if *hostsPath != "" {
		if hosts, err = sim.ReadHostsFile(*hostsPath, g.N()); err != nil {
			return err
		}
	} else if !g.HasHosts() {
		fmt.Fprintf(stderr, "seedcrawl sim: %s has no URLs, so no hosts: every link counts as intra-host and fpr@M orders exactly like fpr (give --hosts FILE to split them)\n", name)
	}

	pr, st := graph.PageRank(g, graph.PageRankOptions{Damping: *damping})
	log.Info("pagerank", "iterations", st.Iterations, "delta", st.Delta, "converged", st.Converged)
	seeds, err := sim.ParseSeeds(*seedSpec, g, pr)
	if err != nil {
		return fmt.Errorf("--seeds %s: %w", *seedSpec, err)
	}
	var hist []float64
	if *histBase != "" {
		if hist, err = sim.ReadHistory(*histBase, g, *damping); err != nil {
			return err
		}
	}
	s, err := sim.New(g, sim.Options{
		Seeds: seeds, PageRank: pr, Damping: *damping, Hosts: hosts, Grid: *grid,
		RandomSeed: *randomSeed, MeasureMemory: true, Logger: log, Name: name, History: hist,
	})
	if err != nil {
		return err
	}
	log.Info("simulating", "seeds", len(s.Seeds()), "reachable", s.Reachable(), "schedulers", strings.Join(names, ","))
	rep, err := s.Run(ctx, names)
	if err != nil {
		return err
	}
	if err := rep.WriteTable(stdout); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	if *gobench {
		fmt.Fprintln(stdout)
		if err := rep.WriteGoBench(stdout); err != nil {
			return err
		}
	}
	if out.table != nil {
		if err := out.table.write(rep.WriteCSV); err != nil {
			return err
		}
		log.Info("wrote CSV", "file", *outPath)
	}
	if out.plot != nil {
		fig, err := rep.Figure(sim.PlotOptions{LogX: *plotLogX || *logX, Lower: lower, Seeds: *seedSpec, Title: *plotTitle})
		if err != nil {
			return err
		}
		if err := out.plot.writeFigure(fig); err != nil {
			return err
		}
		log.Info("wrote plot", "file", *plotPath)
	}
	return nil
}
