package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// crawlWeb is a test web served on loopback with its access log.
type crawlWeb struct {
	site    *testweb.Site
	web     *testweb.Web
	srv     *testweb.Server
	log     *testweb.Recorder
	resolve string // the resolve file naming srv's addresses
}

// cleanWeb is crawlStartWeb of a clean test web (regular hosts only) of
// pages over hosts, made by seed, served with the default options.
func cleanWeb(t testing.TB, seed int64, pages, hosts int) *crawlWeb {
	t.Helper()
	return crawlStartWeb(t, testweb.GenOptions{Seed: seed, Pages: pages, Hosts: hosts, Preset: testweb.Clean}, testweb.Options{})
}

// crawlStartWeb generates the web gen describes and serves it on loopback
// with wo until the test ends, recording every request in w.log (and
// passing it to wo.OnRequest too, if set).
func crawlStartWeb(t testing.TB, gen testweb.GenOptions, wo testweb.Options) *crawlWeb {
	t.Helper()
	site, err := testweb.Generate(gen)
	if err != nil {
		t.Fatal(err)
	}
	w := &crawlWeb{site: site, log: &testweb.Recorder{}}
	if hook := wo.OnRequest; hook != nil {
		wo.OnRequest = func(e testweb.Entry) { w.log.Add(e); hook(e) }
	} else {
		wo.OnRequest = w.log.Add
	}
	if w.web, err = testweb.New(site, wo); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if w.srv, err = w.web.Start(ctx, "127.0.0.1:0"); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		w.srv.Close()
	})
	w.resolve = filepath.Join(t.TempDir(), "resolve.txt")
	if err := w.srv.WriteResolveFile(w.resolve); err != nil {
		t.Fatal(err)
	}
	return w
}

// flags returns the flags a command needs to crawl w, then extra: its
// resolve file and CA, which reach the .test hosts on loopback, and
// --scope hosts:.test.
func (w *crawlWeb) flags(extra ...string) []string {
	return append([]string{"--resolve-file", w.resolve, "--ca-file", w.srv.CAFile(), "--scope", "hosts:.test"}, extra...)
}

// crawlRun crawls with cfg to the end and returns the summary.
func crawlRun(t testing.TB, cfg config.Config, x crawlExtras) monitor.Summary {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	sess, err := openCrawl(cfg, x)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := sess.run(context.Background(), 0, nil)
	if cerr := sess.close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	return sum
}

