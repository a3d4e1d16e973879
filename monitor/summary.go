package monitor

import (
	"strings"
	"time"
)

// Summary describes a finished run. Its JSON form is what
// `seedcrawl crawl --json` prints.
type Summary struct {
	Run     uint64    `json:"run"`
	Stopped string    `json:"stopped"` // why it stopped (StopExhausted, ...)
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

// NewSummary is the summary of run, stopped for the reason stopped,
// from its totals and its counters ("group/name" keys, as the crawl
// stores them): the breakdown groups them, Seconds and PagesPerSec follow
// from start and end.
func NewSummary(run uint64, stopped string, start, end time.Time, t Totals, counters map[string]uint64) Summary {
	s := Summary{
		Run: run, Stopped: stopped, Start: start, End: end, Seconds: end.Sub(start).Seconds(), Totals: t,
		Breakdown: Breakdown{ByStatus: map[string]uint64{}, Skipped: map[string]uint64{}, Rejected: map[string]uint64{},
			Errors: map[string]uint64{}, Retries: map[string]uint64{}, Refresh: map[string]uint64{}, Seeds: map[string]uint64{},
			Sitemaps: map[string]uint64{}},
	}
	if s.Seconds > 0 {
		s.PagesPerSec = float64(s.Pages) / s.Seconds
	}
	s.Truncated = counters["truncated"]
	groups := map[string]map[string]uint64{"fetch": s.ByStatus, "skip": s.Skipped, "reject": s.Rejected,
		"error": s.Errors, "retry": s.Retries, "refresh": s.Refresh, "seeds": s.Seeds, "sitemap": s.Sitemaps}
	for k, v := range counters {
		if group, name, ok := strings.Cut(k, "/"); ok && groups[group] != nil {
			groups[group][name] += v
		}
	}
	return s
}
