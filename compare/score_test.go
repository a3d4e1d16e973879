package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/sim"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 || (math.IsNaN(a) && math.IsNaN(b)) }

// TestScoreByHand scores two crawls on a union graph small enough to
// solve by hand. Pages: A (the seed) links to B and X, B links to A; X is
// linked but never downloaded, so it is a dangling node. With d = 1/2 and
// N = 3, PageRank (dangling rank spread over all nodes) solves
//
//	c   = (1−d)/3 + d·x_X/3 = 1/6 + x_X/6
//	x_A = c + d·x_B          (B's one link)
//	x_B = x_X = c + d·x_A/2  (A's two links)
//
// so x_X = 1/5 + 3·x_A/10, x_A = 1/6 + (2/3)·x_X = 3/10 + x_A/5, hence
// x_A = 3/8 and x_B = x_X = 5/16 (sum 1).
//
// bfs downloaded [A B] (done); other downloaded [A] and is still running.
// Budget 2: the grid is k = 1 (1% to 50%) and k = 2 (100%).
//
//	bfs:        S(1) = 3/8, S(2) = 3/8 + 5/16 = 11/16
//	other:      S(1) = 3/8, S(2) = NaN (not downloaded yet)
//	U(k):       3/8, 11/16 (A, then B or X)
//	omniscient: A, then B and X tie at 5/16 and the FIFO tie-break takes B
//	            (A links to B first): 3/8, 11/16
//	gap closure of bfs: omniscient = bfs, undefined (NaN)
//	Jaccard({A,B}, {A}) = 1/2; sum of budgets 2·2 = 4
func TestScoreByHand(t *testing.T) {
	pages := []Page{
		{URL: "http://a.example/A", Status: 200, OutLinks: []string{"http://a.example/B", "http://x.example/X"}},
		{URL: "http://a.example/B", Status: 200, OutLinks: []string{"http://a.example/A"}},
	}
	seqs := []Sequence{
		{Name: "bfs", URLs: []string{"http://a.example/A", "http://a.example/B"}, Done: true},
		{Name: "other", URLs: []string{"http://a.example/A"}},
	}
	r, err := Score(pages, []string{"http://a.example/A"}, seqs, ScoreOptions{Budget: 2, Damping: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name      string
		got, want []float64
	}{
		{"checkpoint", r.Checkpoint, []float64{0.01, 1}},
		{"upper", r.Upper, []float64{3.0 / 8, 11.0 / 16}},
		{"bfs", r.Curves[0].Cumulative, []float64{3.0 / 8, 11.0 / 16}},
		{"other", r.Curves[1].Cumulative, []float64{3.0 / 8, nan}},
		{"omniscient", r.Omniscient.Cumulative, []float64{3.0 / 8, 11.0 / 16}},
		{"gap closure bfs", []float64{r.GapClosure(&r.Curves[0], 0), r.GapClosure(&r.Curves[0], 1)}, []float64{nan, nan}},
		{"overlap", []float64{r.Overlap[0][1], r.Overlap[1][0], r.Overlap[0][0]}, []float64{0.5, 0.5, 1}},
	} {
		if len(tc.got) != len(tc.want) || !slices.EqualFunc(tc.got, tc.want, near) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if !slices.Equal(r.Pages, []int{1, 2}) || r.Reference != 2 || r.UnionNodes != 3 || r.UnionArcs != 3 || r.Downloaded != 2 || r.SumBudgets != 4 {
		t.Errorf("pages %v reference %d nodes %d arcs %d downloaded %d budgets %d; want [1 2] 2 3 3 2 4",
			r.Pages, r.Reference, r.UnionNodes, r.UnionArcs, r.Downloaded, r.SumBudgets)
	}
	// At 1% both have 3/8: a tie keeps the given order; at 100% other has
	// no score yet and ranks last.
	if want := [][]string{{"bfs", "other"}, {"bfs", "other"}}; !slices.EqualFunc(r.Ranking, want, slices.Equal) {
		t.Errorf("ranking %v, want %v", r.Ranking, want)
	}

	// The outputs carry the same numbers.
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != sim.CSVHeader {
		t.Errorf("CSV header %q, want sim's %q", strings.Join(rows[0], ","), sim.CSVHeader)
	}
	want := [][]string{
		{"bfs", "1", "0.5", "0.375", "0.375", "", "true"},
		{"bfs", "2", "1", "0.6875", "0.6875", "", "true"},
		{"other", "1", "0.5", "0.375", "0.375", "", "true"},
		{"other", "2", "1", "", "0.6875", "", "true"},
		{"omniscient", "1", "0.5", "0.375", "0.375", "", "true"},
		{"omniscient", "2", "1", "0.6875", "0.6875", "", "true"},
	}
	// PageRank stops at an L1 change below 1e-10: numbers match to 1e-9.
	cell := func(a, b string) bool {
		x, errx := strconv.ParseFloat(a, 64)
		y, erry := strconv.ParseFloat(b, 64)
		if errx == nil && erry == nil {
			return near(x, y)
		}
		return a == b
	}
	if len(rows) != len(want)+1 || !slices.EqualFunc(rows[1:], want, func(a, b []string) bool { return slices.EqualFunc(a, b, cell) }) {
		t.Errorf("CSV rows\n%v\nwant\n%v", rows[1:], want)
	}
	buf.Reset()
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Curves []struct {
			Scheduler  string     `json:"scheduler"`
			Cumulative []*float64 `json:"cumulative_pagerank"`
		} `json:"curves"`
		Overlap     [][]float64 `json:"overlap_jaccard"`
		LeaveOneOut []struct {
			Left   string `json:"left_out"`
			Stable bool   `json:"stable"`
		} `json:"leave_one_out"`
	}
	if err := json.Unmarshal(buf.Bytes(), &j); err != nil {
		t.Fatalf("JSON: %v\n%s", err, buf.String())
	}
	if len(j.Curves) != 2 || !near(*j.Curves[0].Cumulative[1], 0.6875) || j.Curves[1].Cumulative[1] != nil || j.Overlap[0][1] != 0.5 ||
		len(j.LeaveOneOut) != 2 || j.LeaveOneOut[0].Left != "bfs" || !j.LeaveOneOut[0].Stable {
		t.Errorf("JSON does not match the report:\n%s", buf.String())
	}
	buf.Reset()
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"U(k)", "omniscient", "0.6875", "overlap", "Jaccard", "fetch cost", "leave-one-out"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, buf.String())
		}
	}
}

