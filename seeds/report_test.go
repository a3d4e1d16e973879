package seeds

import (
	"bytes"
	"strings"
	"testing"
)

// TestWriteTableExplainsFill: a seed taken by the selector's fill rule is
// marked "(fill)" in the table, and a line under it says what that means
// for the selector; a result with no filled seed has no such line.
func TestWriteTableExplainsFill(t *testing.T) {
	for _, tc := range []struct {
		algo   string
		filled []bool
		want   string // "" : no legend line
	}{
		{"indegree0", []bool{false, true, true}, "(fill): 2 of 3 seeds came after indegree0's own candidates ran out: pages without in-links"},
		{"rootscc", []bool{true}, "(fill): 1 of 1 seeds came after rootscc's own candidates ran out: the root components' pages"},
		{"maxweight", []bool{false, false}, ""},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			r := &Result{Algo: tc.algo, K: len(tc.filled), Hops: 2}
			for i, f := range tc.filled {
				r.Seeds = append(r.Seeds, Seed{Rank: i + 1, Node: uint32(i), URL: "http://a.test/", Filled: f})
			}
			var out bytes.Buffer
			if err := r.WriteTable(&out); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if tc.want == "" {
				if strings.Contains(got, "(fill)") {
					t.Errorf("no seed was filled, yet:\n%s", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || strings.Count(got, "http://a.test/ (fill)") != len(tc.filled)-countFalse(tc.filled) {
				t.Errorf("table does not mark and explain the filled seeds (want %q):\n%s", tc.want, got)
			}
		})
	}
}

func countFalse(b []bool) int {
	n := 0
	for _, v := range b {
		if !v {
			n++
		}
	}
	return n
}
