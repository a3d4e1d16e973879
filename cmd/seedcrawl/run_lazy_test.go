package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// runBudgetCycles runs two cycles over a 400-page test web, the second
// limited to 40 pages of which half may be refetches, and returns the db
// and cycle 2's --json output.
func runBudgetCycles(t testing.TB) (db, cycle2 string) {
	t.Helper()
	w := cleanWeb(t, 5, 400, 5)
	db = filepath.Join(t.TempDir(), "cycles.db")
	runCmd(t, append(runArgs(t, w, db, "--cycles", "1", "--seed-algo", "given"), w.site.Seeds()...))
	return db, runCmd(t, runArgs(t, w, db, "--cycles", "2", "--seed-algo", "given", "--pages-per-cycle", "40",
		"--refresh-share", "0.5", "--json"))
}

// TestRunBudgetCycleQueuesKnownPagesLazily: a budget-limited cycle starts
// with a refresh list of twice its budget at most, still reaches every
// known page through links (refetching up to the refresh share, traversing
// the rest from storage), and leaves no frontier entry behind.
func TestRunBudgetCycleQueuesKnownPagesLazily(t *testing.T) {
	db, out := runBudgetCycles(t)
	known := len(runReadDB(t, db).fetch[1])
	var c runCycleOut
	if err := json.NewDecoder(strings.NewReader(out)).Decode(&c); err != nil {
		t.Fatalf("cycle 2 output %q: %v", out, err)
	}
	var handled uint64
	for _, n := range c.Refresh {
		handled += n
	}
	if c.Refresh["fetched"] != 20 || handled < uint64(known)-uint64(len(c.Seeds))-5 {
		t.Errorf("cycle 2 refresh %v over %d known pages; want 20 refetched and nearly all handled (start list: at most 80)", c.Refresh, known)
	}
	st := openDB(t, db)
	defer st.Close()
	left := 0
	if err := st.LoadFrontier(func(storage.Entry) error { left++; return nil }); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d frontier entries left after the budget-limited cycle, want 0", left)
	}
}
