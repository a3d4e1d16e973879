package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Style is how one series is drawn: its colour, dash pattern and marker.
type Style struct {
	Color  color.Color
	Dashes []vg.Length // nil: a solid line
	Shape  draw.GlyphDrawer
	// Key names the combination ("rose/dash/ring"); two series look alike
	// exactly when their keys are equal.
	Key string
}

// palette is Paul Tol's "muted" qualitative scheme, designed to stay
// distinguishable under the common forms of colour blindness
// (https://personal.sron.nl/~pault/, "Colour schemes and templates"), with
// black as a tenth colour. The pale colours (cyan, sand) come late so that
// small figures use the darker ones; reference series are grey.
var palette = [...]struct {
	name string
	rgb  uint32
}{
	{"indigo", 0x332288}, {"rose", 0xCC6677}, {"green", 0x117733}, {"cyan", 0x88CCEE},
	{"wine", 0x882255}, {"teal", 0x44AA99}, {"purple", 0xAA4499}, {"olive", 0x999933},
	{"sand", 0xDDCC77}, {"black", 0x000000},
}

// dashPatterns are cycled together with colour and marker, so that curves
// lying on top of one another still show through each other's gaps.
var dashPatterns = [...]struct {
	name   string
	dashes []vg.Length
}{
	{"solid", nil},
	{"dash", []vg.Length{vg.Points(6), vg.Points(2.5)}},
	{"dot", []vg.Length{vg.Points(1.5), vg.Points(2)}},
	{"dashdot", []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}},
}

// shapes are twelve markers that differ in outline, not only in fill, so
// they survive greyscale printing.
var shapes = [...]struct {
	name  string
	shape draw.GlyphDrawer
}{
	{"ring", draw.RingGlyph{}},
	{"box", draw.BoxGlyph{}},
	{"triangle", draw.TriangleGlyph{}},
	{"diamond", diamondGlyph{fill: true}},
	{"cross", draw.CrossGlyph{}},
	{"circle", draw.CircleGlyph{}},
	{"square", draw.SquareGlyph{}},
	{"pyramid", draw.PyramidGlyph{}},
	{"plus", draw.PlusGlyph{}},
	{"opendiamond", diamondGlyph{}},
	{"down", downTriangleGlyph{fill: true}},
	{"opendown", downTriangleGlyph{}},
}

// StyleOf returns the style of the i-th series (i ≥ 0). Colour, dash and
// marker cycle with periods 10, 4 and 12: the first 10 series differ in
// colour, the first 12 in marker, and any two of the first lcm(10, 12) = 60
// in colour or marker (usually both, and often in dash too).
func StyleOf(i int) Style {
	if i < 0 {
		i = -i
	}
	c := palette[i%len(palette)]
	d := dashPatterns[i%len(dashPatterns)]
	s := shapes[i%len(shapes)]
	return Style{
		Color:  rgb(c.rgb),
		Dashes: d.dashes,
		Shape:  s.shape,
		Key:    fmt.Sprintf("%s/%s/%s", c.name, d.name, s.name),
	}
}

// referenceStyle is the style of reference series such as an upper bound:
// grey and evenly dashed, unlike any series of StyleOf.
func referenceStyle() Style {
	return Style{Color: color.Gray{Y: 0x70}, Dashes: []vg.Length{vg.Points(4), vg.Points(3)}, Key: "grey/reference"}
}

func rgb(h uint32) color.RGBA {
	return color.RGBA{R: uint8(h >> 16), G: uint8(h >> 8), B: uint8(h), A: 255}
}

// diamondGlyph is a square standing on a corner, filled or open.
type diamondGlyph struct{ fill bool }

// DrawGlyph implements draw.GlyphDrawer.
func (g diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.25
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	drawShape(c, sty, p, g.fill)
}

// downTriangleGlyph is a triangle pointing down, filled or open.
type downTriangleGlyph struct{ fill bool }

// DrawGlyph implements draw.GlyphDrawer.
func (g downTriangleGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius + (sty.Radius-sty.Radius*vg.Length(math.Sin(math.Pi/6)))/2
	dx := r * vg.Length(math.Cos(math.Pi/6))
	dy := r * vg.Length(math.Sin(math.Pi/6))
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - dx, Y: pt.Y + dy})
	p.Line(vg.Point{X: pt.X + dx, Y: pt.Y + dy})
	p.Close()
	drawShape(c, sty, p, g.fill)
}

func drawShape(c *draw.Canvas, sty draw.GlyphStyle, p vg.Path, fill bool) {
	c.Push()
	defer c.Pop()
	c.SetColor(sty.Color)
	if fill {
		c.Fill(p)
		return
	}
	c.SetLineWidth(vg.Points(0.75))
	c.SetLineDash(nil, 0)
	c.Stroke(p)
}
