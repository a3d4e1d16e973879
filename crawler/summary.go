package crawler

import (
	"strings"
	"time"
)

// Summary describes a finished run. Its JSON form is what
// `seedcrawl crawl --json` prints.
type Summary struct {
	Run     uint64    `json:"run"`
	Stopped string    `json:"stopped"` // a Stop constant
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Seconds float64   `json:"seconds"`

	Totals
	Breakdown
}

// Totals are a run's totals (JSON: flattened into Summary).
type Totals struct {
	Fetches     uint64  `json:"fetches"`       // page requests, retries included
	Pages       uint64  `json:"pages"`         // URLs whose outcome was recorded
	PagesPerSec float64 `json:"pages_per_sec"` // Pages / Seconds
	Discovered  uint64  `json:"discovered"`    // new URLs queued
	Bytes       uint64  `json:"bytes"`         // body bytes read
	Truncated   uint64  `json:"truncated"`     // bodies cut at the size limit
	Commits     uint64  `json:"commits"`       // transactions written
	Pending     int     `json:"pending"`       // URLs left in the frontier
}

// Breakdown counts a run's outcomes by reason (JSON: flattened into
// Summary).
type Breakdown struct {
	ByStatus map[string]uint64 `json:"by_status"` // fetch outcomes: fetched, redirect, http-error ...
	Skipped  map[string]uint64 `json:"skipped"`   // URLs not fetched or not queued, by reason
	Rejected map[string]uint64 `json:"rejected"`  // links refused by the URL checks and trap guards, by reason
	Errors   map[string]uint64 `json:"errors"`    // failed fetches by reason (or http-CODE)
	Retries  map[string]uint64 `json:"retries"`   // retried fetches by reason
	// Refresh counts, in a recrawl (seedcrawl run), known pages refetched
	// ("fetched") and traversed from storage without a request ("not-due",
	// "over-share", "seen"), and the known pages queued at the cycle's start
	// ("queued").
	Refresh map[string]uint64 `json:"refresh,omitempty"`
	// Seeds counts, in a recrawl, seeds injected and vanished seeds by
	// reason ("vanished/404", "injected", "reseeds" ...).
	Seeds map[string]uint64 `json:"seeds_events,omitempty"`
	// Sitemaps counts sitemap files queued ("queued") and read ("files"),
	// the URLs they listed ("urls"), files cut short by a bound
	// ("cut/urls", "cut/gzip-ratio", ...), child sitemaps not followed
	// ("skip/depth", "skip/sitemaps") and files that were no sitemap
	// ("invalid").
	Sitemaps map[string]uint64 `json:"sitemaps,omitempty"`
}

// Progress is a snapshot of a running crawl, for progress lines.
type Progress struct {
	Elapsed    time.Duration
	Fetches    uint64
	Pages      uint64
	Discovered uint64
	Bytes      uint64
	Errors     uint64
	Pending    int // queued URLs
	InFlight   int
	Hosts      int
	Ready      int // hosts ready now
	Waiting    int // hosts with URLs whose politeness delay runs
	Deferred   int // hosts held back for a reason (robots.txt unreachable, Retry-After)
	Failing    int // hosts whose last request failed transiently (backing off)
	Dropped    int // hosts given up for their Crawl-delay
}

// Progress returns a snapshot of the crawl; safe to call from any goroutine
// while Run is going on.
func (c *Crawler) Progress() Progress {
	fs := c.opts.Frontier.Stats()
	var errs uint64
	c.countMu.Lock()
	for k, v := range c.counts {
		if strings.HasPrefix(k, "error/") {
			errs += v
		}
	}
	c.countMu.Unlock()
	var el time.Duration
	if ns := c.startNs.Load(); ns != 0 {
		el = time.Since(time.Unix(0, ns))
	}
	return Progress{
		Elapsed: el, Fetches: c.fetches.Load(), Pages: c.done.Load(), Discovered: c.discovered.Load(),
		Bytes: c.bytes.Load(), Errors: errs, Pending: fs.Pending, InFlight: int(c.fetching.Load()), Hosts: fs.Hosts, Ready: fs.Ready,
		Waiting: fs.Waiting, Deferred: fs.Deferred, Failing: fs.Failing, Dropped: fs.Dropped,
	}
}

func (c *Crawler) summary(stop string) Summary {
	end := time.Now()
	s := Summary{
		Run: c.run.ID, Stopped: stop, Start: c.start, End: end, Seconds: end.Sub(c.start).Seconds(),
		Totals: Totals{Fetches: c.fetches.Load(), Pages: c.done.Load(), Discovered: c.discovered.Load(), Bytes: c.bytes.Load(),
			Commits: c.commits.Load(), Pending: c.opts.Frontier.Stats().Pending},
		Breakdown: Breakdown{ByStatus: map[string]uint64{}, Skipped: map[string]uint64{}, Rejected: map[string]uint64{},
			Errors: map[string]uint64{}, Retries: map[string]uint64{}, Refresh: map[string]uint64{}, Seeds: map[string]uint64{},
			Sitemaps: map[string]uint64{}},
	}
	if s.Seconds > 0 {
		s.PagesPerSec = float64(s.Pages) / s.Seconds
	}
	c.countMu.Lock()
	defer c.countMu.Unlock()
	s.Truncated = c.counts["truncated"]
	for k, v := range c.counts {
		group, name, ok := strings.Cut(k, "/")
		if !ok {
			continue
		}
		switch group {
		case "fetch":
			s.ByStatus[name] += v
		case "skip":
			s.Skipped[name] += v
		case "reject":
			s.Rejected[name] += v
		case "error":
			s.Errors[name] += v
		case "retry":
			s.Retries[name] += v
		case "refresh":
			s.Refresh[name] += v
		case "seeds":
			s.Seeds[name] += v
		case "sitemap":
			s.Sitemaps[name] += v
		}
	}
	return s
}
