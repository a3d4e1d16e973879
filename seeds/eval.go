package seeds

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
)

// Defaults of EvalOptions.
const (
	DefaultRandomTrials    = 10
	DefaultDistanceSamples = 64
)

// EvalOptions configures Evaluate.
type EvalOptions struct {
	// Algos lists the selectors to compare; nil means Algos().
	Algos []string
	// Select is the template every selector runs with (K, Hops, Depth,
	// PerHost, core options). Its Algo and Rand are ignored.
	Select Options
	// Seed seeds every random generator: selector runs use the stream
	// (Seed, 0), as `seedcrawl seeds --seed` does, random trial i uses (Seed, i).
	Seed uint64
	// RandomTrials is the number of random seed sets averaged into the
	// baseline; 0 means DefaultRandomTrials.
	RandomTrials int
	// DistanceSamples is the number of BFS sources sampled to estimate the
	// graph's average distance; 0 means DefaultDistanceSamples.
	DistanceSamples int
	// PageRank tunes the PageRank used by the per-depth metric.
	PageRank graph.PageRankOptions
}

// DistStats summarises shortest directed path lengths between seed groups.
type DistStats struct {
	// Pairs is the number of ordered pairs of groups; Unreachable of them have
	// no directed path.
	Pairs       int `json:"pairs"`
	Unreachable int `json:"unreachable"`
	// Min, Mean and Max are over the reachable pairs (0 when there are none).
	Min  int     `json:"min"`
	Mean float64 `json:"mean"`
	Max  int     `json:"max"`
}

// EvalRow is one selector's evaluation.
type EvalRow struct {
	Algo  string   `json:"algo"`
	Seeds []uint32 `json:"seeds"`
	// Pages and Value are covered within Hops hops of the seeds.
	Pages int     `json:"pages"`
	Value float64 `json:"value"`
	// PagesOverRandom and ValueOverRandom are the gains over the random
	// baseline in percent: 100·(x − random)/random (NaN if random is 0).
	PagesOverRandom float64 `json:"pages_over_random"`
	ValueOverRandom float64 `json:"value_over_random"`
	// Reachable is Sharma & Bhagat's coverage (pages reachable at any depth).
	Reachable int `json:"reachable"`
	// MeanPR[t] is the mean PageRank of the pages at BFS depth exactly t from
	// the seeds, t = 0..Hops, times N (1 = the average page); NaN where no page
	// is at that depth. Daneshpajouh et al. compare crawls this way.
	MeanPR []float64 `json:"mean_pr_by_depth"`
	// Groups is the number of seed groups whose distances Dist describes: the
	// cores for hits-core, one group per seed otherwise.
	Groups int       `json:"groups"`
	Dist   DistStats `json:"dist"`
	// Elapsed is the selection time (for random, the mean over the trials).
	Elapsed time.Duration `json:"elapsed_ns"`
	Note    string        `json:"note,omitempty"`
}

// Evaluation compares selectors on one graph.
type Evaluation struct {
	N          int     `json:"n"`
	M          int     `json:"m"`
	K          int     `json:"k"`
	Hops       int     `json:"hops"`
	TotalValue float64 `json:"total_value"`
	// Random is the baseline: means over RandomTrials random seed sets (its
	// Seeds and Dist are those of the first trial).
	Random       EvalRow `json:"random"`
	RandomTrials int     `json:"random_trials"`
	// Rows holds one row per selector in EvalOptions.Algos order; the row of
	// "random" is the baseline.
	Rows []EvalRow `json:"rows"`
	// AvgDistance is the mean shortest directed path length over the
	// reachable pairs from DistanceSamples random sources.
	AvgDistance     float64 `json:"avg_distance"`
	DistanceSamples int     `json:"distance_samples"`
}