// crawlGraph loads the graph stored in a db.
func crawlGraph(t testing.TB, path string) *graph.CSR {
	t.Helper()
	db := openDB(t, path)
	defer db.Close()
	g, err := graph.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// crawlPages returns the stored pages of a db by URL.
func crawlPages(t testing.TB, path string) map[string]storage.Page {
	t.Helper()
	db := openDB(t, path)
	defer db.Close()
	out := map[string]storage.Page{}
	if err := db.EachPage(func(p *storage.Page) error { out[p.URL] = *p; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCrawlCleanWebEqualsGroundTruth(t *testing.T) {
	w := cleanWeb(t, 7, 300, 8)
	db := filepath.Join(t.TempDir(), "clean.db")
	cfg := demoConfig(db, w.site.Seeds(), w.srv, 0, 6)
	cfg.DelayFactor = 0
	// The truth of a web without sitemaps has no /sitemap.xml nodes
	// (TestCrawlSitemaps compares a crawl reading sitemaps with its truth).
	cfg.Sitemaps = false
	sum := crawlRun(t, cfg, crawlExtras{})
	if sum.Stopped != monitor.StopExhausted {
		t.Errorf("stopped %q, want exhausted", sum.Stopped)
	}
	reach, err := w.web.Truth().Reachable(w.site.Seeds(), version.Token)
	if err != nil {
		t.Fatal(err)
	}
	if d := reach.Compare(crawlGraph(t, db)); !d.Empty() || d.TrapURLs != 0 {
		t.Fatalf("crawl differs from the ground truth: %s", d)
	}
	// Every fetched URL was fetched once (robots.txt aside).
	seen := map[string]int{}
	for _, e := range w.log.Entries() {
		if e.Target != "/robots.txt" {
			seen[e.Scheme+"://"+e.Host+e.Target]++
		}
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%s requested %d times", u, n)
		}
	}
}

// hostile runs one polite crawl of the hostile web, shared by the tests
// that audit it (a crawl of the whole zoo takes a few seconds).
type hostileCrawl struct {
	w     *crawlWeb
	db    string
	cfg   config.Config
	sum   monitor.Summary
	pages map[string]storage.Page
}

const (
	hostileDelay      = 25 * time.Millisecond
	hostileCrawlDelay = 120 * time.Millisecond
	hostileSlow       = 250 * time.Millisecond
)

func crawlHostile(t *testing.T) *hostileCrawl {
	t.Helper()
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 200, Hosts: 6, CrawlDelay: hostileCrawlDelay},
		testweb.Options{SlowLatency: hostileSlow, RateInterval: 150 * time.Millisecond, HugeSize: 12 << 20, BombSize: 256 << 20})
	h := &hostileCrawl{w: w, db: filepath.Join(t.TempDir(), "hostile.db")}
	h.cfg = demoConfig(h.db, w.site.Seeds(), w.srv, hostileDelay, 6)
	h.cfg.HostMaxPages = 150
	// This crawl tests the host budget as the calendar's guard; the default
	// hop limit, which stops the calendar first, is tested against the
	// hostile servers of TestHostileServers and the README example.
	h.cfg.MaxDepth = -1
	h.cfg.MaxBody = 4 * config.MiB
	// The ground truth and the per-host request audits below count pages,
	// not the /sitemap.xml of every host (see TestCrawlSitemaps).
	h.cfg.Sitemaps = false
	h.sum = crawlRun(t, h.cfg, crawlExtras{})
	h.pages = crawlPages(t, h.db)
	return h
}

func TestCrawlHostileWeb(t *testing.T) {
	h := crawlHostile(t)
	w := h.w
	truth := w.web.Truth()
	entries := w.log.Entries()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Time < entries[j].Time })

	t.Run("ground truth", func(t *testing.T) {
		reach, err := truth.Reachable(w.site.Seeds(), version.Token)
		if err != nil {
			t.Fatal(err)
		}
		if d := reach.Compare(crawlGraph(t, h.db)); !d.Empty() {
			t.Errorf("crawl differs from the ground truth: %s", d)
		}
	})

	t.Run("no robots-disallowed URL fetched", func(t *testing.T) {
		denied := 0
		for _, e := range entries {
			u := e.URL()
			if strings.HasSuffix(e.Target, ".txt") && strings.HasPrefix(e.Target, "/robots") {
				continue
			}
			if !truth.Allowed(u, version.Token) {
				t.Errorf("fetched %s, which robots.txt forbids", u)
			}
		}
		for _, p := range h.pages {
			if p.Status == storage.StatusRobotsDenied {
				denied++
			}
		}
		if denied == 0 {
			t.Error("no page recorded as robots-denied: the test web forbids some")
		}
		if p := h.pages["http://robots503.test/"]; p.Status != storage.StatusDeferred {
			t.Errorf("robots503.test root: %v %q, want deferred (robots.txt unreachable)", p.Status, p.Reason)
		}
	})

	t.Run("per-host gaps", func(t *testing.T) {
		// Gaps between request arrivals at one host, from the server's log:
		// at least --delay, and at least the Crawl-delay of rules.test.
		// Requests for another host's robots.txt (robotsredirect.test's
		// redirects to norobots.test) are made on that other host's behalf
		// and left out.
		checked, _ := checkHostGaps(t, entries, hostileGap, func(e testweb.Entry) bool { return strings.HasPrefix(e.Target, "/robots-for-") })
		if checked < 100 {
			t.Errorf("only %d gaps checked", checked)
		}
	})

	t.Run("retries in the cycle's figures", func(t *testing.T) {
		// A retried request leaves no fetch record; the cycle's figures
		// count it, so fetches and retries are the requests the page
		// budget counted, as stats --cycles --json reports them.
		var retries uint64
		for _, n := range h.sum.Retries {
			retries += n
		}
		if retries == 0 {
			t.Fatal("no retry in a crawl of the hostile web: flaky.test and ratelimit.test ask for them")
		}
		var js struct {
			Cycles []struct {
				Stats struct{ Fetches, Retries uint64 } `json:"stats"`
			} `json:"cycles"`
		}
		if err := json.Unmarshal([]byte(cmdOK(t, "stats", "--db", h.db, "--cycles", "--json")), &js); err != nil || len(js.Cycles) != 1 {
			t.Fatalf("stats --cycles --json: %v, %+v", err, js)
		}
		if c := js.Cycles[0].Stats; c.Retries != retries || c.Fetches+c.Retries != h.sum.Fetches {
			t.Errorf("cycle 1: %d fetches and %d retries stored; the crawl made %d requests, %d of them retries", c.Fetches, c.Retries, h.sum.Fetches, retries)
		}
	})

	t.Run("429 Retry-After honoured", func(t *testing.T) {
		var limited []testweb.Entry
		for _, e := range entries {
			if e.Host == "ratelimit.test" && e.Target != "/robots.txt" {
				limited = append(limited, e)
			}
		}
		n429 := 0
		for i, e := range limited {
			if e.Status != 429 {
				continue
			}
			n429++
			// The test web asks for Retry-After: 1 (whole seconds, at least 1).
			if i+1 < len(limited) && limited[i+1].Time-e.Time < time.Second {
				t.Errorf("request %v after a 429 with Retry-After: 1", limited[i+1].Time-e.Time)
			}
		}
		if n429 == 0 {
			t.Error("ratelimit.test never answered 429: the delay is too long to exercise it")
		}
		for u, p := range h.pages {
			if strings.HasPrefix(u, "http://ratelimit.test/") && p.Status != storage.StatusFetched {
				t.Errorf("%s: %v, want fetched after honouring Retry-After", u, p.Status)
			}
		}
	})

	t.Run("redirects recorded and bounded", func(t *testing.T) {
		redirects, hopsStored := 0, 0
		db := openDB(t, h.db)
		defer db.Close()
		for u, p := range h.pages {
			if p.Status != storage.StatusRedirect {
				continue
			}
			redirects++
			links, err := db.Links(p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(links) == 1 && links[0].Kind == storage.LinkRedirect {
				hopsStored++
			} else {
				t.Errorf("redirect %s has links %v, want one of kind redirect", u, links)
			}
		}
		if redirects < 6 || hopsStored != redirects {
			t.Errorf("%d redirects, %d with their hop stored", redirects, hopsStored)
		}
		count := map[string]int{}
		for _, e := range entries {
			if e.Host == "redirects.test" {
				count[e.Target]++
			}
		}
		for target, n := range count {
			if n > 1 {
				t.Errorf("redirects.test%s requested %d times: loops must be cut by the seen-set", target, n)
			}
		}
	})

	t.Run("spider trap stopped", func(t *testing.T) {
		trap := 0
		for _, e := range entries {
			if e.Host == "trap.test" {
				trap++
			}
		}
		if trap == 0 || trap > int(h.cfg.HostMaxPages)+2 {
			t.Errorf("%d requests to trap.test, want some and at most the host budget %d (+robots.txt)", trap, h.cfg.HostMaxPages)
		}
		if h.sum.Stopped != monitor.StopExhausted || h.sum.Skipped["host-max-pages"] == 0 {
			t.Errorf("crawl %s, skipped %v: want it exhausted, the calendar cut by host-max-pages", h.sum.Stopped, h.sum.Skipped)
		}
		if h.sum.Rejected["repeated-segments"] == 0 {
			t.Errorf("rejected %v: the ever-deeper paths should hit repeated-segments", h.sum.Rejected)
		}
	})

	t.Run("big page truncated, gzip bomb refused", func(t *testing.T) {
		huge := h.pages["http://big.test/huge.html"]
		if huge.Status != storage.StatusFetched || !huge.Truncated || huge.Length != int64(h.cfg.MaxBody) || huge.Reason != "truncated" {
			t.Errorf("huge page: %v truncated=%v length=%d reason %q", huge.Status, huge.Truncated, huge.Length, huge.Reason)
		}
		bomb := h.pages["http://big.test/bomb.html"]
		if bomb.Status != storage.StatusFetchError || bomb.Reason != "decompression-bomb" {
			t.Errorf("bomb: %v %q, want fetch-error decompression-bomb", bomb.Status, bomb.Reason)
		}
	})

	t.Run("ETag and Last-Modified recorded", func(t *testing.T) {
		for _, u := range w.site.Seeds() {
			p := h.pages[u]
			id, _ := truth.ID(u)
			if p.ETag == "" || p.ETag != truth.Nodes[id].ETag || p.LastModified != truth.LastModified(id) {
				t.Errorf("%s: ETag %q Last-Modified %q, want %q %q", u, p.ETag, p.LastModified, truth.Nodes[id].ETag, truth.LastModified(id))
			}
		}
	})

	t.Run("slow host does not stall the others", func(t *testing.T) {
		var slow []time.Duration
		for _, e := range entries {
			if e.Host == "slow.test" {
				slow = append(slow, e.Time)
			}
		}
		if len(slow) < 3 {
			t.Fatalf("%d requests to slow.test", len(slow))
		}
		// While each slow answer is pending, other hosts keep being fetched.
		stalled := 0
		for _, s := range slow {
			others := 0
			for _, e := range entries {
				if e.Host != "slow.test" && e.Time > s && e.Time < s+hostileSlow {
					others++
				}
			}
			if others == 0 {
				stalled++
			}
		}
		if stalled > 1 {
			t.Errorf("no other host was fetched during %d of %d slow answers", stalled, len(slow))
		}
	})

	t.Run("304 on a conditional refetch", func(t *testing.T) {
		before := len(w.log.Entries())
		cfg := h.cfg
		sum := crawlRun(t, cfg, crawlExtras{refetch: true})
		if sum.ByStatus["not-modified"] != uint64(len(w.site.Seeds())) {
			t.Errorf("refetch: %v, want every seed not-modified", sum.ByStatus)
		}
		got304 := 0
		for _, e := range w.log.Entries()[before:] {
			if e.Status == 304 {
				got304++
			}
		}
		if got304 != len(w.site.Seeds()) {
			t.Errorf("server answered 304 %d times, want %d", got304, len(w.site.Seeds()))
		}
		pages := crawlPages(t, h.db)
		for _, u := range w.site.Seeds() {
			if p := pages[u]; p.Status != storage.StatusNotModified || p.ETag == "" || p.Fetches != 2 {
				t.Errorf("%s after refetch: %v ETag %q fetches %d", u, p.Status, p.ETag, p.Fetches)
			}
		}
	})
}

