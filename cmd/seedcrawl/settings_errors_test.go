package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
)

// TestSettingErrorsNameTheirSource runs every command that loads the crawl
// settings with bad flags and bad config files, through the command entry
// point, and checks that each error names where the value came from as the
// user typed it (--workers, or the file's key and line), with the value
// and what a good one is; that it is a usage error (exit 2) wrapping the
// config sentinel; and that nothing was created (no db, no NATS store).
func TestSettingErrorsNameTheirSource(t *testing.T) {
	cmdArgs := map[string][]string{ // what each command needs besides the settings
		"crawl":   nil,
		"run":     {"--cycles", "1"},
		"compare": {"--schedulers", "bfs,fpr", "--budget", "10"},
		"node":    {"--cluster", "nats://127.0.0.1:1"},
		"cluster": {"--nodes", "2"},
	}
	all := []string{"crawl", "run", "compare", "node", "cluster"}
	for _, tc := range []struct {
		name string
		cmds []string // nil: all
		args []string
		file string // config file NAME=BODY, given as --config
		// flag or key the message names (as "--flag: bad value" or "config
		// file PATH:LINE: key"), and what else it says.
		flag  string
		key   string
		line  int
		wants []string
	}{
		{name: "negative workers", args: []string{"--workers", "-1"}, flag: "workers", wants: []string{"must be in 1..4096, got -1"}},
		{name: "zero workers", args: []string{"--workers", "0"}, flag: "workers", wants: []string{"must be in 1..4096, got 0"}},
		{name: "huge workers", args: []string{"--workers", "99999999999999999999"}, flag: "workers", wants: []string{`"99999999999999999999" is out of range`}},
		{name: "huge max-pages", args: []string{"--max-pages", "1e12"}, flag: "max-pages", wants: []string{`"1e12" is not an integer`}},
		{name: "duration without unit", args: []string{"--delay", "5"}, flag: "delay", wants: []string{`"5" is not a duration like 500ms, 1s or 24h`}},
		{name: "negative duration", args: []string{"--fetch-timeout", "-1s"}, flag: "fetch-timeout", wants: []string{"must be positive, got -1s"}},
		{name: "size of unknown unit", args: []string{"--max-body", "10M"}, flag: "max-body", wants: []string{`"10M" is not a size`, "KiB, MiB or GiB"}},
		{name: "negative size", args: []string{"--max-body", "-5"}, flag: "max-body", wants: []string{`"-5" is not a size: must not be negative`}},
		{name: "unknown scheduler", args: []string{"--scheduler", "dfs"}, flag: "scheduler", wants: []string{`unknown scheduler "dfs": want one of bfs, fpr`}},
		{name: "scheduler of simulations", args: []string{"--scheduler", "omniscient"}, flag: "scheduler", wants: []string{`"omniscient"`, "seedcrawl sim", "bfs, fpr"}},
		{name: "bad scope", args: []string{"--scope", "planet"}, flag: "scope", wants: []string{`"planet": want seeds-hosts, seeds-domains`}},
		{name: "bad boolean", args: []string{"--sitemaps=maybe"}, flag: "sitemaps", wants: []string{`"maybe" is not true or false`}},
		{name: "negative progress", args: []string{"--progress", "-1s"}, flag: "progress", wants: []string{"must be 0 (never) or more, got -1s"}},
		{name: "progress without unit", args: []string{"--progress", "5"}, flag: "progress", wants: []string{`"5" is not a duration`}},
		{name: "unknown refresh policy", cmds: []string{"run"}, args: []string{"--refresh-policy", "best"}, flag: "refresh-policy",
			wants: []string{`must be one of pagerank, uniform, importance, optimal, count, got "best"`}},
		{name: "interval without unit", cmds: []string{"run"}, args: []string{"--interval", "5"}, flag: "interval", wants: []string{`"5" is not a duration`}},
		{name: "negative cycles", cmds: []string{"run"}, args: []string{"--cycles", "-1"}, flag: "cycles", wants: []string{`"-1" is not a whole number (0 or more)`}},
		{name: "revisit rate out of range", cmds: []string{"run"}, args: []string{"--revisit-inc", "-1"}, flag: "revisit-inc", wants: []string{"-1, want 0..10"}},
		{name: "negative revisit interval", cmds: []string{"run"}, args: []string{"--revisit-max", "-1h"}, flag: "revisit-max", wants: []string{"must not be negative, got -1h0m0s"}},
		{name: "unknown compared scheduler", cmds: []string{"compare"}, args: []string{"--schedulers", "bfs,dfs"}, flag: "schedulers", wants: []string{`unknown scheduler "dfs"`}},
		{name: "out of range in yaml", file: "c.yaml=delay: 1s\nworkers: -1\n", key: "workers", line: 2, wants: []string{"must be in 1..4096, got -1"}},
		{name: "wrong type in toml", file: "c.toml=workers = 4\ndelay = 5\n", key: "delay", line: 2, wants: []string{`"5" is not a duration`}},
		{name: "list for a number", file: "l.yaml=workers: [1, 2]\n", key: "workers", line: 1, wants: []string{"want a single value, got a list"}},
		{name: "unknown scheduler in file", file: "s.toml=\n\nscheduler = \"dfs\"\n", key: "scheduler", line: 3, wants: []string{`unknown scheduler "dfs"`}},
		{name: "unknown refresh policy in file", file: "r.yaml=refresh-policy: best\n", key: "refresh-policy", line: 1, wants: []string{`got "best"`}},
		{name: "flag over a good file", file: "g.yaml=workers: 4\n", args: []string{"--workers", "0"}, flag: "workers", wants: []string{"got 0"}},
	} {
		cmds := tc.cmds
		if cmds == nil {
			cmds = all
		}
		for _, name := range cmds {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				args := append([]string{name, "--db", filepath.Join(dir, "x.db")}, cmdArgs[name]...)
				args = append(args, tc.args...)
				want := "--" + tc.flag + ": bad value: "
				if tc.file != "" {
					fname, body, _ := strings.Cut(tc.file, "=")
					path := filepath.Join(dir, fname)
					writeFile(t, path, body)
					args = append(args, "--config", path)
					if tc.flag == "" {
						want = "config file " + path + ":" + strconv.Itoa(tc.line) + ": " + tc.key + ": bad value: "
					}
				}
				args = append(args, "http://127.0.0.1:1/")
				_, stderr := checkExit(t, args, 2, append([]string{want}, tc.wants...)...)
				if tc.flag != "" && tc.file != "" && strings.Contains(stderr, "config file") {
					t.Errorf("the file is blamed for a flag's value:\n%s", stderr)
				}
				var stdout, errOut bytes.Buffer
				err := commands()[name].run(context.Background(), args[1:], &stdout, &errOut)
				var ke *config.KeyError
				if !errors.Is(err, errUsage) || !errors.Is(err, config.ErrBadValue) || !errors.As(err, &ke) {
					t.Errorf("error %v: want errUsage wrapping a *config.KeyError of config.ErrBadValue", err)
				} else if ke.Flag != tc.flag || tc.flag == "" && ke.Line != tc.line {
					t.Errorf("KeyError at %+v, want flag %q or line %d", ke.Origin, tc.flag, tc.line)
				}
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if e.Name() != filepath.Base(strings.SplitN(tc.file, "=", 2)[0]) {
						t.Errorf("%s was created despite the bad settings", e.Name())
					}
				}
			})
		}
	}
}

