package scheduler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The worked example. The paper's Figure 2 itself could not be retrieved
// (only the abstracts of Alam et al. are reachable from here), so this graph
// is built from the rules the issue quotes from the paper's text, small
// enough to check by hand, and exercising each rule once: a tie between seeds
// broken FIFO, a self-link share dropped, accumulation on a queued page, a
// link to a downloaded page dropped, a dangling page.
//
//	A → C, D, A      (A's self-link counts in N_A = 3)
//	B → D, E
//	C → F
//	D → A, F, G      (A is downloaded by then)
//	E                (dangling)
//	F → G
//	G → D
//
// Hosts for FPR@M: A, B, C on a.example; D, E on d.example; F, G on
// f.example.
const (
	nA = iota
	nB
	nC
	nD
	nE
	nF
	nG
)

func exampleGraph() testGraph {
	return testGraph{
		out: [][]int{
			nA: {nC, nD, nA},
			nB: {nD, nE},
			nC: {nF},
			nD: {nA, nF, nG},
			nE: {},
			nF: {nG},
			nG: {nD},
		},
		host: []int{0, 0, 0, 1, 1, 2, 2},
	}
}

// TestFPRExample checks the download order and the priority each page had
// when downloaded, computed by hand with d = 0.85 and seeds {A, B}:
//
//	seeds: fpr_A = fpr_B = 0.15/2 = 0.075; A before B (FIFO)
//	A: share 0.85·0.075/3 = 0.02125 → C, D (self-link share dropped)
//	B: share 0.85·0.075/2 = 0.031875 → D = 0.053125, E = 0.031875
//	D: share 0.85·0.053125/3 = 0.0150520833 → F, G (A downloaded: dropped)
//	E: dangling, mass dropped
//	C: 0.85·0.02125 = 0.0180625 → F = 0.0331145833
//	F: 0.85·0.0331145833 = 0.0281473958 → G = 0.0431994792
//	G: its only target D is downloaded
//
// so FPR downloads A B D E C F G, where BFS downloads A B C D E F G.
//
// FPR@4 with the hosts above (D_p = N_intra + 4·N_inter):
//
//	A: D_A = 2 + 4 = 6, w = 0.85·0.075/6 = 0.010625 → C (intra) 0.010625,
//	   D (inter) 0.0425
//	B: D_B = 8, inter share 4·0.85·0.075/8 = 0.031875 → D = 0.074375,
//	   E = 0.031875
//	D: D_D = 12, inter share 4·0.85·0.074375/12 = 0.0210729167 → F, G
//	E: dangling
//	F: G intra, D_F = 1: G = 0.0210729167 + 0.85·0.0210729167 = 0.0389848958
//	G, then C (0.010625, the intra-host page, now last)
//
// so FPR@4 downloads A B D E F G C.
func TestFPRExample(t *testing.T) {
	tests := []struct {
		name  string
		hosts bool
		want  []step
	}{
		{"bfs", false, []step{{nA, 0}, {nB, 0}, {nC, 0}, {nD, 0}, {nE, 0}, {nF, 0}, {nG, 0}}},
		{"fpr", true, []step{{nA, 0.075}, {nB, 0.075}, {nD, 0.053125}, {nE, 0.031875},
			{nC, 0.02125}, {nF, 0.0331145833333}, {nG, 0.0431994791667}}},
		{"fpr@1", true, []step{{nA, 0.075}, {nB, 0.075}, {nD, 0.053125}, {nE, 0.031875},
			{nC, 0.02125}, {nF, 0.0331145833333}, {nG, 0.0431994791667}}},
		{"fpr@4", true, []step{{nA, 0.075}, {nB, 0.075}, {nD, 0.074375}, {nE, 0.031875},
			{nF, 0.0210729166667}, {nG, 0.0389848958333}, {nC, 0.010625}}},
		// Without hosts every link is intra-host: FPR@4 is FPR.
		{"fpr@4", false, []step{{nA, 0.075}, {nB, 0.075}, {nD, 0.053125}, {nE, 0.031875},
			{nC, 0.02125}, {nF, 0.0331145833333}, {nG, 0.0431994791667}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/hosts=%v", tc.name, tc.hosts), func(t *testing.T) {
			g := exampleGraph()
			if !tc.hosts {
				g.host = nil
			}
			got := replay(t, mustNew(t, tc.name, Options{}), g, []int{nA, nB})
			if !slices.Equal(ids(got), ids(tc.want)) {
				t.Fatalf("order = %v, want %v", names(ids(got)), names(ids(tc.want)))
			}
			for i := range got {
				if math.Abs(got[i].prio-tc.want[i].prio) > 1e-12 {
					t.Errorf("page %s downloaded with priority %.13f, want %.13f", names([]int{got[i].id}), got[i].prio, tc.want[i].prio)
				}
			}
		})
	}
}