func TestCrawlRedirectChainBounded(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 40, Hosts: 2}, testweb.Options{})
	truth := w.web.Truth()
	// The 4-hop chain of redirects.test: its first URL is the one whose
	// chain of redirects is longest.
	var start string
	longest := 0
	for id, info := range truth.Nodes {
		u := truth.URL(uint32(id))
		if !strings.HasPrefix(u, "http://redirects.test/") || info.Status < 300 || info.Status >= 400 {
			continue
		}
		n, v, seen := 0, uint32(id), map[uint32]bool{}
		for truth.Nodes[v].Status >= 300 && truth.Nodes[v].Status < 400 && !seen[v] {
			seen[v] = true
			out := truth.Graph.Out(v)
			if len(out) != 1 {
				break
			}
			v, n = out[0], n+1
		}
		if n > longest && !seen[v] {
			start, longest = u, n
		}
	}
	if longest < 3 {
		t.Fatalf("no redirect chain of 3+ hops in the test web (longest %d)", longest)
	}
	db := filepath.Join(t.TempDir(), "chain.db")
	cfg := demoConfig(db, []string{start}, w.srv, 0, 2)
	cfg.Scope = "all"
	cfg.MaxRedirects = 2
	crawlRun(t, cfg, crawlExtras{})
	fetched := 0
	for _, e := range w.log.Entries() {
		if e.Target != "/robots.txt" && e.Status >= 300 && e.Status < 400 {
			fetched++
		}
	}
	// The seed and two more hops are fetched; the third hop's target is
	// stored and not fetched.
	if fetched != 3 {
		t.Errorf("%d redirects fetched from a %d-hop chain with max-redirects 2, want 3", fetched, longest)
	}
	rejected := 0
	for _, p := range crawlPages(t, db) {
		if p.Status == storage.StatusRejected && p.Reason == "too-many-redirects" {
			rejected++
		}
	}
	if rejected != 1 {
		t.Errorf("%d URLs rejected as too-many-redirects, want 1", rejected)
	}
}

func TestCrawlLockedDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "locked.db")
	holder, err := storage.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(context.Background(), []string{"crawl", "--db", db, "http://a.test/"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	msg := stderr.String()
	if !strings.Contains(msg, db) || !strings.Contains(msg, "in use") || !strings.Contains(msg, "--db") {
		t.Errorf("error %q should name the db, say it is in use and what to do", msg)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("locked error after %v, want about a second", el)
	}
	// The commands that read a db say it is in use and what to do.
	for _, args := range [][]string{
		{"stats", "--db", db},
		{"export", "--db", db, "--what", "pages"},
		{"score", "--db", db},
		{"seeds", "--db", db},
	} {
		checkExit(t, args, 1, "in use", "wait for it to stop")
	}
}

func TestCrawlBadConfigNamesKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		writeFile(t, p, body)
		return p
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown yaml key", []string{"--config", write("a.yaml", "delay: 1s\nmax-page: 3\n")}, []string{"a.yaml:2", "max-page", "unknown key"}},
		{"bad toml value", []string{"--config", write("b.toml", "workers = \"many\"\n")}, []string{"b.toml:1", "workers", "not an integer"}},
		{"out of range in file", []string{"--config", write("c.yaml", "host-concurrency: 0\n")}, []string{"config file " + filepath.Join(dir, "c.yaml") + ":1: host-concurrency", "1..1024, got 0"}},
		{"every problem of a file at once", []string{"--config", write("d.yaml", "workers: lots\ndelay: -1s\nbogus: 1\nmax-redirects: 500\n"), "--max-retries", "-1"},
			[]string{"5 bad settings:", "d.yaml:1: workers", "not an integer", "d.yaml:3: bogus: unknown key", "d.yaml:2: delay", "must not be negative",
				"d.yaml:4: max-redirects", "0..100", "--max-retries: bad value: must be 0 or more, got -1"}},
		{"bad flag value", []string{"--delay", "soon"}, []string{`--delay: bad value: "soon" is not a duration`}},
		{"bad scope", []string{"--scope", "planet"}, []string{"scope", "planet"}},
		{"bad resolve", []string{"--resolve", "a.test=nowhere"}, []string{"resolve", "nowhere"}},
		{"CA file without certificates", []string{"--ca-file", write("ca.pem", "not a certificate\n")}, []string{"ca-file", "ca.pem"}},
		{"unknown scheduler", []string{"--scheduler", "dfs"}, []string{"scheduler", "dfs"}},
		{"bad seed", []string{"ftp://a.test/"}, []string{"SEED_URL argument", "ftp://a.test/"}},
		{"bad seeds file", []string{"--seeds", write("s.txt", "http://a.test/\n# c\nnot a url\n")}, []string{"s.txt:3"}},
		{"no seeds", []string{"--delay", "1s"}, []string{"no seed URLs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"crawl", "--db", filepath.Join(dir, "x.db")}, tc.args...)
			if !strings.HasPrefix(tc.args[0], "ftp") && tc.name != "no seeds" {
				args = append(args, "http://a.test/")
			}
			checkExit(t, args, 2, tc.want...)
			if _, err := os.Stat(filepath.Join(dir, "x.db")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a db was created despite the bad configuration")
			}
		})
	}
}

