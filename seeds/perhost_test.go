package seeds

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

func TestApportion(t *testing.T) {
	cases := []struct {
		name   string
		k      int
		weight []float64
		cap    []int
		want   []int
	}{
		{"exact", 10, []float64{5, 3, 2}, []int{9, 9, 9}, []int{5, 3, 2}},
		{"largest remainder", 10, []float64{4.2, 3.3, 2.5}, []int{9, 9, 9}, []int{4, 3, 3}},
		{"remainder ties to the heavier host, then the lower index", 3, []float64{1, 1, 1, 1.0000001}, []int{5, 5, 5, 5}, []int{1, 1, 0, 1}},
		{"cap redistributes", 10, []float64{8, 1, 1}, []int{2, 9, 9}, []int{2, 4, 4}},
		{"zero weight gets nothing", 4, []float64{0, 1, 3}, []int{9, 9, 9}, []int{0, 1, 3}},
		{"fewer pages than seeds", 10, []float64{1, 1}, []int{2, 3}, []int{2, 3}},
		{"many tiny hosts", 2, []float64{1, 1, 1, 2}, []int{1, 1, 1, 1}, []int{1, 0, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apportion(c.k, c.weight, c.cap)
			if !slices.Equal(got, c.want) {
				t.Fatalf("apportion(%d, %v, %v) = %v, want %v", c.k, c.weight, c.cap, got, c.want)
			}
		})
	}
}

// checkPerHost verifies a per-host result: every seed on the host its quota
// names, seeds grouped by host in quota order, quotas summing to the seeds,
// and quotas within one seat of the proportional share when no host is capped.
func checkPerHost(t *testing.T, g *graph.CSR, r *Result) {
	t.Helper()
	i := 0
	var total float64
	for _, h := range r.Hosts {
		total += h.Importance
	}
	for _, h := range r.Hosts {
		for j := 0; j < h.Seeds; j++ {
			s := r.Seeds[i]
			if s.Host != h.Host || g.HostNames[g.Hosts[s.Node]] != h.Host {
				t.Fatalf("seed %d (node %d, host %q) listed under host %q", s.Rank, s.Node, s.Host, h.Host)
			}
			i++
		}
	}
	if i != len(r.Seeds) {
		t.Fatalf("quotas cover %d seeds, result has %d", i, len(r.Seeds))
	}
	if len(r.Seeds) == r.K {
		for _, h := range r.Hosts {
			if share := float64(r.K) * h.Importance / total; math.Abs(float64(h.Seeds)-share) >= 1 {
				t.Errorf("host %s: %d seeds for a proportional share of %.2f", h.Host, h.Seeds, share)
			}
		}
	}
}

func TestPerHostSpreadsSeeds(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	// Four hosts of very different sizes: 0 has half the pages.
	g := withHosts(randomGraph(rng, 600, 3000), func(v int) int {
		switch {
		case v < 300:
			return 0
		case v < 450:
			return 1
		case v < 560:
			return 2
		}
		return 3
	})
	in := Input{G: g, Fetched: FetchedByOutDegree(g)}
	for _, a := range Algos() {
		t.Run(a, func(t *testing.T) {
			r := mustSelect(t, in, Options{Algo: a, K: 12, PerHost: true, CoverDensity: 40})
			checkPerHost(t, g, r)
			if len(r.Hosts) != 4 {
				t.Errorf("%d hosts seeded, want 4: %+v", len(r.Hosts), r.Hosts)
			}
			if r.Hosts[0].Host != "h0.test" || r.Hosts[0].Seeds < r.Hosts[len(r.Hosts)-1].Seeds {
				t.Errorf("host order/quotas %+v: the largest host should come first with the most seeds", r.Hosts)
			}
		})
	}
}

// Per host, each host's selection is independent: a host's seeds are what
// the selector picks with that host's pages as the only candidates.
func TestPerHostSelectsIndependently(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := withHosts(randomGraph(rng, 200, 900), func(v int) int { return v % 3 })
	in := Input{G: g}
	r := mustSelect(t, in, Options{Algo: AlgoMaxWeight, K: 9, PerHost: true})
	i := 0
	for _, h := range r.Hosts {
		cands := make([]bool, g.N())
		for v := range cands {
			cands[v] = g.HostNames[g.Hosts[v]] == h.Host
		}
		alone := mustSelect(t, in, Options{Algo: AlgoMaxWeight, K: h.Seeds, Candidates: cands})
		if got := r.Nodes()[i : i+h.Seeds]; !slices.Equal(got, alone.Nodes()) {
			t.Errorf("host %s: per-host seeds %v, alone %v", h.Host, got, alone.Nodes())
		}
		i += h.Seeds
	}
}
