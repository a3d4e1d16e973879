package chart

import (
	"errors"
	"fmt"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// outlineCanvas draws text as filled glyph outlines instead of text
// elements, so an SVG needs no font at all where it is shown. Everything
// else goes to the wrapped canvas unchanged.
type outlineCanvas struct {
	vg.CanvasSizer
	buf sfnt.Buffer
	// err keeps the first glyph that could not be drawn: vg.Canvas has no
	// error return, and a figure with a missing letter must not be written.
	err error
}

// FillString implements vg.Canvas: it fills the outline of every glyph of
// str, advancing and kerning as font.Face.Width measures, so text takes
// exactly the room gonum/plot laid out for it.
func (c *outlineCanvas) FillString(f font.Face, pt vg.Point, str string) {
	if f.Font.Size == 0 || f.Face == nil {
		return
	}
	// Loading at ppem = units per em (as a 26.6 value) makes every loaded
	// coordinate and advance come out in font units.
	upem := fixed.Int26_6(f.Face.UnitsPerEm())
	scale := f.Font.Size / vg.Points(float64(upem))
	var (
		x       fixed.Int26_6
		prev    sfnt.GlyphIndex
		hasPrev bool
		path    vg.Path
	)
	at := func(p fixed.Point26_6) vg.Point {
		return vg.Point{X: pt.X + vg.Length(float64(x+p.X))*scale, Y: pt.Y - vg.Length(float64(p.Y))*scale}
	}
	for _, r := range str {
		idx, err := f.Face.GlyphIndex(&c.buf, r)
		if err != nil {
			c.fail(fmt.Errorf("chart: glyph of %q in %s: %w", r, f.Name(), err))
			return
		}
		if hasPrev {
			k, err := f.Face.Kern(&c.buf, prev, idx, upem, xfont.HintingNone)
			if err == nil {
				x += k
			} else if !errors.Is(err, sfnt.ErrNotFound) {
				c.fail(fmt.Errorf("chart: kerning in %s: %w", f.Name(), err))
				return
			}
		}
		segs, err := f.Face.LoadGlyph(&c.buf, idx, upem, nil)
		if err != nil {
			c.fail(fmt.Errorf("chart: outline of %q in %s: %w", r, f.Name(), err))
			return
		}
		open := false
		for _, s := range segs {
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				if open {
					path.Close()
				}
				path.Move(at(s.Args[0]))
				open = true
			case sfnt.SegmentOpLineTo:
				path.Line(at(s.Args[0]))
			case sfnt.SegmentOpQuadTo:
				path.QuadTo(at(s.Args[0]), at(s.Args[1]))
			case sfnt.SegmentOpCubeTo:
				path.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
			}
		}
		if open {
			path.Close()
		}
		adv, err := f.Face.GlyphAdvance(&c.buf, idx, upem, xfont.HintingNone)
		if err != nil {
			c.fail(fmt.Errorf("chart: advance of %q in %s: %w", r, f.Name(), err))
			return
		}
		x += adv
		prev, hasPrev = idx, true
	}
	if len(path) > 0 {
		c.CanvasSizer.Fill(path)
	}
}

func (c *outlineCanvas) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}
