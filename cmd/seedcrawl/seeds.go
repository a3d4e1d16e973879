package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/seeds"
)

// seedsFlags are the selector flags `seeds` and `eval seeds` share.
type seedsFlags struct {
	graphBase, dbPath, weights string
	graphFormat                string
	// candidates, with --db: the fetched live HTML pages (seeds are pages
	// to start from); nil with --graph.
	candidates           []bool
	k, hops, depth       int
	perHost              bool
	coreSize, newMembers int
	coverDensity         float64
	maxHubs              int
	seed                 uint64
}

func (f *seedsFlags) register(fs *flag.FlagSet) {
	graphFlagsVar(fs, &f.graphBase, &f.graphFormat)
	fs.StringVar(&f.dbPath, "db", "", "crawl database `FILE`: select on the graph a crawl stored")
	fs.IntVar(&f.k, "k", 10, "number of seeds `N`")
	fs.IntVar(&f.hops, "hops", seeds.DefaultHops, "crawl horizon `H`: coverage counts pages within H hops of a seed")
	fs.IntVar(&f.depth, "depth", seeds.DefaultDepth, "depth `D` of the depth-d weight of maxweight and rootscc (Zheng et al. use 2 or 3; D >= hops is the exact greedy, slow on large graphs)")
	fs.BoolVar(&f.perHost, "per-host", false, "spread seeds over hosts in proportion to host value, selecting each host's seeds independently")
	fs.StringVar(&f.weights, "weights", "", "user weights `FILE`: lines \"URL-or-node VALUE\" replacing page values (e.g. -10 spam, 10 clicked)")
	fs.IntVar(&f.coreSize, "core-size", 0, "hits-core: grow fixed-size cores of `N` pages instead of fixed cover density")
	fs.IntVar(&f.newMembers, "new-members", seeds.DefaultNewMembers, "hits-core: hubs, then authorities, added per growth step (`N`)")
	fs.Float64Var(&f.coverDensity, "cover-density", seeds.DefaultCoverDensity, "hits-core: minimum cover density `PCT` 100*|E(H,A)|/(|H||A|); 100 = complete bipartite")
	fs.IntVar(&f.maxHubs, "max-hubs", seeds.DefaultMaxHubs, "hits-core: cap on a core's hub set (`N`)")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed `N` (random, hits-core hub choice)")
}

// selectionFlagsErr says which of --k, --hops and --depth, the selection
// figures of seeds and run, is below 1; nil when none is.
func selectionFlagsErr(k, hops, depth int) error {
	switch {
	case k < 1:
		return fmt.Errorf("%w: --k %d: want at least 1 seed", errUsage, k)
	case hops < 1:
		return fmt.Errorf("%w: --hops %d: want at least 1", errUsage, hops)
	case depth < 1:
		return fmt.Errorf("%w: --depth %d: want at least 1", errUsage, depth)
	}
	return nil
}

// validate checks flag values a user can get wrong before any work is done;
// fs tells which flags were given.
func (f *seedsFlags) validate(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	switch {
	case f.coreSize > 0 && given["cover-density"]:
		// The two are the paper's alternative core extractions: one of
		// them would be silently ignored.
		return fmt.Errorf("%w: --core-size %d and --cover-density %g: give one (fixed-size cores or fixed cover density)", errUsage, f.coreSize, f.coverDensity)
	case f.k < 1 || f.hops < 1 || f.depth < 1:
		return selectionFlagsErr(f.k, f.hops, f.depth)
	case !(f.coverDensity > 0 && f.coverDensity <= 100): // NaN fails too
		return fmt.Errorf("%w: --cover-density %g: want a percentage in (0, 100]", errUsage, f.coverDensity)
	case f.coreSize < 0 || f.coreSize == 1:
		return fmt.Errorf("%w: --core-size %d: want 0 (fixed cover density) or at least 2", errUsage, f.coreSize)
	case f.newMembers < 1:
		return fmt.Errorf("%w: --new-members %d: want at least 1", errUsage, f.newMembers)
	case f.maxHubs < 1:
		return fmt.Errorf("%w: --max-hubs %d: want at least 1", errUsage, f.maxHubs)
	}
	return nil
}

// options returns the selector options for algo.
func (f *seedsFlags) options(algo string) seeds.Options {
	return seeds.Options{
		Algo: algo, K: f.k, Hops: f.hops, Depth: f.depth, PerHost: f.perHost,
		CoreSize: f.coreSize, NewMembers: f.newMembers, CoverDensity: f.coverDensity, MaxHubs: f.maxHubs,
		Rand: rand.New(rand.NewPCG(f.seed, 0)), Candidates: f.candidates,
	}
}

