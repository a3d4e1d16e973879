package sim

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// Report is the result of Run: S(k) of every scheduler on the grid of k
// values, the upper bound and the cost of each run.
type Report struct {
	Name           string // graph name, for headers and benchmark lines
	Nodes, Arcs    int
	Seeds          int // distinct seeds
	Reachable      int // pages reachable from the seeds: every crawl's length
	ReachableLinks int // out-arcs of the reachable pages
	HasHosts       bool
	Damping        float64

	Pages []int // the grid of k values, ascending, last = Reachable
	// Checkpoint is the fraction of the reachable pages (0.01, 0.02, 0.05,
	// 0.1, 0.2, 0.5 or 1) Pages[i] stands for, k = ⌈fraction·Reachable⌉, or 0
	// for a point of the fine grid only.
	Checkpoint []float64
	Upper      []float64 // U(k): the sum of the k largest PageRank values

	Curves []Curve // the requested schedulers, in the order asked
	// BFS and Omniscient are the references of the gap closure, run even
	// when not requested.
	BFS, Omniscient Curve
}

// Curve is one scheduler's result.
type Curve struct {
	Scheduler  string
	Cumulative []float64 // S(k) at Report.Pages
	Cost       Cost
}

// Run replays each named scheduler (see scheduler.ByName) and scores it.
// Repeated names run once. bfs and omniscient are run as references when
// not named.
func (s *Sim) Run(ctx context.Context, names []string) (*Report, error) {
	var uniq []string
	seen := map[string]bool{}
	for _, name := range names {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" || seen[name] {
			continue
		}
		if _, err := s.Scheduler(name); err != nil {
			return nil, fmt.Errorf("sim: %w", err)
		}
		seen[name] = true
		uniq = append(uniq, name)
	}
	if len(uniq) == 0 {
		return nil, fmt.Errorf("sim: no schedulers to run")
	}
	r := &Report{
		Name: s.o.Name, Nodes: s.g.N(), Arcs: s.g.M(), Seeds: len(s.seeds),
		Reachable: s.reachable, ReachableLinks: s.links, HasHosts: s.HasHosts(), Damping: s.d,
		Pages: s.ks, Checkpoint: s.checkpoint, Upper: s.upper,
	}
	crawl := func(name string, sch scheduler.Scheduler) (Curve, error) {
		cv := Curve{Scheduler: name, Cumulative: make([]float64, len(s.ks))}
		var sum float64
		k, j := 0, 0
		ks, pr := s.ks, s.pr
		cost, err := s.Crawl(ctx, sch, func(v uint32) {
			sum += pr[v]
			k++
			if j < len(ks) && ks[j] == k {
				cv.Cumulative[j] = sum
				j++
			}
		})
		if err != nil {
			return Curve{}, err
		}
		cv.Cost = cost
		return cv, nil
	}
	run := func(name string) (Curve, error) {
		sch, err := s.Scheduler(name)
		if err != nil {
			return Curve{}, fmt.Errorf("sim: %w", err)
		}
		cv, err := crawl(name, sch)
		if err != nil {
			return Curve{}, err
		}
		if name == "omniscient" {
			// The reference: at each k the better of this crawl and the
			// one that downloads the seeds first (see omniscientSeedsFirst).
			first, err := crawl(name, s.omniscientSeedsFirst())
			if err != nil {
				return Curve{}, err
			}
			cv = bestOf(cv, first)
		}
		cost := cv.Cost
		s.o.Logger.Info("simulated", "scheduler", name, "pages", cost.Pages, "links", cost.Links,
			"ns_per_link", round(cost.NsPerLink(), 1), "us_per_page", round(cost.UsPerPage(), 2))
		return cv, nil
	}
	for _, name := range uniq {
		cv, err := run(name)
		if err != nil {
			return nil, err
		}
		r.Curves = append(r.Curves, cv)
		switch name {
		case "bfs":
			r.BFS = cv
		case "omniscient":
			r.Omniscient = cv
		}
	}
	for _, ref := range []struct {
		name string
		dst  *Curve
	}{{"bfs", &r.BFS}, {"omniscient", &r.Omniscient}} {
		if ref.dst.Cumulative == nil {
			cv, err := run(ref.name)
			if err != nil {
				return nil, err
			}
			*ref.dst = cv
		}
	}
	return r, nil
}

// omniscientSeedsFirst returns the omniscient scheduler that downloads the
// seeds first, highest PageRank first, then ranks every URL by its true
// PageRank (scheduler.SeedsFirst, the rule compare's reference follows).
func (s *Sim) omniscientSeedsFirst() scheduler.Scheduler {
	seed := make([]bool, s.g.N())
	for _, v := range s.seeds {
		seed[v] = true
	}
	truth := scheduler.SeedsFirst(func(id uint64) float64 { return s.pr[id] }, func(id uint64) bool { return seed[id] })
	sch, _ := scheduler.ByName("omniscient", scheduler.Options{Truth: truth}) // cannot fail: Truth is set
	return sch
}

