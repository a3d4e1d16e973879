package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Report is the score of a comparison: S(k), the cumulative union
// PageRank of each crawl's first k downloads, on a grid of k values, next
// to the upper bound U(k) and the omniscient reference, with the overlap of
// the downloaded sets, the fetch cost and the leave-one-out stability of
// the ranking. Its Pages, Checkpoint, Upper and Curves have the shape of
// sim.Report's, so one plot routine draws both.
type Report struct {
	Seeds   int     // distinct seeds
	Budget  int     // each crawl's budget (0 when scoring given sequences)
	Window  int     // the window the crawls ran with (0 when unknown)
	Damping float64 // PageRank's d
	// Reference is the k that 100% stands for: the budget, or the longest
	// sequence when every crawl ran out of URLs before it.
	Reference int

	Pages []int // the grid of k values, ascending, last = Reference
	// Checkpoint is the fraction of Reference (0.01, 0.02, 0.05, 0.1, 0.2,
	// 0.5 or 1) Pages[i] stands for, or 0 for a point of the fine grid only.
	Checkpoint []float64
	Upper      []float64 // U(k): the sum of the k largest union PageRank values

	Curves []Curve // one per crawl, in the order given
	// Omniscient is sim's omniscient crawl on the union graph from the same
	// seeds, knowing every node's union PageRank.
	Omniscient Curve
	// HasBFS is true when a crawl is named bfs: the gap closure's baseline.
	HasBFS bool
	bfs    int

	UnionNodes, UnionArcs int // the graph ranked on
	Downloaded            int // |union of the downloaded sets|
	// FrontierPages are the pages of the graph no crawl downloaded
	// (ScoreOptions.Frontier), fetched for the score only.
	FrontierPages int
	// Graph is "union" or "crawl" (ScoreOptions.Crawl).
	Graph string
	// Unfetched is how discovered-only nodes pass on their rank: "host" or
	// "dangling" (ScoreOptions.Unfetched).
	Unfetched string
	// Requests is the number of URLs the web requested from their servers
	// (Compare.Requests: robots-denied, out-of-scope and deferred URLs,
	// answered without a request, are not counted; 0 when scoring given
	// sequences); SumBudgets is the budget times the number
	// of crawls (or the sum of the sequence lengths without a budget): what
	// separate crawls would have fetched.
	Requests, SumBudgets int
	// Overlap[i][j] is the Jaccard index |Di ∩ Dj| / |Di ∪ Dj| of the sets
	// crawls i and j downloaded.
	Overlap [][]float64
	// Ranking[c] orders the crawls by S(k) at the c-th checkpoint (as in
	// Checkpoint, skipping zeros), best first; scores within 1e-12 tie and
	// keep the given order.
	Ranking [][]string
	// LeaveOneOut has one entry per crawl when there are two or more.
	LeaveOneOut []LeaveOneOut
}

// Curve is one crawl's score.
type Curve struct {
	Scheduler string
	// Cumulative is S(k) at Report.Pages; NaN beyond the pages downloaded
	// by a crawl that has not finished.
	Cumulative []float64
	Downloaded int  // pages downloaded
	Done       bool // used its budget or ran out of URLs
}

// LeaveOneOut is the ranking of the other crawls rescored on the union of
// their own downloads, without Left's: the pages only Left fetched become
// dangling nodes (when linked) and their links vanish. If the order of the
// others changes, the score depends on which schedulers took part.
type LeaveOneOut struct {
	Left string `json:"left_out"`
	// Orders[c] ranks the other crawls at the c-th checkpoint, as
	// Report.Ranking does.
	Orders [][]string `json:"orders"`
	// Changed[c] is true where Orders[c] differs from Report.Ranking[c]
	// without Left.
	Changed []bool `json:"changed"`
	// Stable is true when no checkpoint changed.
	Stable bool `json:"stable"`
}

// GapClosure returns (S − S_bfs)/(S_omniscient − S_bfs) of c at point i,
// or NaN without a bfs crawl, where a score is NaN, or where omniscient
// and bfs are within 1e-12 of each other.
func (r *Report) GapClosure(c *Curve, i int) float64 {
	if !r.HasBFS {
		return math.NaN()
	}
	b, o := r.Curves[r.bfs].Cumulative[i], r.Omniscient.Cumulative[i]
	if math.IsNaN(b) || math.Abs(o-b) <= 1e-12 {
		return math.NaN()
	}
	return (c.Cumulative[i] - b) / (o - b)
}

// Cost returns requests sent per page of the union of the downloaded sets
// and per page of the budgets (NaN where a denominator is 0).
func (r *Report) Cost() (perUnion, perBudget float64) {
	div := func(a, b int) float64 {
		if b == 0 {
			return math.NaN()
		}
		return float64(a) / float64(b)
	}
	return div(r.Requests, r.Downloaded), div(r.Requests, r.SumBudgets)
}

