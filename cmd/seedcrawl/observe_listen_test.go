package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/seedcrawl/seedcrawl/internal/testhttp"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// listenGate holds the test web's answer to the n-th page request (of
// each n in its stops) until the test lets it go, so the test looks at a
// crawl known to be running: that request is in flight.
type listenGate struct {
	mu      sync.Mutex
	n       int
	stops   map[int]chan struct{} // request number → released when closed
	reached chan int              // the number of each stop reached
}

func newListenGate(stops ...int) *listenGate {
	g := &listenGate{stops: map[int]chan struct{}{}, reached: make(chan int, len(stops))}
	for _, s := range stops {
		g.stops[s] = make(chan struct{})
	}
	return g
}

func (g *listenGate) onRequest(e testweb.Entry) {
	if e.Target == "/robots.txt" {
		return
	}
	g.mu.Lock()
	g.n++
	release, stop := g.stops[g.n]
	n := g.n
	g.mu.Unlock()
	if stop {
		g.reached <- n
		<-release
	}
}

func (g *listenGate) release(n int) { close(g.stops[n]) }

// scrape reads /metrics with the Prometheus text parser.
func scrape(t *testing.T, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mf, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return mf
}

// byLabel returns a counter family's values by its one label ("" for an
// unlabelled metric), and their sum.
func byLabel(mf map[string]*dto.MetricFamily, name string) (map[string]uint64, uint64) {
	out := map[string]uint64{}
	var sum uint64
	f, ok := mf[name]
	if !ok {
		return out, 0
	}
	for _, m := range f.GetMetric() {
		label := ""
		if ls := m.GetLabel(); len(ls) > 0 {
			label = ls[0].GetValue()
		}
		v := uint64(m.GetCounter().GetValue())
		out[label] = v
		sum += v
	}
	return out, sum
}

func httpGet(t *testing.T, u string) string {
	t.Helper()
	resp, b := testhttp.Get(t, nil, u)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	return string(b)
}

