package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOutputRefusesDatabase gives the --out (or --plot) of each command
// that writes a file the path of a database, the command's own --db or
// another crawl's: the command must refuse (exit 2, naming the flag) and
// the database must still open with its pages, where it used to be
// replaced by a CSV or, by export, truncated under the open db.
func TestOutputRefusesDatabase(t *testing.T) {
	db, _ := exportTestDB(t)
	other, _ := exportTestDB(t)
	want := len(runReadDB(t, db).pages)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"export pages to its db", []string{"export", "--db", db, "--what", "pages", "--out", db}},
		{"export links to another db", []string{"export", "--db", db, "--what", "links", "--format", "jsonl", "--out", other}},
		{"export graphml to a db", []string{"export", "--db", db, "--what", "graph", "--format", "graphml", "--out", filepath.Join(filepath.Dir(other), "x.db.graphml")}},
		{"rank to its db", []string{"rank", "--db", db, "--algo", "pagerank", "--out", db}},
		{"seeds to its db", []string{"seeds", "--db", db, "--algo", "pagerank", "--k", "2", "--out", db}},
		{"sim table to its db", []string{"sim", "--db", db, "--schedulers", "bfs", "--out", db}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := tc.args[len(tc.args)-1]
			if filepath.Ext(target) == ".graphml" {
				// export adds the extension: a db named so is the victim.
				raw, err := os.ReadFile(other)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(target, raw, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			checkExit(t, tc.args, 2, "--out "+target, "is a seedcrawl database")
			if got := len(runReadDB(t, target).pages); got != want {
				t.Errorf("%s after the command: %d pages, want %d", target, got, want)
			}
		})
	}
}
