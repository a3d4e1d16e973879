package chart

import (
	"fmt"
	"strconv"
	"strings"
)

// Lower chooses the lower panel of a crawl figure, the one that spreads
// apart curves lying on top of one another in the upper panel.
type Lower int

const (
	// LowerDiff, the zero value, plots S(k) − S_base(k): the PageRank a
	// scheduler has gained over the baseline (breadth-first) after k pages.
	// Curves that all rise to near U(k) in the upper panel differ here on a
	// scale fitted to their differences alone; a curve far off the others
	// (a random crawl) is cut at the panel's edge (see Panel.Zoom) and seen
	// whole in the upper panel.
	LowerDiff Lower = iota
	// LowerShare plots S(k)/U(k): the share of the best possible PageRank
	// after k pages (1 = the k best pages). It magnifies the first pages,
	// where every S(k) is small.
	LowerShare
	// LowerGap plots the gap closure (S − S_base)/(S_omniscient − S_base):
	// 0 is as good as the baseline, 1 as good as the omniscient crawler,
	// whatever k. Where the two references nearly coincide (late in a
	// crawl) it is noisy; the axis shows −1 to 1.5 and cuts curves beyond.
	LowerGap
	// LowerNone draws the upper panel alone.
	LowerNone
)

// lowerNames are the names ParseLower accepts, in the order of the
// constants.
var lowerNames = [...]string{"diff", "share", "gap", "none"}

// LowerHelp describes the names ParseLower accepts, for a flag's usage.
const LowerHelp = "diff (S(k) minus bfs's), share (S(k)/U(k)), gap (gap closure between bfs and omniscient) or none"

