package chart

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// ScoresCSVHeader is the header Scores.WriteCSV writes; its first six
// columns are a contract for tools reading sim's and compare's CSV.
const ScoresCSVHeader = "scheduler,pages,fraction,cumulative_pagerank,upper_bound,gap_closure,checkpoint"

// Checkpoints are the fractions of the reference k (sim's reachable pages,
// compare's budget) at which the tables show S(k).
func Checkpoints() []float64 { return []float64{0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1} }

// Grid returns the k values S(k) is sampled at for a reference of k pages,
// ascending and distinct: the Checkpoints, k = ⌈fraction·reference⌉, then
// points evenly spaced k and points geometrically spaced ones
// (reference^(i/points), for a log axis). checkpoint[i] is the fraction
// pages[i] stands for, or 0 for a point of the fine grid only. points is
// clamped to reference: more would only repeat k values, and the clamp
// keeps a typo such as --grid 1e12 from allocating them. sim and compare
// sample on this one grid, so that their Scores line up.
func Grid(reference, points int) (pages []int, checkpoint []float64) {
	points = min(points, reference)
	cp := map[int]float64{}
	var ks []int
	for _, f := range Checkpoints() {
		k := max(1, int(math.Ceil(f*float64(reference)-1e-9)))
		if _, dup := cp[k]; !dup { // on tiny crawls 1% and 2% may both be page 1
			cp[k] = f
		}
		ks = append(ks, k)
	}
	for i := 1; i <= points; i++ {
		ks = append(ks, max(1, int(math.Round(float64(i)*float64(reference)/float64(points)))))
		ks = append(ks, max(1, int(math.Round(math.Pow(float64(reference), float64(i)/float64(points))))))
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	fr := make([]float64, len(ks))
	for i, k := range ks {
		fr[i] = cp[k]
	}
	return ks, fr
}

// Scores is the text form of what Crawl draws: the cumulative PageRank S(k)
// of each crawl on a grid of k values, the upper bound U(k) and the gap
// closure between two references. sim and compare write their S(k) tables
// and their long CSV through it, so that a tool reading one reads the
// other.
type Scores struct {
	Pages []int // the grid of k values, ascending
	// Checkpoint is the fraction of Reference Pages[i] stands for (0.01,
	// 0.02, 0.05, 0.1, 0.2, 0.5 or 1), or 0 for a point of the fine grid
	// only. The tables show the checkpoints alone.
	Checkpoint []float64
	Reference  int       // the k that fraction 1 stands for
	Upper      []float64 // U(k) at Pages
	Curves     []Curve
	// Base and Best are S(k) of the gap closure's references (bfs and the
	// omniscient crawl); with Base nil the gap closure is undefined.
	Base, Best []float64
}

// GapClosure returns (s − base)/(best − base): 0 is as good as the
// baseline, 1 as good as the best reference. It is NaN where base is NaN
// or where the references are within 1e-12 of each other, so that the
// noise of two nearly equal references never reads as a result.
func GapClosure(s, base, best float64) float64 {
	if math.IsNaN(base) || math.Abs(best-base) <= 1e-12 {
		return math.NaN()
	}
	return (s - base) / (best - base)
}

// gapClosure returns the gap closure of cumulative at grid point i, NaN
// without references.
func (s *Scores) gapClosure(cumulative []float64, i int) float64 {
	if s.Base == nil || s.Best == nil {
		return math.NaN()
	}
	return GapClosure(cumulative[i], s.Base[i], s.Best[i])
}

// Checkpoints returns the grid indexes of the checkpoints.
func (s *Scores) Checkpoints() []int {
	var cps []int
	for i, f := range s.Checkpoint {
		if f > 0 {
			cps = append(cps, i)
		}
	}
	return cps
}

// WriteCSV writes the long form: ScoresCSVHeader, then one row per curve
// (Curves, then extra) and grid point. fraction is pages/Reference;
// cumulative_pagerank is empty where S(k) is NaN (beyond an unfinished
// crawl's downloads), gap_closure where it is undefined; checkpoint is true
// at the checkpoints.
func (s *Scores) WriteCSV(w io.Writer, extra ...Curve) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(strings.Split(ScoresCSVHeader, ",")); err != nil {
		return fmt.Errorf("chart: write csv: %w", err)
	}
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 12, 64)
	}
	for _, curves := range [][]Curve{s.Curves, extra} {
		for _, c := range curves {
			for i, k := range s.Pages {
				rec := []string{
					c.Name, strconv.Itoa(k), f(float64(k) / float64(s.Reference)),
					f(c.Cumulative[i]), f(s.Upper[i]), f(s.gapClosure(c.Cumulative, i)), strconv.FormatBool(s.Checkpoint[i] > 0),
				}
				if err := cw.Write(rec); err != nil {
					return fmt.Errorf("chart: write csv: %w", err)
				}
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("chart: write csv: %w", err)
	}
	return nil
}

// NewTabWriter returns the tab writer of every right-aligned text table the
// evaluations print, so that their columns line up alike.
func NewTabWriter(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

// FormatScore formats an S(k) or gap closure value for a table: four
// decimals, "-" for NaN (undefined, or beyond a crawl's downloads).
func FormatScore(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// FormatFraction formats a checkpoint's fraction as a percentage: "5%".
func FormatFraction(f float64) string {
	return strconv.FormatFloat(100*f, 'g', 3, 64) + "%"
}

// WriteTable writes S(k) at the checkpoints under the line title: a row of
// percentages, a row of k, U(k), then refs (reference crawls shown but not
// scored, such as the omniscient crawl) and Curves. With both gap closure
// references it adds the gap closure of each of Curves.
func (s *Scores) WriteTable(w io.Writer, title string, refs ...Curve) error {
	cps := s.Checkpoints()
	tw := NewTabWriter(w)
	row := func(label string, vals func(i int) string) {
		fmt.Fprintf(tw, "%s\t", label)
		for _, i := range cps {
			fmt.Fprintf(tw, "%s\t", vals(i))
		}
		fmt.Fprintln(tw)
	}
	pct := func(i int) string { return FormatFraction(s.Checkpoint[i]) }
	fmt.Fprintf(w, "\n%s\n", title)
	row("scheduler", pct)
	row("k", func(i int) string { return strconv.Itoa(s.Pages[i]) })
	row("U(k)", func(i int) string { return FormatScore(s.Upper[i]) })
	for _, curves := range [][]Curve{refs, s.Curves} {
		for _, c := range curves {
			row(c.Name, func(i int) string { return FormatScore(c.Cumulative[i]) })
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("chart: write table: %w", err)
	}
	if s.Base == nil || s.Best == nil {
		return nil
	}
	fmt.Fprintln(w, "\ngap closure (S - bfs)/(omniscient - bfs)")
	row("scheduler", pct)
	for _, c := range s.Curves {
		row(c.Name, func(i int) string { return FormatScore(s.gapClosure(c.Cumulative, i)) })
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("chart: write table: %w", err)
	}
	return nil
}
