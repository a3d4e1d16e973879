package chart

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func testCrawl() *Crawl {
	c := &Crawl{Graph: "hollins", Seeds: "160 seeds (top-pagerank:160)", Budget: 5662, BudgetNote: "every reachable page",
		Pages: []int{0, 10, 100, 1000}, Upper: []float64{0, 0.2, 0.5, 0.9}}
	for _, cv := range []Curve{
		{"bfs", []float64{0, 0.1, 0.3, 0.8}},
		{"fpr", []float64{0, 0.15, 0.4, 0.85}},
		{"omniscient", []float64{0, 0.2, 0.45, 0.88}},
	} {
		c.Curves = append(c.Curves, cv)
	}
	return c
}

func TestCrawlFigure(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lower     Lower
		logX      bool
		panels    int
		lowerY    []float64 // fpr in the lower panel
		firstX    float64   // of fpr in the upper panel
		wantLabel string
	}{
		{"difference to bfs", LowerDiff, false, 2, []float64{0, 0.05, 0.1, 0.05}, 0, "S(k) − S_bfs(k)"},
		{"share of U(k) skips U = 0", LowerShare, false, 2, []float64{0.75, 0.8, 0.85 / 0.9}, 0, "share of U(k)"},
		{"gap closure skips bfs = omniscient", LowerGap, false, 2, []float64{0.5, 2.0 / 3, 0.625}, 0, "gap closure"},
		{"upper panel alone", LowerNone, false, 1, nil, 0, ""},
		{"log x leaves out k = 0", LowerDiff, true, 2, []float64{0.05, 0.1, 0.05}, 10, "S(k) − S_bfs(k)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCrawl()
			c.Lower, c.LogX = tc.lower, tc.logX
			f, err := c.Figure()
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"hollins", "160 seeds", "5,662 pages"} {
				if !strings.Contains(f.Title+" "+f.Subtitle, want) {
					t.Errorf("title %q / %q lacks %q", f.Title, f.Subtitle, want)
				}
			}
			if len(f.Panels) != tc.panels {
				t.Fatalf("%d panels, want %d", len(f.Panels), tc.panels)
			}
			up := f.Panels[0]
			if !up.Series[0].Reference || up.Series[0].Name != "U(k) upper bound" {
				t.Errorf("first upper series %+v, want the U(k) reference", up.Series[0].Name)
			}
			if fpr := up.Series[2]; fpr.Name != "fpr" || fpr.X[0] != tc.firstX {
				t.Errorf("upper fpr starts at x=%v, want %v", fpr.X[0], tc.firstX)
			}
			if tc.panels == 1 {
				return
			}
			low := f.Panels[1]
			if !strings.HasPrefix(low.YLabel, tc.wantLabel) {
				t.Errorf("lower label %q, want %q", low.YLabel, tc.wantLabel)
			}
			fpr := low.Series[1]
			if len(fpr.Y) != len(tc.lowerY) {
				t.Fatalf("lower fpr %v, want %v", fpr.Y, tc.lowerY)
			}
			for i := range fpr.Y {
				if d := fpr.Y[i] - tc.lowerY[i]; d > 1e-12 || d < -1e-12 {
					t.Errorf("lower fpr[%d] = %v, want %v", i, fpr.Y[i], tc.lowerY[i])
				}
			}
			var b bytes.Buffer
			if err := f.Render(&b, "svg"); err != nil {
				t.Errorf("render: %v", err)
			}
		})
	}
}

func TestCrawlFigureErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *Crawl)
		want string
	}{
		{"no curves", func(c *Crawl) { c.Curves = nil }, "nothing to plot"},
		{"short curve", func(c *Crawl) { c.Curves[1].Cumulative = c.Curves[1].Cumulative[:2] }, "fpr: 2 values for 4"},
		{"short upper bound", func(c *Crawl) { c.Upper = c.Upper[:3] }, "upper bound: 3 values"},
		{"no baseline", func(c *Crawl) { c.Curves = c.Curves[1:] }, "needs the reference bfs"},
		{"share without U(k)", func(c *Crawl) { c.Upper, c.Lower = nil, LowerShare }, "needs the upper bound"},
		{"gap without omniscient", func(c *Crawl) { c.Curves, c.Lower = c.Curves[:2], LowerGap }, "needs the reference omniscient"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCrawl()
			tc.edit(c)
			if _, err := c.Figure(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestParseLower(t *testing.T) {
	for _, l := range []Lower{LowerDiff, LowerShare, LowerGap, LowerNone} {
		got, err := ParseLower(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Errorf("ParseLower(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := ParseLower("ratio"); !errors.Is(err, ErrLower) || !strings.Contains(err.Error(), "diff") {
		t.Errorf("ParseLower(ratio): %v, want an error listing the choices", err)
	}
}