// bestOf returns a's curve raised to b's wherever b scores more. Its cost
// is a's pages and links (both crawls download the reachable pages) with
// the time of both and the larger peak heap.
func bestOf(a, b Curve) Curve {
	out := Curve{Scheduler: a.Scheduler, Cumulative: make([]float64, len(a.Cumulative)), Cost: a.Cost}
	for i := range a.Cumulative {
		out.Cumulative[i] = max(a.Cumulative[i], b.Cumulative[i])
	}
	out.Cost.Elapsed += b.Cost.Elapsed
	out.Cost.PeakBytes = max(a.Cost.PeakBytes, b.Cost.PeakBytes)
	return out
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// GapClosure returns (S − S_bfs)/(S_omniscient − S_bfs) of c at point i, or
// NaN where omniscient and bfs are within 1e-12 of each other (at 100% of
// the reachable pages they always are).
func (r *Report) GapClosure(c *Curve, i int) float64 {
	return chart.GapClosure(c.Cumulative[i], r.BFS.Cumulative[i], r.Omniscient.Cumulative[i])
}

// CSVHeader is the header WriteCSV writes; its first six columns are a
// contract for tools.
const CSVHeader = chart.ScoresCSVHeader

// scores returns the report's S(k) in the form chart writes as tables and
// CSV, shared with compare.
func (r *Report) scores() *chart.Scores {
	s := &chart.Scores{
		Pages: r.Pages, Checkpoint: r.Checkpoint, Reference: r.Reachable, Upper: r.Upper,
		Base: r.BFS.Cumulative, Best: r.Omniscient.Cumulative,
	}
	for _, c := range r.Curves {
		s.Curves = append(s.Curves, chart.Curve{Name: c.Scheduler, Cumulative: c.Cumulative})
	}
	return s
}

// WriteCSV writes the report in long form: one row per scheduler and grid
// point. fraction is pages/reachable; gap_closure is empty where undefined;
// checkpoint is true at 1, 2, 5, 10, 20, 50 and 100%.
func (r *Report) WriteCSV(w io.Writer) error {
	if err := r.scores().WriteCSV(w); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	return nil
}

// WriteTable writes the human-readable summary: S(k) and U(k) at the
// checkpoints, the gap closure, and the cost of each scheduler.
func (r *Report) WriteTable(w io.Writer) error {
	name := r.Name
	if name == "" {
		name = "graph"
	}
	fmt.Fprintf(w, "%s: %d nodes, %d arcs; %d seeds reach %d pages (%.1f%%) and %d links; damping %g\n",
		name, r.Nodes, r.Arcs, r.Seeds, r.Reachable, 100*float64(r.Reachable)/float64(r.Nodes), r.ReachableLinks, r.Damping)
	if !r.HasHosts {
		fmt.Fprintln(w, "hosts: none (the graph has no URLs and no host map was given): every link counts as intra-host, so fpr@M orders exactly like fpr")
	}
	if err := r.scores().WriteTable(w, "cumulative PageRank S(k) after k pages (k = the given % of the reachable pages)"); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	tw := chart.NewTabWriter(w)
	fmt.Fprintln(w, "\ncost of each simulated crawl (scheduler and queue)")
	fmt.Fprintln(tw, "scheduler\tns/link\tµs/page\tpeak heap MB\ttime ms\t")
	for _, c := range r.Curves {
		mem := "-"
		if c.Cost.Measured {
			mem = strconv.FormatFloat(float64(c.Cost.PeakBytes)/(1<<20), 'f', 1, 64)
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%s\t%.1f\t\n", c.Scheduler, c.Cost.NsPerLink(), c.Cost.UsPerPage(), mem,
			float64(c.Cost.Elapsed.Microseconds())/1e3)
	}
	return tw.Flush()
}

// WriteGoBench writes one `go test -bench` style line per scheduler, for
// benchstat: BenchmarkSim/graph=NAME/sched=S 1 ns/op ns/link us/page peak-B.
func (r *Report) WriteGoBench(w io.Writer) error {
	name := r.Name
	if name == "" {
		name = "graph"
	}
	for _, c := range r.Curves {
		_, err := fmt.Fprintf(w, "BenchmarkSim/graph=%s/sched=%s \t1\t%d ns/op\t%.2f ns/link\t%.3f us/page\t%d peak-B\n",
			benchName(name), benchName(c.Scheduler), c.Cost.Elapsed.Nanoseconds(), c.Cost.NsPerLink(), c.Cost.UsPerPage(), c.Cost.PeakBytes)
		if err != nil {
			return fmt.Errorf("sim: write benchmark lines: %w", err)
		}
	}
	return nil
}

// benchName replaces characters benchstat splits on.
func benchName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '/' {
			return '_'
		}
		return r
	}, s)
}
