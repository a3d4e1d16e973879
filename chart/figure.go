package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SVGText chooses how an SVG carries its text.
type SVGText int

const (
	// SVGOutlines, the zero value, draws every glyph as a filled path: the
	// figure needs no font and looks the same in every SVG renderer, at the
	// cost of text that cannot be selected.
	SVGOutlines SVGText = iota
	// SVGFontFace writes text elements and embeds the font they name as
	// base64 in an @font-face rule. Browsers honour it; librsvg and
	// Inkscape ignore @font-face and substitute a local font.
	SVGFontFace
)

// Series is one named curve. Points whose X or Y is NaN or infinite, or
// not positive on a log axis, are left out. X should ascend.
type Series struct {
	Name string
	X, Y []float64
	// Reference marks a series that is not a contender but a yardstick,
	// such as an upper bound: it is drawn grey and dashed, without markers.
	Reference bool
}

// Panel is one plot area of a figure; panels are stacked top to bottom
// and share the figure's x axis.
type Panel struct {
	YLabel string
	LogY   bool
	// FromZero starts the y axis at 0 (ends it there if every value is
	// negative) instead of fitting it to the data.
	FromZero bool
	// ZeroLine draws a thin black line at y = 0.
	ZeroLine bool
	// Weight is the panel's share of the figure's height relative to the
	// other panels; 0 counts as 1.
	Weight float64
	// Range, when Range[1] > Range[0], fixes the y axis to it; curves
	// leaving it are cut at its edges. Say so in YLabel.
	Range [2]float64
	// Zoom fits the y axis to the series that stay close to 0 and cuts
	// the outliers at its edges: a series is an outlier when its largest
	// |y| exceeds zoomFactor times the median of the series' largest |y|.
	// It is for panels of differences, where one far-off series would
	// otherwise flatten all the close ones.
	Zoom   bool
	Series []Series
}

// Figure is a titled stack of panels with one legend. The zero values of
// Width, Height and DPI give an 8-inch-wide figure, 5 inches tall with one
// panel and 6.5 with more, rasterised at 200 dots per inch.
type Figure struct {
	// Title is the first line above the panels; Subtitle, smaller, the
	// second (say what was run: graph, seeds, budget).
	Title, Subtitle string
	XLabel          string
	// LogX puts the shared x axis on a log scale.
	LogX bool
	// IntegerX keeps the x ticks on whole numbers (see LinearTicks.Integer).
	IntegerX bool
	Panels   []Panel
	// Notes are short remarks printed under the legend, wrapped to its
	// width. The figure adds one itself for series a zoomed panel cuts.
	Notes         []string
	Width, Height vg.Length
	DPI           int
	SVGText       SVGText
}

// Sizes of the text, in points: the figure is drawn at print size, so
// these are what the reader of a paper sees at 100%.
const (
	titleSize    = 13
	subtitleSize = 10
	labelSize    = 11
	tickSize     = 9.5
	legendSize   = 10
)

// sans is the typeface of every text: Liberation Sans, which gonum/plot
// registers in font.DefaultCache.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// FormatOf returns the format a file name's extension names: svg, png or
// pdf (any case).
func FormatOf(path string) (string, error) {
	switch f := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), ".")); f {
	case "svg", "png", "pdf":
		return f, nil
	}
	return "", fmt.Errorf("chart: file %q: %w", path, ErrFormat)
}

// Save renders the figure to path in the format its extension names. A
// failed render removes the file rather than leave half a figure.
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("chart: create %s: %w", path, err)
	}
	if err := f.Render(out, format); err != nil {
		out.Close()
		os.Remove(path)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("chart: write %s: %w", path, err)
	}
	return nil
}

// Render draws the figure to w as format: svg, png or pdf.
func (f *Figure) Render(w io.Writer, format string) error {
	width, height := f.Width, f.Height
	if width <= 0 {
		width = 8 * vg.Inch
	}
	if height <= 0 {
		height = 5 * vg.Inch
		if len(f.Panels) > 1 {
			height = 6.5 * vg.Inch
		}
	}
	dpi := f.DPI
	if dpi <= 0 {
		dpi = 200
	}
	var (
		canvas  vg.CanvasSizer
		outline *outlineCanvas
		writer  io.WriterTo
	)
	switch strings.ToLower(format) {
	case "svg":
		c := vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(f.SVGText == SVGFontFace))
		canvas, writer = c, c
		if f.SVGText != SVGFontFace {
			outline = &outlineCanvas{CanvasSizer: c}
			canvas = outline
		}
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
		canvas, writer = c, vgimg.PngCanvas{Canvas: c}
	case "pdf":
		// Outlines here too: gonum's PDF backend writes text in WinAnsi, which
		// garbles "×" and has no "−".
		c := vgpdf.New(width, height)
		outline = &outlineCanvas{CanvasSizer: c}
		canvas, writer = outline, c
	default:
		return fmt.Errorf("chart: render as %q: %w", format, ErrFormat)
	}
	if err := f.draw(draw.New(canvas)); err != nil {
		return err
	}
	if outline != nil && outline.err != nil {
		return outline.err
	}
	if _, err := writer.WriteTo(w); err != nil {
		return fmt.Errorf("chart: write %s: %w", format, err)
	}
	return nil
}

// entry is one legend line: a series name and how it is drawn.
type entry struct {
	name      string
	style     Style
	reference bool
}

// styles gives every distinct series name one style, in order of first
// appearance over all panels, so a scheduler looks the same in each panel
// and appears once in the legend.
func (f *Figure) styles() []entry {
	var out []entry
	seen := map[string]bool{}
	n := 0
	for _, p := range f.Panels {
		for _, s := range p.Series {
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			e := entry{name: s.Name, reference: s.Reference}
			if s.Reference {
				e.style = referenceStyle()
			} else {
				e.style = StyleOf(n)
				n++
			}
			out = append(out, e)
		}
	}
	return out
}

// usable reports whether (x, y) can be drawn on the figure's axes.
func usable(x, y float64, logX, logY bool) bool {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	return !(logX && x <= 0) && !(logY && y <= 0)
}
