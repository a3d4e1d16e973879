package crawler

import (
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
)

// Progress returns a snapshot of the crawl; safe to call from any goroutine
// while Run is going on.
func (c *Crawler) Progress() monitor.Progress {
	return c.totals.Progress(int(c.fetching.Load()), c.opts.Frontier.Stats())
}

// summary is the run's Summary, stopped for the reason stop.
func (c *Crawler) summary(stop string) monitor.Summary {
	// Jobs still handed out when the run stopped were abandoned (a stop
	// during their fetch): they stay in the stored frontier, and the next
	// run fetches them, so they are pending too.
	st := c.opts.Frontier.Stats()
	return c.totals.Summary(c.journal.Run().ID, stop, c.start, time.Now(), st.Pending+st.InFlight)
}
