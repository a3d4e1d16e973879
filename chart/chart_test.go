package chart

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/plotter"
)

// testFigure is a two-panel figure with 12 series, a reference and a far-off
// series the lower panel's zoom must cut.
func testFigure() *Figure {
	up := Panel{YLabel: "cumulative PageRank S(k)", FromZero: true, Weight: 2}
	low := Panel{YLabel: "S(k) − S_bfs(k)", ZeroLine: true, Zoom: true}
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	ref := make([]float64, len(xs))
	for i, x := range xs {
		ref[i] = 1 - math.Exp(-x/50)
	}
	up.Series = append(up.Series, Series{Name: "U(k) upper bound", X: xs, Y: ref, Reference: true})
	for s := range 12 {
		y, d := make([]float64, len(xs)), make([]float64, len(xs))
		for i, x := range xs {
			d[i] = 0.002 * float64(s) * math.Sin(x/30)
			if s == 11 {
				d[i] = -0.3 // far below the others
			}
			y[i] = ref[i]*0.9 + d[i]
		}
		name := "sched" + string(rune('a'+s))
		up.Series = append(up.Series, Series{Name: name, X: xs, Y: y})
		low.Series = append(low.Series, Series{Name: name, X: xs, Y: d})
	}
	return &Figure{Title: "test: cumulative PageRank", Subtitle: "12 seeds; budget 200 pages", XLabel: "pages downloaded k",
		Panels: []Panel{up, low}}
}

func render(t *testing.T, f *Figure, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f.Render(&b, format); err != nil {
		t.Fatalf("render %s: %v", format, err)
	}
	return b.Bytes()
}

func TestRenderFormats(t *testing.T) {
	f := testFigure()
	for _, logX := range []bool{false, true} {
		f.LogX = logX
		svg := render(t, f, "svg")
		if !bytes.Contains(svg, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(svg), []byte("</svg>")) {
			t.Errorf("logx=%v: not a complete SVG document", logX)
		}
		pngData := render(t, f, "PNG")
		img, err := png.Decode(bytes.NewReader(pngData))
		if err != nil {
			t.Fatalf("logx=%v: decode PNG: %v", logX, err)
		}
		// 8 × 6.5 inches at the default 200 dpi.
		if b := img.Bounds(); b.Dx() != 1600 || b.Dy() != 1300 {
			t.Errorf("PNG is %v, want 1600×1300", b)
		}
		pdf := render(t, f, "pdf")
		if !bytes.HasPrefix(pdf, []byte("%PDF")) {
			t.Errorf("logx=%v: PDF lacks its header", logX)
		}
		// Text is outlined in PDF too: no font, so no WinAnsi mangling of −.
		if bytes.Contains(pdf, []byte("/FontFile")) || bytes.Contains(pdf, []byte("/BaseFont")) {
			t.Errorf("logx=%v: PDF embeds a font instead of outlining its text", logX)
		}
	}
	if err := f.Render(&bytes.Buffer{}, "gif"); !errors.Is(err, ErrFormat) {
		t.Errorf("render gif: %v, want ErrFormat", err)
	}
	if err := (&Figure{Panels: []Panel{{}}}).Render(&bytes.Buffer{}, "svg"); !errors.Is(err, ErrNoData) {
		t.Errorf("render empty figure: %v, want ErrNoData", err)
	}
}

