package chart

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestGapClosure(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name          string
		s, base, best float64
		want          float64
	}{
		{"as good as the baseline", 0.2, 0.2, 0.6, 0},
		{"as good as the best", 0.6, 0.2, 0.6, 1},
		{"halfway", 0.4, 0.2, 0.6, 0.5},
		{"below the baseline", 0.1, 0.2, 0.6, -0.25},
		{"references coincide", 0.5, 0.5, 0.5 + 1e-13, nan},
		{"no baseline score", 0.5, nan, 0.6, nan},
	} {
		got := GapClosure(c.s, c.base, c.best)
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: GapClosure(%g, %g, %g) = %g, want %g", c.name, c.s, c.base, c.best, got, c.want)
		}
	}
}

// TestScoresWriteCSV: the extra curves follow Curves, each row carries
// the gap closure against the references, and NaN scores are empty cells.
func TestScoresWriteCSV(t *testing.T) {
	s := &Scores{
		Pages: []int{1, 2}, Checkpoint: []float64{0.5, 1}, Reference: 2, Upper: []float64{0.6, 1},
		Curves: []Curve{{Name: "bfs", Cumulative: []float64{0.2, 1}}, {Name: "fpr", Cumulative: []float64{0.4, math.NaN()}}},
		Base:   []float64{0.2, 1}, Best: []float64{0.6, 1},
	}
	var buf bytes.Buffer
	if err := s.WriteCSV(&buf, Curve{Name: "omniscient", Cumulative: []float64{0.6, 1}}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		ScoresCSVHeader,
		"bfs,1,0.5,0.2,0.6,0,true",
		"bfs,2,1,1,1,,true",
		"fpr,1,0.5,0.4,0.6,0.5,true",
		"fpr,2,1,,1,,true",
		"omniscient,1,0.5,0.6,0.6,1,true",
		"omniscient,2,1,1,1,,true",
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		if got := strings.Join(r, ","); got != want[i] {
			t.Errorf("row %d = %q, want %q", i, got, want[i])
		}
	}
}

// TestScoresWriteTableNoReferences: without the gap closure's references
// the table leaves the gap closure out instead of printing a column of
// dashes.
func TestScoresWriteTableNoReferences(t *testing.T) {
	s := &Scores{
		Pages: []int{1, 2, 3}, Checkpoint: []float64{0, 0.5, 1}, Reference: 3, Upper: []float64{0.5, 0.8, 1},
		Curves: []Curve{{Name: "fpr", Cumulative: []float64{0.4, 0.7, 1}}},
	}
	var buf bytes.Buffer
	if err := s.WriteTable(&buf, "S(k)"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "gap closure") {
		t.Errorf("gap closure without references:\n%s", out)
	}
	for _, want := range []string{"50%", "100%", "0.7000", "0.8000"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "0.4000") {
		t.Errorf("table shows a point of the fine grid:\n%s", out)
	}
}

func TestGrid(t *testing.T) {
	for _, tc := range []struct {
		name              string
		reference, points int
		pages             []int
		checkpoint        []float64
	}{
		// 1%, 2%, 5% and 10% of 10 are all page 1: it stands for the first.
		{"checkpoints share a page", 10, 2, []int{1, 2, 3, 5, 10}, []float64{0.01, 0.2, 0, 0.5, 1}},
		// 100 points on 3 pages would only repeat k values.
		{"points clamped to the reference", 3, 100, []int{1, 2, 3}, []float64{0.01, 0.5, 1}},
		{"no fine grid", 200, 0, []int{2, 4, 10, 20, 40, 100, 200}, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}},
	} {
		pages, checkpoint := Grid(tc.reference, tc.points)
		if !slices.Equal(pages, tc.pages) || !slices.Equal(checkpoint, tc.checkpoint) {
			t.Errorf("%s: Grid(%d, %d) = %v, %v; want %v, %v", tc.name, tc.reference, tc.points, pages, checkpoint, tc.pages, tc.checkpoint)
		}
	}
}
