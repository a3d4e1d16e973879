package changerate

import (
	"errors"
	"math"
	"testing"
)

// The wanted values below are computed by hand from the formulas in the
// doc comments (ln 1.4 = 0.336472236621, ln 11 = 2.397895272798, ...).
func TestRegularEstimators(t *testing.T) {
	tests := []struct {
		name        string
		x, n        int
		interval    float64
		naive, bias float64
	}{
		{"3 of 10 at 2", 3, 10, 2, 3.0 / 20, 0.168236118311},
		{"no change", 0, 5, 1, 0, 0},
		{"every access changed", 5, 5, 1, 1, 2.397895272798},
		{"half of 4 at 0.5", 2, 4, 0.5, 1, -math.Log(2.5/4.5) / 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Naive(tc.x, tc.n, tc.interval)
			if err != nil || math.Abs(got-tc.naive) > 1e-12 {
				t.Errorf("Naive = %v, %v; want %v", got, err, tc.naive)
			}
			got, err = BiasReduced(tc.x, tc.n, tc.interval)
			if err != nil || math.Abs(got-tc.bias) > 1e-11 {
				t.Errorf("BiasReduced = %v, %v; want %v", got, err, tc.bias)
			}
		})
	}
	for _, bad := range []struct {
		x, n int
		i    float64
	}{{-1, 3, 1}, {4, 3, 1}, {0, 0, 1}, {1, 3, 0}, {1, 3, math.NaN()}, {1, 3, math.Inf(1)}} {
		if _, err := Naive(bad.x, bad.n, bad.i); !errors.Is(err, ErrInput) {
			t.Errorf("Naive(%d, %d, %v) = %v, want ErrInput", bad.x, bad.n, bad.i, err)
		}
		if _, err := BiasReduced(bad.x, bad.n, bad.i); !errors.Is(err, ErrInput) {
			t.Errorf("BiasReduced(%d, %d, %v) = %v, want ErrInput", bad.x, bad.n, bad.i, err)
		}
	}
}

func obs(changed []float64, unchanged ...float64) []Observation {
	var o []Observation
	for _, t := range changed {
		o = append(o, Observation{Interval: t, Changed: true})
	}
	for _, t := range unchanged {
		o = append(o, Observation{Interval: t})
	}
	return o
}

func TestMLE(t *testing.T) {
	tests := []struct {
		name string
		obs  []Observation
		want float64
	}{
		// 1/(e^λ − 1) = 1: e^λ = 2.
		{"one changed, one not, both 1", obs([]float64{1}, 1), math.Ln2},
		// Regular intervals reduce to −ln((n − X)/n)/I: 4 of 10 changed.
		{"regular 4 of 10", obs([]float64{1, 1, 1, 1}, 1, 1, 1, 1, 1, 1), -math.Log(0.6)},
		// 2·2/(e^(2λ) − 1) = 3: λ = ln(7/3)/2.
		{"two changed of 2, unchanged 1+2", obs([]float64{2, 2}, 1, 2), math.Log(7.0/3) / 2},
		// (u+3)/(u²−1) = 3 with u = e^λ: u = (1 + √73)/6.
		{"irregular changed 1 and 2, unchanged 3", obs([]float64{1, 2}, 3), math.Log((1 + math.Sqrt(73)) / 6)},
		{"no change", obs(nil, 1, 5), 0},
		{"every interval changed", obs([]float64{1, 3}), math.Inf(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MLE(tc.obs)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want && math.Abs(got-tc.want) > 1e-10*max(1, tc.want) {
				t.Errorf("MLE = %.15g, want %.15g", got, tc.want)
			}
		})
	}
	for _, bad := range [][]Observation{nil, {{Interval: 0}}, {{Interval: -1, Changed: true}}, {{Interval: math.NaN()}}} {
		if _, err := MLE(bad); !errors.Is(err, ErrInput) {
			t.Errorf("MLE(%v) = %v, want ErrInput", bad, err)
		}
	}
}

func TestLastModified(t *testing.T) {
	tests := []struct {
		name        string
		acc         []Access
		naive, bias float64
	}{
		// X = 1, n = 2, T = 0.25 + 1: naive 0.8; bias
		// (0 − 1/(2·ln 0.5))/1.25 = 0.721347520444/1.25.
		{"one of two changed", []Access{{1, 0.25}, {1, 3}}, 0.8, 0.577078016356},
		// X = n = 2, T = 0.5 + 0.5: (X − 1)/T.
		{"every access changed", []Access{{1, 0.5}, {2, 0.5}}, 2, 1},
		{"never changed", []Access{{1, 1}, {1, 2}}, 0, 0},
		// X = 2 of 4, T = 0.5 + 1 + 2 + 0.5 = 4: naive 0.5; bias
		// (1 − 2/(4·ln 0.5))/4 = (1 + 0.721347520444)/4.
		{"two of four", []Access{{1, 0.5}, {1, 1}, {2, 7}, {3, 0.5}}, 0.5, 0.430336880111},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LastModifiedNaive(tc.acc)
			if err != nil || math.Abs(got-tc.naive) > 1e-12 {
				t.Errorf("LastModifiedNaive = %v, %v; want %v", got, err, tc.naive)
			}
			got, err = LastModified(tc.acc)
			if err != nil || math.Abs(got-tc.bias) > 1e-11 {
				t.Errorf("LastModified = %.12f, %v; want %.12f", got, err, tc.bias)
			}
		})
	}
	for _, bad := range [][]Access{nil, {{0, 1}}, {{1, -1}}, {{1, math.NaN()}}, {{math.Inf(1), 1}}} {
		if _, err := LastModified(bad); !errors.Is(err, ErrInput) {
			t.Errorf("LastModified(%v) = %v, want ErrInput", bad, err)
		}
	}
}

func TestUnseen(t *testing.T) {
	for _, tc := range []struct {
		n        int
		interval float64
		want     float64
	}{
		{20, 1, 0.024692612590371},    // ln(20.5/20)
		{1, 2, 0.202732554054082},     // ln(1.5)/2
		{100, 0.5, 0.009975083022078}, // ln(100.5/100)/0.5
	} {
		got, err := Unseen(tc.n, tc.interval)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Unseen(%d, %v) = %.15f, %v; want %.15f", tc.n, tc.interval, got, err, tc.want)
		}
	}
	if _, err := Unseen(0, 1); !errors.Is(err, ErrInput) {
		t.Errorf("Unseen(0, 1) = %v, want ErrInput", err)
	}
}
