package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
)

// runRank computes PageRank or HITS scores of a dataset or crawled graph and
// writes one TSV row per node: "node url score" for PageRank (the
// normalised vector, summing to 1) or "node url hub authority" for HITS (each
// vector L2-normalised). node is the 0-based id of the input graph; url is
// empty when the graph has none. Rows are pure data so scripts can parse
// every line; --header adds a first row naming the columns.
func runRank(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rank", stderr)
	graphBase, graphFormat := graphFlags(fs)
	dbPath := fs.String("db", "", "crawl database `FILE`: rank the link graph it stores")
	algo := fs.String("algo", "", "ranking `ALGO`: pagerank or hits (required)")
	noLoops := fs.Bool("no-self-loops", false, "ignore links from a page to itself")
	outPath := fs.String("out", "-", "write the TSV to `FILE` (- for stdout)")
	damping := fs.Float64("damping", 0.85, "pagerank: damping `d`, in (0, 1)")
	iters := fs.Int("iterations", 0, "maximum iterations `K` (0: pagerank 200, hits 60)")
	tol := fs.Float64("tol", 0, "stop once the L1 change of an iteration is below `TOL` (0: pagerank 1e-10, hits runs all K)")
	header := fs.Bool("header", false, "write a first row naming the columns (node, url, score or hub, authority)")
	quiet := fs.Bool("q", false, "no progress on stderr")
	if err := parseFlagsOnly(fs, args, `usage: seedcrawl rank (--graph BASENAME | --db FILE) --algo pagerank|hits [--no-self-loops] [--out FILE.tsv]

Writes node<TAB>url<TAB>score (pagerank, sums to 1) or node<TAB>url<TAB>hub<TAB>authority
(hits, each L2-normalised), one row per node id (--header adds a row naming the columns).
`); err != nil {
		return err
	}
	switch {
	case *algo != "pagerank" && *algo != "hits":
		return fmt.Errorf("%w: --algo %q: want pagerank or hits", errUsage, *algo)
	case *iters < 0:
		return fmt.Errorf("%w: --iterations %d: want 0 (default) or more", errUsage, *iters)
	case !(*tol >= 0):
		return fmt.Errorf("%w: --tol %v: want 0 (default) or more", errUsage, *tol)
	}
	if err := checkDamping(*damping); err != nil {
		return err
	}
	var out *output
	if *outPath != "" && *outPath != "-" {
		o, err := createOutput("--out", *outPath)
		if err != nil {
			return err
		}
		out = o
		defer out.discard()
	}
	log := progressLogger(stderr, *quiet)

	start := time.Now()
	g, err := loadGraphFormat(ctx, *graphBase, *graphFormat, *dbPath)
	if errors.Is(err, errUsage) {
		return err
	}
	if err != nil {
		return fmt.Errorf("load graph: %w", err)
	}
	log.Info("graph loaded", "nodes", g.N(), "arcs", g.M(), "urls", g.URLs != nil, "took", time.Since(start).Round(time.Millisecond))
	if err := ctx.Err(); err != nil {
		return err
	}

	start = time.Now()
	var cols []string
	var scores [][]float64
	var st graph.IterStats
	switch *algo {
	case "pagerank":
		var pr []float64
		pr, st = graph.PageRank(g, graph.PageRankOptions{Damping: *damping, Tol: *tol, MaxIter: *iters, NoSelfLoops: *noLoops})
		cols, scores = []string{"score"}, [][]float64{pr}
	case "hits":
		var hub, auth []float64
		hub, auth, st = graph.HITS(g, graph.HITSOptions{Iterations: *iters, Tol: *tol, NoSelfLoops: *noLoops})
		cols, scores = []string{"hub", "authority"}, [][]float64{hub, auth}
	}
	if *algo == "hits" && *tol == 0 {
		// HITS without --tol runs all its iterations: no tolerance, so
		// nothing to converge to.
		log.Info(*algo, "iterations", st.Iterations, "delta", st.Delta, "took", time.Since(start).Round(time.Millisecond))
	} else {
		log.Info(*algo, "iterations", st.Iterations, "delta", st.Delta, "converged", st.Converged, "took", time.Since(start).Round(time.Millisecond))
	}
	if *algo == "pagerank" && !st.Converged {
		fmt.Fprintf(stderr, "seedcrawl rank: warning: pagerank stopped after %d iterations with L1 change %.3g, above the tolerance; raise --iterations\n", st.Iterations, st.Delta)
	}
	if err := ctx.Err(); err != nil {
		return err
	}

	write := func(w io.Writer) error { return rankWriteTSV(w, g.URLs, cols, scores, *header) }
	if out == nil {
		return write(stdout)
	}
	if err := out.write(write); err != nil {
		return err
	}
	log.Info("wrote scores", "file", *outPath, "rows", g.N())
	return nil
}

// rankWriteTSV writes one row per node, after the header "node url COLS..."
// when header is set. Scores use the shortest decimal form that reads back to
// the same float64.
func rankWriteTSV(w io.Writer, urls []string, cols []string, scores [][]float64, header bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if header {
		bw.WriteString("node\turl")
		for _, c := range cols {
			bw.WriteString("\t" + c)
		}
		bw.WriteByte('\n')
	}
	n := 0
	if len(scores) > 0 {
		n = len(scores[0])
	}
	buf := make([]byte, 0, 128)
	for v := 0; v < n; v++ {
		buf = strconv.AppendInt(buf[:0], int64(v), 10)
		buf = append(buf, '\t')
		if urls != nil {
			buf = append(buf, urls[v]...)
		}
		for _, s := range scores {
			buf = append(buf, '\t')
			buf = strconv.AppendFloat(buf, s[v], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("write scores: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write scores: %w", err)
	}
	return nil
}