func TestGapClosure(t *testing.T) {
	r := &Report{
		HasBFS:     true,
		Curves:     []Curve{{Scheduler: "bfs", Cumulative: []float64{0.2, 0.5}}, {Scheduler: "fpr", Cumulative: []float64{0.3, 0.5}}},
		Omniscient: Curve{Cumulative: []float64{0.4, 0.5}},
	}
	// (0.3 − 0.2)/(0.4 − 0.2) = 0.5; at the end all three agree.
	if g := r.GapClosure(&r.Curves[1], 0); !near(g, 0.5) {
		t.Errorf("gap closure %v, want 0.5", g)
	}
	if g := r.GapClosure(&r.Curves[1], 1); !math.IsNaN(g) {
		t.Errorf("gap closure where omniscient = bfs: %v, want NaN", g)
	}
	r.HasBFS = false
	if g := r.GapClosure(&r.Curves[1], 0); !math.IsNaN(g) {
		t.Errorf("gap closure without bfs: %v, want NaN", g)
	}
}

// TestLeaveOneOutFlips builds a case where one crawl's pages decide the
// order of two others. S links to a, b, w and z; w links to a and z; z
// links to b. X downloaded S w a, Y downloaded S w b, Z downloaded S w z.
// With Z's pages, b gets all of z's rank, and z (linked from S and w) has
// at least w's half share that a gets from w, so b > a and Y ranks before
// X at 100%. Without Z, z is a dangling node that passes nothing to b, so a
// (linked from S and w) beats b (from S only) and X ranks before Y.
func TestLeaveOneOutFlips(t *testing.T) {
	u := func(s string) string { return "http://h.example/" + s }
	pages := []Page{
		{URL: u("S"), Status: 200, OutLinks: []string{u("a"), u("b"), u("w"), u("z")}},
		{URL: u("w"), Status: 200, OutLinks: []string{u("a"), u("z")}},
		{URL: u("z"), Status: 200, OutLinks: []string{u("b")}},
		{URL: u("a"), Status: 200},
		{URL: u("b"), Status: 200},
	}
	seqs := []Sequence{
		{Name: "X", URLs: []string{u("S"), u("w"), u("a")}, Done: true},
		{Name: "Y", URLs: []string{u("S"), u("w"), u("b")}, Done: true},
		{Name: "Z", URLs: []string{u("S"), u("w"), u("z")}, Done: true},
	}
	r, err := Score(pages, []string{u("S")}, seqs, ScoreOptions{Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	last := len(r.Ranking) - 1
	full := r.Ranking[last]
	if slices.Index(full, "Y") > slices.Index(full, "X") {
		t.Fatalf("with every crawl, ranking at 100%% is %v: want Y before X", full)
	}
	var z *LeaveOneOut
	for i := range r.LeaveOneOut {
		if r.LeaveOneOut[i].Left == "Z" {
			z = &r.LeaveOneOut[i]
		}
	}
	if z == nil || z.Stable || !z.Changed[len(z.Changed)-1] || !slices.Equal(z.Orders[len(z.Orders)-1], []string{"X", "Y"}) {
		t.Fatalf("leave Z out: %+v; want the order at 100%% to change to [X Y]", z)
	}
	// Up to 50% (k = 1, 2) every crawl has the same pages: no change there.
	for c := range last {
		if z.Changed[c] {
			t.Errorf("leave Z out: change at checkpoint %d where the crawls agree", c)
		}
	}
	var buf bytes.Buffer
	r.WriteTable(&buf)
	if !strings.Contains(buf.String(), "without Z: CHANGED at 100% (X > Y)") {
		t.Errorf("table does not report the flip:\n%s", buf.String())
	}
}

func TestScoreErrors(t *testing.T) {
	pages := []Page{{URL: "http://a/", Status: 200}}
	for _, tc := range []struct {
		name string
		seqs []Sequence
		o    ScoreOptions
		err  error
	}{
		{"no sequences", nil, ScoreOptions{}, ErrOptions},
		{"unknown page", []Sequence{{Name: "bfs", URLs: []string{"http://b/"}}}, ScoreOptions{}, ErrUnknownPage},
		{"twice", []Sequence{{Name: "bfs", URLs: []string{"http://a/", "http://a/"}}}, ScoreOptions{}, ErrOptions},
		{"empty", []Sequence{{Name: "bfs"}}, ScoreOptions{}, ErrOptions},
		{"damping", []Sequence{{Name: "bfs", URLs: []string{"http://a/"}}}, ScoreOptions{Damping: 1.5}, ErrOptions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Score(pages, []string{"http://a/"}, tc.seqs, tc.o); !errors.Is(err, tc.err) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
		})
	}
}

// TestScoreOneCrawl scores the fetch order of one ordinary crawl (what
// `seedcrawl score` does): no budget, so 100% is the crawl's length; no
// leave-one-out with a single crawl; a failed page scores its rank as a
// dangling node. Pages: S links to a and f; f failed (404, its links
// ignored); a links to S. With d = 1/2 and N = 3: f is dangling, c = 1/6 +
// x_f/6, x_a = x_f = c + x_S/4, x_S = c + x_a/2; as in TestScoreByHand,
// x_S = 3/8 and x_a = x_f = 5/16.
func TestScoreOneCrawl(t *testing.T) {
	u := func(s string) string { return "http://h.example/" + s }
	pages := []Page{
		{URL: u("S"), Status: 200, OutLinks: []string{u("a"), u("f")}},
		{URL: u("f"), Status: 404, OutLinks: []string{u("S")}},
		{URL: u("a"), Status: 200, OutLinks: []string{u("S")}},
	}
	r, err := Score(pages, []string{u("S")}, []Sequence{{Name: "crawl", URLs: []string{u("S"), u("f"), u("a")}, Done: true}}, ScoreOptions{Damping: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reference != 3 || len(r.LeaveOneOut) != 0 || r.SumBudgets != 3 || r.UnionArcs != 3 {
		t.Errorf("reference %d, %d leave-one-out entries, budgets %d, arcs %d; want 3, 0, 3, 3", r.Reference, len(r.LeaveOneOut), r.SumBudgets, r.UnionArcs)
	}
	want := []float64{3.0 / 8, 3.0/8 + 5.0/16, 1}
	if !slices.EqualFunc(r.Curves[0].Cumulative, want, near) {
		t.Errorf("S(k) = %v, want %v", r.Curves[0].Cumulative, want)
	}
}

// TestScoreHostEstimate is TestScoreByHand with the discovered-only URL X
// on the seed's host, so that UnfetchedHost gives it the average links of
// that host's fetched pages A and B: half of its rank follows A's two links
// and half B's one. With d = 1/2 and N = 3:
//
//	x_A = 1/6 + d·(x_B + x_X/2)
//	x_B = x_X = 1/6 + d·(x_A + x_X/2)/2
//
// so x_B = 4/21 + 2·x_A/7 and x_A = 13/42 + 3·x_A/14, hence x_A = 13/33
// and x_B = x_X = 10/33 (sum 1), against 3/8 and 5/16 when X dangles.
func TestScoreHostEstimate(t *testing.T) {
	pages := []Page{
		{URL: "http://a.example/A", Status: 200, OutLinks: []string{"http://a.example/B", "http://a.example/X"}},
		{URL: "http://a.example/B", Status: 200, OutLinks: []string{"http://a.example/A"}},
	}
	seqs := []Sequence{{Name: "bfs", URLs: []string{"http://a.example/A", "http://a.example/B"}, Done: true}}
	for _, tc := range []struct {
		m    Unfetched
		want []float64
	}{
		{UnfetchedHost, []float64{13.0 / 33, 23.0 / 33}},
		{UnfetchedDangling, []float64{3.0 / 8, 11.0 / 16}},
	} {
		r, err := Score(pages, []string{"http://a.example/A"}, seqs, ScoreOptions{Budget: 2, Damping: 0.5, Unfetched: tc.m})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(r.Curves[0].Cumulative, tc.want, near) || r.Unfetched != tc.m.String() {
			t.Errorf("%v: S = %v (%s), want %v", tc.m, r.Curves[0].Cumulative, r.Unfetched, tc.want)
		}
	}
	if _, err := Score(pages, nil, seqs, ScoreOptions{Unfetched: 7}); !errors.Is(err, ErrOptions) {
		t.Errorf("unknown model: %v, want ErrOptions", err)
	}
	for _, s := range []string{"host", "dangling"} {
		if m, err := ParseUnfetched(s); err != nil || m.String() != s {
			t.Errorf("ParseUnfetched(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseUnfetched("uniform"); !errors.Is(err, ErrOptions) {
		t.Errorf("ParseUnfetched(uniform): %v, want ErrOptions", err)
	}
}

// TestWriteTableOneCrawl: the table of one real crawl (seedcrawl score)
// leaves out what only a comparison has: its window, its fetch cost and
// the overlap of two or more crawls; a comparison's table keeps them.
func TestWriteTableOneCrawl(t *testing.T) {
	u := func(s string) string { return "http://h.example/" + s }
	pages := []Page{
		{URL: u("S"), Status: 200, OutLinks: []string{u("a"), u("b")}},
		{URL: u("a"), Status: 200, OutLinks: []string{u("S")}},
		{URL: u("b"), Status: 200, OutLinks: []string{u("a")}},
	}
	one := Sequence{Name: "crawl", URLs: []string{u("S"), u("a"), u("b")}, Done: true}
	other := Sequence{Name: "other", URLs: []string{u("S"), u("b"), u("a")}, Done: true}
	for _, tc := range []struct {
		name   string
		seqs   []Sequence
		window int // as Compare.Report sets it; 0 for score
		want   bool
	}{
		{"one real crawl", []Sequence{one}, 0, false},
		{"comparison of two", []Sequence{one, other}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Score(pages, []string{u("S")}, tc.seqs, ScoreOptions{Damping: 0.5})
			if err != nil {
				t.Fatal(err)
			}
			r.Window = tc.window
			var b strings.Builder
			if err := r.WriteTable(&b); err != nil {
				t.Fatal(err)
			}
			for _, part := range []string{"window", "fetch cost", "overlap"} {
				if got := strings.Contains(b.String(), part); got != tc.want {
					t.Errorf("table has %q: %v, want %v\n%s", part, got, tc.want, b.String())
				}
			}
			if !strings.Contains(b.String(), "omniscient") {
				t.Errorf("table lacks the omniscient crawl:\n%s", b.String())
			}
		})
	}
}

// TestScoreWalked: a recrawl cycle that refetches a and b but walks
// through the seed S from storage. Without Walked, S has no links in the
// graph and the omniscient crawl is stuck at S below the real cycle; with
// it, the omniscient crawl passes through S for free and scores at least
// what the real order does at every k, within U(k).
func TestScoreWalked(t *testing.T) {
	u := func(s string) string { return "http://h.example/" + s }
	pages := []Page{
		{URL: u("a"), Status: 200, OutLinks: []string{u("b")}},
		{URL: u("b"), Status: 200, OutLinks: []string{u("a")}},
		{URL: u("S"), Status: 200, OutLinks: []string{u("a"), u("b")}},
	}
	seq := []Sequence{{Name: "cycle", URLs: []string{u("b"), u("a")}, Done: true}}
	for _, tc := range []struct {
		name   string
		walked []string
		bound  bool // omniscient ≥ the real order at every k
	}{
		{"seed not walked", nil, false},
		{"seed walked", []string{u("S")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Score(pages[:2], []string{u("S")}, seq, ScoreOptions{Damping: 0.5, Walked: tc.walked})
			if tc.walked != nil {
				r, err = Score(pages, []string{u("S")}, seq, ScoreOptions{Damping: 0.5, Walked: tc.walked})
			}
			if err != nil {
				t.Fatal(err)
			}
			bound := true
			for i := range r.Pages {
				o, s, up := r.Omniscient.Cumulative[i], r.Curves[0].Cumulative[i], r.Upper[i]
				bound = bound && o >= s-1e-12
				if o > up+1e-12 {
					t.Errorf("k=%d: omniscient %v above U(k) %v", r.Pages[i], o, up)
				}
			}
			if bound != tc.bound {
				t.Errorf("omniscient %v ≥ real %v at every k: %v, want %v", r.Omniscient.Cumulative, r.Curves[0].Cumulative, bound, tc.bound)
			}
		})
	}
	if _, err := Score(pages[:2], []string{u("S")}, seq, ScoreOptions{Walked: []string{u("S")}}); !errors.Is(err, ErrUnknownPage) {
		t.Errorf("a walked URL that is not a page: %v, want ErrUnknownPage", err)
	}
}

// TestScoreOmniscientSeedsFirst: two seeds, L and C. L is linked by
// nobody (the lowest rank there is) but opens a star whose hub H holds
// the most rank; C's site is a clique whose pages all outrank L. Ranked by
// PageRank alone the omniscient crawl would take C's whole clique before
// L, and so reach H after BFS does; it downloads the seeds first, as the
// crawls do, and then scores at least what BFS does at every k, within
// U(k).
func TestScoreOmniscientSeedsFirst(t *testing.T) {
	pages, seeds, bfs := starClique()
	r, err := Score(pages, seeds, []Sequence{{Name: "bfs", URLs: bfs, Done: true}}, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range r.Pages {
		o, b, up := r.Omniscient.Cumulative[i], r.Curves[0].Cumulative[i], r.Upper[i]
		if o < b-1e-12 || o > up+1e-12 {
			t.Errorf("k=%d: omniscient %.4f, want between bfs %.4f and U(k) %.4f", k, o, b, up)
		}
	}
}
