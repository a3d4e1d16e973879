package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/seeds"
)

// seedsDataset writes a 14-page, two-host dataset to a temp dir and returns
// its basename: host a.test holds pages 0..6, b.test pages 7..13, with a few
// cross-host links and a small complete bipartite core 1,2 → 8,9.
func seedsDataset(t *testing.T, urls bool) string {
	t.Helper()
	arcs := [][2]uint32{
		{0, 1}, {0, 2}, {0, 7}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {5, 6},
		{7, 8}, {7, 9}, {8, 10}, {9, 10}, {10, 11}, {11, 12}, {12, 13}, {13, 7},
		{1, 8}, {1, 9}, {2, 8}, {2, 9}, {8, 1}, {9, 2},
	}
	b := graph.NewBuilder(14, true)
	for _, a := range arcs {
		b.Add(a[0], a[1])
	}
	g := b.Build()
	if urls {
		u := make([]string, 14)
		for v := range u {
			host := "a.test"
			if v >= 7 {
				host = "b.test"
			}
			u[v] = "http://" + host + "/p" + string(rune('a'+v))
		}
		g.SetURLs(u)
	}
	base := filepath.Join(t.TempDir(), "tiny")
	if err := graph.WriteDataset(base, "seeds_test", g); err != nil {
		t.Fatal(err)
	}
	return base
}

func seedsJSON(t *testing.T, args ...string) seeds.Result {
	t.Helper()
	out := cmdOK(t, append(args, "--json")...)
	var r seeds.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: bad JSON %v:\n%s", args, err, out)
	}
	return r
}

func TestSeedsCommandTable(t *testing.T) {
	base := seedsDataset(t, true)
	out := cmdOK(t, "seeds", "--graph", base, "--algo", "maxweight", "--k", "2", "--hops", "2")
	checkContains(t, "output", out, "maxweight: 2 of 2 seeds", "coverage within 2 hops", "depth-2 weight",
		"new pages", "http://a.test/pa", "covered within 2 hops:", "selected in")
}

func TestSeedsCommandEveryAlgo(t *testing.T) {
	base := seedsDataset(t, true)
	for _, a := range seeds.Algos() {
		r := seedsJSON(t, "seeds", "--graph", base, "--algo", a, "--k", "3")
		if r.Algo != a || len(r.Seeds) == 0 || len(r.Seeds) > 3 || r.Seeds[0].URL == "" || r.Hops != seeds.DefaultHops {
			t.Errorf("%s: %+v", a, r)
		}
		if a == seeds.AlgoHITSCore && r.Seeds[0].Core == nil {
			t.Errorf("hits-core seed without its core: %+v", r.Seeds[0])
		}
	}
}

func TestSeedsCommandOptions(t *testing.T) {
	base := seedsDataset(t, true)
	t.Run("seed makes random reproducible", func(t *testing.T) {
		a := seedsJSON(t, "seeds", "--graph", base, "--algo", "random", "--k", "4", "--seed", "7")
		b := seedsJSON(t, "seeds", "--graph", base, "--algo", "random", "--k", "4", "--seed", "7")
		if !slices.Equal(a.Nodes(), b.Nodes()) {
			t.Errorf("--seed 7 twice: %v vs %v", a.Nodes(), b.Nodes())
		}
	})
	t.Run("out writes the seed list", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "seeds.txt")
		r := seedsJSON(t, "seeds", "--graph", base, "--algo", "outdegree", "--k", "3", "--out", path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, s := range r.Seeds {
			want = append(want, s.URL)
		}
		if got := strings.Fields(string(b)); !slices.Equal(got, want) {
			t.Errorf("--out file %q, want %q", got, want)
		}
	})
	t.Run("weights override values", func(t *testing.T) {
		top := seedsJSON(t, "seeds", "--graph", base, "--algo", "maxout", "--k", "1").Seeds[0]
		w := filepath.Join(t.TempDir(), "w.txt")
		writeFile(t, w, "# demote the best seed's reach\n"+top.URL+" -50\nhttp://elsewhere.test/ 3\n")
		code, out, errs := cmdRun("seeds", "--graph", base, "--algo", "maxout", "--k", "1", "--weights", w, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if strings.Contains(out, `"node": `+seedsItoa(top.Node)+",") || !strings.Contains(errs, "1 keys name no page") {
			t.Errorf("seed unchanged by a -50 weight or no warning:\n%s\n%s", out, errs)
		}
	})
	t.Run("per host", func(t *testing.T) {
		r := seedsJSON(t, "seeds", "--graph", base, "--algo", "maxweight", "--k", "4", "--per-host")
		if len(r.Hosts) != 2 {
			t.Fatalf("hosts %+v", r.Hosts)
		}
		for _, s := range r.Seeds {
			if !strings.Contains(s.URL, s.Host) {
				t.Errorf("seed %s on host %s", s.URL, s.Host)
			}
		}
	})
	t.Run("hits-core flags", func(t *testing.T) {
		r := seedsJSON(t, "seeds", "--graph", base, "--algo", "hits-core", "--k", "1", "--core-size", "3", "--new-members", "2")
		c := r.Seeds[0].Core
		if len(c.Hubs)+len(c.Authorities) != 3 {
			t.Errorf("--core-size 3: core %+v", c)
		}
	})
	t.Run("graph without urls", func(t *testing.T) {
		nb := seedsDataset(t, false)
		path := filepath.Join(t.TempDir(), "ids.txt")
		r := seedsJSON(t, "seeds", "--graph", nb, "--algo", "maxscc", "--k", "2", "--out", path)
		b, _ := os.ReadFile(path)
		if r.Seeds[0].URL != "" || strings.Fields(string(b))[0] != seedsItoa(r.Seeds[0].Node) {
			t.Errorf("seeds %+v, --out %q", r.Seeds, b)
		}
	})
}

