package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/compare"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/sim"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// compareExactSchedulers are the schedulers whose order sim reproduces on
// the ground-truth graph: random is left out because its priorities hash
// ids, which a logical crawl numbers in its own discovery order
// (package compare, "Ids").
const compareExactSchedulers = "bfs,fpr,fpr@2,fpr@100,opic,backlink,rankmass-window@5"

// compareCmd runs seedcrawl compare in-process and returns its stdout.
func compareCmd(t testing.TB, args []string) string {
	t.Helper()
	return cmdOK(t, append([]string{"compare"}, args...)...)
}

// compareSequences reads back the download sequences a comparison stored.
func compareSequences(t testing.TB, path string) []compare.Sequence {
	t.Helper()
	db := openDB(t, path)
	defer db.Close()
	raw, err := db.CompareOptions()
	if err != nil || raw == nil {
		t.Fatalf("no stored options: %v", err)
	}
	var o compareOptions
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	c, err := compare.New(&compareStore{db: db}, o.engine(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c.Sequences()
}

// compareSimOrders returns sim's download order (as URLs) of every
// scheduler in names on the part of the test web a polite crawler reaches
// from seeds: the ground-truth graph.
func compareSimOrders(t testing.TB, w *crawlWeb, seeds []string, names []string) map[string][]string {
	t.Helper()
	reach, err := w.web.Truth().Reachable(seeds, version.Token)
	if err != nil {
		t.Fatal(err)
	}
	g := reach.Graph()
	id := map[string]uint32{}
	for v, u := range g.URLs {
		id[u] = uint32(v)
	}
	var sg []uint32
	for _, s := range seeds {
		v, ok := id[s]
		if !ok {
			t.Fatalf("seed %s not in the ground truth", s)
		}
		sg = append(sg, v)
	}
	// A uniform PageRank: sim normalises the ones to 1/n.
	s, err := sim.New(g, sim.Options{Seeds: sg, PageRank: slices.Repeat([]float64{1}, g.N())})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, n := range names {
		order, err := s.OrderOf(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range order {
			out[n] = append(out[n], g.URLs[v])
		}
	}
	return out
}

// compareRequests counts the requests in the access log other than for
// robots.txt, by URL.
func compareRequests(w *crawlWeb) map[string]int {
	seen := map[string]int{}
	for _, e := range w.log.Entries() {
		if e.Target != "/robots.txt" {
			seen[e.Scheme+"://"+e.Host+e.Target]++
		}
	}
	return seen
}

// TestCompareExactAndCheap checks, over real loopback HTTP against the clean
// test web, that with --window 1 every scheduler downloads exactly what sim
// downloads on the ground-truth graph from the same seeds, and that the web
// saw each page of the union of the downloaded sets and of the default
// frontier sample once, at most 1.1 requests per union page.
func TestCompareExactAndCheap(t *testing.T) {
	cases := []struct {
		name         string
		seed         int64
		pages, hosts int
		nSeeds       int
		budget       int
	}{
		{"small, one seed", 3, 200, 4, 1, 80},
		{"medium, all seeds", 11, 600, 8, 0, 250},
		{"budget beyond reach", 5, 150, 3, 2, 1000},
	}
	names := strings.Split(compareExactSchedulers, ",")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := cleanWeb(t, tc.seed, tc.pages, tc.hosts)
			seeds := w.site.Seeds()
			if tc.nSeeds > 0 {
				seeds = seeds[:min(tc.nSeeds, len(seeds))]
			}
			db := filepath.Join(t.TempDir(), "cmp.db")
			args := runArgs(t, w, db, "--schedulers", compareExactSchedulers, "--budget", fmt.Sprint(tc.budget), "--json")
			out := compareCmd(t, append(args, seeds...))
			var rep struct {
				Requests   int `json:"requests"`
				Downloaded int `json:"union_downloaded"`
				Frontier   int `json:"frontier_pages"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("report: %v\n%s", err, out)
			}
			want := compareSimOrders(t, w, seeds, names)
			union := map[string]bool{}
			for _, s := range compareSequences(t, db) {
				w := want[s.Name][:min(tc.budget, len(want[s.Name]))]
				if !slices.Equal(s.URLs, w) {
					k := 0
					for k < min(len(w), len(s.URLs)) && w[k] == s.URLs[k] {
						k++
					}
					t.Errorf("%s: %d downloads differ from sim's %d from position %d", s.Name, len(s.URLs), len(w), k)
				}
				if !s.Done {
					t.Errorf("%s: not done", s.Name)
				}
				for _, u := range s.URLs {
					union[u] = true
				}
			}
			reqs := compareRequests(w)
			total := 0
			for u, n := range reqs {
				total += n
				if n != 1 {
					t.Errorf("%s requested %d times", u, n)
				}
			}
			if float64(total) > 1.1*float64(len(union)) {
				t.Errorf("%d requests for a union of %d pages: more than 1.1x", total, len(union))
			}
			// The default frontier sample: at most a tenth of the union.
			// The requests are those the web saw: robots-denied pages of
			// the union and the sample were never asked of it.
			if rep.Downloaded != len(union) || rep.Requests != total || rep.Frontier > len(union)/10 {
				t.Errorf("report: %d requests, union %d, frontier sample %d; want union %d, requests = the %d the web saw, sample ≤ %d",
					rep.Requests, rep.Downloaded, rep.Frontier, len(union), total, len(union)/10)
			}
			var unasked []string
			for u := range union {
				if reqs[u] == 0 {
					unasked = append(unasked, u)
				}
			}
			sort.Strings(unasked)
			t.Logf("union pages not requested over HTTP: %v", unasked)
			t.Logf("%d requests (robots.txt aside) for a union of %d pages and a frontier sample of %d; %d schedulers x budget %d", total, len(union), rep.Frontier, len(names), tc.budget)
		})
	}
}

// TestComparePolite checks that the crawler under compare keeps the
// per-host gaps (--delay) and fetches nothing twice, with several workers.
func TestComparePolite(t *testing.T) {
	const delay = 30 * time.Millisecond
	w := cleanWeb(t, 21, 150, 5)
	db := filepath.Join(t.TempDir(), "cmp.db")
	args := runArgs(t, w, db, "--schedulers", "bfs,fpr,opic", "--budget", "60", "--window", "4")
	args = append(args, "--delay", delay.String())
	compareCmd(t, append(args, w.site.Seeds()...))
	entries := w.log.Entries()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Time < entries[j].Time })
	checked, _ := checkHostGaps(t, entries, func(string) time.Duration { return delay }, nil)
	if checked < 50 {
		t.Errorf("only %d gaps checked", checked)
	}
	for u, n := range compareRequests(w) {
		if n != 1 {
			t.Errorf("%s requested %d times", u, n)
		}
	}
}

// TestCompareScoreFrontier checks --score-frontier: after the crawls, the
// URLs they discovered but none downloaded are fetched once each through
// the same crawler, the report ranks on the crawl graph with them, and
// --report rescores the db to the same numbers.
func TestCompareScoreFrontier(t *testing.T) {
	w := cleanWeb(t, 4, 400, 5)
	db := filepath.Join(t.TempDir(), "cmp.db")
	args := runArgs(t, w, db, "--schedulers", "bfs,fpr,fpr@100,opic", "--budget", "100", "--json",
		"--score-frontier", "--score-graph", "crawl")
	out := compareCmd(t, append(args, w.site.Seeds()...))
	type report struct {
		Graph      string `json:"graph"`
		Frontier   int    `json:"frontier_pages"`
		Downloaded int    `json:"union_downloaded"`
		Requests   int    `json:"requests"`
		Curves     []struct {
			Cumulative []*float64 `json:"cumulative_pagerank"`
		} `json:"curves"`
	}
	var run report
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	if run.Graph != "crawl" || run.Frontier == 0 {
		t.Fatalf("graph %q with %d frontier pages, want crawl with some", run.Graph, run.Frontier)
	}
	union := map[string]bool{}
	for _, s := range compareSequences(t, db) {
		for _, u := range s.URLs {
			union[u] = true
		}
	}
	reqs := compareRequests(w)
	for u, n := range reqs {
		if n != 1 {
			t.Errorf("%s requested %d times", u, n)
		}
	}
	if len(reqs) > len(union)+run.Frontier || run.Downloaded != len(union) {
		t.Errorf("%d URLs requested for %d downloaded + %d frontier pages (report: %d downloaded)", len(reqs), len(union), run.Frontier, run.Downloaded)
	}
	var stdout, stderr bytes.Buffer
	if err := runCompare(context.Background(), []string{"--db", db, "--report", "--json", "--score-frontier", "--score-graph", "crawl"}, &stdout, &stderr); err != nil {
		t.Fatalf("--report: %v\n%s", err, stderr.String())
	}
	var again report
	if err := json.Unmarshal(stdout.Bytes(), &again); err != nil {
		t.Fatal(err)
	}
	if again.Frontier != run.Frontier || len(again.Curves) != len(run.Curves) {
		t.Fatalf("--report: %d frontier pages, %d curves; the run: %d, %d", again.Frontier, len(again.Curves), run.Frontier, len(run.Curves))
	}
	for i := range run.Curves {
		for k, v := range run.Curves[i].Cumulative {
			if a := again.Curves[i].Cumulative[k]; (v == nil) != (a == nil) || v != nil && *v != *a {
				t.Fatalf("--report curve %d point %d differs from the run's", i, k)
			}
		}
	}
	t.Logf("%d downloaded, %d frontier pages fetched for the score, %d URLs requested", len(union), run.Frontier, len(reqs))
}

// TestScoreCommand scores a plain crawl of the clean test web: every fetch
// of the crawl is in the sequence, in the order of the fetches, and the
// CSV has sim's columns.
func TestScoreCommand(t *testing.T) {
	w := cleanWeb(t, 6, 250, 4)
	db := filepath.Join(t.TempDir(), "crawl.db")
	cfg := demoConfig(db, w.site.Seeds(), w.srv, 0, 4)
	cfg.DelayFactor = 0
	cfg.Scheduler = "fpr"
	sum := crawlRun(t, cfg, crawlExtras{})
	csvPath := filepath.Join(t.TempDir(), "score.csv")
	var stdout, stderr bytes.Buffer
	if err := runScore(context.Background(), []string{"--db", db, "--json", "--out", csvPath}, &stdout, &stderr); err != nil {
		t.Fatalf("score: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Downloaded int `json:"union_downloaded"`
		Reference  int `json:"reference_pages"`
		Curves     []struct {
			Scheduler  string     `json:"scheduler"`
			Cumulative []*float64 `json:"cumulative_pagerank"`
		} `json:"curves"`
		Upper []*float64 `json:"upper_bound"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	fetched := 0
	for _, p := range crawlPages(t, db) {
		if p.Fetches > 0 {
			fetched++
		}
	}
	if rep.Downloaded != fetched || rep.Reference != fetched || int(sum.Fetches) < fetched {
		t.Errorf("scored %d pages (reference %d); the crawl fetched %d (%d fetches)", rep.Downloaded, rep.Reference, fetched, sum.Fetches)
	}
	if len(rep.Curves) != 1 || rep.Curves[0].Scheduler != "fpr" {
		t.Fatalf("curves: %+v", rep.Curves)
	}
	c := rep.Curves[0].Cumulative
	for i := range c {
		if c[i] == nil || *c[i] > *rep.Upper[i]+1e-12 || i > 0 && *c[i] < *c[i-1] {
			t.Fatalf("point %d: S %v, U %v: S must be defined, rise and stay under U", i, c[i], rep.Upper[i])
		}
	}
	b, err := os.ReadFile(csvPath)
	if err != nil || !strings.HasPrefix(string(b), compare.CSVHeader+"\n") {
		t.Errorf("CSV: %v, starts %q", err, string(b[:min(len(b), 80)]))
	}
}

// TestCompareHostileWeb runs a comparison on the hostile test web (traps,
// slow and huge pages, compression bombs, 429s, robots.txt rules): it must
// finish, fetch nothing robots.txt forbids, keep --delay between requests
// to a host and rules.test's Crawl-delay, and ask each URL at most once
// (a 429 or 5xx may be retried by the crawler's back-off).
func TestCompareHostileWeb(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 200, Hosts: 6, CrawlDelay: hostileCrawlDelay},
		testweb.Options{SlowLatency: hostileSlow, RateInterval: 150 * time.Millisecond, HugeSize: 12 << 20, BombSize: 256 << 20})
	db := filepath.Join(t.TempDir(), "hostile.db")
	args := runArgs(t, w, db, "--schedulers", "bfs,fpr,opic", "--budget", "120", "--window", "4", "--json",
		"--host-max-pages", "150", "--max-body", "4MiB", "--workers", "6",
		"--backoff", "100ms", "--max-backoff", "2s", "--robots-backoff", "100ms", "--fetch-timeout", "10s")
	args = append(args, "--delay", hostileDelay.String())
	out := compareCmd(t, append(args, w.site.Seeds()...))
	var rep struct {
		Downloaded int `json:"union_downloaded"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Downloaded == 0 {
		t.Fatalf("report (%v):\n%s", err, out)
	}
	truth := w.web.Truth()
	entries := w.log.Entries()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Time < entries[j].Time })
	robots := func(e testweb.Entry) bool { return strings.HasPrefix(e.Target, "/robots") }
	for _, e := range entries {
		if u := e.URL(); !robots(e) && !truth.Allowed(u, version.Token) {
			t.Errorf("fetched %s, which robots.txt forbids", u)
		}
	}
	checked, last := checkHostGaps(t, entries, hostileGap, robots)
	if checked < 50 || last["rules.test"] == 0 {
		t.Errorf("only %d gaps checked; rules.test asked: %v", checked, last["rules.test"] != 0)
	}
	t.Logf("union %d pages, %d requests, %d gaps checked", rep.Downloaded, len(entries), checked)
}
