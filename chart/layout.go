package chart

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// This file lays a figure out: title, legend column, stacked panels.

func (f *Figure) draw(dc draw.Canvas) error {
	entries := f.styles()
	byName := map[string]entry{}
	for _, e := range entries {
		byName[e.name] = e
	}
	// One x range for every panel, so they line up.
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, p := range f.Panels {
		for _, s := range p.Series {
			for i := range min(len(s.X), len(s.Y)) {
				if usable(s.X[i], s.Y[i], f.LogX, p.LogY) {
					xmin, xmax = math.Min(xmin, s.X[i]), math.Max(xmax, s.X[i])
				}
			}
		}
	}
	if xmin > xmax {
		return ErrNoData
	}
	if xmin == xmax {
		xmin, xmax = pad1(xmin, f.LogX)
	}

	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	// Title and subtitle, centred above everything.
	top := dc.Max.Y - vg.Points(6)
	for _, t := range []struct {
		text string
		size vg.Length
		c    color.Color
	}{{f.Title, titleSize, color.Black}, {f.Subtitle, subtitleSize, color.Gray{Y: 0x40}}} {
		if t.text == "" {
			continue
		}
		sty := textStyle(t.size, t.c)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		dc.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top}, t.text)
		top -= sty.Height(t.text) + vg.Points(3)
	}
	top -= vg.Points(4)

	// The legend gets its own column on the right.
	leg := plot.NewLegend()
	leg.TextStyle = textStyle(legendSize, color.Black)
	leg.Left, leg.Top = true, true
	leg.ThumbnailWidth = vg.Points(30)
	leg.Padding = vg.Points(3)
	for _, e := range entries {
		leg.Add(e.name, thumb{e.style, e.reference})
	}
	legW := leg.Rectangle(dc).Size().X + vg.Points(16)
	// The x label is drawn here rather than by gonum/plot, which reserves
	// room for it around the arithmetic middle of the range: on a log axis
	// that is far right, and the panels would shrink for nothing.
	xlab := textStyle(labelSize, color.Black)
	xlab.XAlign, xlab.YAlign = draw.XCenter, draw.YBottom
	bottom := dc.Min.Y + vg.Points(4)
	if f.XLabel != "" {
		bottom += xlab.Height(f.XLabel) + vg.Points(4)
	}
	// Likewise the y labels, which gonum/plot centres on the arithmetic
	// middle of a log axis.
	ylab := textStyle(labelSize, color.Black)
	ylab.Rotation = math.Pi / 2
	ylab.XAlign, ylab.YAlign = draw.XCenter, draw.YTop
	var ylabW vg.Length
	for _, p := range f.Panels {
		if p.YLabel != "" {
			ylabW = max(ylabW, ylab.Height(p.YLabel)+vg.Points(6))
		}
	}
	area := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: dc.Min.X + vg.Points(4) + ylabW, Y: bottom},
		Max: vg.Point{X: dc.Max.X - legW, Y: top},
	}}

	plots := make([]*plot.Plot, len(f.Panels))
	for i := range f.Panels {
		p, err := f.panel(&f.Panels[i], i == len(f.Panels)-1, byName, xmin, xmax)
		if err != nil {
			return err
		}
		plots[i] = p
	}
	canvases := stack(area, f.Panels, plots)
	for i, p := range plots {
		p.Draw(canvases[i])
		if l := f.Panels[i].YLabel; l != "" {
			d := p.DataCanvas(canvases[i])
			dc.FillText(ylab, vg.Point{X: dc.Min.X + vg.Points(4), Y: (d.Min.Y + d.Max.Y) / 2}, l)
		}
	}
	if f.XLabel != "" {
		d := plots[len(plots)-1].DataCanvas(canvases[len(plots)-1])
		dc.FillText(xlab, vg.Point{X: (d.Min.X + d.Max.X) / 2, Y: dc.Min.Y + vg.Points(4)}, f.XLabel)
	}
	// Top-align the legend with the first panel's data area.
	dataTop := plots[0].DataCanvas(canvases[0]).Max.Y
	legX := dc.Max.X - legW + vg.Points(10)
	leg.Draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: legX, Y: dc.Min.Y},
		Max: vg.Point{X: dc.Max.X, Y: dataTop},
	}})

	notes := append([]string(nil), f.Notes...)
	for i := range f.Panels {
		var cut []string
		for si, o := range zoomOutliers(&f.Panels[i], f.LogX) {
			if o {
				cut = append(cut, f.Panels[i].Series[si].Name)
			}
		}
		if len(cut) > 0 {
			verb := "leave its range and are"
			if len(cut) == 1 {
				verb = "leaves its range and is"
			}
			notes = append(notes, fmt.Sprintf("%s panel: %s %s cut off at the edge.",
				ordinalPanel(i, len(f.Panels)), andList(cut), verb))
		}
	}
	ns := textStyle(legendSize-1, color.Gray{Y: 0x40})
	ns.YAlign = draw.YTop
	y := dataTop - leg.Rectangle(dc).Size().Y - vg.Points(14)
	for _, n := range notes {
		for _, line := range wrap(ns, n, dc.Max.X-legX-vg.Points(4)) {
			dc.FillText(ns, vg.Point{X: legX, Y: y}, line)
			y -= ns.Height(line) + vg.Points(1)
		}
		y -= vg.Points(5)
	}
	return nil
}

