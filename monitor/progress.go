package monitor

import "time"

// Progress is a snapshot of a running crawl, for progress lines.
type Progress struct {
	Elapsed    time.Duration
	Fetches    uint64
	Pages      uint64
	Discovered uint64
	Bytes      uint64
	Errors     uint64
	// InFlight counts the requests on the wire now (the frontier's
	// InFlight counts jobs handed out, which it shadows).
	InFlight int
	// FrontierStats are the frontier's: Pending URLs, Hosts, and hosts
	// Ready, Waiting, Deferred, Failing and Dropped.
	FrontierStats
}

// FrontierStats is a point-in-time summary of a crawl frontier for
// progress reports (frontier.Stats is this type, as the frontier reports
// its hosts in the monitor's terms).
type FrontierStats struct {
	Pending  int // URLs queued, not in flight
	InFlight int // jobs handed out and not yet completed or requeued
	Hosts    int // hosts ever seen (interned)
	Ready    int // hosts with a URL that may be handed out now
	Waiting  int // hosts with URLs whose ready time has not come
	// Deferred counts hosts held back for a reason (robots.txt
	// unreachable, Retry-After, a dropped host's deferral) whose ready
	// time has not come, with or without queued URLs.
	Deferred int
	// Failing counts hosts whose last request failed transiently
	// (timeout, connection refused, 5xx, 429): they are backing off.
	Failing int
	// Dropped counts hosts given up: their Crawl-delay or Retry-After is
	// too long.
	Dropped int
}

// Begin notes when the crawl started, for Progress's Elapsed.
func (t *Tally) Begin(start time.Time) { t.startNs.Store(start.UnixNano()) }

// Progress is a snapshot of the tally's totals, with inFlight requests on
// the wire now and the frontier's st; Elapsed is zero before Begin.
func (t *Tally) Progress(inFlight int, st FrontierStats) Progress {
	var el time.Duration
	if ns := t.startNs.Load(); ns != 0 {
		el = time.Since(time.Unix(0, ns))
	}
	return Progress{Elapsed: el, Fetches: t.Fetches.Load(), Pages: t.Pages.Load(), Discovered: t.Discovered.Load(),
		Bytes: t.Bytes.Load(), Errors: t.Errors(), InFlight: inFlight, FrontierStats: st}
}
