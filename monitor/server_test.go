package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMetricsFollowEvents feeds crawl events one step at a time and
// scrapes after each: the counters move by exactly the step and always
// equal both the Source's own counters and Recorder.Counters.
func TestMetricsFollowEvents(t *testing.T) {
	c := newFakeCrawl()
	s := start(t, Options{Source: c, Recorder: c.rec})
	var durSum float64
	steps := []struct {
		name string
		do   func()
		dur  time.Duration // the step's total fetch time
	}{
		{"nothing yet", func() {}, 0},
		{"one 200", func() { c.fetch(200, 1000, 30*time.Millisecond, "fetched") }, 30 * time.Millisecond},
		{"a 404 and a redirect", func() {
			c.fetch(404, 10, 2*time.Millisecond, "http-error")
			c.fetch(301, 0, time.Millisecond, "redirect")
		}, 3 * time.Millisecond},
		{"rejected links", func() {
			c.reject("max-depth")
			c.reject("max-depth")
			c.reject("calendar")
		}, 0},
		{"a timeout", func() { c.fail("timeout") }, time.Millisecond},
		{"many 200s", func() {
			for range 50 {
				c.fetch(200, 4096, 100*time.Millisecond, "fetched")
			}
		}, 5 * time.Second},
	}
	for _, st := range steps {
		st.do()
		durSum += st.dur.Seconds()
		mfs := scrape(t, s)
		src := c.Status()

		codes := byLabel(mfs, "seedcrawl_fetches_total", "code")
		var fetches float64
		for _, v := range codes {
			fetches += v
		}
		if fetches != float64(src.Fetches) {
			t.Errorf("%s: sum of seedcrawl_fetches_total = %v, source says %d", st.name, fetches, src.Fetches)
		}
		if got := byLabel(mfs, "seedcrawl_fetch_bytes_total", "")[""]; got != float64(src.Bytes) {
			t.Errorf("%s: seedcrawl_fetch_bytes_total = %v, source says %d", st.name, got, src.Bytes)
		}
		for _, cmp := range []struct{ metric, label, group string }{
			{"seedcrawl_pages_total", "status", "fetch"},
			{"seedcrawl_rejections_total", "reason", "reject"},
			{"seedcrawl_errors_total", "reason", "error"},
		} {
			if got, want := byLabel(mfs, cmp.metric, cmp.label), group(src.Counters, cmp.group); !maps.Equal(got, want) {
				t.Errorf("%s: %s = %v, source counters say %v", st.name, cmp.metric, got, want)
			}
		}
		rc := c.rec.Counters()
		if float64(rc.Fetches) != fetches || rc.Bytes != src.Bytes {
			t.Errorf("%s: Recorder.Counters fetches %d bytes %d, scraped %v, source bytes %d", st.name, rc.Fetches, rc.Bytes, fetches, src.Bytes)
		}
		h := mfs["seedcrawl_fetch_duration_seconds"]
		if h == nil || len(h.GetMetric()) != 1 {
			t.Fatalf("%s: no seedcrawl_fetch_duration_seconds histogram", st.name)
		}
		hist := h.GetMetric()[0].GetHistogram()
		if float64(hist.GetSampleCount()) != fetches {
			t.Errorf("%s: histogram count %d, fetches %v", st.name, hist.GetSampleCount(), fetches)
		}
		if math.Abs(hist.GetSampleSum()-durSum) > 1e-9 {
			t.Errorf("%s: histogram sum %v s, want %v s", st.name, hist.GetSampleSum(), durSum)
		}
	}
	// The last step's codes, spelled out.
	codes := byLabel(scrape(t, s), "seedcrawl_fetches_total", "code")
	if want := map[string]float64{"200": 51, "404": 1, "301": 1, "0": 1}; !maps.Equal(codes, want) {
		t.Errorf("seedcrawl_fetches_total by code = %v, want %v", codes, want)
	}
}

