package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunWarnsRefreshTakesBudget runs a first cycle, then a second with a
// budget of 30 and every known page due (--revisit-initial 0). run warns
// after a cycle only when it spent its whole budget, fetched no new page
// and refetched known pages under --refresh-share 1: on a web larger than
// the first cycle the due refetches compete with new URLs and cycle 2
// still finds new pages, so there is nothing to warn of; on a web the
// first cycle fetched entirely, every fetch of cycle 2 is a refetch and
// the warning says so.
func TestRunWarnsRefreshTakesBudget(t *testing.T) {
	large := crawlStartWeb(t, testweb.GenOptions{Seed: 9, Pages: 200, Hosts: 3, Preset: testweb.Clean}, testweb.Options{})
	small := crawlStartWeb(t, testweb.GenOptions{Seed: 9, Pages: 60, Hosts: 2, Preset: testweb.Clean}, testweb.Options{})
	for _, tc := range []struct {
		name  string
		web   *crawlWeb
		share string
		warn  bool
	}{
		{"new pages left, share 1", large, "1", false},
		{"web fully known, share 1", small, "1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "r.db")
			cycle := func(n, budget string, extra ...string) string {
				args := append([]string{"run"}, runArgs(t, tc.web, db, append([]string{"--cycles", n, "--pages-per-cycle", budget,
					"--revisit-initial", "0", "--seed-algo", "given"}, extra...)...)...)
				_, stderr := checkExit(t, append(args, tc.web.site.Seeds()...), 0)
				return stderr
			}
			if stderr := cycle("1", "100"); strings.Contains(stderr, "warning: cycle") {
				t.Errorf("cycle 1 has no known pages to refetch, yet run warned:\n%s", stderr)
			}
			stderr := cycle("2", "30", "--refresh-share", tc.share)
			d := openDB(t, db)
			defer d.Close()
			cycles, err := d.Cycles()
			if err != nil {
				t.Fatal(err)
			}
			if len(cycles) != 2 {
				t.Fatalf("%d cycles stored, want 2", len(cycles))
			}
			s := cycles[1].Stats
			if found := s.New > 0; found == tc.warn || s.Fetches != 30 {
				t.Fatalf("cycle 2 made %d fetches and found %d new pages; the case wants 30 fetches and new pages found %v",
					s.Fetches, s.New, !tc.warn)
			}
			warned := strings.Contains(stderr, "warning: cycle 2 spent its whole budget of 30 pages and fetched no new page") &&
				strings.Contains(stderr, "--refresh-share below 1")
			if warned != tc.warn {
				t.Errorf("warned %v, want %v; cycle 2 stats %+v; stderr:\n%s", warned, tc.warn, s, stderr)
			}
			if strings.Contains(stderr, "fill its whole budget") {
				t.Errorf("run still warns before the cycle that its due pages fill its budget:\n%s", stderr)
			}
		})
	}
}

// TestRunStarvedNote checks the conditions of the warning on cycle
// statistics: every one of them must hold.
func TestRunStarvedNote(t *testing.T) {
	starved := storage.CycleStats{Fetches: 30, Unchanged: 28, Changed: 2}
	for _, tc := range []struct {
		name   string
		s      storage.CycleStats
		budget int64
		share  float64
		want   string
		spent  bool // the cycle's last crawl stopped on its budget
	}{
		{"all refetches", starved, 30, 1, "cycle 2 spent its whole budget of 30 pages and fetched no new page: 30 of its 30 fetches refetched known pages", false},
		{"share below 1", starved, 30, 0.8, "", false},
		{"no budget", starved, 0, 1, "", false},
		{"budget left", starved, 40, 1, "", false},
		{"a new page", storage.CycleStats{Fetches: 30, Unchanged: 29, New: 1}, 30, 1, "", false},
		{"failed new URLs only", storage.CycleStats{Fetches: 30, Errors: 30}, 30, 1, "", false},
		{"some failed", storage.CycleStats{Fetches: 30, Unchanged: 20, Gone: 1, Errors: 9}, 30, 1, "21 of its 30 fetches refetched known pages", false},
		{"mostly failed new URLs", storage.CycleStats{Fetches: 100, Unchanged: 5, Errors: 95}, 100, 1, "", false},
		{"half refetches", storage.CycleStats{Fetches: 100, Unchanged: 50, Errors: 50}, 100, 1, "50 of its 100 fetches refetched known pages", false},
		{"budget spent with a retry", storage.CycleStats{Fetches: 29, Unchanged: 29}, 30, 1, "29 of its 29 fetches refetched known pages", true},
		{"stopped before the budget", storage.CycleStats{Fetches: 29, Unchanged: 29}, 30, 1, "", false},
		// A resume whose budget its retries spent runs no crawl to stop on it.
		{"retries spent it, no crawl", storage.CycleStats{Fetches: 29, Unchanged: 29, Retries: 1}, 30, 1, "29 of its 29 fetches refetched known pages", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runStarvedNote(2, tc.s, tc.budget, tc.spent, tc.share)
			if (got == "") != (tc.want == "") || !strings.Contains(got, tc.want) {
				t.Errorf("runStarvedNote = %q, want one with %q", got, tc.want)
			}
		})
	}
}
