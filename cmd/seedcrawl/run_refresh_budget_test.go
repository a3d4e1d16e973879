package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefreshNeedsBudget checks that refresh settings a run would
// ignore are not ignored silently: typed as flags they are a usage error
// that names what is missing, before any request; from a config file they
// are a warning and the run goes on; with a budget and a share below 1
// nothing is said.
func TestRunRefreshNeedsBudget(t *testing.T) {
	w := cleanWeb(t, 5, 30, 2)
	dir := t.TempDir()
	paceFile := filepath.Join(dir, "pace.yaml")
	writeFile(t, paceFile, "refresh-pace: front\n")
	shareFile := filepath.Join(dir, "share.toml")
	writeFile(t, shareFile, "refresh-share = 0.3\n")
	for _, tc := range []struct {
		name  string
		extra []string
		code  int
		want  []string // in stderr
		quiet bool     // no warning either
	}{
		{"pace flag, no budget", []string{"--refresh-pace", "front"}, 2,
			[]string{"--refresh-pace front does nothing without a page budget", "--pages-per-cycle N"}, false},
		{"pace flag even, no budget", []string{"--refresh-pace", "even", "--refresh-share", "0.5"}, 2,
			[]string{"--refresh-share 0.5 does nothing without a page budget", "--refresh-pace even does nothing"}, false},
		{"pace flag, budget, share 1", []string{"--refresh-pace", "front", "--pages-per-cycle", "20", "--refresh-share", "1"}, 2,
			[]string{"--refresh-pace front does nothing with --refresh-share 1", "--refresh-share 0.5"}, false},
		{"share flag, no budget", []string{"--refresh-share", "0.5"}, 2,
			[]string{"--refresh-share 0.5 does nothing without a page budget"}, false},
		{"default share, no budget", nil, 0, nil, true},
		{"pace from file, no budget", []string{"--config", paceFile}, 0,
			[]string{"warning: refresh-pace front does nothing without a page budget", "(set in the config file)"}, false},
		{"share from file, no budget", []string{"--config", shareFile}, 0,
			[]string{"warning: refresh-share 0.3 does nothing without a page budget"}, false},
		{"pace flag with budget and share", []string{"--refresh-pace", "front", "--pages-per-cycle", "20", "--refresh-share", "0.5"}, 0, nil, true},
		{"max-pages is a budget", []string{"--refresh-pace", "front", "--max-pages", "20", "--refresh-share", "0.5"}, 0, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "r.db")
			before := len(w.log.Entries())
			args := append(append([]string{"run"}, runArgs(t, w, db, append(tc.extra, "--cycles", "1")...)...), w.site.Seeds()...)
			_, stderr := checkExit(t, args, tc.code, tc.want...)
			sent := len(w.log.Entries()) > before
			if sent != (tc.code == 0) {
				t.Errorf("requests sent: %v; want them only when the run goes on (exit 0)", sent)
			}
			if tc.quiet && strings.Contains(stderr, "does nothing") {
				t.Errorf("stderr warns of a setting that works:\n%s", stderr)
			}
		})
	}
}
