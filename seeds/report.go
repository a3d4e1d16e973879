package seeds

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/chart"
)

// WriteTable writes the seeds as a table that explains each one: the
// selector's score, the pages and value it newly covers within Hops hops, its
// component or core, then the totals.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d of %d seeds, coverage within %d hops; score = %s\n",
		r.Algo, len(r.Seeds), r.K, r.Hops, r.Score)
	tw := chart.NewTabWriter(w)
	fmt.Fprintln(tw, "rank\tnode\tscore\tnew pages\tnew value\t  url")
	for _, s := range r.Seeds {
		url := s.URL
		if url == "" {
			url = "-"
		}
		if s.Filled {
			url += " (fill)"
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%s\t  %s\n", s.Rank, s.Node, fmtScore(s.Score), s.Pages, fmtNum(s.Value), url)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("seeds: write table: %w", err)
	}
	for _, s := range r.Seeds {
		switch {
		case s.Core != nil:
			c := s.Core
			fmt.Fprintf(w, "  seed %d (node %d): core around authority %d: %d hubs x %d authorities, %d arcs, cover density %.1f%%, HITS %d iterations\n",
				s.Rank, s.Node, c.TopAuthority, len(c.Hubs), len(c.Authorities), c.Arcs, c.Density, c.HITSIterations)
		case s.ComponentSize > 0:
			fmt.Fprintf(w, "  seed %d (node %d): strongly connected component of %d pages\n", s.Rank, s.Node, s.ComponentSize)
		}
	}
	fmt.Fprintf(w, "covered within %d hops: %d of %d pages (%s), value %s of %s (%s); reachable at any depth: %d pages (%s)\n",
		r.Hops, r.Pages, r.TotalPages, pct(float64(r.Pages), float64(r.TotalPages)),
		fmtNum(r.Value), fmtNum(r.TotalValue), pct(r.Value, r.TotalValue),
		r.Reachable, pct(float64(r.Reachable), float64(r.TotalPages)))
	for _, h := range r.Hosts {
		fmt.Fprintf(w, "host %s: %d seed(s), importance %s\n", h.Host, h.Seeds, fmtNum(h.Importance))
	}
	if r.Note != "" {
		fmt.Fprintf(w, "note: %s\n", r.Note)
	}
	if n := r.filled(); n > 0 {
		fmt.Fprintf(w, "(fill): %d of %d seeds came after %s's own candidates ran out: %s\n", n, len(r.Seeds), r.Algo, fillRule(r.Algo))
	}
	_, err := fmt.Fprintf(w, "selected in %s\n", r.Elapsed.Round(time.Microsecond))
	return err
}

// filled counts the seeds the selector's fill rule took.
func (r *Result) filled() int {
	n := 0
	for _, s := range r.Seeds {
		if s.Filled {
			n++
		}
	}
	return n
}

// fillRule says how a selector fills its seeds once its own candidates
// run out (Seed.Filled).
func fillRule(algo string) string {
	switch algo {
	case "indegree0":
		return "pages without in-links; the rest are pages with in-links, by out-degree"
	case "rootscc":
		return "the root components' pages; the rest are picked as maxweight picks them"
	}
	return "the rest are picked by the selector's fill rule"
}