// TestMetricsGauges checks the gauges polled from the Source at scrape
// time, and that the process and Go collectors are there.
func TestMetricsGauges(t *testing.T) {
	future := time.Now().Add(time.Hour)
	tests := []struct {
		name   string
		st     Status
		want   map[string]map[string]float64 // family -> label value -> value
		absent []string
	}{
		{
			name: "states derived from hosts, no budget",
			st: Status{Cycle: 3, Frontier: 17, InFlight: 2, Hosts: []Host{
				{Name: "a.test", Queue: 5, InFlight: 1},
				{Name: "b.test", Queue: 3},
				{Name: "c.test", Queue: 9, ReadyAt: future},
				{Name: "d.test", Queue: 0},
				{Name: "e.test", Queue: 1, ReadyAt: future, Reason: "robots-5xx"},
				{Name: "f.test", Queue: 0, State: StateDropped, Reason: "unreachable"},
			}},
			want: map[string]map[string]float64{
				"seedcrawl_cycle":         {"": 3},
				"seedcrawl_frontier_urls": {"": 17},
				"seedcrawl_inflight":      {"": 2},
				"seedcrawl_hosts":         {"busy": 1, "ready": 1, "waiting": 1, "idle": 1, "deferred": 1, "dropped": 1},
			},
			absent: []string{"seedcrawl_budget_remaining_pages"},
		},
		{
			name: "host counts given by the source, budget",
			st: Status{Cycle: 1, Budget: 100, BudgetLeft: 40, HostStates: map[string]int{"ready": 7, "waiting": 1000},
				Hosts: []Host{{Name: "only-the-top.test", Queue: 1}}},
			want: map[string]map[string]float64{
				"seedcrawl_hosts":                  {"ready": 7, "waiting": 1000},
				"seedcrawl_budget_remaining_pages": {"": 40},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, Options{Source: SourceFunc(func() Status {
				st := tc.st
				st.Hosts = append([]Host(nil), tc.st.Hosts...)
				return st
			})})
			mfs := scrape(t, s)
			for fam, want := range tc.want {
				label := ""
				if fam == "seedcrawl_hosts" {
					label = "state"
				}
				if got := byLabel(mfs, fam, label); !maps.Equal(got, want) {
					t.Errorf("%s = %v, want %v", fam, got, want)
				}
			}
			for _, fam := range tc.absent {
				if mfs[fam] != nil {
					t.Errorf("%s present, want absent", fam)
				}
			}
			for _, fam := range []string{"go_goroutines", "process_cpu_seconds_total", "process_resident_memory_bytes"} {
				if mfs[fam] == nil {
					t.Errorf("%s missing: process/Go collectors not registered", fam)
				}
			}
			// No Recorder: no crawl counters, and the scrape still works.
			if mfs["seedcrawl_fetches_total"] != nil {
				t.Errorf("seedcrawl_fetches_total present without a Recorder")
			}
		})
	}
}