// input loads the graph and the crawl state: stored fetched/novel flags for
// --db; for --graph, pages without out-arcs count as the uncrawled frontier
// (seeds.FetchedByOutDegree).
func (f *seedsFlags) input(ctx context.Context, stderr io.Writer) (seeds.Input, error) {
	g, err := loadGraphFormat(ctx, f.graphBase, f.graphFormat, f.dbPath)
	if err != nil {
		return seeds.Input{}, fmt.Errorf("load graph: %w", err)
	}
	in := seeds.Input{G: g}
	if f.dbPath != "" {
		if in.Fetched, in.Novel, f.candidates, err = loadDBPageFlags(f.dbPath, g.N()); err != nil {
			return seeds.Input{}, err
		}
	} else {
		in.Fetched = seeds.FetchedByOutDegree(g)
	}
	if f.perHost && !g.HasHosts() {
		return seeds.Input{}, fmt.Errorf("%w: --per-host: the graph has no URLs, so no hosts", errUsage)
	}
	if f.weights != "" {
		if in.Weights, err = seedsReadWeights(f.weights, g, stderr); err != nil {
			return seeds.Input{}, err
		}
	}
	return in, nil
}

func seedsReadWeights(path string, g *graph.CSR, stderr io.Writer) (map[uint32]float64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--weights: %w", err)
	}
	defer fh.Close()
	w, unknown, err := seeds.ReadWeights(fh, path, g)
	if err != nil {
		return nil, fmt.Errorf("--weights: %w", err)
	}
	if len(unknown) > 0 {
		fmt.Fprintf(stderr, "seedcrawl: --weights %s: %d keys name no page of the graph and are ignored (first: %s)\n",
			path, len(unknown), unknown[0])
	}
	return w, nil
}

// runSeeds selects crawl seeds on a stored or given graph and explains each.
func runSeeds(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("seeds", stderr)
	var sf seedsFlags
	sf.register(fs)
	algo := fs.String("algo", seeds.AlgoMaxWeight, "selector `NAME`: "+strings.Join(seeds.Algos(), ", "))
	asJSON := fs.Bool("json", false, "print the result as JSON instead of a table")
	outPath := fs.String("out", "", "also write the seeds to `FILE`, one per line (URL, or node id without URLs), as a seed list for crawl")
	if err := parseFlagsOnly(fs, args, `usage: seedcrawl seeds (--db FILE | --graph BASENAME) --algo NAME --k N [--hops H] [--depth D] [--per-host] [--weights FILE] [--seed N] [--json] [--out FILE]

Selects K seeds with a selector of the literature and explains each: its score, the pages and
value it newly covers within H hops, its component or bipartite core.
  BUDG (Sharma & Bhagat): random, indegree0, outdegree, pagerank
  Zheng, Dmitriev & Giles: maxout, maxweight, maxscc, rootscc (greedy k-coverage within H hops)
  Daneshpajouh et al.: hits-core (HITS bipartite cores, one seed per core)

Page value w(p) = 1 + (out-links to unfetched pages) x (host's share of novel fetched pages).
--db reads which pages were fetched and novel; with --graph, pages without out-links count
as the unfetched frontier and every fetched page as novel.
`); err != nil {
		return err
	}
	if err := sf.validate(fs); err != nil {
		return err
	}
	if !seedsKnownAlgo(*algo) {
		return fmt.Errorf("%w: --algo %q: want one of %s", errUsage, *algo, strings.Join(seeds.Algos(), ", "))
	}
	out, err := createOutput("--out", *outPath)
	if err != nil {
		return err
	}
	defer out.discard()
	in, err := sf.input(ctx, stderr)
	if err != nil {
		return err
	}
	res, err := seeds.Select(ctx, in, sf.options(*algo))
	if err != nil {
		return err
	}
	if err := writeResult(stdout, *asJSON, res, res.WriteTable); err != nil {
		return err
	}
	if out != nil {
		return out.write(func(w io.Writer) error {
			bw := bufio.NewWriter(w)
			for _, s := range res.Seeds {
				if s.URL != "" {
					bw.WriteString(s.URL)
				} else {
					bw.WriteString(strconv.FormatUint(uint64(s.Node), 10))
				}
				bw.WriteByte('\n')
			}
			return bw.Flush()
		})
	}
	return nil
}

// writeResult prints a result of seeds or eval seeds: v as JSON with --json,
// else the table that table writes.
func writeResult(w io.Writer, asJSON bool, v any, table func(io.Writer) error) error {
	if asJSON {
		return writeJSON(w, v)
	}
	return table(w)
}

func seedsKnownAlgo(a string) bool {
	for _, k := range seeds.Algos() {
		if a == k {
			return true
		}
	}
	return false
}
