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
	} {
		checkExit(t, append([]string{"eval", "recrawl", "--pages", "50", "--hosts", "2"}, c.args...), 2, c.want)
	}
}
