package crawler

import (
	"fmt"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/scope"
	"github.com/seedcrawl/seedcrawl/storage"
)

// When a crawl commits (storage.Cadence). A crawl commits every
// --commit-interval, but a batch of fewer than trickleCommit results
// lingers for up to lingerCommit intervals: a crawl bound by politeness
// (a page a second per host) commits every few pages instead of after each
// one, and a kill -9 costs it fewer than trickleCommit refetches past the
// interval. A cluster node commits every interval whatever the batch holds,
// and within clusterStarveCommit once it starves: the URLs it hands to
// other nodes go out with its commits, and a starved node may be waiting
// for theirs.
const (
	trickleCommit       = 8
	lingerCommit        = 10
	clusterStarveCommit = 100 * time.Millisecond
)

// dispose is the disposer goroutine: it applies every message in arrival
// order and commits batches. It returns the first fatal error; after one it
// keeps draining c.in so workers never block.
func (c *Crawler) dispose() error {
	// The commit timer runs only while there is something to commit or a
	// dirty mark to clear, and then fires when the batch can first be due,
	// so a crawl waiting on politeness wakes once per commit and an idle
	// one not at all.
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	armed := false
	var fatal error
	defer func() { c.mail.Close(fatal) }()
	fail := func(err error) {
		if fatal == nil {
			fatal = err
			c.life.Abort() // no new jobs, work in flight abandoned
		}
	}
	for {
		if !armed && fatal == nil {
			switch {
			case !c.journal.Batch.Empty():
				timer.Reset(c.journal.Cadence.Wait(time.Now()))
				armed = true
			case c.dirty.Load():
				timer.Reset(c.journal.Cadence.Tick())
				armed = true
			}
		}
		select {
		case <-c.mail.Posted():
			// Dirty before the mailbox empties, so Idle never sees
			// neither.
			c.dirty.Store(true)
			for _, fn := range c.mail.Take() {
				if fatal != nil {
					break
				}
				if err := fn(); err != nil {
					fail(err)
				}
			}
		case o, ok := <-c.in:
			if !ok {
				if fatal == nil {
					fatal = c.commit()
				}
				return fatal
			}
			c.dirty.Store(true)
			if fatal != nil {
				continue
			}
			// Held: the outcome may queue URLs after its Done (a site's
			// sitemaps), which may leave the frontier dry meanwhile.
			c.opts.Frontier.Hold()
			err := o.dispose(c)
			c.opts.Frontier.Release()
			if err != nil {
				fail(err)
				continue
			}
			sooner := c.journal.Cadence.Result()
			if c.journal.Cadence.Full(c.journal.Batch.Pages()) || c.journal.Cadence.Due(time.Now(), len(c.in) == 0 && c.starved()) {
				if err := c.commit(); err != nil {
					fail(err)
				}
			} else if sooner && armed {
				// The timer was set for a trickle's longer wait.
				timer.Stop()
				armed = false
			}
		case <-timer.C:
			armed = false
			if fatal == nil && c.journal.Batch.Empty() && c.quiet() {
				c.dirty.Store(false)
			}
			if fatal != nil || c.journal.Batch.Empty() {
				continue
			}
			if c.journal.Cadence.Due(time.Now(), c.starved()) {
				if err := c.commit(); err != nil {
					fail(err)
				}
			}
		}
	}
}

// starved reports whether every live worker is waiting for the frontier.
func (c *Crawler) starved() bool {
	live := c.live.Load()
	return live > 0 && c.waiting.Load() >= live
}

// commit writes the batch (with the frontier changes it owns and the run
// record) in one transaction.
func (c *Crawler) commit() error {
	if c.cluster != nil {
		if err := c.cluster.Flush(c.life.Work()); err != nil {
			return fmt.Errorf("crawler: hand off URLs before commit: %w", err)
		}
	}
	c.changes.Flush(&c.journal.Batch)
	if c.cyc != nil {
		c.cyc.Committing(&c.journal.Batch)
	}
	if err := c.journal.Commit(c.opts.Store, c.totals.Stored(), time.Time{}); err != nil {
		return fmt.Errorf("crawler: commit %d results: %w", c.journal.Batch.Pages(), err)
	}
	c.totals.Commits.Add(1)
	if c.quiet() {
		c.dirty.Store(false)
	}
	return nil
}

// quiet reports that no message waits for the disposer.
func (c *Crawler) quiet() bool { return len(c.in) == 0 && c.mail.Empty() }

func (f *fatal) dispose(*Crawler) error { return f.err }

func (abandoned) dispose(c *Crawler) error {
	c.count("abandoned", 1)
	return nil
}

