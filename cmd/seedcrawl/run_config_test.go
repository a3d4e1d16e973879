package main

import (
	"encoding/json"
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

// TestRunSettingsFromConfigFile runs one cycle with revisit-gone and
// refresh-policy from a config file, a flag overriding one of them, and
// reads back the settings the cycle recorded.
func TestRunSettingsFromConfigFile(t *testing.T) {
	w := runEvolvingWeb(t)
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "run.yaml")
	writeFile(t, cfgFile, "revisit-gone: 7\nrefresh-policy: uniform\nmax-pages: 20\n")
	for _, tc := range []struct {
		name   string
		extra  []string
		policy string
		gone   uint32
	}{
		{"file", nil, "uniform", 7},
		{"flag over file", []string{"--refresh-policy", "importance"}, "importance", 7},
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
				Policy string `json:"refresh_policy"`
				Gone   uint32 `json:"revisit_gone"`
			}
			if err := json.Unmarshal([]byte(st.cycles[0].Info), &inf); err != nil {
				t.Fatalf("cycle info %q: %v", st.cycles[0].Info, err)
			}
			if inf.Policy != tc.policy || inf.Gone != tc.gone {
				t.Errorf("cycle recorded refresh-policy %q, revisit-gone %d; want %q, %d", inf.Policy, inf.Gone, tc.policy, tc.gone)
			}
		})
	}
}
