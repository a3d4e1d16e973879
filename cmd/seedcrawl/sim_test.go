package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimCommand runs `seedcrawl sim` on hollins as a user would and checks
// the table, the CSV contract and the plot file.
func TestSimCommand(t *testing.T) {
	dir := t.TempDir()
	out, plot := filepath.Join(dir, "results.csv"), filepath.Join(dir, "curves.svg")
	table := cmdOK(t, "sim", "--graph", sharedDataPath("hollins"),
		"--schedulers", "bfs,fpr,fpr@20,omniscient", "--seeds", "top-pagerank:160",
		"--out", out, "--plot", plot, "--gobench", "-q")
	checkContains(t, "stdout", table, "hollins:", "U(k)", "fpr@20", "gap closure", "BenchmarkSim/graph=hollins/sched=fpr ")
	rows := readCSVFile(t, out)
	if h := strings.Join(rows[0][:6], ","); h != "scheduler,pages,fraction,cumulative_pagerank,upper_bound,gap_closure" {
		t.Errorf("CSV header %q", h)
	}
	perSched := map[string]int{}
	for _, r := range rows[1:] {
		perSched[r[0]]++
	}
	if len(perSched) != 4 || perSched["fpr"] < 200 {
		t.Errorf("CSV rows per scheduler: %v", perSched)
	}
	svg, err := os.ReadFile(plot)
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("plot: %v, %d bytes", err, len(svg))
	}
}

func TestSimCommandErrors(t *testing.T) {
	data := sharedDataPath("")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no graph", []string{"sim"}, 2, "--graph"},
		{"bad scheduler", []string{"sim", "--graph", filepath.Join(data, "epa"), "--schedulers", "fpr@0.5"}, 2, "M must be a number"},
		{"bad plot", []string{"sim", "--graph", filepath.Join(data, "epa"), "--plot", "x.gif"}, 2, ".svg or .png"},
		{"bad seeds", []string{"sim", "--graph", filepath.Join(data, "epa"), "--seeds", "top:3", "-q"}, 1, "top-pagerank:K"},
		{"missing graph", []string{"sim", "--graph", filepath.Join(data, "nope"), "-q"}, 1, "nope"},
		{"no hosts note", []string{"sim", "--graph", filepath.Join(data, "epa"), "--hosts", filepath.Join(data, "missing.urls.gz"), "-q"}, 1, "host map"},
		// 0 would silently mean the default 0.85 below the command line.
		{"zero damping", []string{"sim", "--graph", filepath.Join(data, "epa"), "--damping", "0"}, 2, "--damping 0"},
		{"NaN damping", []string{"sim", "--graph", filepath.Join(data, "epa"), "--damping", "NaN"}, 2, "--damping NaN"},
		// An unwritable result path fails before the simulation, not after.
		{"unwritable out", []string{"sim", "--graph", filepath.Join(data, "epa"), "--out", filepath.Join(data, "no-such-dir", "r.csv"), "-q"}, 1, "--out"},
		{"out is a directory", []string{"sim", "--graph", filepath.Join(data, "epa"), "--out", os.TempDir(), "-q"}, 2, "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if stdout, _ := checkExit(t, tc.args, tc.code, tc.want); stdout != "" {
				t.Errorf("a failed run printed results:\n%s", stdout)
			}
		})
	}
}

// TestSimFailedRunKeepsOldResults: the CSV and plot files are written only
// by a run that succeeds; a failing run leaves earlier ones as they were and
// leaves no temporary files behind.
func TestSimFailedRunKeepsOldResults(t *testing.T) {
	dir := t.TempDir()
	out, plot := filepath.Join(dir, "results.csv"), filepath.Join(dir, "curves.svg")
	for _, p := range []string{out, plot} {
		writeFile(t, p, "old")
	}
	code, _, stderr := cmdRun("sim", "--graph", sharedDataPath("epa"),
		"--seeds", filepath.Join(dir, "no-such-seed-file"), "--out", out, "--plot", plot, "-q")
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s", code, stderr)
	}
	for _, p := range []string{out, plot} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "old" {
			t.Errorf("%s: %q, %v; want the old content kept", p, b, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("directory holds %d entries, want the 2 old files: %v", len(ents), ents)
	}
}

// TestSimPlotFlags: the plot options reach the file, the format follows the
// extension, and a bad --plot-lower is a usage error before any work.
func TestSimPlotFlags(t *testing.T) {
	dir := t.TempDir()
	graphBase := sharedDataPath("hollins")
	outputs := map[string][]byte{}
	for _, tc := range []struct {
		name string
		file string
		args []string
	}{
		{"png", "c.png", nil},
		{"png log-x gap", "c-gap.png", []string{"--plot-logx", "--plot-lower", "gap", "--title", "T"}},
		{"old --logx spelling", "c-old.png", []string{"--logx", "--plot-lower", "gap", "--title", "T"}},
		{"svg share", "c.svg", []string{"--plot-lower", "share"}},
		{"pdf alone", "c.pdf", []string{"--plot-lower", "none"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			cmdOK(t, append([]string{"sim", "--graph", graphBase, "--schedulers", "bfs,fpr,omniscient", "--grid", "20",
				"--plot", path, "-q"}, tc.args...)...)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			outputs[tc.name] = b
			prefix := map[string]string{".png": "\x89PNG", ".svg": "<?xml", ".pdf": "%PDF"}[filepath.Ext(tc.file)]
			if !bytes.HasPrefix(b, []byte(prefix)) {
				t.Errorf("%s starts %q, want %q", tc.file, b[:min(8, len(b))], prefix)
			}
		})
	}
	if bytes.Equal(outputs["png"], outputs["png log-x gap"]) {
		t.Error("--plot-logx, --plot-lower and --title changed nothing")
	}
	if !bytes.Equal(outputs["png log-x gap"], outputs["old --logx spelling"]) {
		t.Error("--logx and --plot-logx plot differently")
	}
	code, stdout, stderr := cmdRun("sim", "--graph", graphBase, "--plot", filepath.Join(dir, "x.png"), "--plot-lower", "ratio")
	if code != 2 || !strings.Contains(stderr, "--plot-lower") || stdout != "" {
		t.Errorf("bad --plot-lower: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
