package seeds

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestValues(t *testing.T) {
	// Host a: pages 0, 1, 2 (fetched), 3 (not fetched). Host b: 4 (fetched),
	// 5 (not fetched). Host c: 6 (not fetched, so its P_uniq falls back to the
	// whole crawl's share).
	g := withHosts(fromArcs(7, [][2]uint32{
		{0, 1}, {0, 3}, {0, 5}, {0, 6}, // 3 uncrawled targets
		{1, 3},         // 1
		{2, 2}, {2, 0}, // 0 (self-loop to a fetched page)
		{4, 5}, {4, 3}, // 2
		{6, 5}, // page not fetched: its links are not known to the crawl
	}), func(v int) int {
		switch {
		case v < 4:
			return 0
		case v < 6:
			return 1
		}
		return 2
	})
	fetched := []bool{true, true, true, false, true, false, false}
	novel := []bool{true, false, true, false, false, false, false}
	// P_uniq: host 0 = 2/3, host 1 = 0/1, host 2 = all crawl = 2/4.
	cases := []struct {
		name string
		in   Input
		want []float64
	}{
		{"crawl state", Input{G: g, Fetched: fetched, Novel: novel},
			[]float64{1 + 3*2.0/3, 1 + 2.0/3, 1, 1, 1, 1, 1}},
		{"all novel", Input{G: g, Fetched: fetched},
			[]float64{4, 2, 1, 1, 3, 1, 1}},
		{"all fetched", Input{G: g},
			[]float64{1, 1, 1, 1, 1, 1, 1}},
		{"override", Input{G: g, Fetched: fetched, Weights: map[uint32]float64{0: -10, 5: 10}},
			[]float64{-10, 2, 1, 1, 3, 10, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Values(c.in)
			if err != nil {
				t.Fatal(err)
			}
			for v := range got {
				if math.Abs(got[v]-c.want[v]) > 1e-12 {
					t.Fatalf("w = %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestFetchedByOutDegree(t *testing.T) {
	g := fromArcs(4, [][2]uint32{{0, 1}, {2, 2}})
	if got, want := FetchedByOutDegree(g), []bool{true, false, true, false}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestReadWeights(t *testing.T) {
	g := fromArcs(4, [][2]uint32{{0, 1}})
	g.SetURLs([]string{"http://a.test/", "http://a.test/x", "http://b.test/", "http://b.test/y"})
	cases := []struct {
		name    string
		text    string
		want    map[uint32]float64
		unknown []string
		err     error
	}{
		{"urls ids comments", "# spam\nhttp://a.test/x -10\n\n3\t10.5\n  http://b.test/ 0  \n",
			map[uint32]float64{1: -10, 3: 10.5, 2: 0}, nil, nil},
		{"unknown keys kept aside", "http://c.test/ 5\n9 1\nhttp://a.test/ 2\n",
			map[uint32]float64{0: 2}, []string{"http://c.test/", "9"}, nil},
		{"bad value", "http://a.test/ lots\n", nil, nil, ErrWeights},
		{"missing value", "http://a.test/\n", nil, nil, ErrWeights},
		{"extra field", "http://a.test/ 1 2\n", nil, nil, ErrWeights},
		{"NaN value", "http://a.test/ NaN\n", nil, nil, ErrWeights},
		{"infinite value", "http://a.test/ -Inf\n", nil, nil, ErrWeights},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, unknown, err := ReadWeights(strings.NewReader(c.text), "w.txt", g)
			if c.err != nil {
				if !errors.Is(err, c.err) || !strings.Contains(err.Error(), "w.txt:1") {
					t.Fatalf("err = %v, want %v naming w.txt:1", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(w) != len(c.want) || !slices.Equal(unknown, c.unknown) {
				t.Fatalf("weights %v unknown %v; want %v %v", w, unknown, c.want, c.unknown)
			}
			for k, v := range c.want {
				if w[k] != v {
					t.Fatalf("weights %v, want %v", w, c.want)
				}
			}
		})
	}
}

// A user weight steers the greedy selectors: a spam page loses its pull and a
// clicked page gains it.
func TestWeightsSteerGreedy(t *testing.T) {
	// 0 → 1..4; 5 → 6, 7; pages 1..4 are spam.
	g := fromArcs(8, [][2]uint32{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {5, 6}, {5, 7}})
	r := mustSelect(t, Input{G: g}, Options{Algo: AlgoMaxOut, K: 1})
	if r.Seeds[0].Node != 0 {
		t.Fatalf("without weights: seed %d, want 0", r.Seeds[0].Node)
	}
	spam := map[uint32]float64{1: -10, 2: -10, 3: -10, 4: -10}
	r = mustSelect(t, Input{G: g, Weights: spam}, Options{Algo: AlgoMaxOut, K: 1})
	if r.Seeds[0].Node != 5 {
		t.Fatalf("with spam weights: seed %d, want 5", r.Seeds[0].Node)
	}
}

// Non-finite weights given through the API are refused, not summed into NaN
// scores that would scramble the greedy heap.
func TestSelectRejectsNonFiniteWeights(t *testing.T) {
	g := fromArcs(4, [][2]uint32{{0, 1}, {1, 2}, {2, 3}})
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := Select(context.Background(), Input{G: g, Weights: map[uint32]float64{1: x}}, Options{Algo: AlgoMaxWeight, K: 1})
		if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "node 1") {
			t.Errorf("weight %v: err = %v, want ErrOptions naming node 1", x, err)
		}
	}
}