// WriteTable writes the evaluation as two tables: coverage, distances and
// time per selector, then the mean PageRank per BFS depth.
func (e *Evaluation) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "seed evaluation: %d pages, %d arcs, k=%d, hops=%d, total value %s; random = mean of %d draws\n",
		e.N, e.M, e.K, e.Hops, fmtNum(e.TotalValue), e.RandomTrials)
	tw := chart.NewTabWriter(w)
	fmt.Fprintln(tw, "algo\tseeds\tpages\t% of all\tvs random\tvalue\tvs random\treachable\tgroups\tdist min/mean/max\tunreachable\ttime\t")
	for _, r := range e.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n",
			r.Algo, len(r.Seeds), r.Pages, pct(float64(r.Pages), float64(e.N)), signedPct(r.PagesOverRandom),
			fmtNum(r.Value), signedPct(r.ValueOverRandom), r.Reachable, r.Groups, fmtDist(r.Dist),
			fmt.Sprintf("%d/%d", r.Dist.Unreachable, r.Dist.Pairs), fmtDur(r.Elapsed))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("seeds: write table: %w", err)
	}
	fmt.Fprintf(w, "graph average distance (%d sampled sources): %.2f; groups are hits-core cores, single seeds otherwise\n",
		e.DistanceSamples, e.AvgDistance)
	fmt.Fprintf(w, "\nmean PageRank x N (1 = average page) of the pages at BFS depth t from the seeds\n")
	tw = chart.NewTabWriter(w)
	head := []string{"algo"}
	for t := 0; t <= e.Hops; t++ {
		head = append(head, "t="+strconv.Itoa(t))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range e.Rows {
		cells := []string{r.Algo}
		for _, x := range r.MeanPR {
			cells = append(cells, fmtPR(x))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("seeds: write table: %w", err)
	}
	for _, r := range e.Rows {
		if r.Note != "" {
			fmt.Fprintf(w, "note %s: %s\n", r.Algo, r.Note)
		}
	}
	return nil
}

// WriteCSV writes one row per selector with a header line. Seeds are
// space-separated node ids; pr_tN is the mean PageRank x N at depth N.
func (e *Evaluation) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"algo", "k", "hops", "seeds", "pages", "pages_over_random_pct", "value", "value_over_random_pct",
		"reachable", "groups", "dist_pairs", "dist_unreachable", "dist_min", "dist_mean", "dist_max",
		"graph_avg_distance", "select_ms"}
	for t := 0; t <= e.Hops; t++ {
		head = append(head, fmt.Sprintf("pr_t%d", t))
	}
	cw.Write(head)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	for _, r := range e.Rows {
		ids := make([]string, len(r.Seeds))
		for i, s := range r.Seeds {
			ids[i] = strconv.FormatUint(uint64(s), 10)
		}
		rec := []string{r.Algo, strconv.Itoa(e.K), strconv.Itoa(e.Hops), strings.Join(ids, " "),
			strconv.Itoa(r.Pages), f(r.PagesOverRandom), f(r.Value), f(r.ValueOverRandom),
			strconv.Itoa(r.Reachable), strconv.Itoa(r.Groups), strconv.Itoa(r.Dist.Pairs),
			strconv.Itoa(r.Dist.Unreachable), strconv.Itoa(r.Dist.Min), f(r.Dist.Mean), strconv.Itoa(r.Dist.Max),
			f(e.AvgDistance), f(float64(r.Elapsed) / float64(time.Millisecond))}
		for _, x := range r.MeanPR {
			rec = append(rec, f(x))
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("seeds: write csv: %w", err)
	}
	return nil
}

// PlotOptions configures the evaluation's plot. The zero value plots the
// depths on a linear axis under a title without the graph's name.
type PlotOptions struct {
	// Graph names the graph in the default title.
	Graph string
	// Title replaces the default title, "GRAPH: mean PageRank by BFS depth
	// from the seeds".
	Title string
	// LogX puts the depth on a log scale; depth 0 (the seeds themselves)
	// cannot be shown there and is left out.
	LogX bool
}

// Figure returns the plot of the evaluation: for each selector, the mean
// PageRank x N of the pages at BFS depth t from its seeds, t = 0..Hops, on
// a log scale, with the random baseline (mean of RandomTrials draws) as
// the grey dashed reference. Depths no page reaches are left out.
func (e *Evaluation) Figure(o PlotOptions) *chart.Figure {
	f := &chart.Figure{
		Title:    o.Title,
		XLabel:   "BFS depth t from the seeds",
		LogX:     o.LogX,
		IntegerX: true,
	}
	if f.Title == "" {
		f.Title = "mean PageRank by BFS depth from the seeds"
		if o.Graph != "" {
			f.Title = o.Graph + ": " + f.Title
		}
	}
	f.Subtitle = fmt.Sprintf("%d seeds per selector; coverage counted within %d hops; %s pages, %s arcs; random = mean of %d draws",
		e.K, e.Hops, chart.FormatTick(float64(e.N), 1), chart.FormatTick(float64(e.M), 1), e.RandomTrials)
	if o.LogX {
		f.XLabel += " (log scale; depth 0, the seeds, left out)"
	}
	p := chart.Panel{YLabel: "mean PageRank × N (1 = average page)", LogY: true}
	for _, r := range e.Rows {
		s := chart.Series{Name: r.Algo, Reference: r.Algo == AlgoRandom}
		for t, x := range r.MeanPR {
			s.X, s.Y = append(s.X, float64(t)), append(s.Y, x)
		}
		p.Series = append(p.Series, s)
	}
	f.Panels = []chart.Panel{p}
	return f
}

// Plot saves the plot of Figure, titled title (empty: the default), to
// path; the extension (.svg, .png, .pdf) picks the format.
func (e *Evaluation) Plot(path, title string) error {
	if err := e.Figure(PlotOptions{Title: title}).Save(path); err != nil {
		return fmt.Errorf("seeds: plot: %w", err)
	}
	return nil
}

// WritePlot writes the plot of Figure, titled title (empty: the default),
// to w in format: svg, png or pdf.
func (e *Evaluation) WritePlot(w io.Writer, format, title string) error {
	if err := e.Figure(PlotOptions{Title: title}).Render(w, format); err != nil {
		return fmt.Errorf("seeds: plot: %w", err)
	}
	return nil
}

func pct(x, total float64) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x/total)
}

func signedPct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", x)
}

func fmtNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

func fmtScore(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 5, 64)
}

func fmtPR(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

func fmtDist(d DistStats) string {
	if d.Pairs == d.Unreachable {
		return "-"
	}
	return fmt.Sprintf("%d/%.2f/%d", d.Min, d.Mean, d.Max)
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}
