package main

import (
	"bytes"
	"encoding/csv"
	"os/exec"
	"regexp"
	"slices"
	"testing"
)

// TestEvalRecrawlColumnsExplained: `eval recrawl --help` (the binary's
// stdout) explains every column of the --csv header, the header a CSV
// reader gets is those names unchanged, and its first row is the header
// (no comment line ahead of it).
func TestEvalRecrawlColumnsExplained(t *testing.T) {
	var help bytes.Buffer
	cmd := exec.Command(seedcrawlBinary(t), "eval", "recrawl", "--help")
	cmd.Stdout = &help
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval recrawl --help: %v", err)
	}
	var out bytes.Buffer
	if err := writeRecrawlCSV(&out, nil, 100); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(rows) != 1 {
		t.Fatalf("CSV of no curves: %d rows, %v; want the header alone", len(rows), err)
	}
	want := []string{"scheduler", "seed_algo", "refresh_policy", "cycle", "epoch", "budget_share", "fetches_at",
		"pagerank", "best_pagerank", "new_share", "new_pages", "freshness", "fetches", "requests", "not_modified", "seconds", "freshness_pagerank",
		"seeds", "seeds_requested", "seeds_requested_10", "refetches_10", "new_found_10"}
	if !slices.Equal(rows[0], want) {
		t.Errorf("header %v, want the columns scripts read: %v", rows[0], want)
	}
	for _, name := range rows[0] {
		// Each column on a line of its own, followed by what it holds.
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +\S.{10,}$`).Match(help.Bytes()) {
			t.Errorf("eval recrawl --help does not explain column %s", name)
		}
	}
}