// Evaluate runs each selector of o.Algos on in and measures its seeds: pages
// and value covered within Hops hops and their gain over random seeds, the
// mean PageRank of the pages at each BFS depth from the seeds (Daneshpajouh
// et al.'s metric), the shortest-path distances between the seed groups
// against the graph's sampled average distance, and the selection time.
func Evaluate(ctx context.Context, in Input, o EvalOptions) (*Evaluation, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	algos := o.Algos
	if algos == nil {
		algos = Algos()
	}
	for _, a := range algos {
		if !slices.Contains(Algos(), a) {
			return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownAlgo, a, Algos())
		}
	}
	probe := o.Select
	probe.Algo = AlgoRandom
	if _, err := probe.withDefaults(in.G.N()); err != nil {
		return nil, err
	}
	if o.RandomTrials <= 0 {
		o.RandomTrials = DefaultRandomTrials
	}
	if o.DistanceSamples <= 0 {
		o.DistanceSamples = DefaultDistanceSamples
	}
	g := in.G
	val, err := Values(in)
	if err != nil {
		return nil, err
	}
	pr, _ := graph.PageRank(g, o.PageRank)
	m := &measurer{g: g, pr: pr, bfs: graph.NewBFS(g), dist: make([]int32, g.N()), hops: o.Select.Hops}
	if m.hops == 0 {
		m.hops = DefaultHops
	}
	for i := range m.dist {
		m.dist[i] = -1
	}
	ev := &Evaluation{N: g.N(), M: g.M(), K: o.Select.K, Hops: m.hops, RandomTrials: o.RandomTrials, DistanceSamples: o.DistanceSamples}
	for _, x := range val {
		ev.TotalValue += x
	}

	run := func(algo string, stream uint64) (*Result, error) {
		so := o.Select
		so.Algo = algo
		so.Rand = rand.New(rand.NewPCG(o.Seed, stream))
		return Select(ctx, in, so)
	}
	// The random baseline, averaged over the trials.
	base := EvalRow{Algo: AlgoRandom, MeanPR: make([]float64, m.hops+1)}
	prCount := make([]int, m.hops+1)
	var pages, elapsed float64
	for i := 0; i < o.RandomTrials; i++ {
		res, err := run(AlgoRandom, uint64(i))
		if err != nil {
			return nil, fmt.Errorf("seeds: evaluate random trial %d: %w", i, err)
		}
		row := m.row(res, i == 0)
		if i == 0 {
			base.Seeds, base.Groups, base.Dist, base.Note = row.Seeds, row.Groups, row.Dist, row.Note
		}
		pages += float64(row.Pages)
		base.Value += row.Value
		base.Reachable += row.Reachable
		elapsed += float64(row.Elapsed)
		for t, x := range row.MeanPR {
			if !math.IsNaN(x) {
				base.MeanPR[t] += x
				prCount[t]++
			}
		}
	}
	tr := float64(o.RandomTrials)
	base.Pages = int(math.Round(pages / tr))
	base.Value /= tr
	base.Reachable = int(math.Round(float64(base.Reachable) / tr))
	base.Elapsed = time.Duration(elapsed / tr)
	for t := range base.MeanPR {
		if prCount[t] == 0 {
			base.MeanPR[t] = math.NaN()
		} else {
			base.MeanPR[t] /= float64(prCount[t])
		}
	}
	ev.Random = base
	basePages := pages / tr

	for _, a := range algos {
		if a == AlgoRandom {
			ev.Rows = append(ev.Rows, base)
			continue
		}
		res, err := run(a, 0)
		if err != nil {
			return nil, fmt.Errorf("seeds: evaluate %s: %w", a, err)
		}
		row := m.row(res, true)
		row.PagesOverRandom = overPct(float64(row.Pages), basePages)
		row.ValueOverRandom = overPct(row.Value, base.Value)
		ev.Rows = append(ev.Rows, row)
	}
	ev.AvgDistance = m.avgDistance(ctx, o.DistanceSamples, rand.New(rand.NewPCG(o.Seed, 1<<32)))
	return ev, ctx.Err()
}

func overPct(x, base float64) float64 {
	if base == 0 {
		return math.NaN()
	}
	return 100 * (x - base) / base
}

// measurer holds the scratch space of the evaluation's searches.
type measurer struct {
	g    *graph.CSR
	pr   []float64
	bfs  *graph.BFS
	dist []int32 // -1 outside a search
	hops int
}

// row measures one selection; dists=false skips the group distances.
func (m *measurer) row(res *Result, dists bool) EvalRow {
	seeds := res.Nodes()
	row := EvalRow{Algo: res.Algo, Seeds: seeds, Pages: res.Pages, Value: res.Value,
		Reachable: res.Reachable, Elapsed: res.Elapsed, Note: res.Note}
	sum := make([]float64, m.hops+1)
	cnt := make([]int, m.hops+1)
	m.bfs.Run(seeds, m.hops, func(v uint32, depth int) bool {
		sum[depth] += m.pr[v]
		cnt[depth]++
		return true
	})
	n := float64(m.g.N())
	row.MeanPR = make([]float64, m.hops+1)
	for t := range sum {
		row.MeanPR[t] = math.NaN()
		if cnt[t] > 0 {
			row.MeanPR[t] = n * sum[t] / float64(cnt[t])
		}
	}
	if !dists {
		return row
	}
	var groups [][]uint32
	for _, s := range res.Seeds {
		if s.Core != nil {
			groups = append(groups, append(slices.Clone(s.Core.Hubs), s.Core.Authorities...))
		} else {
			groups = append(groups, []uint32{s.Node})
		}
	}
	row.Groups = len(groups)
	row.Dist = m.groupDistances(groups)
	return row
}

// groupDistances returns the shortest directed path lengths between every
// ordered pair of groups: one multi-source BFS per group.
func (m *measurer) groupDistances(groups [][]uint32) DistStats {
	var st DistStats
	var total int
	for i, gi := range groups {
		m.bfs.Run(gi, -1, func(v uint32, depth int) bool {
			m.dist[v] = int32(depth)
			return true
		})
		for j, gj := range groups {
			if i == j {
				continue
			}
			st.Pairs++
			best := int32(-1)
			for _, v := range gj {
				if d := m.dist[v]; d >= 0 && (best < 0 || d < best) {
					best = d
				}
			}
			if best < 0 {
				st.Unreachable++
				continue
			}
			if st.Pairs-st.Unreachable == 1 || int(best) < st.Min {
				st.Min = int(best)
			}
			st.Max = max(st.Max, int(best))
			total += int(best)
		}
		for _, v := range m.bfs.Reached() {
			m.dist[v] = -1
		}
	}
	if r := st.Pairs - st.Unreachable; r > 0 {
		st.Mean = float64(total) / float64(r)
	}
	return st
}

// avgDistance estimates the mean shortest directed path length over
// reachable ordered pairs (u ≠ v) from BFS of sampled sources.
func (m *measurer) avgDistance(ctx context.Context, samples int, r *rand.Rand) float64 {
	n := m.g.N()
	if n == 0 {
		return 0
	}
	var sum, cnt float64
	for i := 0; i < samples && ctx.Err() == nil; i++ {
		s := uint32(r.IntN(n))
		m.bfs.Run([]uint32{s}, -1, func(_ uint32, depth int) bool {
			if depth > 0 {
				sum += float64(depth)
				cnt++
			}
			return true
		})
	}
	if cnt == 0 {
		return 0
	}
	return sum / cnt
}
