package storage

import "time"

// Cadence decides when a crawl commits its batch: once the batch holds
// Pages results (Full), once Interval has passed since the last commit, and
// once Starve has passed when the crawl starved, its workers all waiting on
// an empty frontier (Due). Each commit costs fsyncs, so a crawl bound by
// politeness, which starves after nearly every page, commits at most once
// per Starve rather than after every page. Journal calls Committed
// after each commit; a Cadence is used by one goroutine.
type Cadence struct {
	Pages    int
	Interval time.Duration
	Starve   time.Duration
	last     time.Time
}

// Committed notes a commit (or the start of the batch) at now.
func (c *Cadence) Committed(now time.Time) { c.last = now }

// Full reports that a batch of pages results is to be committed now.
func (c *Cadence) Full(pages int) bool { return pages >= c.Pages }

// Due reports that the batch is to be committed at now: the interval has
// passed, or the crawl starved and the shorter Starve gap has passed.
func (c *Cadence) Due(now time.Time, starved bool) bool {
	since := now.Sub(c.last)
	return since >= c.Interval || starved && since >= c.Starve
}

// Tick is how often to look again while nothing is due: a quarter of the
// interval, at most Starve. Wait uses it to poll for starvation once the
// Starve gap has passed; the crawl loop uses it to clear its dirty mark
// when nothing is left to commit.
func (c *Cadence) Tick() time.Duration { return min(c.Interval/4, c.Starve) }

// Wait is how long after now a batch that is not Full can first be Due:
// until the interval ends, or, with a Starve gap shorter than the
// interval, until the gap ends and then every Tick (a crawl may starve at
// any time without a word to the committer). So a crawl waiting on
// politeness, with the default equal gaps, wakes once per commit rather
// than every Tick. Never less than a millisecond.
func (c *Cadence) Wait(now time.Time) time.Duration {
	next := c.last.Add(c.Interval)
	if c.Starve < c.Interval {
		gap := c.last.Add(c.Starve)
		if !now.Before(gap) {
			gap = now.Add(c.Tick())
		}
		if gap.Before(next) {
			next = gap
		}
	}
	return max(next.Sub(now), time.Millisecond)
}