func (r *Report) graphName() string {
	if r.Graph == "" {
		return "union"
	}
	return r.Graph
}

// checkpoints returns the grid indexes of the checkpoints.
func (r *Report) checkpoints() []int {
	var cps []int
	for i, f := range r.Checkpoint {
		if f > 0 {
			cps = append(cps, i)
		}
	}
	return cps
}

// CSVHeader is the header WriteCSV writes: sim's columns, so that tools
// reading sim's CSV read this one.
const CSVHeader = "scheduler,pages,fraction,cumulative_pagerank,upper_bound,gap_closure,checkpoint"

// WriteCSV writes the report in sim's long form: one row per crawl and
// grid point, then the omniscient reference's rows (scheduler
// "omniscient"). fraction is pages/Reference; cumulative_pagerank is empty
// beyond an unfinished crawl's downloads, gap_closure where undefined;
// checkpoint is true at 1, 2, 5, 10, 20, 50 and 100%.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(strings.Split(CSVHeader, ",")); err != nil {
		return fmt.Errorf("compare: write csv: %w", err)
	}
	curves := append(r.Curves[:len(r.Curves):len(r.Curves)], r.Omniscient)
	for ci := range curves {
		c := &curves[ci]
		for i, k := range r.Pages {
			rec := []string{
				c.Scheduler, strconv.Itoa(k), fnum(float64(k) / float64(r.Reference)),
				fnum(c.Cumulative[i]), fnum(r.Upper[i]), fnum(r.GapClosure(c, i)), strconv.FormatBool(r.Checkpoint[i] > 0),
			}
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("compare: write csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("compare: write csv: %w", err)
	}
	return nil
}

func fnum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}

// number is a float64 that encodes NaN as JSON null.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(n), 'g', -1, 64), nil
}

func numbers(vs []float64) []number {
	out := make([]number, len(vs))
	for i, v := range vs {
		out[i] = number(v)
	}
	return out
}

// WriteJSON writes the report as one JSON object: the fields of Report,
// each curve with its gap closure, NaN as null.
func (r *Report) WriteJSON(w io.Writer) error {
	type jcurve struct {
		Scheduler  string   `json:"scheduler"`
		Cumulative []number `json:"cumulative_pagerank"`
		GapClosure []number `json:"gap_closure"`
		Downloaded int      `json:"downloaded"`
		Done       bool     `json:"done"`
	}
	jc := func(c *Curve) jcurve {
		gc := make([]float64, len(r.Pages))
		for i := range gc {
			gc[i] = r.GapClosure(c, i)
		}
		return jcurve{c.Scheduler, numbers(c.Cumulative), numbers(gc), c.Downloaded, c.Done}
	}
	per, perBudget := r.Cost()
	out := struct {
		Seeds       int           `json:"seeds"`
		Budget      int           `json:"budget"`
		Window      int           `json:"window"`
		Damping     float64       `json:"damping"`
		Reference   int           `json:"reference_pages"`
		Pages       []int         `json:"pages"`
		Checkpoint  []float64     `json:"checkpoint"`
		Upper       []number      `json:"upper_bound"`
		Curves      []jcurve      `json:"curves"`
		Omniscient  jcurve        `json:"omniscient"`
		Graph       string        `json:"graph"`
		Frontier    int           `json:"frontier_pages"`
		Unfetched   string        `json:"unfetched"`
		UnionNodes  int           `json:"union_nodes"`
		UnionArcs   int           `json:"union_arcs"`
		Downloaded  int           `json:"union_downloaded"`
		Requests    int           `json:"requests"`
		SumBudgets  int           `json:"sum_budgets"`
		PerUnion    number        `json:"requests_per_union_page"`
		PerBudget   number        `json:"requests_per_budget_page"`
		Overlap     [][]float64   `json:"overlap_jaccard"`
		Ranking     [][]string    `json:"ranking"`
		LeaveOneOut []LeaveOneOut `json:"leave_one_out"`
		Fractions   []float64     `json:"ranking_fractions"`
	}{
		Seeds: r.Seeds, Budget: r.Budget, Window: r.Window, Damping: r.Damping, Reference: r.Reference,
		Pages: r.Pages, Checkpoint: r.Checkpoint, Upper: numbers(r.Upper), Omniscient: jc(&r.Omniscient),
		Graph: r.graphName(), Frontier: r.FrontierPages, Unfetched: r.Unfetched, UnionNodes: r.UnionNodes, UnionArcs: r.UnionArcs, Downloaded: r.Downloaded, Requests: r.Requests,
		SumBudgets: r.SumBudgets, PerUnion: number(per), PerBudget: number(perBudget),
		Overlap: r.Overlap, Ranking: r.Ranking, LeaveOneOut: r.LeaveOneOut,
	}
	for ci := range r.Curves {
		out.Curves = append(out.Curves, jc(&r.Curves[ci]))
	}
	for _, i := range r.checkpoints() {
		out.Fractions = append(out.Fractions, r.Checkpoint[i])
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("compare: write json: %w", err)
	}
	return nil
}