func TestCrawlCommandJSONAndStatsExport(t *testing.T) {
	w := cleanWeb(t, 11, 60, 3)
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	cfgFile := filepath.Join(dir, "c.toml")
	// sitemaps off: the exported graph is compared with the truth of a web
	// without sitemaps, which has no /sitemap.xml nodes.
	writeFile(t, cfgFile, "delay = \"0s\"\nworkers = 3\nscope = \"hosts:.test\"\nsitemaps = false\n")
	args := append(append([]string{"crawl"}, w.flags("--db", db, "--config", cfgFile, "--json", "--progress", "0")...), w.site.Seeds()...)
	checkContains(t, "--json summary", cmdOK(t, args...), `"stopped": "exhausted"`, `"db": "`+db, `"by_status"`, `"fetched"`)
	reach, err := w.web.Truth().Reachable(w.site.Seeds(), version.Token)
	if err != nil {
		t.Fatal(err)
	}

	checkContains(t, "stats", cmdOK(t, "stats", "--db", db), "pages", "fetched", "hosts", "links", "frontier  0 pending", "runs:", "#1")
	checkContains(t, "stats --json", cmdOK(t, "stats", "--db", db, "--json"), `"by_status"`)

	for _, tc := range []struct {
		what, format string
		lines        int // records, header excluded
	}{
		{"pages", "tsv", len(reach.Order)}, {"pages", "jsonl", len(reach.Order)},
		{"links", "tsv", len(reach.Arcs())}, {"links", "jsonl", len(reach.Arcs())},
	} {
		n := strings.Count(cmdOK(t, "export", "--db", db, "--what", tc.what, "--format", tc.format), "\n")
		if tc.format == "tsv" {
			n--
		}
		if n < tc.lines {
			t.Errorf("export %s %s: %d records, want ≥ %d", tc.what, tc.format, n, tc.lines)
		}
	}
	base := filepath.Join(dir, "g")
	cmdOK(t, "export", "--db", db, "--what", "graph", "--out", base)
	g, err := graph.ReadDataset(base)
	if err != nil {
		t.Fatal(err)
	}
	if d := reach.Compare(g); !d.Empty() {
		t.Errorf("exported graph differs from the truth: %s", d)
	}
	checkExit(t, []string{"export", "--db", db, "--what", "graph"}, 2, "--out")
}

func TestDemoCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	db := filepath.Join(t.TempDir(), "demo.db")
	start := time.Now()
	code := run(context.Background(), []string{"demo", "--db", db, "--pages", "120", "--hosts", "4", "--delay", "5ms", "--progress", "0"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("demo exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "ground truth: the crawl found exactly") {
		t.Errorf("demo output:\n%s", stdout.String())
	}
	t.Logf("demo took %v", time.Since(start))
}

// TestCrawlFinishedHint reruns crawl on a finished crawl: the rerun
// fetches nothing and must say why and what would (--refetch, seedcrawl
// run), on stderr so --json stays machine-readable; a rerun with
// --refetch fetches again and needs no hint, and a rerun without seeds is
// a usage error with the same hint.
func TestCrawlFinishedHint(t *testing.T) {
	w := cleanWeb(t, 11, 20, 2)
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	base := append([]string{"crawl"}, w.flags("--db", db, "--delay", "0s", "--progress", "0", "--json")...)
	withSeeds := append(slices.Clone(base), w.site.Seeds()...)
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		hint    bool
		fetched bool // the run requested pages
	}{
		{"first crawl", withSeeds, 0, false, true},
		{"rerun, finished", withSeeds, 0, true, false},
		{"rerun with --refetch", append(slices.Clone(withSeeds), "--refetch"), 0, false, true},
		{"rerun without seeds", base, 2, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(w.log.Entries())
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr.String())
			}
			if fetched := len(w.log.Entries()) > before; fetched != tc.fetched {
				t.Errorf("requests sent: %v, want %v", fetched, tc.fetched)
			}
			hint := strings.Contains(stderr.String(), "--refetch") && strings.Contains(stderr.String(), "seedcrawl run --db "+db)
			if hint != tc.hint {
				t.Errorf("hint naming --refetch and seedcrawl run on stderr: %v, want %v; stderr:\n%s", hint, tc.hint, stderr.String())
			}
			if tc.code == 0 && !json.Valid(stdout.Bytes()) {
				t.Errorf("stdout is not the JSON summary:\n%s", stdout.String())
			}
		})
	}
}

// TestCrawlHTTP2Setting crawls a test web served over https, which offers
// HTTP/2, with and without --http2, and reads the protocol of every
// request from the server's side: HTTP/1.1 by default, HTTP/2 when asked.
func TestCrawlHTTP2Setting(t *testing.T) {
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{nil, "HTTP/1.1"},
		{[]string{"--http2"}, "HTTP/2.0"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			w := crawlStartWeb(t, testweb.GenOptions{Seed: 4, Pages: 40, Hosts: 2, Preset: testweb.Clean, AllHTTPS: true}, testweb.Options{})
			db := filepath.Join(t.TempDir(), "h2.db")
			args := append([]string{"crawl", "--db", db, "--delay", "0", "--delay-factor", "0"}, w.flags(tc.extra...)...)
			cmdOK(t, append(args, w.site.Seeds()...)...)
			entries := w.log.Entries()
			if len(entries) == 0 {
				t.Fatal("no requests")
			}
			for _, e := range entries {
				if e.Proto != tc.want {
					t.Fatalf("%s %s%s over %s, want %s", e.Method, e.Host, e.Target, e.Proto, tc.want)
				}
			}
		})
	}
}
