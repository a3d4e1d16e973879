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
	fillTable(t, "indegree0", 3, 2, "(fill): 2 of 3 seeds came after indegree0's own candidates ran out: pages without in-links")
	fillTable(t, "rootscc", 1, 1, "(fill): 1 of 1 seeds came after rootscc's own candidates ran out: the root components' pages")
	fillTable(t, "maxweight", 2, 0, "")
}

// fillTable writes the table of n seeds of algo, the last filled of them
// taken by the fill rule, and checks the marks and the legend line (want;
// "" for none).
func fillTable(t *testing.T, algo string, n, filled int, want string) {
	t.Helper()
	r := &Result{Algo: algo, K: n, Hops: 2}
	for i := range n {
		r.Seeds = append(r.Seeds, Seed{Rank: i + 1, Node: uint32(i), URL: "http://a.test/", Filled: i >= n-filled})
	}
	var out bytes.Buffer
	if err := r.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if marks := strings.Count(got, "http://a.test/ (fill)"); marks != filled || want != "" && !strings.Contains(got, want) ||
		want == "" && strings.Contains(got, "(fill):") {
		t.Errorf("%s: %d seeds marked, want %d, and the legend %q:\n%s", algo, marks, filled, want, got)
	}
}