// dispose records a job that ends without a request, and the URLs of its
// host that the frontier dropped with it.
func (m *skipped) dispose(c *Crawler) error {
	if _, err := c.opts.Frontier.Done(m.job, frontier.Result{}, &c.changes); err != nil {
		return fmt.Errorf("crawler: done %d: %w", m.job.ID, err)
	}
	c.adm.Forget(m.job.ID)
	c.changes.Flush(&c.journal.Batch)
	ids := append([]uint64{m.job.ID}, m.job.Dropped...)
	for _, id := range ids {
		c.adm.Forget(id)
		c.journal.Batch.SetStatus(id, m.status, m.reason)
	}
	c.count("skip/"+frontier.SkipName(m.status, m.reason), uint64(len(ids)))
	c.totals.Pages.Add(1)
	for i, id := range ids {
		if err := c.record(&Recorded{ID: id, Status: m.status, Reason: m.reason}, i == 0); err != nil {
			return err
		}
	}
	return nil
}

// dispose hands a fetch to the frontier, which retries it or ends it, and
// stores the page's final record with its links.
func (m *fetched) dispose(c *Crawler) error {
	fr := c.opts.Frontier
	job := m.job
	rec := &m.rec
	c.totals.Fetches.Add(1)
	c.totals.Bytes.Add(uint64(rec.Length))
	c.observeFetch(rec)
	res := frontier.Result{Requested: true, Downloaded: true, Transient: m.retry.Transient, RetryAfter: m.retry.After, Duration: m.serverTime}
	t := scope.Targets{RedirectTo: storage.NoPage}
	if !m.retry.Transient {
		// Only a transient failure may be retried, and it has no links:
		// the URL's result is final, its per-URL state goes.
		hops := c.adm.Hops(job.ID)
		c.adm.Forget(job.ID)
		if m.sitemap != nil {
			// The site's entry bound applies before the listed URLs are
			// interned; the page record keeps why the file was cut.
			m.links = m.links[:c.sm.Bound(job.ID, m.sitemap, rec)]
		}
		var err error
		if t, err = c.targets(job, m.links, m.redirect, hops); err != nil {
			return err
		}
		res.Links = t.Targets
	}
	retried, err := fr.Done(job, res, &c.changes)
	if err != nil {
		return fmt.Errorf("crawler: done %d: %w", job.ID, err)
	}
	if err := c.handOff(job, res.Links, m.links, m.redirect); err != nil {
		return err
	}
	c.changes.Flush(&c.journal.Batch)
	if retried {
		c.journal.Batch.AddRetries(1)
		c.count("retry/"+monitor.FailureName(rec.Reason, rec.Code), 1)
		return nil
	}
	c.adm.Forget(job.ID)
	// Sitemaps are queued after Done: their frontier changes follow the
	// job's.
	links, err := c.sitemapsOf(job, m.url, rec.Status, t.Links, m.sitemap)
	if err != nil {
		return err
	}
	c.journal.Batch.AddFetch(*rec, links)
	c.skip(t.Skips)
	m.counts.Status, m.counts.Truncated = rec.Status.String(), rec.Truncated
	switch failed := rec.Status == storage.StatusHTTPError || rec.Status == storage.StatusFetchError; {
	case failed && m.sitemap != nil:
		// A sitemap the crawl asked for on its own (most sites have no
		// /sitemap.xml): counted with the sitemaps, not as a failed page,
		// so the errors a crawl reports are the site's.
		c.count("sitemap/error/"+monitor.FailureName(rec.Reason, rec.Code), 1)
	case failed:
		m.counts.Failure = monitor.FailureName(rec.Reason, rec.Code)
	}
	m.counts.Count(c.count)
	c.totals.Pages.Add(1)
	r := &Recorded{ID: job.ID, URL: m.url, Fetch: rec, Status: rec.Status, Reason: rec.Reason, Redirect: m.redirect, RedirectTo: t.RedirectTo}
	if c.opts.Feed != nil {
		r.Links = m.links
	}
	return c.record(r, true)
}

// dispose hands a known page that a recrawl does not refetch to the
// frontier: its stored links go on (the scheduler sees the page as
// downloaded), nothing is stored for the page itself.
func (m *traversed) dispose(c *Crawler) error {
	t, err := c.targets(m.job, m.links, nil, 0)
	if err != nil {
		return err
	}
	if _, err := c.opts.Frontier.Done(m.job, frontier.Result{Downloaded: true, Links: t.Targets}, &c.changes); err != nil {
		return fmt.Errorf("crawler: done %d: %w", m.job.ID, err)
	}
	if err := c.handOff(m.job, t.Targets, m.links, nil); err != nil {
		return err
	}
	c.adm.Forget(m.job.ID)
	c.changes.Flush(&c.journal.Batch)
	c.skip(t.Skips)
	c.count("refresh/"+m.reason, 1)
	c.journal.Recorded(m.job.ID)
	// A cycle that traverses a site's known pages still reads its
	// sitemaps once.
	_, err = c.sitemapsOf(m.job, "", 0, nil, nil)
	return err
}

// skip records the statuses of URLs a page's links did not queue.
func (c *Crawler) skip(skips []scope.Skip) {
	for _, s := range skips {
		c.journal.Batch.SetStatus(s.ID, s.Status, s.Reason)
	}
}

// count adds to a run counter and to the stored counters.
func (c *Crawler) count(name string, n uint64) {
	c.journal.Batch.Count(name, n)
	c.totals.Add(name, n)
	if r := c.opts.Recorder; r != nil {
		r.Count(name, n)
	}
}
