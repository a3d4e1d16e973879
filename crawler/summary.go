package crawler

import (
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/monitor"
)

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
	// Stats are the frontier's: Pending URLs, Hosts, and hosts Ready,
	// Waiting, Deferred, Failing and Dropped.
	frontier.Stats
}

// Progress returns a snapshot of the crawl; safe to call from any goroutine
// while Run is going on.
func (c *Crawler) Progress() Progress {
	var el time.Duration
	if ns := c.startNs.Load(); ns != 0 {
		el = time.Since(time.Unix(0, ns))
	}
	t := &c.totals
	return Progress{Elapsed: el, Fetches: t.Fetches.Load(), Pages: t.Pages.Load(), Discovered: t.Discovered.Load(),
		Bytes: t.Bytes.Load(), Errors: t.Errors(), InFlight: int(c.fetching.Load()), Stats: c.opts.Frontier.Stats()}
}

// summary is the run's Summary, stopped for the reason stop.
func (c *Crawler) summary(stop string) monitor.Summary {
	// Jobs still handed out when the run stopped were abandoned (a stop
	// during their fetch): they stay in the stored frontier, and the next
	// run fetches them, so they are pending too.
	st := c.opts.Frontier.Stats()
	return c.totals.Summary(c.run.ID, stop, c.start, time.Now(), st.Pending+st.InFlight)
}
