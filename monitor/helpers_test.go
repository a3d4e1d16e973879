package monitor

import (
	"context"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/seedcrawl/seedcrawl/internal/testhttp"
)

// fakeCrawl stands in for the crawler at the monitor's seam: it counts
// each event itself, as the crawler does in its own counters, and reports
// it to the Recorder, so tests can compare /metrics with the Source.
type fakeCrawl struct {
	rec *Recorder

	mu       sync.Mutex
	st       Status // everything but Counters
	counters map[string]uint64
}

func newFakeCrawl() *fakeCrawl {
	return &fakeCrawl{rec: NewRecorder(), counters: map[string]uint64{},
		st: Status{Command: "crawl", Cycle: 1, Start: time.Now()}}
}

func (c *fakeCrawl) fetch(code int, bytes int64, dur time.Duration, status string) {
	c.rec.ObserveFetch(code, bytes, dur)
	c.rec.Page(status)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.Fetches++
	c.st.Pages++
	c.st.Bytes += uint64(bytes)
	c.counters["fetch/"+status]++
}

func (c *fakeCrawl) reject(reason string) {
	c.rec.Reject(reason)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counters["reject/"+reason]++
}

func (c *fakeCrawl) fail(reason string) {
	c.rec.ObserveFetch(0, 0, time.Millisecond)
	c.rec.Error(reason)
	c.rec.Page("fetch-error")
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.Fetches++
	c.st.Pages++
	c.counters["error/"+reason]++
	c.counters["fetch/fetch-error"]++
}

func (c *fakeCrawl) set(fn func(st *Status)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fn(&c.st)
}

// Status returns a copy, as a real Source must.
func (c *fakeCrawl) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.st
	st.Hosts = append([]Host(nil), c.st.Hosts...)
	st.Counters = maps.Clone(c.counters)
	return st
}

// start runs a monitor on a loopback port for the test's lifetime.
func start(t *testing.T, opts Options) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, "127.0.0.1:0", opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := s.Err(); err != nil {
			t.Errorf("server stopped with %v", err)
		}
	})
	return s
}

// get fetches path from the server and returns the response and body.
func get(t *testing.T, s *Server, path string) (*http.Response, string) {
	t.Helper()
	resp, b := testhttp.Get(t, nil, "http://"+s.Addr()+path)
	return resp, string(b)
}

// scrape fetches /metrics in the text format and parses it with the
// Prometheus text parser.
func scrape(t *testing.T, s *Server) map[string]*dto.MetricFamily {
	t.Helper()
	resp, body := get(t, s, "/metrics")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s\n%s", resp.Status, body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	return mfs
}

// byLabel returns a family's values keyed by the value of label ("" for a
// family without labels).
func byLabel(mfs map[string]*dto.MetricFamily, name, label string) map[string]float64 {
	out := map[string]float64{}
	mf := mfs[name]
	if mf == nil {
		return out
	}
	for _, m := range mf.GetMetric() {
		key := ""
		for _, lp := range m.GetLabel() {
			if lp.GetName() == label {
				key = lp.GetValue()
			}
		}
		switch {
		case m.Counter != nil:
			out[key] = m.GetCounter().GetValue()
		case m.Gauge != nil:
			out[key] = m.GetGauge().GetValue()
		case m.Untyped != nil:
			out[key] = m.GetUntyped().GetValue()
		}
	}
	return out
}

// group returns the counters of one "group/name" group keyed by name, as
// float64 for comparison with scraped values.
func group(c map[string]uint64, g string) map[string]float64 {
	out := map[string]float64{}
	for k, v := range c {
		if name, ok := strings.CutPrefix(k, g+"/"); ok {
			out[name] = float64(v)
		}
	}
	return out
}
