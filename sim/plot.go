package sim

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// palette returns ten distinguishable line colours (Tableau 10).
func palette() []color.Color {
	hex := []uint32{0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0x79706e}
	cs := make([]color.Color, len(hex))
	for i, h := range hex {
		cs[i] = color.RGBA{R: uint8(h >> 16), G: uint8(h >> 8), B: uint8(h), A: 255}
	}
	return cs
}

// PlotOptions configures the plot. The zero value is an 8×5 inch plot with
// a linear page axis.
type PlotOptions struct {
	// LogX puts pages downloaded on a logarithmic axis, which spreads out
	// the first 1% of the crawl, where schedulers differ most.
	LogX bool
	// Width and Height default to 8 and 5 inches.
	Width, Height vg.Length
}

// Plot draws cumulative PageRank against pages downloaded: one line per
// scheduler, the upper bound U(k) dashed, with legend and axis labels.
func (r *Report) Plot(o PlotOptions) (*plot.Plot, error) {
	p := plot.New()
	name := r.Name
	if name == "" {
		name = "graph"
	}
	p.Title.Text = fmt.Sprintf("%s: cumulative PageRank of downloaded pages (%d seeds)", name, r.Seeds)
	p.X.Label.Text = "pages downloaded"
	p.Y.Label.Text = "cumulative PageRank"
	p.Y.Min = 0
	p.Legend.Top, p.Legend.Left = false, false
	if o.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text = "pages downloaded (log scale)"
		// On a log axis the curves are low at the left and high at the
		// right, so the legend goes top left.
		p.Legend.Top, p.Legend.Left = true, true
	} else {
		p.X.Min = 0
	}
	p.Add(plotter.NewGrid())

	xy := func(ys []float64) plotter.XYs {
		pts := make(plotter.XYs, 0, len(r.Pages)+1)
		if !o.LogX {
			pts = append(pts, plotter.XY{}) // the origin: nothing downloaded
		}
		for i, k := range r.Pages {
			pts = append(pts, plotter.XY{X: float64(k), Y: ys[i]})
		}
		return pts
	}
	upper, err := plotter.NewLine(xy(r.Upper))
	if err != nil {
		return nil, fmt.Errorf("sim: plot upper bound: %w", err)
	}
	upper.Color = color.Black
	upper.Width = vg.Points(1)
	upper.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(upper)
	p.Legend.Add("U(k) upper bound", upper)

	cs := palette()
	for i, c := range r.Curves {
		l, err := plotter.NewLine(xy(c.Cumulative))
		if err != nil {
			return nil, fmt.Errorf("sim: plot %s: %w", c.Scheduler, err)
		}
		l.Color = cs[i%len(cs)]
		l.Width = vg.Points(1.5)
		if i >= len(cs) {
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		}
		p.Add(l)
		p.Legend.Add(c.Scheduler, l)
	}
	return p, nil
}

// WritePlot writes the plot to w in format: svg, png, pdf, eps, jpg or tif.
func (r *Report) WritePlot(w io.Writer, format string, o PlotOptions) error {
	p, err := r.Plot(o)
	if err != nil {
		return err
	}
	if o.Width == 0 {
		o.Width = 8 * vg.Inch
	}
	if o.Height == 0 {
		o.Height = 5 * vg.Inch
	}
	wt, err := p.WriterTo(o.Width, o.Height, strings.ToLower(format))
	if err != nil {
		return fmt.Errorf("sim: plot as %q: %w", format, err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("sim: write plot: %w", err)
	}
	return nil
}

// SavePlot writes the plot to path, in the format its extension names
// (.svg, .png, .pdf, ...).
func (r *Report) SavePlot(path string, o PlotOptions) error {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	if ext == "" {
		return fmt.Errorf("sim: plot file %q has no extension: use .svg or .png", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("sim: create plot file: %w", err)
	}
	if err := r.WritePlot(f, ext, o); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("sim: write plot file %s: %w", path, err)
	}
	return nil
}
