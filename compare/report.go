package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/chart"
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
	// Omniscient is sim's omniscient reference on the union graph from the
	// same seeds, knowing every node's union PageRank: at each k the better
	// of a crawl that downloads the seeds first and one that ranks them
	// with the rest (scheduler.SeedsFirst).
	Omniscient Curve
	// HasBFS is true when the gap closure has a baseline: BFS, or else a
	// crawl named bfs.
	HasBFS bool
	bfs    int
	// BFS, when set (ScoreOptions.BFSReference), is the gap closure's
	// baseline: a BFS crawl simulated on the graph from the same seeds.
	BFS *Curve

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
	return chart.GapClosure(c.Cumulative[i], r.base()[i], r.Omniscient.Cumulative[i])
}

// base returns S(k) of the gap closure's baseline; HasBFS must be true.
func (r *Report) base() []float64 {
	if r.BFS != nil {
		return r.BFS.Cumulative
	}
	return r.Curves[r.bfs].Cumulative
}

// references returns the reference crawls shown beside the crawls:
// omniscient, and the simulated BFS when there is one.
func (r *Report) references() []chart.Curve {
	name := r.Omniscient.Scheduler
	if name == "" {
		name = "omniscient"
	}
	refs := []chart.Curve{{Name: name, Cumulative: r.Omniscient.Cumulative}}
	if r.BFS != nil {
		refs = append(refs, chart.Curve{Name: r.BFS.Scheduler, Cumulative: r.BFS.Cumulative})
	}
	return refs
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

// scores returns the report's S(k) in the form chart writes as tables and
// CSV, shared with sim; without a bfs crawl it has no gap closure.
func (r *Report) scores() *chart.Scores {
	s := &chart.Scores{
		Pages: r.Pages, Checkpoint: r.Checkpoint, Reference: r.Reference, Upper: r.Upper,
	}
	if r.HasBFS {
		s.Base, s.Best = r.base(), r.Omniscient.Cumulative
	}
	for _, c := range r.Curves {
		s.Curves = append(s.Curves, chart.Curve{Name: c.Scheduler, Cumulative: c.Cumulative})
	}
	return s
}

// CSVHeader is the header WriteCSV writes: sim's columns, so that tools
// reading sim's CSV read this one.
const CSVHeader = chart.ScoresCSVHeader

// WriteCSV writes the report in sim's long form: one row per crawl and
// grid point, then the omniscient reference's rows (scheduler
// "omniscient") and, when set, the simulated BFS's (BFSReferenceName).
// fraction is pages/Reference; cumulative_pagerank is empty
// beyond an unfinished crawl's downloads, gap_closure where undefined;
// checkpoint is true at 1, 2, 5, 10, 20, 50 and 100%.
func (r *Report) WriteCSV(w io.Writer) error {
	if err := r.scores().WriteCSV(w, r.references()...); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return nil
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
		BFS         *jcurve       `json:"bfs_reference,omitempty"`
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
	if r.BFS != nil {
		b := jc(r.BFS)
		out.BFS = &b
	}
	for _, i := range r.scores().Checkpoints() {
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
	scores := r.scores()
	cps := scores.Checkpoints()
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
	title := fmt.Sprintf("cumulative %s PageRank S(k) after k pages (k = the given %% of %d)", r.graphName(), r.Reference)
	if r.BFS != nil {
		fmt.Fprintf(w, "%s: a breadth-first crawl of this graph from the same seeds, simulated without politeness as omniscient is: the gap closure's baseline (the db holds no BFS crawl of the same web)\n", r.BFS.Scheduler)
	}
	if err := scores.WriteTable(w, title, r.references()...); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if !single {
		per, perBudget := r.Cost()
		fmt.Fprintf(w, "\nfetch cost: %d requests for %d pages downloaded by at least one crawl (%s per page); separate crawls would fetch %d (%s of that)\n",
			r.Requests, r.Downloaded, chart.FormatScore(per), r.SumBudgets, chart.FormatScore(perBudget))
	}
	if len(r.Curves) > 1 {
		r.writeOverlap(w)
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
					at = append(at, fmt.Sprintf("%s (%s)", chart.FormatFraction(r.Checkpoint[i]), strings.Join(l.Orders[k], " > ")))
				}
				k++
			}
			fmt.Fprintf(w, "  without %s: CHANGED at %s\n", l.Left, strings.Join(at, ", "))
		}
	}
	return nil
}

// writeOverlap writes the Jaccard overlap table of the downloaded sets.
func (r *Report) writeOverlap(w io.Writer) {
	tw := chart.NewTabWriter(w)
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