// WriteTable writes the human-readable summary: S(k), U(k) and omniscient
// at the checkpoints, the gap closure, the fetch cost, the overlap and the
// leave-one-out stability. The window is a comparison's (Window > 0:
// Compare.Report), and the fetch cost and the overlap need two crawls or a
// comparison: scoring one real crawl (seedcrawl score) leaves them out, as
// they mean nothing there.
func (r *Report) WriteTable(w io.Writer) error {
	cps := r.checkpoints()
	single := r.Window == 0 && len(r.Curves) == 1
	window := ""
	if r.Window > 0 {
		window = fmt.Sprintf(", window %d", r.Window)
	}
	fmt.Fprintf(w, "%s graph: %d nodes (%d downloaded pages, %d frontier pages fetched for the score, the rest discovered only), %d links; %d seeds; budget %d%s; damping %g",
		r.graphName(), r.UnionNodes, r.Downloaded, r.FrontierPages, r.UnionArcs, r.Seeds, r.Budget, window, r.Damping)
	if r.graphName() == "union" && r.Unfetched != "" {
		fmt.Fprintf(w, "; discovered-only URLs: %s", r.Unfetched)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(label string, vals func(i int) string) {
		fmt.Fprintf(tw, "%s\t", label)
		for _, i := range cps {
			fmt.Fprintf(tw, "%s\t", vals(i))
		}
		fmt.Fprintln(tw)
	}
	pct := func(i int) string { return strconv.FormatFloat(100*r.Checkpoint[i], 'g', 3, 64) + "%" }
	num := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	fmt.Fprintf(w, "\ncumulative %s PageRank S(k) after k pages (k = the given %% of %d)\n", r.graphName(), r.Reference)
	row("scheduler", pct)
	row("k", func(i int) string { return strconv.Itoa(r.Pages[i]) })
	row("U(k)", func(i int) string { return num(r.Upper[i]) })
	row("omniscient", func(i int) string { return num(r.Omniscient.Cumulative[i]) })
	for ci := range r.Curves {
		c := &r.Curves[ci]
		row(c.Scheduler, func(i int) string { return num(c.Cumulative[i]) })
	}
	tw.Flush()
	if r.HasBFS {
		fmt.Fprintln(w, "\ngap closure (S - bfs)/(omniscient - bfs)")
		row("scheduler", pct)
		for ci := range r.Curves {
			c := &r.Curves[ci]
			row(c.Scheduler, func(i int) string { return num(r.GapClosure(c, i)) })
		}
		tw.Flush()
	}
	if !single {
		per, perBudget := r.Cost()
		fmt.Fprintf(w, "\nfetch cost: %d requests for %d pages downloaded by at least one crawl (%s per page); separate crawls would fetch %d (%s of that)\n",
			r.Requests, r.Downloaded, num(per), r.SumBudgets, num(perBudget))
	}
	if len(r.Curves) > 1 {
		r.writeOverlap(w, tw)
	}
	if len(r.LeaveOneOut) > 0 {
		fmt.Fprintln(w, "\nleave-one-out: ranking of the others rescored without one crawl's pages")
		for _, l := range r.LeaveOneOut {
			if l.Stable {
				fmt.Fprintf(w, "  without %s: unchanged\n", l.Left)
				continue
			}
			var at []string
			k := 0
			for _, i := range cps {
				if k < len(l.Changed) && l.Changed[k] {
					at = append(at, fmt.Sprintf("%s (%s)", pct(i), strings.Join(l.Orders[k], " > ")))
				}
				k++
			}
			fmt.Fprintf(w, "  without %s: CHANGED at %s\n", l.Left, strings.Join(at, ", "))
		}
	}
	return nil
}

// writeOverlap writes the Jaccard overlap table of the downloaded sets.
func (r *Report) writeOverlap(w io.Writer, tw *tabwriter.Writer) {
	fmt.Fprintln(w, "\noverlap of the downloaded sets (Jaccard)")
	fmt.Fprint(tw, "\t")
	for _, c := range r.Curves {
		fmt.Fprintf(tw, "%s\t", c.Scheduler)
	}
	fmt.Fprintln(tw)
	for i, c := range r.Curves {
		fmt.Fprintf(tw, "%s\t", c.Scheduler)
		for j := range r.Curves {
			fmt.Fprintf(tw, "%.3f\t", r.Overlap[i][j])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
