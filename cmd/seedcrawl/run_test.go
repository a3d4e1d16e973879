package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// runEvolvingWeb is a small clean web whose epoch 1 differs enough from
// epoch 0 to exercise every kind of change.
func runEvolvingWeb(t testing.TB) *crawlWeb {
	return crawlStartWeb(t, testweb.GenOptions{Seed: 11, Pages: 260, Hosts: 6, Preset: testweb.Clean,
		Evolution: testweb.Evolution{Change: 0.15, Gone: 0.05, Move: 0.05, New: 0.08}}, testweb.Options{})
}

// runVanishingSeeds returns two pages reachable from the site's seeds at
// epoch 0: one gone at epoch 1 and one moved (a 301 to a new URL).
func runVanishingSeeds(t testing.TB, w *crawlWeb) (gone, moved string) {
	t.Helper()
	t0, err := w.site.Truth(0)
	if err != nil {
		t.Fatal(err)
	}
	t1, err := w.site.Truth(1)
	if err != nil {
		t.Fatal(err)
	}
	reach, err := t0.Reachable(w.site.Seeds(), version.Token)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range reach.Order {
		if !reach.Fetched(v) || t0.Nodes[v].Kind != testweb.KindPage || t0.Graph.OutDegree(v) == 0 {
			continue
		}
		switch t1.Nodes[v].Kind {
		case testweb.KindGone:
			if gone == "" {
				gone = t0.URL(v)
			}
		case testweb.KindRedirect:
			if moved == "" {
				moved = t0.URL(v)
			}
		}
	}
	if gone == "" || moved == "" {
		t.Fatalf("the test web has no vanishing page to use as a seed (gone %q, moved %q)", gone, moved)
	}
	return gone, moved
}

// runArgs is a run command line against w, fast and quiet.
func runArgs(t testing.TB, w *crawlWeb, db string, extra ...string) []string {
	return append(w.flags("--db", db, "--delay", "0", "--delay-factor", "0", "--workers", "4", "--progress", "0",
		"--commit-interval", "50ms"), extra...)
}

// runCmd runs seedcrawl run in-process and returns its stdout.
func runCmd(t testing.TB, args []string) string {
	t.Helper()
	return cmdOK(t, append([]string{"run"}, args...)...)
}

// runDBState is what a test reads back from a db after cycles.
type runDBState struct {
	pages  map[string]storage.Page
	byID   map[uint64]string
	cycles []storage.Cycle
	fetch  map[uint32]map[string]storage.FetchRecord // cycle -> URL -> record
	graph  *graph.CSR
}