func names(v []int) string {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte('A' + x)
	}
	return string(b)
}

// TestFPRSeed checks fpr_i = (1−d)/|S| for several dampings and seed
// counts.
func TestFPRSeed(t *testing.T) {
	for _, d := range []float64{0.5, 0.85, 0.99} {
		for _, k := range []int{1, 3, 160} {
			for _, name := range []string{"fpr", "fpr@20"} {
				s := mustNew(t, name, Options{Damping: d})
				seeds := make([]Link, k)
				for i := range seeds {
					seeds[i] = Link{ID: uint64(i), State: New}
				}
				s.Seed(seeds)
				for _, l := range seeds {
					if want := (1 - d) / float64(k); math.Abs(l.Prio-want) > 1e-15 {
						t.Fatalf("%s d=%v |S|=%d: seed prio %v, want %v", name, d, k, l.Prio, want)
					}
				}
			}
		}
	}
}

// TestFPREmittedMass checks that a page whose targets are all undownloaded
// hands out exactly d·f, whatever the mix of intra- and inter-host targets,
// and that downloaded targets and self-links still count in N_p (their
// shares vanish).
func TestFPREmittedMass(t *testing.T) {
	tests := []struct {
		name         string
		intra, inter int
		done         int // of the intra targets, how many are Done
	}{
		{"fpr", 3, 0, 0},
		{"fpr", 2, 5, 0},
		{"fpr@1", 2, 5, 0},
		{"fpr@2", 2, 5, 0},
		{"fpr@100", 7, 1, 0},
		{"fpr@100", 0, 4, 0},
		{"fpr@100", 4, 0, 0},
		{"fpr@3", 1, 1, 0},
		{"fpr", 4, 0, 1},
		{"fpr@10", 3, 2, 2},
	}
	const d, f = 0.85, 0.0123
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d+%d-done%d", tc.name, tc.intra, tc.inter, tc.done), func(t *testing.T) {
			var out []Link
			for i := 0; i < tc.intra+tc.inter; i++ {
				l := Link{ID: uint64(i + 10), Intra: i < tc.intra, State: New}
				if i < tc.done {
					l.State = Done
				}
				if i%2 == 1 && l.State != Done {
					l.State, l.Prio = Queued, 0.5 // accumulates on top of 0.5
				}
				out = append(out, l)
			}
			before := slices.Clone(out)
			mustNew(t, tc.name, Options{Damping: d}).Downloaded(Link{ID: 1, State: Done, Prio: f}, out)
			var m float64
			fmt.Sscanf(tc.name, "fpr@%g", &m)
			if m == 0 {
				m = 1
			}
			dp := float64(tc.intra) + m*float64(tc.inter)
			var sum float64
			for i, l := range out {
				delta := l.Prio - before[i].Prio
				want := d * f / dp
				if !l.Intra {
					want *= m
				}
				if l.State == Done {
					want = 0
				}
				if math.Abs(delta-want) > 1e-15 {
					t.Errorf("target %d (intra=%v, %v) got %v, want %v", i, l.Intra, l.State, delta, want)
				}
				sum += delta
			}
			if tc.done == 0 && math.Abs(sum-d*f) > 1e-15 {
				t.Errorf("emitted %v, want d·f = %v", sum, d*f)
			}
		})
	}
}

// TestFPRDangling checks that a page without out-links changes nothing.
func TestFPRDangling(t *testing.T) {
	for _, name := range []string{"fpr", "fpr@5"} {
		mustNew(t, name, Options{}).Downloaded(Link{ID: 1, State: Done, Prio: 0.3}, nil)
	}
}

// TestFPRAt1IsFPR checks that fpr@1 gives exactly fpr's order on random
// graphs with hosts, and that fpr@M for large M does not (so the hosts are
// really used).
func TestFPRAt1IsFPR(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	differ := 0
	for i := 0; i < 30; i++ {
		g := randomGraph(r, 50+r.IntN(300), 2+r.IntN(20), 1+r.IntN(10))
		seeds := []int{r.IntN(len(g.out)), r.IntN(len(g.out)), r.IntN(len(g.out))}
		a := replay(t, mustNew(t, "fpr", Options{}), g, seeds)
		b := replay(t, mustNew(t, "fpr@1", Options{}), g, seeds)
		if !slices.Equal(a, b) {
			t.Fatalf("graph %d: fpr@1 differs from fpr", i)
		}
		if c := replay(t, mustNew(t, "fpr@100", Options{}), g, seeds); !slices.Equal(ids(a), ids(c)) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("fpr@100 never differed from fpr on 30 graphs with hosts")
	}
}