// ParseLower parses diff, share, gap or none, in any case.
func ParseLower(s string) (Lower, error) {
	for i, n := range lowerNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Lower(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q: want %s", ErrLower, s, LowerHelp)
}

// String returns the name ParseLower parses.
func (l Lower) String() string {
	if l >= 0 && int(l) < len(lowerNames) {
		return lowerNames[l]
	}
	return "Lower(" + strconv.Itoa(int(l)) + ")"
}

// Curve is one scheduler's cumulative PageRank S(k) at Crawl.Pages.
type Curve struct {
	Name       string
	Cumulative []float64
}

// Crawl is what sim and compare plot: the cumulative PageRank S(k) of the
// first k pages each scheduler downloads, against k, with the upper bound
// U(k) (the sum of the k largest PageRank values).
type Crawl struct {
	Graph string // the graph's name, for the title
	// Seeds says what the crawls started from, e.g. "160 seeds
	// (top-pagerank:160)".
	Seeds string
	// Budget is the pages each crawl downloads; BudgetNote, when set, says
	// what limited it ("every page reachable from the seeds").
	Budget     int
	BudgetNote string
	Pages      []int
	Upper      []float64 // U(k) at Pages; nil: not drawn
	Curves     []Curve
	// Baseline is the curve LowerDiff subtracts; left empty, it is the
	// curve named "bfs" among Curves. Best is the top reference of LowerGap;
	// left empty, the curve named "omniscient".
	Baseline, Best Curve
	Lower          Lower
	LogX           bool
	// Title replaces the default first line, "GRAPH: cumulative PageRank
	// of the pages downloaded".
	Title string
}

// Figure builds the crawl figure. With LogX the point k = 0 is left out.
func (c *Crawl) Figure() (*Figure, error) {
	if len(c.Curves) == 0 || len(c.Pages) == 0 {
		return nil, fmt.Errorf("chart: crawl figure: %w", ErrNoData)
	}
	for _, cv := range c.Curves {
		if len(cv.Cumulative) != len(c.Pages) {
			return nil, fmt.Errorf("chart: crawl curve %s: %d values for %d page counts", cv.Name, len(cv.Cumulative), len(c.Pages))
		}
	}
	if c.Upper != nil && len(c.Upper) != len(c.Pages) {
		return nil, fmt.Errorf("chart: crawl upper bound: %d values for %d page counts", len(c.Upper), len(c.Pages))
	}
	xs := make([]float64, len(c.Pages))
	for i, k := range c.Pages {
		xs[i] = float64(k)
	}
	// Nothing downloaded, nothing gained: every curve starts at the origin
	// on a linear axis, and k = 0 is left out on a log axis.
	withOrigin := func(ys []float64) ([]float64, []float64) {
		if c.LogX {
			var x, y []float64
			for i := range xs {
				if xs[i] > 0 {
					x, y = append(x, xs[i]), append(y, ys[i])
				}
			}
			return x, y
		}
		if c.Pages[0] == 0 {
			return xs, ys
		}
		return append([]float64{0}, xs...), append([]float64{0}, ys...)
	}
	graph := c.Graph
	if graph == "" {
		graph = "graph"
	}
	f := &Figure{
		Title:  c.Title,
		XLabel: "pages downloaded k",
		LogX:   c.LogX,
	}
	if f.Title == "" {
		f.Title = graph + ": cumulative PageRank of the pages downloaded"
	}
	var sub []string
	if c.Seeds != "" {
		sub = append(sub, c.Seeds)
	}
	if c.Budget > 0 {
		b := "budget " + FormatTick(float64(c.Budget), 1) + " pages"
		if c.BudgetNote != "" {
			b += " (" + c.BudgetNote + ")"
		}
		sub = append(sub, b)
	}
	f.Subtitle = strings.Join(sub, "; ")
	if c.LogX {
		f.XLabel += " (log scale)"
	}
	upper := Panel{YLabel: "cumulative PageRank S(k)", FromZero: true, Weight: 2.5}
	if c.Upper != nil {
		x, y := withOrigin(c.Upper)
		upper.Series = append(upper.Series, Series{Name: "U(k) upper bound", X: x, Y: y, Reference: true})
	}
	for _, cv := range c.Curves {
		x, y := withOrigin(cv.Cumulative)
		upper.Series = append(upper.Series, Series{Name: cv.Name, X: x, Y: y})
	}
	f.Panels = []Panel{upper}

	switch c.Lower {
	case LowerNone:
	case LowerShare:
		if c.Upper == nil {
			return nil, fmt.Errorf("chart: crawl figure: the share panel needs the upper bound U(k)")
		}
		lower := Panel{YLabel: "share of U(k)", Weight: 1.5}
		lower.Series = ratioSeries(c.Curves, xs, nil, c.Upper, 0)
		f.Panels = append(f.Panels, lower)
	case LowerGap:
		base, err := c.reference(c.Baseline, "bfs")
		if err != nil {
			return nil, err
		}
		best, err := c.reference(c.Best, "omniscient")
		if err != nil {
			return nil, err
		}
		lower := Panel{YLabel: "gap closure\n(" + base.Name + " 0, " + best.Name + " 1)", ZeroLine: true, Weight: 1.5, Range: [2]float64{-1, 1.5}}
		span := make([]float64, len(c.Pages))
		for i := range span {
			span[i] = best.Cumulative[i] - base.Cumulative[i]
		}
		lower.Series = ratioSeries(c.Curves, xs, base.Cumulative, span, 1e-9)
		f.Panels = append(f.Panels, lower)
	case LowerDiff:
		base, err := c.reference(c.Baseline, "bfs")
		if err != nil {
			return nil, err
		}
		lower := Panel{YLabel: "S(k) − S_" + base.Name + "(k)", ZeroLine: true, Zoom: true, Weight: 1.5}
		for _, cv := range c.Curves {
			d := make([]float64, len(cv.Cumulative))
			for i := range d {
				d[i] = cv.Cumulative[i] - base.Cumulative[i]
			}
			x, y := withOrigin(d)
			lower.Series = append(lower.Series, Series{Name: cv.Name, X: x, Y: y})
		}
		f.Panels = append(f.Panels, lower)
	default:
		return nil, fmt.Errorf("chart: crawl figure: unknown lower panel %d", int(c.Lower))
	}
	return f, nil
}

// ratioSeries returns one series per curve: (S(k) − sub(k)) / den(k), sub
// nil for 0, at the points of xs where den(k) > eps. A point whose
// denominator vanishes is left out rather than drawn as a spike.
func ratioSeries(curves []Curve, xs, sub, den []float64, eps float64) []Series {
	var out []Series
	for _, cv := range curves {
		var x, y []float64
		for i, d := range den {
			if d > eps {
				v := cv.Cumulative[i]
				if sub != nil {
					v -= sub[i]
				}
				x, y = append(x, xs[i]), append(y, v/d)
			}
		}
		out = append(out, Series{Name: cv.Name, X: x, Y: y})
	}
	return out
}

// reference returns given if set, else the curve named name among Curves.
func (c *Crawl) reference(given Curve, name string) (Curve, error) {
	if given.Cumulative == nil {
		for _, cv := range c.Curves {
			if cv.Name == name {
				given = cv
			}
		}
	}
	if given.Cumulative == nil {
		return Curve{}, fmt.Errorf("chart: crawl figure: the %s panel needs the reference %s", c.Lower, name)
	}
	if len(given.Cumulative) != len(c.Pages) {
		return Curve{}, fmt.Errorf("chart: crawl reference %s: %d values for %d page counts", given.Name, len(given.Cumulative), len(c.Pages))
	}
	return given, nil
}
