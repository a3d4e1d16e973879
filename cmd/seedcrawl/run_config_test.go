package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/recrawl"
)

// TestRunSettingsAgree checks that the run settings config defines (it
// imports no crawl package) name recrawl's policies and defaults.
func TestRunSettingsAgree(t *testing.T) {
	got, want := slices.Sorted(slices.Values(config.RefreshPolicies())), slices.Sorted(slices.Values(recrawl.RefreshPolicies()))
	if !slices.Equal(got, want) {
		t.Errorf("config.RefreshPolicies() = %v, recrawl.RefreshPolicies() = %v", got, want)
	}
	got, want = slices.Sorted(slices.Values(config.RefreshPaces())), slices.Sorted(slices.Values(recrawl.RefreshPaces()))
	if !slices.Equal(got, want) {
		t.Errorf("config.RefreshPaces() = %v, recrawl.RefreshPaces() = %v", got, want)
	}
	d := config.Default()
	if d.RefreshPace != recrawl.PaceEven {
		t.Errorf("config default refresh-pace %q, want %q", d.RefreshPace, recrawl.PaceEven)
	}
	if d.RevisitGone != recrawl.DefaultGoneCycles || d.RefreshPolicy != recrawl.RefreshOptimal {
		t.Errorf("config defaults revisit-gone %d, refresh-policy %q; want %d, %q", d.RevisitGone, d.RefreshPolicy,
			recrawl.DefaultGoneCycles, recrawl.RefreshOptimal)
	}
}

// TestRunSettingsFromConfigFile runs one cycle with revisit-gone,
// refresh-policy and refresh-share from a config file, flags overriding
// some of them, and reads back the settings the cycle recorded.
func TestRunSettingsFromConfigFile(t *testing.T) {
	w := runEvolvingWeb(t)
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "run.yaml")
	writeFile(t, cfgFile, "revisit-gone: 7\nrefresh-policy: uniform\nrefresh-share: 0.25\nmax-pages: 20\n")
	for _, tc := range []struct {
		name   string
		extra  []string
		policy string
		gone   uint32
		share  float64 // the refresh share; the cycle records 1 − share as its discovery share
	}{
		{"file", nil, "uniform", 7, 0.25},
		{"flag over file", []string{"--refresh-policy", "importance"}, "importance", 7, 0.25},
		{"refresh-share flag over file", []string{"--refresh-share", "0.5"}, "uniform", 7, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "r.db")
			args := append(runArgs(t, w, db, "--config", cfgFile, "--cycles", "1"), tc.extra...)
			runCmd(t, append(args, w.site.Seeds()...))
			st := runReadDB(t, db)
			if len(st.cycles) != 1 {
				t.Fatalf("%d cycles stored, want 1", len(st.cycles))
			}
			var inf struct {
				Policy string  `json:"refresh_policy"`
				Gone   uint32  `json:"revisit_gone"`
				Disc   float64 `json:"discovery_share"`
			}
			if err := json.Unmarshal([]byte(st.cycles[0].Info), &inf); err != nil {
				t.Fatalf("cycle info %q: %v", st.cycles[0].Info, err)
			}
			if inf.Policy != tc.policy || inf.Gone != tc.gone || math.Abs(inf.Disc-(1-tc.share)) > 1e-9 {
				t.Errorf("cycle recorded refresh-policy %q, revisit-gone %d, discovery share %g; want %q, %d, %g",
					inf.Policy, inf.Gone, inf.Disc, tc.policy, tc.gone, 1-tc.share)
			}
		})
	}
}
