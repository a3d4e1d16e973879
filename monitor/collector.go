package monitor

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric descriptions. Descs are immutable, so sharing them is not shared
// mutable state.
var (
	descFetches = prometheus.NewDesc("seedcrawl_fetches_total",
		"Requests made, by HTTP status code (0: no response).", []string{"code"}, nil)
	descBytes = prometheus.NewDesc("seedcrawl_fetch_bytes_total",
		"Body bytes read.", nil, nil)
	descPages = prometheus.NewDesc("seedcrawl_pages_total",
		"URL outcomes recorded, by status.", []string{"status"}, nil)
	descRejects = prometheus.NewDesc("seedcrawl_rejections_total",
		"Links refused by the URL checks and trap guards, by reason.", []string{"reason"}, nil)
	descErrors = prometheus.NewDesc("seedcrawl_errors_total",
		"Failed fetches, by reason.", []string{"reason"}, nil)

	descFrontier = prometheus.NewDesc("seedcrawl_frontier_urls",
		"URLs queued in the frontier, not counting those in flight.", nil, nil)
	descHosts = prometheus.NewDesc("seedcrawl_hosts",
		"Hosts the crawl knows, by politeness state.", []string{"state"}, nil)
	descCycle = prometheus.NewDesc("seedcrawl_cycle",
		"Current recrawl cycle (1 for a single crawl).", nil, nil)
	descInFlight = prometheus.NewDesc("seedcrawl_inflight",
		"Requests handed out and not yet finished.", nil, nil)
	descBudget = prometheus.NewDesc("seedcrawl_budget_remaining_pages",
		"Pages the crawl may still fetch; absent when it has no page budget.", nil, nil)
)

// recorderCollector exports a Recorder's counts at scrape time, so that
// counting costs the crawler an atomic add and no Prometheus machinery.
type recorderCollector struct{ r *Recorder }

func (c recorderCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descFetches
	ch <- descBytes
	ch <- descPages
	ch <- descRejects
	ch <- descErrors
	c.r.dur.Describe(ch)
}

func (c recorderCollector) Collect(ch chan<- prometheus.Metric) {
	r := c.r
	r.eachCode(func(code string, n uint64) {
		ch <- prometheus.MustNewConstMetric(descFetches, prometheus.CounterValue, float64(n), code)
	})
	ch <- prometheus.MustNewConstMetric(descBytes, prometheus.CounterValue, float64(r.bytes.Load()))
	for _, f := range []struct {
		d *prometheus.Desc
		l *labelCounts
	}{{descPages, &r.pages}, {descRejects, &r.rejects}, {descErrors, &r.errors}} {
		f.l.each(func(label string, n uint64) {
			ch <- prometheus.MustNewConstMetric(f.d, prometheus.CounterValue, float64(n), label)
		})
	}
	r.dur.Collect(ch)
}

// sourceCollector polls a Source at scrape time for the gauges.
type sourceCollector struct{ src Source }

func (c sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descFrontier
	ch <- descHosts
	ch <- descCycle
	ch <- descInFlight
	ch <- descBudget
}

func (c sourceCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.src.Status()
	st.fillStates(time.Now())
	ch <- prometheus.MustNewConstMetric(descFrontier, prometheus.GaugeValue, float64(st.Frontier))
	ch <- prometheus.MustNewConstMetric(descCycle, prometheus.GaugeValue, float64(st.Cycle))
	ch <- prometheus.MustNewConstMetric(descInFlight, prometheus.GaugeValue, float64(st.InFlight))
	for state, n := range st.HostStates {
		ch <- prometheus.MustNewConstMetric(descHosts, prometheus.GaugeValue, float64(n), labelValue(state))
	}
	if st.Budget > 0 {
		ch <- prometheus.MustNewConstMetric(descBudget, prometheus.GaugeValue, float64(st.BudgetLeft))
	}
}