// TestCrawlListen crawls the test web with --listen. While a request is
// held in flight it reads /metrics, /status, the page and `seedcrawl
// stats` (which must read the live status, not fail); the counters must
// move between two such points, and at the end equal the run's counters
// that `stats --json` reads from the db.
func TestCrawlListen(t *testing.T) {
	gate := newListenGate(10, 30)
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 11, Pages: 80, Hosts: 3, Preset: testweb.Clean},
		testweb.Options{OnRequest: gate.onRequest})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	db := filepath.Join(t.TempDir(), "l.db")
	cfg := demoConfig(db, w.site.Seeds(), w.srv, 0, 3)
	cfg.DelayFactor = 0
	cfg.Listen = "127.0.0.1:0"
	var stderr outBuffer
	sess, err := openCrawl(cfg, crawlExtras{command: "seedcrawl crawl (test)",
		logger: slog.New(slog.NewTextHandler(&stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			sess.close()
		}
	}()
	if err := sess.serve(ctx, "crawl", &stderr); err != nil {
		t.Fatal(err)
	}
	addr := sess.obs.monitor.Addr()
	if !strings.Contains(stderr.String(), "status on http://"+addr+"/") {
		t.Errorf("stderr does not name the status address: %q", stderr.String())
	}
	type result struct {
		sum monitor.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := sess.run(ctx, 0, nil)
		done <- result{sum, err}
	}()

	// First stop: the 10th page request is in flight.
	<-gate.reached
	sess.x.logger.Warn("robots.txt unreachable", "host", "x.test") // the crawl's logger feeds the page
	m1 := scrape(t, addr)
	_, fetches1 := byLabel(m1, "seedcrawl_fetches_total")
	_, pages1 := byLabel(m1, "seedcrawl_pages_total")
	if fetches1 == 0 || pages1 == 0 {
		t.Errorf("at the first stop: %d fetches, %d pages in /metrics, want some", fetches1, pages1)
	}
	var st monitor.Status
	if err := json.Unmarshal([]byte(httpGet(t, "http://"+addr+"/status")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Command != "crawl" || st.DB != db || st.InFlight < 1 || st.HostsTotal != 3 || len(st.Hosts) != 3 || st.Cycle != 1 {
		t.Errorf("/status during the crawl: command %q db %q in flight %d hosts %d listed %d cycle %d",
			st.Command, st.DB, st.InFlight, st.HostsTotal, len(st.Hosts), st.Cycle)
	}
	if len(st.Warnings) != 1 || st.Warnings[0].Message != "robots.txt unreachable host=x.test" {
		t.Errorf("/status warnings %+v, want the one logged", st.Warnings)
	}
	if prof := httpGet(t, "http://"+addr+"/debug/pprof/"); !strings.Contains(prof, "goroutine") {
		t.Errorf("/debug/pprof/: %.200s", prof)
	}
	busy := 0
	for _, h := range st.Hosts {
		busy += h.InFlight
		if h.State == "" {
			t.Errorf("/status: host %s without a state", h.Name)
		}
	}
	if busy < 1 || st.HostStates["busy"] < 1 {
		t.Errorf("/status: no host busy (%d in flight, states %v) while a request is held", busy, st.HostStates)
	}
	if page := httpGet(t, "http://"+addr+"/"); !strings.Contains(page, "<html") || !strings.Contains(page, "refresh") {
		t.Errorf("status page: %.200s", page)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"stats", "--db", db}, &out, &errOut); code != 0 {
		t.Errorf("stats on the running crawl: exit %d: %s", code, errOut.String())
	} else if !strings.Contains(out.String(), "held by a running seedcrawl crawl") || !strings.Contains(out.String(), "in flight") {
		t.Errorf("stats on the running crawl:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"stats", "--db", db, "--json"}, &out, &errOut); code != 0 {
		t.Errorf("stats --json on the running crawl: exit %d: %s", code, errOut.String())
	} else {
		var live struct {
			Live bool `json:"live"`
			monitor.Status
		}
		if err := json.Unmarshal(out.Bytes(), &live); err != nil || !live.Live || live.Fetches < fetches1 {
			t.Errorf("stats --json on the running crawl: %v %+v", err, live)
		}
	}
	gate.release(10)

	// Second stop: the counters moved.
	<-gate.reached
	m2 := scrape(t, addr)
	_, fetches2 := byLabel(m2, "seedcrawl_fetches_total")
	_, pages2 := byLabel(m2, "seedcrawl_pages_total")
	if fetches2 <= fetches1 || pages2 <= pages1 {
		t.Errorf("counters did not move: fetches %d → %d, pages %d → %d", fetches1, fetches2, pages1, pages2)
	}
	gate.release(30)

	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	end := scrape(t, addr) // the monitor runs until the session closes
	if err := sess.close(); err != nil {
		t.Fatal(err)
	}
	closed = true

	// The run's stored counters, as stats prints them.
	out.Reset()
	if code := run(context.Background(), []string{"stats", "--db", db, "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("stats after the crawl: exit %d: %s", code, errOut.String())
	}
	var stored statsJSONOut
	if err := json.Unmarshal(out.Bytes(), &stored); err != nil || len(stored.Runs) != 1 {
		t.Fatalf("stats --json: %v, %d runs", err, len(stored.Runs))
	}
	rc := stored.Runs[0].Counters
	group := func(prefix string) map[string]uint64 {
		m := map[string]uint64{}
		for k, v := range rc {
			if name, ok := strings.CutPrefix(k, prefix); ok {
				m[name] = v
			}
		}
		return m
	}
	_, fetches := byLabel(end, "seedcrawl_fetches_total")
	_, bytesN := byLabel(end, "seedcrawl_fetch_bytes_total")
	pages, _ := byLabel(end, "seedcrawl_pages_total")
	rejects, _ := byLabel(end, "seedcrawl_rejections_total")
	errs, _ := byLabel(end, "seedcrawl_errors_total")
	if fetches != rc["fetches"] || fetches != res.sum.Fetches || bytesN != rc["bytes"] {
		t.Errorf("/metrics: %d fetches, %d bytes; stored run: %d fetches, %d bytes; summary %d fetches",
			fetches, bytesN, rc["fetches"], rc["bytes"], res.sum.Fetches)
	}
	for _, c := range []struct {
		name          string
		metric, store map[string]uint64
	}{{"pages by status", pages, group("fetch/")}, {"rejections", rejects, group("reject/")}, {"errors", errs, group("error/")}} {
		if fmt.Sprint(c.metric) != fmt.Sprint(c.store) {
			t.Errorf("%s: /metrics %v, stored %v", c.name, c.metric, c.store)
		}
	}
	if len(pages) == 0 || pages["fetched"] == 0 {
		t.Errorf("no fetched pages in /metrics: %v", pages)
	}
	// Without --listen, a held db still gives today's error: covered by
	// TestCrawlLockedDB.
}
