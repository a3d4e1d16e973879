package sim

import (
	"cmp"
	"fmt"
	"log/slog"
	"math"
	"slices"

	"github.com/seedcrawl/seedcrawl/chart"
	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// Options configures New. Seeds is required; every other zero value is
// documented.
type Options struct {
	// Seeds are the node ids the crawl starts from, handed to the scheduler
	// in this order; repeated ids count once.
	Seeds []uint32
	// PageRank is the true PageRank of every node, the score of a download;
	// nil means graph.PageRank(g, PageRankOptions{Damping: Damping}). It is
	// normalised to sum 1.
	PageRank []float64
	// Damping is d for the schedulers that use one (fpr, fpr@M,
	// rankmass-window) and for PageRank when it is computed here; 0 means
	// 0.85.
	Damping float64
	// Hosts, when non-nil, gives the host of every node (Hosts[v] equal means
	// same host) and overrides the graph's own. nil means g.Hosts when the
	// graph has them, and no hosts (every link intra-host) otherwise.
	Hosts []uint32
	// Grid is the number of evenly spaced points of the fine grid for the
	// plot, and again of geometrically spaced ones (for a log axis); 0 means
	// 200. Points that coincide count once; the checkpoints are always
	// included. A Grid above the reachable count r is taken as r (every k
	// from 1 to r), so a huge value costs no more than that.
	Grid int
	// RandomSeed seeds the random scheduler (random@SEED overrides it).
	RandomSeed uint64
	// MeasureMemory samples the heap in use every 4096 pages of a run to
	// report its peak. It runs a garbage collection before each run.
	MeasureMemory bool
	// Logger gets one line per scheduler run; nil discards.
	Logger *slog.Logger
	// Name names the graph in the report and in benchmark lines.
	Name string
	// History is the prior of the history and history@M schedulers, indexed
	// by node id: the PageRank of each page on the graph the previous cycle
	// stored (CrawledPageRank of an earlier epoch, or HistoryFrom of an
	// older graph). A value that is not positive and finite means the
	// history does not know the page. nil means no history: history orders
	// as fpr and history@M as fpr@M. Its total over the known pages is the
	// scheduler's HistoryMass.
	History []float64
}

// Checkpoints are the fractions of the reachable pages at which the report
// tabulates S(k).
func Checkpoints() []float64 { return chart.Checkpoints() }

// Sim is a simulation prepared on one graph and seed set: the true PageRank,
// the hosts, the reachable set, the grid of k values and the upper bound.
// It can run any number of schedulers; it is not safe for concurrent use.
type Sim struct {
	g         *graph.CSR
	pr        []float64
	hosts     []uint32 // nil: every link intra-host
	seeds     []uint32
	reachable int
	links     int // out-arcs of the reachable pages
	d         float64
	o         Options
	histMass  float64 // total of the known History values
	histKnown int     // nodes the history knows

	ks         []int     // grid of k values, ascending, 1..reachable
	checkpoint []float64 // the checkpoint fraction ks[i] stands for, or 0
	upper      []float64 // U(ks[i])
}

// New prepares a simulation of g. It computes PageRank unless o.PageRank is
// given.
func New(g *graph.CSR, o Options) (*Sim, error) {
	n := g.N()
	if n == 0 {
		return nil, ErrEmptyGraph
	}
	d := o.Damping
	if d == 0 {
		d = scheduler.DefaultDamping
	}
	if !(d > 0 && d < 1) {
		return nil, fmt.Errorf("%w: damping %v must lie in (0, 1)", ErrOptions, o.Damping)
	}
	s := &Sim{g: g, d: d, o: o}
	if o.Grid == 0 {
		s.o.Grid = 200
	}
	if s.o.Logger == nil {
		s.o.Logger = slog.New(slog.DiscardHandler)
	}
	switch {
	case o.Hosts != nil:
		if len(o.Hosts) != n {
			return nil, fmt.Errorf("%w: %d hosts for %d nodes", ErrHosts, len(o.Hosts), n)
		}
		s.hosts = o.Hosts
	case g.HasHosts():
		s.hosts = g.Hosts
	}
	seen := make([]bool, n)
	for _, v := range o.Seeds {
		if int(v) >= n {
			return nil, fmt.Errorf("%w: seed node %d out of range 0..%d", ErrSeedSpec, v, n-1)
		}
		if !seen[v] {
			seen[v] = true
			s.seeds = append(s.seeds, v)
		}
	}
	if len(s.seeds) == 0 {
		return nil, ErrNoSeeds
	}
	if o.PageRank != nil {
		if len(o.PageRank) != n {
			return nil, fmt.Errorf("%w: %d PageRank values for %d nodes", ErrOptions, len(o.PageRank), n)
		}
		s.pr = normalised(o.PageRank)
	} else {
		pr, st := graph.PageRank(g, graph.PageRankOptions{Damping: d})
		s.o.Logger.Info("pagerank", "iterations", st.Iterations, "delta", st.Delta, "converged", st.Converged)
		s.pr = pr
	}
	if o.History != nil {
		if len(o.History) != n {
			return nil, fmt.Errorf("%w: %d history values for %d nodes", ErrOptions, len(o.History), n)
		}
		s.histMass, s.histKnown = historyMass(o.History)
		if s.histKnown == 0 {
			return nil, fmt.Errorf("%w: the history knows none of the %d nodes (no positive value)", ErrOptions, n)
		}
	}
	s.reachable, s.links = reach(g, s.seeds, seen)
	s.grid()
	return s, nil
}

// normalised returns pr scaled to sum 1 (a copy), or pr itself when it
// already does.
func normalised(pr []float64) []float64 {
	var sum float64
	for _, v := range pr {
		sum += v
	}
	if sum == 0 || math.Abs(sum-1) < 1e-12 {
		return pr
	}
	out := make([]float64, len(pr))
	for i, v := range pr {
		out[i] = v / sum
	}
	return out
}

// reach counts the nodes reachable from the seeds (marked in seen) and the
// out-arcs of those nodes.
func reach(g *graph.CSR, seeds []uint32, seen []bool) (nodes, arcs int) {
	q := append([]uint32(nil), seeds...)
	for i := 0; i < len(q); i++ {
		v := q[i]
		out := g.Out(v)
		arcs += len(out)
		for _, t := range out {
			if !seen[t] {
				seen[t] = true
				q = append(q, t)
			}
		}
	}
	return len(q), arcs
}

// grid sets the k values, chart's grid of the reachable pages, with U(k)
// at each.
func (s *Sim) grid() {
	s.ks, s.checkpoint = chart.Grid(s.reachable, s.o.Grid)
	sorted := slices.Clone(s.pr)
	slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
	s.upper = make([]float64, len(s.ks))
	var sum float64
	j := 0
	for i, k := range s.ks {
		for ; j < k; j++ {
			sum += sorted[j]
		}
		s.upper[i] = sum
	}
}

// Graph returns the simulated graph.
func (s *Sim) Graph() *graph.CSR { return s.g }

// PageRank returns the true PageRank used as the score (normalised).
func (s *Sim) PageRank() []float64 { return s.pr }

// Seeds returns the distinct seeds in order.
func (s *Sim) Seeds() []uint32 { return s.seeds }

// Reachable returns the number of pages reachable from the seeds: the number
// every scheduler downloads.
func (s *Sim) Reachable() int { return s.reachable }

// HasHosts reports whether links are split into intra- and inter-host; when
// false every link is intra-host and FPR@M orders like FPR.
func (s *Sim) HasHosts() bool { return s.hosts != nil }

// Scheduler builds the named scheduler for this simulation: its damping, the
// true PageRank as omniscient's truth, the random seed, the node count and
// the history.
func (s *Sim) Scheduler(name string) (scheduler.Scheduler, error) {
	o := scheduler.Options{
		Damping: s.d,
		Seed:    s.o.RandomSeed,
		Truth:   func(id uint64) float64 { return s.pr[id] },
		Nodes:   s.g.N(),
	}
	if h := s.o.History; h != nil {
		o.History = func(id uint64) float64 { return h[id] }
		o.HistoryMass = s.histMass
	}
	return scheduler.ByName(name, o)
}

// HistoryKnown returns how many nodes Options.History knows (0 without a
// history).
func (s *Sim) HistoryKnown() int { return s.histKnown }