func seedsItoa(v uint32) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestSeedsCommandErrors(t *testing.T) {
	base := seedsDataset(t, true)
	noURLs := seedsDataset(t, false)
	badW := filepath.Join(t.TempDir(), "bad.txt")
	writeFile(t, badW, "http://a.test/pa many\n")
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown algo", []string{"--graph", base, "--algo", "best"}, 2, "--algo"},
		{"k zero", []string{"--graph", base, "--k", "0"}, 2, "--k 0"},
		{"hops zero", []string{"--graph", base, "--hops", "0"}, 2, "--hops 0"},
		{"density", []string{"--graph", base, "--cover-density", "0"}, 2, "--cover-density"},
		{"density NaN", []string{"--graph", base, "--cover-density", "NaN"}, 2, "--cover-density NaN"},
		{"core size and density", []string{"--graph", base, "--algo", "hits-core", "--core-size", "6", "--cover-density", "80"}, 2, "give one"},
		{"unwritable out", []string{"--graph", base, "--out", filepath.Join(t.TempDir(), "no-dir", "s.txt")}, 1, "--out"},
		{"no source", []string{"--algo", "random"}, 2, "--graph"},
		{"two sources", []string{"--graph", base, "--db", "x.db"}, 2, "not both"},
		{"per host without urls", []string{"--graph", noURLs, "--per-host"}, 2, "no hosts"},
		{"missing dataset", []string{"--graph", filepath.Join(t.TempDir(), "none")}, 1, "none"},
		{"bad weights", []string{"--graph", base, "--weights", badW}, 1, "bad.txt:1"},
		{"stray argument", []string{"--graph", base, "extra"}, 2, "extra"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkExit(t, append([]string{"seeds"}, c.args...), c.code, c.msg)
		})
	}
}

func TestEvalSeedsCommand(t *testing.T) {
	base := seedsDataset(t, true)
	dir := t.TempDir()
	csvPath, plotPath := filepath.Join(dir, "e.csv"), filepath.Join(dir, "e.svg")
	out := cmdOK(t, "eval", "seeds", "--graph", base, "--algos", "all", "--k", "2", "--hops", "2",
		"--csv", csvPath, "--plot", plotPath, "--trials", "3", "--samples", "5")
	for _, a := range seeds.Algos() {
		if !strings.Contains(out, a) {
			t.Errorf("table lacks %s:\n%s", a, out)
		}
	}
	checkContains(t, "table", out, "vs random", "mean PageRank", "graph average distance (5 sampled sources)", "t=2")
	b, err := os.ReadFile(csvPath)
	if err != nil || strings.Count(string(b), "\n") != len(seeds.Algos())+1 {
		t.Errorf("csv: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(plotPath); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("plot: %v", err)
	}

	out = cmdOK(t, "eval", "seeds", "--graph", base, "--algos", "maxout,hits-core", "--k", "2", "--json")
	var ev struct {
		Rows []struct {
			Algo   string     `json:"algo"`
			MeanPR []*float64 `json:"mean_pr_by_depth"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil || len(ev.Rows) != 2 || ev.Rows[1].Algo != "hits-core" {
		t.Fatalf("json %v: %s", err, out)
	}

	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"eval"}, "seeds"},
		{[]string{"eval", "crawls"}, "unknown evaluation"},
		{[]string{"eval", "seeds", "--graph", base, "--algos", "maxout,nope"}, "nope"},
		{[]string{"eval", "seeds", "--graph", base, "--plot", "x.gif"}, "--plot"},
		{[]string{"eval", "seeds", "--graph", base, "--cover-density", "NaN"}, "--cover-density"},
	} {
		if code, _, errs := cmdRun(c.args...); code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.msg)
		}
	}
	// An unwritable --csv fails before the evaluation runs.
	bad := filepath.Join(dir, "no-dir", "e.csv")
	if code, out, errs := cmdRun("eval", "seeds", "--graph", base, "--k", "2", "--csv", bad); code != 1 || out != "" || !strings.Contains(errs, "--csv") {
		t.Errorf("unwritable --csv: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
