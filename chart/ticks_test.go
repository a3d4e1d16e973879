package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestFormatTick(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v, step float64
		want    string
	}{
		{"integer step keeps integers whole", 2500, 500, "2,500"},
		{"no grouping below a thousand", 750, 250, "750"},
		{"millions", 1234567, 1, "1,234,567"},
		{"zero is 0 whatever the step", 0, 0.001, "0"},
		{"float noise around zero is 0", 1e-17, 0.1, "0"},
		{"one decimal for steps of 0.2", 0.4, 0.2, "0.4"},
		{"same decimals at a whole value", 1, 0.2, "1.0"},
		{"two decimals for steps of 0.05", 0.15, 0.05, "0.15"},
		{"negative with a true minus sign", -0.1, 0.05, "−0.10"},
		{"step 0.0025 needs four decimals", 0.0125, 0.0025, "0.0125"},
		{"small fraction", 0.002, 0.001, "0.002"},
		{"grouping and decimals together", 2500.5, 0.5, "2,500.5"},
		{"negative thousands", -12000, 2000, "−12,000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatTick(tc.v, tc.step); got != tc.want {
				t.Errorf("FormatTick(%v, %v) = %q, want %q", tc.v, tc.step, got, tc.want)
			}
		})
	}
}

// TestTicks checks the labelled ticks of both axes: every tick inside the
// range, whole numbers only on an integer axis, and the labels in order.
func TestTicks(t *testing.T) {
	lin := func(integer bool) plot.Ticker { return LinearTicks{Integer: integer} }
	log := func(integer bool) plot.Ticker { return LogTicks{Integer: integer} }
	for _, tc := range []struct {
		name     string
		axis     func(integer bool) plot.Ticker
		min, max float64
		integer  bool
		want     string // the labelled ticks, in order
	}{
		{"pages of a small crawl", lin, 0, 5662, false, "0 1,000 2,000 3,000 4,000 5,000"},
		{"pages of a larger crawl", lin, 0, 25000, false, "0 5,000 10,000 15,000 20,000 25,000"},
		{"millions of pages", lin, 0, 3.2e6, false, "0 1,000,000 2,000,000 3,000,000"},
		{"a share padded past 1", lin, -0.04, 1.04, false, "0 0.2 0.4 0.6 0.8 1.0"},
		{"small differences around 0", lin, -0.21, 0.07, false, "−0.20 −0.15 −0.10 −0.05 0 0.05"},
		{"tiny differences", lin, -0.0012, 0.0061, false, "0 0.002 0.004 0.006"},
		{"BFS depths", lin, 0, 5, true, "0 1 2 3 4 5"},
		{"many depths", lin, 0, 20, true, "0 5 10 15 20"},
		{"degenerate range", lin, 3, 3, false, "3"},
		{"pages on a log axis", log, 1, 5662, false, "1 10 100 1,000"},
		{"six decades", log, 1, 2e6, false, "1 10 100 1,000 10,000 100,000 1,000,000"},
		{"mean PageRank x N, two decades: 2 and 5 labelled too", log, 0.45, 60, false, "0.5 1 2 5 10 20 50"},
		{"fractions", log, 0.001, 1, false, "0.001 0.01 0.1 1"},
		{"one decade", log, 20, 180, false, "20 50 100"},
		{"depths 1..5, every one labelled", log, 1, 5, true, "1 2 3 4 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, tk := range tc.axis(tc.integer).Ticks(tc.min, tc.max) {
				if tk.Value < tc.min-1e-9 || tk.Value > tc.max+1e-9 {
					t.Errorf("tick %v outside [%v, %v]", tk.Value, tc.min, tc.max)
				}
				if tc.integer && tk.Value != float64(int(tk.Value)) {
					t.Errorf("integer axis has a tick at %v", tk.Value)
				}
				if tk.Label != "" {
					got = append(got, tk.Label)
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("labels %q, want %q", g, tc.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 seeds", 1: "1 seed", 160: "160 seeds", 2500: "2,500 seeds"} {
		if got := Count(n, "seed"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