func ordinalPanel(i, n int) string {
	switch {
	case n == 1:
		return "This"
	case i == 0:
		return "Upper"
	case i == n-1:
		return "Lower"
	}
	return fmt.Sprintf("Panel %d", i+1)
}

// andList joins names as "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// wrap breaks text into lines no wider than w, at spaces.
func wrap(sty draw.TextStyle, text string, w vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && sty.Width(try) > w {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// zoomFactor is how far beyond the median extent a series must reach to be
// cut by Panel.Zoom.
const zoomFactor = 3

// zoomOutliers marks the series a zoomed panel cuts; nil if none.
func zoomOutliers(pn *Panel, logX bool) []bool {
	if !pn.Zoom || pn.LogY {
		return nil
	}
	ext := make([]float64, len(pn.Series))
	var sorted []float64
	for si, s := range pn.Series {
		for i := range min(len(s.X), len(s.Y)) {
			if usable(s.X[i], s.Y[i], logX, false) {
				ext[si] = math.Max(ext[si], math.Abs(s.Y[i]))
			}
		}
		if ext[si] > 0 {
			sorted = append(sorted, ext[si])
		}
	}
	if len(sorted) < 3 {
		return nil
	}
	sort.Float64s(sorted)
	med := sorted[len(sorted)/2]
	out := make([]bool, len(pn.Series))
	for si, e := range ext {
		out[si] = e > zoomFactor*med
	}
	return out
}

// pad1 widens a one-value range so it can be drawn.
func pad1(v float64, log bool) (float64, float64) {
	if log {
		return v / 2, v * 2
	}
	if v == 0 {
		return -1, 1
	}
	return v - math.Abs(v)/2, v + math.Abs(v)/2
}

// stack splits area into one canvas per panel, heights by weight, and
// shifts them so every panel's data area starts and ends at the same x.
func stack(area draw.Canvas, panels []Panel, plots []*plot.Plot) []draw.Canvas {
	var total float64
	for _, p := range panels {
		total += weight(p)
	}
	gap := vg.Points(10)
	avail := area.Max.Y - area.Min.Y - gap*vg.Length(len(panels)-1)
	out := make([]draw.Canvas, len(panels))
	y := area.Max.Y
	for i, p := range panels {
		h := avail * vg.Length(weight(p)/total)
		out[i] = draw.Canvas{Canvas: area.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: area.Min.X, Y: y - h}, Max: vg.Point{X: area.Max.X, Y: y},
		}}
		y -= h + gap
	}
	var left, right vg.Length
	for i, p := range plots {
		d := p.DataCanvas(out[i])
		left = max(left, d.Min.X-out[i].Min.X)
		right = max(right, out[i].Max.X-d.Max.X)
	}
	for i, p := range plots {
		d := p.DataCanvas(out[i])
		out[i].Min.X += left - (d.Min.X - out[i].Min.X)
		out[i].Max.X -= right - (out[i].Max.X - d.Max.X)
	}
	return out
}

func weight(p Panel) float64 {
	if p.Weight > 0 {
		return p.Weight
	}
	return 1
}

func textStyle(size vg.Length, c color.Color) draw.TextStyle {
	return draw.TextStyle{Color: c, Font: font.From(sans, size), Handler: plot.DefaultTextHandler}
}