// TestStatusJSON checks /status: snake_case keys, server-owned fields,
// hosts longest queue first, derived states, ?hosts=N.
func TestStatusJSON(t *testing.T) {
	c := newFakeCrawl()
	c.set(func(st *Status) {
		st.DB = "crawl.db"
		st.Frontier, st.InFlight, st.Budget, st.BudgetLeft = 11, 1, 50, 12
		st.Hosts = []Host{
			{Name: "small.test", Queue: 1},
			{Name: "big.test", Queue: 8, InFlight: 1},
			{Name: "mid-b.test", Queue: 2, ReadyAt: time.Now().Add(time.Minute), Reason: "retry-after"},
			{Name: "mid-a.test", Queue: 2},
		}
	})
	c.fetch(200, 5, time.Millisecond, "fetched")
	c.reject("bad-scheme")
	w := NewWarnings(4)
	w.Add(time.Now(), "WARN", "robots.txt of x.test answered 503")
	s := start(t, Options{Source: c, Recorder: c.rec, Warnings: w})

	resp, body := get(t, s, "/status")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("/status: %s %q\n%s", resp.Status, resp.Header.Get("Content-Type"), body)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"command", "pid", "db", "now", "cycle", "frontier", "in_flight", "budget", "budget_left",
		"fetches", "pages", "bytes", "counters", "recorded", "host_states", "hosts_total", "hosts", "warnings"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("/status has no key %q", k)
		}
	}
	host := raw["hosts"].([]any)[0].(map[string]any)
	for _, k := range []string{"host", "queue", "in_flight", "state"} {
		if _, ok := host[k]; !ok {
			t.Errorf("/status host has no key %q: %v", k, host)
		}
	}

	var st Status
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	if st.PID != os.Getpid() {
		t.Errorf("pid %d, want %d", st.PID, os.Getpid())
	}
	var order []string
	for _, h := range st.Hosts {
		order = append(order, h.Name+":"+h.State)
	}
	want := "big.test:busy mid-a.test:ready mid-b.test:deferred small.test:ready"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("hosts = %s, want %s", got, want)
	}
	if st.HostsTotal != 4 || st.HostStates["ready"] != 2 || st.BudgetLeft != 12 || st.Frontier != 11 {
		t.Errorf("hosts_total %d, host_states %v, budget_left %d, frontier %d", st.HostsTotal, st.HostStates, st.BudgetLeft, st.Frontier)
	}
	if st.Recorded.Fetches != 1 || st.Recorded.Rejects["bad-scheme"] != 1 || st.Counters["fetch/fetched"] != 1 {
		t.Errorf("recorded %+v, counters %v", st.Recorded, st.Counters)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0].Message, "503") {
		t.Errorf("warnings = %v", st.Warnings)
	}

	tests := []struct {
		query string
		code  int
		hosts int
	}{
		{"?hosts=2", http.StatusOK, 2},
		{"?hosts=0", http.StatusOK, 0},
		{"?hosts=-1", http.StatusOK, 4},
		{"?hosts=many", http.StatusBadRequest, 0},
		{"?hosts=-5", http.StatusBadRequest, 0},
	}
	for _, tc := range tests {
		resp, body := get(t, s, "/status"+tc.query)
		if resp.StatusCode != tc.code {
			t.Errorf("%s: %s, want %d", tc.query, resp.Status, tc.code)
			continue
		}
		if tc.code != http.StatusOK {
			continue
		}
		var st Status
		if err := json.Unmarshal([]byte(body), &st); err != nil {
			t.Fatal(err)
		}
		if len(st.Hosts) != tc.hosts || st.HostsTotal != 4 {
			t.Errorf("%s: %d hosts of %d, want %d of 4", tc.query, len(st.Hosts), st.HostsTotal, tc.hosts)
		}
	}
}

// TestPage checks the HTML page: it reloads itself, lists hosts by queue
// length, escapes what hostile servers control, shows warnings.
func TestPage(t *testing.T) {
	c := newFakeCrawl()
	c.set(func(st *Status) {
		st.Hosts = []Host{
			{Name: "short.test", Queue: 1},
			{Name: "<script>alert(1)</script>.test", Queue: 5},
			{Name: "long.test", Queue: 40},
		}
	})
	c.fetch(200, 1, time.Millisecond, "fetched")
	c.fetch(404, 1, time.Millisecond, "http-error")
	c.fetch(200, 1, time.Millisecond, "fetched")
	w := NewWarnings(8)
	w.Add(time.Now(), "WARN", "older warning")
	w.Add(time.Now(), "WARN", `host said <b onmouseover="x">`)
	s := start(t, Options{Source: c, Recorder: c.rec, Warnings: w, Refresh: 3 * time.Second})
	resp, body := get(t, s, "/")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/: %s %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{`<meta http-equiv="refresh" content="3">`, "Hosts by queue length", "by HTTP code", "200: 2 · 404: 1",
		"&lt;script&gt;alert(1)&lt;/script&gt;.test", "&lt;b onmouseover=", "Recent warnings"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script>", "<b onmouseover"} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains unescaped %q", bad)
		}
	}
	inOrder(t, body, "long.test", "&lt;script&gt;", "short.test")
	inOrder(t, body, "host said", "older warning") // newest first
	if resp, _ := get(t, s, "/nothing-here"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/nothing-here: %s, want 404", resp.Status)
	}
}

// inOrder fails unless the strings occur in body in this order.
func inOrder(t *testing.T, body string, ss ...string) {
	t.Helper()
	at := -1
	for _, s := range ss {
		i := strings.Index(body, s)
		if i < 0 {
			t.Errorf("%q missing", s)
			return
		}
		if i < at {
			t.Errorf("%q comes before %q", s, ss[0])
		}
		at = i
	}
}

