package storage

import "time"

// Cadence decides when a crawl commits its batch: once the batch holds
// Pages records (Full); once Interval has passed since the last commit,
// if the batch holds at least Few results (jobs whose outcome it holds,
// told by Result), and once Linger has passed whatever it holds; and once
// Starve has passed when the crawl starved, its workers all waiting on an
// empty frontier (Due).
//
// Each commit costs a transaction and two fsyncs. A crawl bound by
// politeness gets a result or two a second; committing each second would
// spend more of its CPU on commits than on pages. Few and Linger let such
// a trickle gather up to Few results, for at most Linger, so what a kill -9
// can cost stays small in requests (fewer than Few results past Interval)
// and in time (Linger). Few 0 commits at Interval whatever the batch holds.
// Starve 0 has no starvation rule; a cluster node sets it, as its hand-offs
// to other nodes go out with its commits.
//
// Journal calls Committed after each commit; a Cadence is used by one
// goroutine.
type Cadence struct {
	Pages    int
	Interval time.Duration
	Few      int
	Linger   time.Duration
	Starve   time.Duration
	last     time.Time
	results  int // Result calls since the last commit
}

// Committed notes a commit (or the start of the batch) at now.
func (c *Cadence) Committed(now time.Time) { c.last, c.results = now, 0 }

// Result notes one more job's outcome in the batch. It reports whether
// the batch's wait just got shorter (it now holds Few results): a
// committer asleep until the Linger wait is to look again.
func (c *Cadence) Result() (sooner bool) {
	c.results++
	return c.results == c.Few && c.Linger > c.Interval
}

// Full reports that a batch of pages results is to be committed now.
func (c *Cadence) Full(pages int) bool { return pages >= c.Pages }

// Due reports that the batch is to be committed at now: its wait
// (Interval, or Linger for fewer than Few results) has passed, or the
// crawl starved and the Starve gap has passed.
func (c *Cadence) Due(now time.Time, starved bool) bool {
	since := now.Sub(c.last)
	return since >= c.wait() || c.Starve > 0 && starved && since >= c.Starve
}

// wait is how long after the last commit the batch is due.
func (c *Cadence) wait() time.Duration {
	if c.results < c.Few && c.Linger > c.Interval {
		return c.Linger
	}
	return c.Interval
}

// Tick is how often to look again while nothing is due: a quarter of the
// interval, at most Starve. Wait uses it to poll for starvation once the
// Starve gap has passed; the crawl loop uses it to clear its dirty mark
// when nothing is left to commit.
func (c *Cadence) Tick() time.Duration {
	if c.Starve > 0 {
		return min(c.Interval/4, c.Starve)
	}
	return c.Interval / 4
}

// Wait is how long after now a batch that is not Full can first be Due:
// until its wait ends, or, with a Starve gap shorter than that, until the
// gap ends and then every Tick (a crawl may starve at any time without a
// word to the committer). A batch whose wait gets shorter meanwhile says
// so through Result. Never less than a millisecond.
func (c *Cadence) Wait(now time.Time) time.Duration {
	next := c.last.Add(c.wait())
	if c.Starve > 0 && c.last.Add(c.Starve).Before(next) {
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
