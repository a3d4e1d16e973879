package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestEvalRecrawl runs the recrawl experiment on a small evolving web and
// checks what it reports against what must hold: one CSV row per
// configuration, cycle and budget step; cumulative PageRank never above
// the best possible and never decreasing; shares within 0..1; the history
// scheduler, given the previous cycle's PageRank, ahead of bfs early in
// cycles 2 and 3.
func TestEvalRecrawl(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "r.csv")
	var stdout, stderr bytes.Buffer
	err := runEval(context.Background(), []string{"recrawl", "--pages", "600", "--hosts", "8", "--epochs", "3", "--budget", "200",
		"--schedulers", "bfs,history", "--csv", csvPath, "--plot", filepath.Join(dir, "r.svg")}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("eval recrawl: %v\n%s", err, stderr.String())
	}
	rows := readCSVFile(t, csvPath)
	if want := 1 + 2*3*len(evalRecrawlSteps); len(rows) != want {
		t.Fatalf("%d CSV rows, want %d", len(rows), want)
	}
	num := func(s string) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("CSV value %q: %v", s, err)
		}
		return x
	}
	early := map[string]float64{} // scheduler -> PR at 10% summed over cycles 2, 3
	prev := -1.0
	for i, r := range rows[1:] {
		pr, best, news, fresh := num(r[7]), num(r[8]), num(r[9]), num(r[11])
		if pr > best+1e-9 || news < 0 || news > 1 || fresh < 0 || fresh > 1 {
			t.Errorf("row %d: %v: PageRank %g above best %g, or a share out of 0..1", i+1, r, pr, best)
		}
		if i%len(evalRecrawlSteps) != 0 && pr < prev {
			t.Errorf("row %d: cumulative PageRank fell from %g to %g", i+1, prev, pr)
		}
		prev = pr
		seeds, asked, asked10, known10 := num(r[17]), num(r[18]), num(r[19]), num(r[20])
		if r[3] != "1" && (seeds < 1 || asked > seeds || asked10 > asked || known10 > 20) {
			t.Errorf("row %d: %v: %g seeds, %g requested, %g in the first 10%%, %g refetches in the first 20 fetches", i+1, r, seeds, asked, asked10, known10)
		}
		if r[3] != "1" && r[5] == "0.1" {
			early[r[0]] += pr
		}
	}
	if !(early["history"] > early["bfs"]) {
		t.Errorf("PageRank at 10%% of cycles 2-3: history %g, bfs %g; want history ahead\n%s", early["history"], early["bfs"], stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "r.svg")); err != nil {
		t.Errorf("plot: %v", err)
	}
}

// TestEvalRecrawlBadFlags checks that a bad eval recrawl setting is a usage
// error before any test web is built or crawled.
func TestEvalRecrawlBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--refresh-share", "1.5"}, "--refresh-share 1.5: want 0..1"},
		{[]string{"--refresh-share", "NaN"}, "--refresh-share NaN: want 0..1"},
		{[]string{"--refresh-pace", "sideways"}, `--refresh-pace "sideways"`},
		{[]string{"--epochs", "1"}, "--epochs ≥ 2"},
		{[]string{"--k", "-1"}, "--k must not be negative"},
	} {
		checkExit(t, append([]string{"eval", "recrawl", "--pages", "50", "--hosts", "2"}, c.args...), 2, c.want)
	}
}

// TestOracleFound: the oracle bound adds to the new pages a cycle found
// the new out-links of k pages: those with the most (top), those adding
// the most to what was found (best, greedy), or the first k in the order
// given (ordered).
func TestOracleFound(t *testing.T) {
	found := map[uint32]bool{1: true, 2: true, 3: true}
	cands := [][]uint32{
		{9},          // one page nobody else links to
		{1, 2, 3, 4}, // the most new out-links, all but one found already
		{5, 6},
		{7, 8},
	}
	for _, tc := range []struct {
		name              string
		k                 int
		marginal, ordered bool
		want              int
	}{
		{"top 1: the page with the most new out-links", 1, false, false, 4},
		{"best 1: the page adding the most", 1, true, false, 5},
		{"top 2", 2, false, false, 6},
		{"best 2", 2, true, false, 7},
		{"best 4: everything", 4, true, false, 9},
		{"first 1 in the order given", 1, false, true, 4},
		{"k beyond the candidates", 10, false, false, 9},
		{"k 0: what was found", 0, true, false, 3},
	} {
		if got := oracleFound(found, cands, tc.k, tc.marginal, tc.ordered); got != tc.want {
			t.Errorf("%s: %d new pages, want %d", tc.name, got, tc.want)
		}
	}
	if len(found) != 3 {
		t.Errorf("oracleFound changed found: %v", found)
	}
}