func TestPprof(t *testing.T) {
	s := start(t, Options{})
	for _, tc := range []struct{ path, want string }{
		{"/debug/pprof/", "goroutine"},
		{"/debug/pprof/goroutine?debug=1", "goroutine profile:"},
		{"/debug/pprof/cmdline", ""},
	} {
		resp, body := get(t, s, tc.path)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %s, body lacks %q", tc.path, resp.Status, tc.want)
		}
	}
}

// TestStopsWhenContextEnds checks that Start returns with the port bound
// and the server lets go of it once ctx ends.
func TestStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := Start(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := get(t, s, "/status"); resp.StatusCode != http.StatusOK {
		t.Fatalf("/status: %s", resp.Status)
	}
	// The port is taken while it runs.
	if _, err := Start(context.Background(), s.Addr(), Options{}); err == nil {
		t.Fatalf("second Start on %s succeeded", s.Addr())
	}
	select {
	case <-s.Done():
		t.Fatal("stopped before ctx ended")
	default:
	}
	cancel()
	<-s.Done()
	if err := s.Err(); err != nil {
		t.Fatalf("Err after shutdown = %v", err)
	}
	if conn, err := net.Dial("tcp", s.Addr()); err == nil {
		conn.Close()
		t.Fatalf("%s still accepts connections after shutdown", s.Addr())
	}
}

func TestStartBadAddress(t *testing.T) {
	for _, addr := range []string{"not-an-address", "127.0.0.1:99999"} {
		_, err := Start(t.Context(), addr, Options{})
		if err == nil || !strings.Contains(err.Error(), "monitor: listen on "+addr) {
			t.Errorf("Start(%q) = %v, want a listen error naming it", addr, err)
		}
		if errors.Is(err, ErrBadStatus) {
			t.Errorf("Start(%q): %v is ErrBadStatus", addr, err)
		}
	}
}

// TestDialAddr checks the address recorded and the URL printed for a
// listener: a wildcard the system reports (often "[::]" for a request of
// "0.0.0.0") becomes a loopback address a browser can open, with a note
// that every interface listens; other addresses stay.
// The wildcard cases are the listener's reported address, not a bind: the
// tests listen on 127.0.0.1 only.
func TestDialAddr(t *testing.T) {
	for _, tc := range []struct {
		name, requested, bound string
		dial, url              string
	}{
		{"IPv4 wildcard reported as IPv6", "0.0.0.0:0", "[::]:4242", "127.0.0.1:4242",
			"http://127.0.0.1:4242/ (listening on all interfaces, port 4242)"},
		{"IPv4 wildcard on an IPv4-only system", "0.0.0.0:0", "0.0.0.0:4242", "127.0.0.1:4242",
			"http://127.0.0.1:4242/ (listening on all interfaces, port 4242)"},
		{"no host", ":0", "[::]:4242", "127.0.0.1:4242", "http://127.0.0.1:4242/ (listening on all interfaces, port 4242)"},
		{"IPv6 wildcard", "[::]:0", "[::]:4242", "[::1]:4242", "http://[::1]:4242/ (listening on all interfaces, port 4242)"},
		{"loopback", "127.0.0.1:0", "127.0.0.1:4242", "127.0.0.1:4242", "http://127.0.0.1:4242/"},
		{"a name", "localhost:0", "127.0.0.1:4242", "127.0.0.1:4242", "http://127.0.0.1:4242/"},
		{"one interface", "192.0.2.7:80", "192.0.2.7:80", "192.0.2.7:80", "http://192.0.2.7:80/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dial := dialAddr(tc.requested, tc.bound)
			if url := pageURL(dial, dial != tc.bound); dial != tc.dial || url != tc.url {
				t.Errorf("listening at %q for %q: dial %q, URL %q; want %q, %q", tc.bound, tc.requested, dial, url, tc.dial, tc.url)
			}
		})
	}
	s, err := Start(t.Context(), "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "http://" + s.Addr() + "/"; s.DialAddr() != s.Addr() || s.URL() != want {
		t.Errorf("on loopback: DialAddr %q, URL %q; want %q, %q", s.DialAddr(), s.URL(), s.Addr(), want)
	}
}
