package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestRunWarnsRefreshTakesBudget runs a cycle of 100 pages, then one of
// 30 over a web larger than both, every known page due each cycle: with the
// default --refresh-share 1 cycle 2's due refetches fill its budget, and
// run must say so at the cycle's start and how to keep a share for new
// URLs; with --refresh-share 0.5 it says nothing and cycle 2 finds new
// pages.
func TestRunWarnsRefreshTakesBudget(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 9, Pages: 200, Hosts: 3, Preset: testweb.Clean}, testweb.Options{})
	for _, tc := range []struct {
		name  string
		share string
		warn  bool
	}{
		{"share 1", "1", true},
		{"share 0.5", "0.5", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "r.db")
			// Cycle 1 learns 100 pages; cycle 2 has a budget of 30.
			cycle := func(n, budget string) string {
				args := append([]string{"run"}, runArgs(t, w, db, "--cycles", n, "--pages-per-cycle", budget,
					"--revisit-initial", "0", "--seed-algo", "given", "--refresh-share", tc.share)...)
				_, stderr := checkExit(t, append(args, w.site.Seeds()...), 0)
				return stderr
			}
			if stderr := cycle("1", "100"); strings.Contains(stderr, "warning: cycle") {
				t.Errorf("cycle 1 has no known pages to refetch, yet run warned:\n%s", stderr)
			}
			stderr := cycle("2", "30")
			warned := strings.Contains(stderr, "warning: cycle 2: its ") && strings.Contains(stderr, "fill its whole budget of 30 pages") &&
				strings.Contains(stderr, "--refresh-share below 1")
			if warned != tc.warn {
				t.Errorf("warned %v, want %v; stderr:\n%s", warned, tc.warn, stderr)
			}
			d := openDB(t, db)
			defer d.Close()
			cycles, err := d.Cycles()
			if err != nil {
				t.Fatal(err)
			}
			if len(cycles) != 2 {
				t.Fatalf("%d cycles stored, want 2", len(cycles))
			}
			if s := cycles[1].Stats; !tc.warn && s.New == 0 {
				t.Errorf("cycle 2 with --refresh-share %s found no new page: %+v", tc.share, s)
			}
		})
	}
}