// panel builds the plot of one panel. Only the bottom panel labels the
// shared x axis; the others keep its tick marks.
func (f *Figure) panel(pn *Panel, bottom bool, byName map[string]entry, xmin, xmax float64) (*plot.Plot, error) {
	p := plot.New()
	p.BackgroundColor = color.Transparent
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		// Only the font: the axes' own alignments place the labels.
		ax.Label.TextStyle.Font = font.From(sans, labelSize)
		ax.Tick.Label.Font = font.From(sans, tickSize)
		ax.Padding = 0
		ax.LineStyle.Width = vg.Points(0.75)
		ax.Tick.LineStyle.Width = vg.Points(0.75)
	}
	var xt plot.Ticker = LinearTicks{Integer: f.IntegerX}
	if f.LogX {
		p.X.Scale, xt = plot.LogScale{}, LogTicks{Integer: f.IntegerX}
	}
	if bottom {
		p.X.Tick.Marker = xt
	} else {
		p.X.Tick.Marker = unlabelled{xt}
	}

	// Fit y to the data unless told otherwise.
	ymin, ymax := math.Inf(1), math.Inf(-1)
	outlier := zoomOutliers(pn, f.LogX)
	for si, s := range pn.Series {
		if si < len(outlier) && outlier[si] {
			continue
		}
		for i := range min(len(s.X), len(s.Y)) {
			if usable(s.X[i], s.Y[i], f.LogX, pn.LogY) && s.X[i] >= xmin && s.X[i] <= xmax {
				ymin, ymax = math.Min(ymin, s.Y[i]), math.Max(ymax, s.Y[i])
			}
		}
	}
	if ymin > ymax {
		ymin, ymax = 0, 1
		if pn.LogY {
			ymin, ymax = 1, 10
		}
	}
	if pn.ZeroLine && !pn.LogY {
		ymin, ymax = math.Min(ymin, 0), math.Max(ymax, 0)
	}
	if ymin == ymax {
		ymin, ymax = pad1(ymin, pn.LogY)
	}
	var yt plot.Ticker = LinearTicks{}
	if pn.LogY {
		p.Y.Scale, yt = plot.LogScale{}, LogTicks{}
		// A tenth of a decade of air above and below.
		ymin, ymax = ymin/math.Pow(10, 0.1), ymax*math.Pow(10, 0.1)
	} else {
		// 4% of air on each side, except on the side FromZero pins to 0.
		air := 0.04 * (ymax - ymin)
		lo, hi := ymin-air, ymax+air
		switch {
		case pn.FromZero && ymin >= 0:
			lo = 0
		case pn.FromZero && ymax <= 0:
			hi = 0
		}
		ymin, ymax = lo, hi
	}
	if pn.Range[1] > pn.Range[0] {
		ymin, ymax = pn.Range[0], pn.Range[1]
	}
	p.Y.Tick.Marker = yt
	p.Add(grid{x: xt, y: yt})
	if pn.ZeroLine && !pn.LogY {
		p.Add(hline{y: 0})
	}

	// References first so contenders draw over them.
	order := make([]int, len(pn.Series))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pn.Series[order[a]].Reference && !pn.Series[order[b]].Reference })
	nContenders := 0
	for _, s := range pn.Series {
		if !s.Reference {
			nContenders++
		}
	}
	k := 0
	for _, si := range order {
		s := pn.Series[si]
		e := byName[s.Name]
		var xy plotter.XYs
		for i := range min(len(s.X), len(s.Y)) {
			if usable(s.X[i], s.Y[i], f.LogX, pn.LogY) {
				xy = append(xy, plotter.XY{X: s.X[i], Y: s.Y[i]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("chart: series %s: %w", s.Name, err)
		}
		l.LineStyle = lineStyle(e.style, e.reference)
		p.Add(l)
		if e.reference {
			continue
		}
		marks := markerPoints(xy, f.LogX, k, nContenders)
		k++
		sc, err := plotter.NewScatter(marks)
		if err != nil {
			return nil, fmt.Errorf("chart: series %s markers: %w", s.Name, err)
		}
		sc.GlyphStyle = glyphStyle(e.style)
		p.Add(sc)
	}
	// Last: plot.Add widens the axes to the data it is given.
	p.X.Min, p.X.Max = xmin, xmax
	p.Y.Min, p.Y.Max = ymin, ymax
	return p, nil
}