// TestSettingMistakesAreClear runs mistakes a new user makes that are not a
// value out of range, through the command entry point: each is a usage
// error (exit 2) saying what to do, and creates nothing.
func TestSettingMistakesAreClear(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		file string // config file NAME=BODY, given as --config
		want []string
	}{
		{"mistyped flag", []string{"crawl", "--worker", "4", "http://127.0.0.1:1/"}, "",
			[]string{"flag provided but not defined: -worker; did you mean --workers?"}},
		{"flag in another style", []string{"run", "--cycles", "1", "--max_pages", "4", "http://127.0.0.1:1/"}, "",
			[]string{"did you mean --max-pages?"}},
		{"flag value missing at the end", []string{"crawl", "http://127.0.0.1:1/", "--workers"}, "",
			[]string{"flag needs an argument: -workers"}},
		{"a default another flag makes wrong", []string{"crawl", "--backoff", "1h", "http://127.0.0.1:1/"}, "",
			[]string{"max-backoff, left at its default: bad value: must be at least backoff (1h0m0s), got 10m0s"}},
		{"mistyped key in a file", []string{"crawl", "http://127.0.0.1:1/"}, "u.toml=max_pages = 10\n",
			[]string{"u.toml:1: max_pages: unknown key: did you mean max-pages?"}},
		{"negative compare window", []string{"compare", "--schedulers", "bfs,fpr", "--budget", "5", "--window", "-1", "http://127.0.0.1:1/"}, "",
			[]string{"--window -1: want 1 or more"}},
		{"several at once", []string{"crawl", "--workers", "0", "--delay", "-1s", "ftp://127.0.0.1/"}, "m.yaml=\nmax-redirects: 500\n",
			[]string{"4 bad settings:\n  --workers: ", "\n  --delay: ", "\n  SEED_URL argument: ", "m.yaml:2: max-redirects: bad value: must be in 0..100, got 500"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{tc.args[0], "--db", filepath.Join(dir, "x.db")}, tc.args[1:]...)
			if tc.file != "" {
				fname, body, _ := strings.Cut(tc.file, "=")
				writeFile(t, filepath.Join(dir, fname), body)
				args = append(args, "--config", filepath.Join(dir, fname))
			}
			checkExit(t, args, 2, tc.want...)
			if _, err := os.Stat(filepath.Join(dir, "x.db")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a db was created despite the mistake")
			}
		})
	}
}