func TestSaveByExtension(t *testing.T) {
	dir := t.TempDir()
	f := testFigure()
	f.DPI = 40 // the size is not under test here
	for _, tc := range []struct {
		file   string
		prefix string
	}{{"a.png", "\x89PNG"}, {"a.SVG", "<?xml"}, {"a.pdf", "%PDF"}} {
		path := filepath.Join(dir, tc.file)
		if err := f.Save(path); err != nil {
			t.Fatalf("save %s: %v", tc.file, err)
		}
		b, err := os.ReadFile(path)
		if err != nil || !bytes.HasPrefix(b, []byte(tc.prefix)) {
			t.Errorf("%s: %v, starts %q, want %q", tc.file, err, b[:min(len(b), 8)], tc.prefix)
		}
	}
	for _, bad := range []string{"a.gif", "a", "a.svg.bak"} {
		if err := f.Save(filepath.Join(dir, bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("save %s: %v, want ErrFormat", bad, err)
		}
		if _, err := os.Stat(filepath.Join(dir, bad)); err == nil {
			t.Errorf("save %s left a file behind", bad)
		}
	}
}

// TestSVGNeedsNoInstalledFont: by default every glyph is a path, so the SVG
// names no font and holds no text element a viewer would have to typeset
// with whatever font it has.
func TestSVGNeedsNoInstalledFont(t *testing.T) {
	f := testFigure()
	svg := string(render(t, f, "svg"))
	for _, bad := range []string{"<text", "font-family"} {
		if strings.Contains(svg, bad) {
			t.Errorf("outline SVG contains %q", bad)
		}
	}
	// The glyphs are there as filled outlines: 22 more letters in the
	// title add hundreds of path commands (curves of each letter).
	curves := strings.Count(svg, "Q") + strings.Count(svg, "C")
	f.Title += " with more words in it"
	longer := string(render(t, f, "svg"))
	if more := strings.Count(longer, "Q") + strings.Count(longer, "C"); more < curves+100 {
		t.Errorf("a longer title has %d curve commands, the short one %d: text is not drawn as outlines", more, curves)
	}
}

// TestSVGFontFaceEmbedsTheFont: in font-face mode the SVG names Liberation
// Sans and carries that very font, base64, in an @font-face rule.
func TestSVGFontFaceEmbedsTheFont(t *testing.T) {
	f := testFigure()
	f.SVGText = SVGFontFace
	svg := string(render(t, f, "svg"))
	if !strings.Contains(svg, "<text") {
		t.Fatal("font-face SVG has no text elements")
	}
	m := regexp.MustCompile(`@font-face\{\s*font-family:"([^"]+)";[^}]*src: url\(data:font/ttf;charset=utf-8;base64,([A-Za-z0-9+/=]+)\)`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("no @font-face rule with base64 data")
	}
	if strings.Count(svg, m[1]) < 2 {
		t.Errorf("no text uses the embedded family %q", m[1])
	}
	raw, err := base64.StdEncoding.DecodeString(m[2])
	if err != nil {
		t.Fatalf("embedded font: %v", err)
	}
	fnt, err := sfnt.Parse(raw)
	if err != nil {
		t.Fatalf("embedded font does not parse: %v", err)
	}
	name, err := fnt.Name(nil, sfnt.NameIDFull)
	if err != nil || name != "Liberation Sans" {
		t.Errorf("embedded font is %q (%v), want Liberation Sans", name, err)
	}
	if !strings.Contains(m[1], "Liberation") {
		t.Errorf("@font-face family %q does not name Liberation", m[1])
	}
}

func TestStyleOfDistinct(t *testing.T) {
	keys := map[string]int{}
	for i := range 12 {
		k := StyleOf(i).Key
		if j, dup := keys[k]; dup {
			t.Errorf("series %d and %d share style %s", j, i, k)
		}
		keys[k] = i
	}
	colours, shapes := map[any]bool{}, map[string]bool{}
	for i := range 12 {
		s := StyleOf(i)
		colours[s.Color] = true
		shapes[strings.Split(s.Key, "/")[2]] = true
		if s.Color == referenceStyle().Color {
			t.Errorf("series %d has the reference colour", i)
		}
	}
	if len(colours) < 10 || len(shapes) != 12 {
		t.Errorf("12 series get %d colours and %d markers, want at least 10 and 12", len(colours), len(shapes))
	}
	// Any two of the first 60 differ in colour or marker.
	for i := range 60 {
		for j := range i {
			a, b := StyleOf(i), StyleOf(j)
			as, bs := strings.Split(a.Key, "/"), strings.Split(b.Key, "/")
			if as[0] == bs[0] && as[2] == bs[2] {
				t.Fatalf("series %d and %d differ only in dash: %s, %s", j, i, a.Key, b.Key)
			}
		}
	}
}

// TestFigureStyles: a series keeps its style in every panel and is listed
// once; references do not use up a style.
func TestFigureStyles(t *testing.T) {
	es := testFigure().styles()
	if len(es) != 13 {
		t.Fatalf("%d legend entries, want 13 (reference + 12)", len(es))
	}
	if !es[0].reference || es[0].style.Key != referenceStyle().Key {
		t.Errorf("first entry %+v, want the reference", es[0])
	}
	for i, e := range es[1:] {
		if e.style.Key != StyleOf(i).Key {
			t.Errorf("entry %s has %s, want %s", e.name, e.style.Key, StyleOf(i).Key)
		}
	}
}

func TestZoomCutsOnlyTheFarSeries(t *testing.T) {
	f := testFigure()
	out := zoomOutliers(&f.Panels[1], false)
	for i, o := range out {
		if o != (i == 11) {
			t.Errorf("series %d (%s): cut=%v", i, f.Panels[1].Series[i].Name, o)
		}
	}
	if zoomOutliers(&f.Panels[0], false) != nil {
		t.Error("an unzoomed panel cuts series")
	}
}

func TestMarkerPoints(t *testing.T) {
	f := testFigure()
	s := f.Panels[0].Series[1]
	few := markerPoints(toXYs(s.X[:10], s.Y[:10]), false, 0, 3)
	if len(few) != 10 {
		t.Errorf("a 10-point curve gets %d markers, want one per point", len(few))
	}
	for _, logX := range []bool{false, true} {
		a := markerPoints(toXYs(s.X, s.Y), logX, 0, 3)
		b := markerPoints(toXYs(s.X, s.Y), logX, 1, 3)
		if len(a) != markersPerCurve || len(b) != markersPerCurve {
			t.Fatalf("logx=%v: %d and %d markers, want %d", logX, len(a), len(b), markersPerCurve)
		}
		for j := range a {
			if a[j].X == b[j].X {
				t.Errorf("logx=%v: marker %d of two curves at the same x %v", logX, j, a[j].X)
			}
			if a[j].X < s.X[0] || a[j].X > s.X[len(s.X)-1] {
				t.Errorf("logx=%v: marker at %v outside the curve", logX, a[j].X)
			}
		}
	}
}

func toXYs(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i].X, out[i].Y = x[i], y[i]
	}
	return out
}
