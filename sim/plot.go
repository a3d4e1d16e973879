package sim

import (
	"fmt"
	"io"

	"gonum.org/v1/plot/vg"

	"github.com/seedcrawl/seedcrawl/chart"
)

// PlotOptions configures the plot. The zero value is an 8×6.5 inch figure
// with a linear page axis and, below the curves, their difference to bfs.
type PlotOptions struct {
	// LogX puts pages downloaded on a logarithmic axis, which spreads out
	// the first 1% of the crawl, where schedulers differ most.
	LogX bool
	// Lower chooses the panel under the curves that separates schedulers
	// whose curves coincide: the difference to bfs (default), the share of
	// U(k), or none.
	Lower chart.Lower
	// Seeds describes the seeds for the subtitle, e.g. "top-pagerank:160";
	// empty: the number of seeds alone.
	Seeds string
	// Title replaces the default title, "NAME: cumulative PageRank of the
	// pages downloaded".
	Title string
	// Width and Height default to 8 and 5 inches (6.5 with a lower panel).
	Width, Height vg.Length
}

// Figure returns the plot of the report: one curve per scheduler of the
// cumulative PageRank against pages downloaded, the upper bound U(k)
// dashed, and the lower panel o.Lower names, which compares against the bfs
// reference (run even when not requested).
func (r *Report) Figure(o PlotOptions) (*chart.Figure, error) {
	c := chart.Crawl{
		Graph: r.Name, Seeds: chart.Count(r.Seeds, "seed"), Budget: r.Reachable,
		BudgetNote: "every page reachable from the seeds",
		Pages:      r.Pages, Upper: r.Upper,
		Baseline: chart.Curve{Name: "bfs", Cumulative: r.BFS.Cumulative},
		Best:     chart.Curve{Name: "omniscient", Cumulative: r.Omniscient.Cumulative},
		Lower:    o.Lower, LogX: o.LogX, Title: o.Title,
	}
	if o.Seeds != "" {
		c.Seeds += " (" + o.Seeds + ")"
	}
	for _, cv := range r.Curves {
		c.Curves = append(c.Curves, chart.Curve{Name: cv.Scheduler, Cumulative: cv.Cumulative})
	}
	f, err := c.Figure()
	if err != nil {
		return nil, fmt.Errorf("sim: plot: %w", err)
	}
	f.Width, f.Height = o.Width, o.Height
	return f, nil
}

// WritePlot writes the plot to w in format: svg, png or pdf.
func (r *Report) WritePlot(w io.Writer, format string, o PlotOptions) error {
	f, err := r.Figure(o)
	if err != nil {
		return err
	}
	if err := f.Render(w, format); err != nil {
		return fmt.Errorf("sim: plot: %w", err)
	}
	return nil
}

// SavePlot writes the plot to path, in the format its extension names
// (.svg, .png or .pdf).
func (r *Report) SavePlot(path string, o PlotOptions) error {
	f, err := r.Figure(o)
	if err != nil {
		return err
	}
	if err := f.Save(path); err != nil {
		return fmt.Errorf("sim: plot: %w", err)
	}
	return nil
}