func runReadDB(t testing.TB, path string) *runDBState {
	t.Helper()
	db := openDB(t, path)
	defer db.Close()
	st := &runDBState{pages: map[string]storage.Page{}, byID: map[uint64]string{}, fetch: map[uint32]map[string]storage.FetchRecord{}}
	if err := db.EachPage(func(p *storage.Page) error {
		st.pages[p.URL] = *p
		st.byID[p.ID] = p.URL
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var err error
	if st.cycles, err = db.Cycles(); err != nil {
		t.Fatal(err)
	}
	for _, c := range st.cycles {
		m := map[string]storage.FetchRecord{}
		if err := db.EachFetch(c.N, func(r storage.FetchRecord) error { m[st.byID[r.ID]] = r; return nil }); err != nil {
			t.Fatal(err)
		}
		st.fetch[c.N] = m
	}
	if st.graph, err = graph.Load(db); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRunCyclesAcrossEpochs crawls cycle 1 at epoch 0 and cycle 2 at epoch
// 1 and checks the recrawl against the test web's ground truth: new pages
// found, removed pages marked gone, unchanged pages answered 304 (counted by
// the server), moved pages followed, vanished seeds replaced, every page
// requested once per cycle. Cycle 3 then selects seeds on the stored graph.
func TestRunCyclesAcrossEpochs(t *testing.T) {
	w := runEvolvingWeb(t)
	gone, moved := runVanishingSeeds(t, w)
	seedURLs := append(w.site.Seeds(), gone, moved)
	db := filepath.Join(t.TempDir(), "run.db")
	args := func(cycles string, extra ...string) []string {
		// --sitemaps=false: each cycle is compared with the truth of its
		// epoch, which has no /sitemap.xml nodes.
		return append(runArgs(t, w, db, append([]string{"--cycles", cycles, "--seed-algo", "given", "--scheduler", "fpr", "--sitemaps=false"}, extra...)...), seedURLs...)
	}

	runCmd(t, args("1"))
	c1 := runReadDB(t, db)
	if len(c1.cycles) != 1 || c1.cycles[0].End.IsZero() || len(c1.cycles[0].Seeds) != len(seedURLs) {
		t.Fatalf("after cycle 1: cycles %+v", c1.cycles)
	}
	t0, _ := w.site.Truth(0)
	t1, _ := w.site.Truth(1)
	if d := mustReach(t, t0, seedURLs).Compare(c1.graph); !d.Empty() {
		t.Fatalf("cycle 1 differs from the truth of epoch 0: %s", d)
	}

	w.toEpoch(t, 1)
	w.log.Reset()
	out := runCmd(t, args("2", "--json"))
	c2 := runReadDB(t, db)
	if len(c2.cycles) != 2 || c2.cycles[1].End.IsZero() {
		t.Fatalf("after cycle 2: cycles %+v", c2.cycles)
	}
	cy := c2.cycles[1]
	var printed runCycleOut
	if err := json.Unmarshal([]byte(out), &printed); err != nil || printed.Cycle != 2 || printed.Stats.Fetches != cy.Stats.Fetches ||
		printed.Stats.Unchanged != cy.Stats.Unchanged || len(printed.Replaced) != len(cy.Replaced) {
		t.Errorf("run --json printed %q (%v), stored stats %+v", out, err, cy.Stats)
	}

	// The stored graph is epoch 1 as reached from everything cycle 1 knew:
	// new pages found, removed ones without links, moved ones redirecting.
	var known []string
	for u := range c1.pages {
		known = append(known, u)
	}
	if d := mustReach(t, t1, known).Compare(c2.graph); !d.Empty() {
		t.Errorf("cycle 2 differs from the truth of epoch 1: %s", d)
	}

	// Server side: every URL requested once; 304 for exactly the pages
	// whose ETag did not change; the crawl's figures agree.
	requests := map[string]int{}
	notModified := 0
	for _, e := range w.log.Entries() {
		if e.Target == "/robots.txt" {
			continue
		}
		requests[e.Scheme+"://"+e.Host+e.Target]++
		if e.Status == 304 {
			notModified++
		}
	}
	for u, n := range requests {
		if n > 1 {
			t.Errorf("%s requested %d times in cycle 2", u, n)
		}
	}
	want304, wantGone, wantNew := 0, 0, 0
	for u, p := range c1.pages {
		v, ok := t1.ID(u)
		if !ok || p.Status != storage.StatusFetched {
			continue
		}
		n0, n1 := t0.Nodes[v], t1.Nodes[v]
		switch {
		case n1.Status == 200 && n0.ETag == n1.ETag:
			want304++
		case n1.Kind == testweb.KindGone:
			wantGone++
			if q := c2.pages[u]; q.Status != storage.StatusGone || c2.fetch[2][u].Change != storage.ChangeGone {
				t.Errorf("removed page %s: status %v, cycle 2 change %v; want gone", u, q.Status, c2.fetch[2][u].Change)
			}
		case n1.Kind == testweb.KindRedirect:
			// Moved: the old URL redirects, the new one was fetched.
			q := c2.pages[u]
			target := t1.URL(t1.Graph.Out(v)[0])
			if q.Status != storage.StatusRedirect || c2.fetch[2][target].Status != storage.StatusFetched {
				t.Errorf("moved page %s: status %v; its new URL %s fetched in cycle 2: %+v", u, q.Status, target, c2.fetch[2][target])
			}
		}
	}
	for u := range c2.pages {
		if _, old := c1.pages[u]; !old && c2.fetch[2][u].Change == storage.ChangeNew {
			wantNew++
		}
	}
	s := cy.Stats
	if notModified != want304 || s.Unchanged != uint64(want304) {
		t.Errorf("cycle 2: server sent %d 304s, stats say %d unchanged; %d pages kept their ETag", notModified, s.Unchanged, want304)
	}
	if s.Gone != uint64(wantGone) || wantGone == 0 {
		t.Errorf("cycle 2: %d gone in stats, %d removed pages fetched in cycle 1", s.Gone, wantGone)
	}
	if s.New == 0 || s.New != uint64(wantNew) || s.Changed == 0 {
		t.Errorf("cycle 2 stats %+v: want new pages (%d new URLs fetched) and changed ones", s, wantNew)
	}

	// Vanished seeds: the moved one replaced by its redirect target, the
	// gone one by a live neighbour, both recorded and seeded.
	ids := map[string]uint64{}
	for u, p := range c2.pages {
		ids[u] = p.ID
	}
	reps := map[uint64]storage.Replacement{}
	for _, r := range cy.Replaced {
		reps[r.Old] = r
	}
	if r, ok := reps[ids[moved]]; !ok || r.Reason != "redirect" || c2.byID[r.New] != t1.URL(t1.Graph.Out(mustID(t, t1, moved))[0]) {
		t.Errorf("moved seed %s: replacement %+v (recorded: %+v)", moved, r, cy.Replaced)
	}
	r, ok := reps[ids[gone]]
	if !ok || (r.Reason != "404" && r.Reason != "410") || r.New == storage.NoPage {
		t.Fatalf("gone seed %s: replacement %+v (recorded: %+v)", gone, r, cy.Replaced)
	}
	np := c2.pages[c2.byID[r.New]]
	if !np.Status.Fetched() || np.Status == storage.StatusGone {
		t.Errorf("replacement %s of %s is not live: %v", np.URL, gone, np.Status)
	}
	if d := undirectedDistance(c1.graph, c1.pages[gone].ID, r.New); d < 1 || d > 2 {
		t.Errorf("replacement %s is %d hops from %s in the cycle-1 graph, want a near neighbour", np.URL, d, gone)
	}
	seeded := false
	for _, sd := range cy.Seeds {
		seeded = seeded || sd.ID == r.New && strings.Contains(sd.Why, "replaces seed")
	}
	if !seeded {
		t.Errorf("replacement %d not among cycle 2's seeds %+v", r.New, cy.Seeds)
	}

	// Cycle 3 selects seeds on the stored graph: fetched, live HTML pages only.
	runCmd(t, args("3", "--seed-algo", "maxweight", "--k", "4", "--reseed-every", "60"))
	c3 := runReadDB(t, db)
	cy3 := c3.cycles[2]
	if cy3.SeedAlgo != "maxweight" || len(cy3.Seeds) == 0 {
		t.Fatalf("cycle 3: %+v", cy3)
	}
	for _, sd := range cy3.Seeds {
		p := c2.pages[c2.byID[sd.ID]]
		if !p.Status.Fetched() || !strings.HasPrefix(p.ContentType, "text/html") || !strings.Contains(sd.Why, "maxweight rank") {
			t.Errorf("cycle 3 seed %s (%v, %q): want a fetched live HTML page; why %q", p.URL, p.Status, p.ContentType, sd.Why)
		}
	}
	if cy3.Stats.New != 0 || cy3.Stats.Changed != 0 || cy3.Stats.Gone != 0 {
		t.Errorf("cycle 3 on an unchanged web: %+v", cy3.Stats)
	}
	reseeded := 0
	for _, sd := range cy3.Seeds {
		if strings.HasPrefix(sd.Why, "reseed ") {
			reseeded++
		}
	}
	if reseeded == 0 {
		t.Errorf("cycle 3 with --reseed-every 60 recorded no reseeded seed: %+v", cy3.Seeds)
	}

	// stats --cycles and export --cycle N show the history.
	var so bytes.Buffer
	if err := runStats(context.Background(), []string{"--db", db, "--cycles"}, &so, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	checkContains(t, "stats --cycles", so.String(), "cycles:", "seed-algo", "maxweight", "vanished "+fmt.Sprint(ids[gone]))
	var fo bytes.Buffer
	if err := runExport(context.Background(), []string{"--db", db, "--what", "fetches", "--cycle", "2"}, &fo, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(fo.String(), "\n"); uint64(lines) != cy.Stats.Fetches+1 || !strings.Contains(fo.String(), "\tgone\t") {
		t.Errorf("export --what fetches --cycle 2: %d lines for %d fetches", lines, cy.Stats.Fetches)
	}
	base := filepath.Join(t.TempDir(), "c1")
	if err := runExport(context.Background(), []string{"--db", db, "--what", "graph", "--cycle", "1", "--out", base}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	g1, err := graph.ReadDataset(base)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := crawlArcSet(g1), crawlArcSet(c1.graph); !crawlEqualSets(a, b) {
		t.Errorf("export --cycle 1 differs from the graph after cycle 1: missing %s; extra %s", crawlDiffSample(b, a, 5), crawlDiffSample(a, b, 5))
	}
}

func mustReach(t testing.TB, tr *testweb.Truth, seeds []string) *testweb.Reach {
	t.Helper()
	r, err := tr.Reachable(seeds, version.Token)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustID(t testing.TB, tr *testweb.Truth, u string) uint32 {
	t.Helper()
	v, ok := tr.ID(u)
	if !ok {
		t.Fatalf("%s is not a URL of the test web", u)
	}
	return v
}

// undirectedDistance is the BFS distance from a to b following links both
// ways; -1 if b is not reached.
func undirectedDistance(g *graph.CSR, a, b uint64) int {
	gt := g.Transpose()
	dist := map[uint32]int{uint32(a): 0}
	q := []uint32{uint32(a)}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		if uint64(v) == b {
			return dist[v]
		}
		for _, nb := range [][]uint32{g.Out(v), gt.Out(v)} {
			for _, x := range nb {
				if _, ok := dist[x]; !ok {
					dist[x] = dist[v] + 1
					q = append(q, x)
				}
			}
		}
	}
	return -1
}

// TestDemoCycles runs the offline demo with recrawl cycles: the test web
// moves to epoch 1 and cycle 2 reports what changed.
func TestDemoCycles(t *testing.T) {
	var stdout, stderr bytes.Buffer
	db := filepath.Join(t.TempDir(), "demo.db")
	code := run(context.Background(), []string{"demo", "--db", db, "--pages", "80", "--hosts", "4", "--preset", "clean",
		"--delay", "0s", "--progress", "0", "--cycles", "2"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("demo exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	checkContains(t, "demo --cycles 2 output", out, "ground truth: the crawl found exactly", "cycle 2 done in", "unchanged", "cycles:", "cycle 2 seeds:")
	st := runReadDB(t, db)
	if len(st.cycles) != 2 || st.cycles[1].End.IsZero() || st.cycles[1].Stats.Unchanged == 0 {
		t.Errorf("cycles stored: %+v", st.cycles)
	}
}

// TestRunBadFlags checks that a bad run setting, from a flag or a file, is
// a usage error naming the setting.
func TestRunBadFlags(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	bad := filepath.Join(dir, "bad.toml")
	writeFile(t, bad, "refresh-policy = \"freshest\"\n")
	badPace := filepath.Join(dir, "pace.yaml")
	writeFile(t, badPace, "refresh-pace: backwards\n")
	badShare := filepath.Join(dir, "share.toml")
	writeFile(t, badShare, "refresh-share = -0.5\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "http://a.test/"}, "--cycles N"},
		{[]string{"--db", db, "--cycles", "2", "--seed-algo", "nope", "http://a.test/"}, `--seed-algo "nope"`},
		{[]string{"--db", db, "--cycles", "2", "--seed-algo", "given", "--reseed-every", "10", "http://a.test/"}, "--reseed-every needs a seed selector"},
		{[]string{"--db", db, "--cycles", "2", "--refresh-share", "1.5", "http://a.test/"}, "refresh-share: bad value: must be a share in 0..1, got 1.5"},
		{[]string{"--db", db, "--cycles", "2", "--config", badShare, "http://a.test/"}, "refresh-share: bad value: must be a share in 0..1, got -0.5"},
		{[]string{"--db", db, "--cycles", "2", "--refresh-share", "NaN", "http://a.test/"}, "refresh-share: bad value: must be a share in 0..1, got NaN"},
		{[]string{"--db", db, "--cycles", "2", "--revisit-inc", "NaN", "http://a.test/"}, "revisit inc rate NaN"},
		{[]string{"--db", db, "--cycles", "2", "--delay-factor", "NaN", "http://a.test/"}, "delay-factor"},
		{[]string{"--db", db, "--cycles", "2", "--k", "0", "http://a.test/"}, "--k 0"},
		{[]string{"--db", db, "--cycles", "2", "--refresh-pace", "sideways", "http://a.test/"}, `refresh-pace: bad value: must be one of even, front, got "sideways"`},
		{[]string{"--db", db, "--cycles", "2", "--config", badPace, "http://a.test/"}, `refresh-pace: bad value: must be one of even, front, got "backwards"`},
		{[]string{"--db", db, "--cycles", "2", "--revisit-min", "2h", "--revisit-max", "1h", "http://a.test/"}, "revisit min"},
		{[]string{"--db", db, "--cycles", "2"}, "no seed URLs for cycle 1"},
		{[]string{"--db", db, "--cycles", "2", "--refresh-policy", "nope", "http://a.test/"}, "refresh-policy"},
		{[]string{"--db", db, "--cycles", "2", "--revisit-gone", "-1", "http://a.test/"}, "revisit-gone"},
		{[]string{"--db", db, "--cycles", "2", "--config", bad, "http://a.test/"}, `"freshest"`},
	} {
		checkExit(t, append([]string{"run"}, c.args...), 2, c.want)
	}
}
