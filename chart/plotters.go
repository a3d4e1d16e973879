package chart

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func lineStyle(s Style, reference bool) draw.LineStyle {
	w := vg.Points(1.5)
	if reference {
		w = vg.Points(1.1)
	}
	return draw.LineStyle{Color: s.Color, Width: w, Dashes: s.Dashes}
}

func glyphStyle(s Style) draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.Color, Radius: vg.Points(3), Shape: s.Shape}
}

// markersPerCurve is how many markers a dense curve carries: enough to
// identify it anywhere, few enough not to hide it.
const markersPerCurve = 8

// markerPoints returns where the k-th of n dense curves carries its
// markers: markersPerCurve points evenly spread along the (log) x axis,
// shifted by k/n of the spacing so that curves lying on top of one another
// show their markers side by side rather than stacked. A curve with few
// points is marked at every point.
func markerPoints(xy plotter.XYs, logX bool, k, n int) plotter.XYs {
	if len(xy) <= 3*markersPerCurve {
		return xy
	}
	t := func(x float64) float64 {
		if logX {
			return math.Log10(x)
		}
		return x
	}
	lo, hi := t(xy[0].X), t(xy[len(xy)-1].X)
	if !(hi > lo) {
		return xy[:1]
	}
	var out plotter.XYs
	step := (hi - lo) / markersPerCurve
	for j := range markersPerCurve {
		u := lo + step*(float64(j)+float64(k+1)/float64(n+1))
		// The first point at or after u, then interpolate linearly in t.
		i := sort.Search(len(xy), func(i int) bool { return t(xy[i].X) >= u })
		switch {
		case i == 0:
			out = append(out, xy[0])
		case i == len(xy):
			out = append(out, xy[len(xy)-1])
		default:
			a, b := xy[i-1], xy[i]
			ta, tb := t(a.X), t(b.X)
			w := 0.0
			if tb > ta {
				w = (u - ta) / (tb - ta)
			}
			x := a.X + (b.X-a.X)*w
			if logX {
				x = math.Pow(10, u)
			}
			out = append(out, plotter.XY{X: x, Y: a.Y + (b.Y-a.Y)*w})
		}
	}
	return out
}

// thumb draws a legend entry's sample: the line with its dash and, in its
// middle, the marker.
type thumb struct {
	style     Style
	reference bool
}

// Thumbnail implements plot.Thumbnailer.
func (t thumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(lineStyle(t.style, t.reference), c.Min.X, y, c.Max.X, y)
	if !t.reference {
		c.DrawGlyph(glyphStyle(t.style), vg.Point{X: c.Center().X, Y: y})
	}
}

// unlabelled keeps a ticker's marks but drops the labels, for the x axis
// of a panel that has another panel below it.
type unlabelled struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (u unlabelled) Ticks(min, max float64) []plot.Tick {
	ts := u.Ticker.Ticks(min, max)
	out := make([]plot.Tick, 0, len(ts))
	for _, t := range ts {
		if t.Label != "" { // only the labelled (major) marks: minor ones would crowd
			out = append(out, plot.Tick{Value: t.Value})
		}
	}
	return out
}

// grid draws light lines at the labelled ticks of both axes.
type grid struct{ x, y plot.Ticker }

// Plot implements plot.Plotter.
func (g grid) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	sty := draw.LineStyle{Color: color.Gray{Y: 0xdd}, Width: vg.Points(0.5)}
	for _, t := range g.x.Ticks(plt.X.Min, plt.X.Max) {
		if t.Label != "" {
			x := trX(t.Value)
			c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
		}
	}
	for _, t := range g.y.Ticks(plt.Y.Min, plt.Y.Max) {
		if t.Label != "" {
			y := trY(t.Value)
			c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
		}
	}
}

// hline draws a thin black horizontal line across the panel at y.
type hline struct{ y float64 }

// Plot implements plot.Plotter.
func (h hline) Plot(c draw.Canvas, plt *plot.Plot) {
	_, trY := plt.Transforms(&c)
	y := trY(h.y)
	c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(0.75)}, c.Min.X, y, c.Max.X, y)
}
