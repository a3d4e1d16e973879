package crawler

import (
	"fmt"
	"strconv"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/storage"
)

// minStarveCommit is the shortest gap between two commits made because the
// frontier starved, so a politeness-bound crawl commits a few times a
// second at most.
const minStarveCommit = 100 * time.Millisecond

// dispose is the disposer goroutine: it applies every message in arrival
// order and commits batches. It returns the first fatal error; after one it
// keeps draining c.in so workers never block.
func (c *Crawler) dispose() error {
	tick := time.NewTicker(min(c.opts.CommitInterval, minStarveCommit))
	defer tick.Stop()
	var fatal error
	fail := func(err error) {
		if fatal == nil {
			fatal = err
			c.abort()
		}
	}
	for {
		select {
		case res := <-c.reseed.out:
			if fatal != nil {
				continue
			}
			if err := c.reseeded(res); err != nil {
				fail(err)
			}
		case m, ok := <-c.in:
			if !ok {
				if fatal == nil {
					fatal = c.commit()
				}
				return fatal
			}
			c.dirty.Store(true)
			if m.kind == msgInject {
				err := fatal
				if err == nil {
					if err = c.injectArrivals(m); err != nil {
						fail(err)
					}
				}
				m.done <- err
				if err == nil {
					c.wakeWorkers()
				}
				continue
			}
			if fatal != nil {
				continue
			}
			if err := c.handle(m); err != nil {
				fail(err)
				continue
			}
			if c.batch.Pages() >= c.opts.CommitPages || time.Since(c.lastCommit) >= c.opts.CommitInterval ||
				len(c.in) == 0 && c.starved() && time.Since(c.lastCommit) >= minStarveCommit {
				if err := c.commit(); err != nil {
					fail(err)
				}
			}
		case <-tick.C:
			if fatal == nil && c.batch.Empty() && len(c.in) == 0 {
				c.dirty.Store(false)
			}
			if fatal != nil || c.batch.Empty() {
				continue
			}
			if time.Since(c.lastCommit) >= c.opts.CommitInterval || c.starved() {
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
	if c.opts.Cluster != nil {
		if err := c.opts.Cluster.Flush(c.workCtx); err != nil {
			return fmt.Errorf("crawler: hand off URLs before commit: %w", err)
		}
	}
	c.flushChanges()
	c.batch.PutRun(c.runRecord(time.Time{}))
	if err := c.opts.Store.Commit(&c.batch); err != nil {
		return fmt.Errorf("crawler: commit %d results: %w", c.batch.Pages(), err)
	}
	c.batch.Reset()
	c.freshMu.Lock()
	clear(c.fresh)
	c.freshMu.Unlock()
	if c.rc != nil {
		c.recentMu.Lock()
		clear(c.recent)
		c.recentMu.Unlock()
	}
	c.lastCommit = time.Now()
	c.commits.Add(1)
	if len(c.in) == 0 {
		c.dirty.Store(false)
	}
	return nil
}

// wakeWorkers lets workers waiting for URLs from other nodes retry Next.
func (c *Crawler) wakeWorkers() {
	w := make(chan struct{})
	old := c.wake.Swap(&w)
	close(*old)
}

// flushChanges moves the frontier's changes into the batch, in order.
func (c *Crawler) flushChanges() {
	ch := &c.changes
	for _, e := range ch.Put {
		c.batch.PutFrontier(storage.Entry{ID: e.ID, Host: e.Host, Prio: e.Prio, Seq: e.Seq,
			Depth: uint32(max(e.Depth, 0)), Attempt: uint32(max(e.Attempt, 0))})
	}
	for _, id := range ch.Delete {
		c.batch.DeleteFrontier(id)
	}
	for _, h := range ch.Hosts {
		c.batch.SetHostReady(h.Host, h.ReadyAt, h.Reason)
	}
	if ch.SchedState != nil {
		c.batch.SetSchedulerState(ch.SchedState)
	}
	ch.Reset()
}

// handle applies one worker message.
func (c *Crawler) handle(m message) error {
	fr := c.opts.Frontier
	switch m.kind {
	case msgFatal:
		return m.err
	case msgAbandon:
		c.count("abandoned", 1)
		return nil
	case msgDefer:
		fr.Defer(m.host, m.deferUntil, "", &c.changes)
		c.flushChanges()
		return nil
	case msgStatus:
		if err := fr.Complete(m.job, frontier.Outcome{}, &c.changes); err != nil {
			return fmt.Errorf("crawler: complete %d: %w", m.job.ID, err)
		}
		c.forget(m.job.ID)
		c.flushChanges()
		c.batch.SetStatus(m.job.ID, m.status, m.reason)
		c.count("skip/"+statusReason(m.status, m.reason), 1)
		c.done.Add(1)
		c.markDone(m.job.ID)
		if c.seedSet[m.job.ID] && m.status == storage.StatusDeferred && m.reason == robots.ReasonUnreachable {
			return c.seedVanished(m.job.ID, VanishedUnreachable)
		}
	case msgRequeue:
		if m.deferReason != "" {
			fr.Defer(m.job.Host, m.deferUntil, m.deferReason, &c.changes)
		}
		if err := fr.Requeue(m.job, max(m.after, 0), &c.changes); err != nil {
			return fmt.Errorf("crawler: requeue %d: %w", m.job.ID, err)
		}
		c.free[m.job.ID]++
		c.flushChanges()
		c.count("requeue/"+firstNonEmpty(m.deferReason, "robots-fetched"), 1)
	case msgDropHost:
		return c.dropHost(m)
	case msgFetched:
		return c.fetched(m)
	case msgTraverse:
		return c.traverse(m)
	}
	return nil
}

// statusReason names a non-fetch outcome for counting.
func statusReason(s storage.Status, reason string) string {
	if reason == "" {
		return s.String()
	}
	if s == storage.StatusDeferred && len(reason) > 11 && reason[:11] == "crawl-delay" {
		return "crawl-delay-too-long"
	}
	return reason
}

// forget drops the per-URL state of a job that left the frontier.
func (c *Crawler) forget(id uint64) {
	delete(c.free, id)
	delete(c.hops, id)
}

// dropHost gives up a host whose Crawl-delay is above the cap: the job and
// every queued URL of the host are recorded as deferred with the reason, and
// later links to the host are not queued.
func (c *Crawler) dropHost(m message) error {
	fr := c.opts.Frontier
	if err := fr.Complete(m.job, frontier.Outcome{}, &c.changes); err != nil {
		return fmt.Errorf("crawler: complete %d: %w", m.job.ID, err)
	}
	c.forget(m.job.ID)
	ids := fr.DropHost(m.job.Host, m.reason, &c.changes)
	fr.Defer(m.job.Host, time.Now().Add(c.opts.RobotsTTL), m.reason, &c.changes)
	c.flushChanges()
	c.batch.SetStatus(m.job.ID, storage.StatusDeferred, m.reason)
	for _, id := range ids {
		c.forget(id)
		c.batch.SetStatus(id, storage.StatusDeferred, m.reason)
	}
	c.droppedMu.Lock()
	c.dropped[m.job.Host] = m.reason
	c.droppedMu.Unlock()
	c.count("skip/crawl-delay-too-long", uint64(1+len(ids)))
	c.done.Add(1)
	return nil
}

// fetched disposes of a fetch: a retry, or the page's final record with
// its links.
func (c *Crawler) fetched(m message) error {
	fr := c.opts.Frontier
	job, host := m.job, m.job.Host
	rec := &m.rec
	c.fetches.Add(1)
	c.bytes.Add(uint64(rec.Length))
	if m.transient {
		c.hostFail[host]++
		wait := max(m.retryAfter, backoff(c.opts.Backoff, c.opts.MaxBackoff, c.hostFail[host]))
		if job.Attempt-c.free[job.ID] < c.opts.MaxRetries {
			if err := fr.Requeue(job, wait, &c.changes); err != nil {
				return fmt.Errorf("crawler: requeue %d: %w", job.ID, err)
			}
			c.flushChanges()
			c.count("retry/"+failureName(rec), 1)
			return nil
		}
	} else {
		delete(c.hostFail, host)
	}
	hops := c.hops[job.ID]
	c.forget(job.ID)

	out := frontier.Outcome{
		Downloaded: true,
		Delay:      politeDelay(c.opts.Delay, c.capCrawlDelay(m.crawlDelay), c.opts.DelayFactor, rec.Duration),
	}
	if m.transient {
		out.ReadyAt = time.Now().Add(max(m.retryAfter, backoff(c.opts.Backoff, c.opts.MaxBackoff, c.hostFail[host])))
	}
	targets, links, skipped, err := c.targets(m, hops)
	if err != nil {
		return err
	}
	out.Links = targets
	if err := fr.Complete(job, out, &c.changes); err != nil {
		return fmt.Errorf("crawler: complete %d: %w", job.ID, err)
	}
	c.flushChanges()
	c.batch.AddFetch(*rec, links)
	for _, s := range skipped {
		c.batch.SetStatus(s.id, s.status, s.reason)
	}
	c.count("fetch/"+rec.Status.String(), 1)
	if rec.Status == storage.StatusHTTPError || rec.Status == storage.StatusFetchError {
		c.count("error/"+failureName(rec), 1)
	}
	if rec.Truncated {
		c.count("truncated", 1)
	}
	for _, r := range m.rejects {
		c.count("reject/"+r, 1)
	}
	if m.nofollow > 0 {
		c.count("skip/nofollow", uint64(m.nofollow))
	}
	c.done.Add(1)
	if c.rc == nil {
		return nil
	}
	if m.refresh {
		c.count("refresh/"+refreshFetched, 1)
	}
	c.markDone(job.ID)
	c.maybeReseed()
	if c.seedSet[job.ID] {
		redirectTo := storage.NoPage
		if m.redirect != nil && len(links) > 0 && links[len(links)-1].Kind == storage.LinkRedirect {
			redirectTo = links[len(links)-1].To
		}
		return c.seedFetched(job.ID, rec, redirectTo)
	}
	return nil
}

// traverse disposes of a known page that a recrawl does not refetch: its
// stored links go to the frontier (the scheduler sees the page as
// downloaded), nothing is stored for the page itself.
func (c *Crawler) traverse(m message) error {
	targets, _, skipped, err := c.targets(m, 0)
	if err != nil {
		return err
	}
	if err := c.opts.Frontier.Complete(m.job, frontier.Outcome{Downloaded: true, Links: targets}, &c.changes); err != nil {
		return fmt.Errorf("crawler: complete %d: %w", m.job.ID, err)
	}
	c.forget(m.job.ID)
	c.flushChanges()
	for _, s := range skipped {
		c.batch.SetStatus(s.id, s.status, s.reason)
	}
	c.count("refresh/"+m.reason, 1)
	c.markDone(m.job.ID)
	return nil
}

// failureName names a failed fetch for counting: the reason, else the code.
func failureName(rec *storage.Fetch) string {
	if rec.Reason != "" && rec.Reason != "noindex" {
		return rec.Reason
	}
	return "http-" + strconv.Itoa(rec.Code)
}

// skip is a new URL recorded with a status saying why it is not queued.
type skip struct {
	id     uint64
	status storage.Status
	reason string
}

// targets interns a page's links and decides which are queued.
func (c *Crawler) targets(m message, hops int) ([]frontier.Target, []storage.Link, []skip, error) {
	job := m.job
	var targets []frontier.Target
	var links []storage.Link
	var skipped []skip
	// share is the priority mass a page passes to each out-link under FPR
	// (its priority over its distinct out-links); it travels with URLs
	// handed to other nodes.
	nout := len(m.links)
	if m.redirect != nil {
		nout++
	}
	share := job.Prio / float64(max(nout, 1))
	add := func(cands []candidate, depth int, redirectHops int) error {
		if len(cands) == 0 {
			return nil
		}
		urls := make([]string, len(cands))
		for i := range cands {
			urls[i] = cands[i].url
		}
		ints, err := c.opts.Store.Intern(urls, job.ID, uint32(depth))
		if err != nil {
			return fmt.Errorf("crawler: intern %d links of page %d: %w", len(urls), job.ID, err)
		}
		for i := range cands {
			cd := &cands[i]
			id, isNew := ints[i].ID, ints[i].New
			links = append(links, storage.Link{To: id, Kind: cd.kind})
			t := frontier.Target{ID: id, Host: cd.host, Depth: depth, New: isNew}
			status, reason, soft, ok := c.admit(cd, depth, redirectHops)
			_, wasSoft := c.soft[id]
			switch {
			case isNew && !ok:
				t.Skip = true
				if status != storage.StatusDiscovered || reason != "" {
					skipped = append(skipped, skip{id, status, reason})
				}
				if soft {
					c.soft[id] = struct{}{}
				}
				c.count("skip/"+statusReason(status, reason), 1)
			case isNew:
				if routed, err := c.route(cd, depth, share); err != nil {
					return err
				} else if routed {
					t.Skip = true
					break
				}
				c.queue(id, cd, redirectHops)
				c.discovered.Add(1)
			case wasSoft && ok:
				// A URL seen before only beyond MaxDepth, now found at an
				// allowed depth: queue it now.
				delete(c.soft, id)
				if routed, err := c.route(cd, depth, share); err != nil {
					return err
				} else if routed {
					t.Skip = true
					break
				}
				t.New = true
				c.queue(id, cd, redirectHops)
				skipped = append(skipped, skip{id, storage.StatusQueued, ""})
			case !ok:
				t.Skip = true
			}
			targets = append(targets, t)
		}
		return nil
	}
	if err := add(m.links, job.Depth+1, 0); err != nil {
		return nil, nil, nil, err
	}
	if m.redirect != nil {
		if c.opts.SeedRedirects && job.Depth == 0 && !m.redirect.inScope {
			// A seed (or a seed's redirect target) moved: its target is a
			// seed too.
			m.redirect.inScope = true
			c.scopeMu.Lock()
			c.scopeHosts[m.redirect.host] = true
			c.scopeMu.Unlock()
			c.count("scope/seed-redirect", 1)
		}
		if err := add([]candidate{*m.redirect}, job.Depth, hops+1); err != nil {
			return nil, nil, nil, err
		}
	}
	return targets, links, skipped, nil
}

// queue notes a URL about to be queued: its host's budget, its URL for the
// worker that will take it before the next commit, its redirect hops.
func (c *Crawler) queue(id uint64, cd *candidate, redirectHops int) {
	c.admitted[cd.host]++
	c.freshMu.Lock()
	c.fresh[id] = cd.url
	c.freshMu.Unlock()
	if redirectHops > 0 {
		c.hops[id] = redirectHops
	}
}

// admit decides whether a target may be queued. When it may not, status
// and reason say why, and soft reports that a later link may still queue it
// (one found at a smaller depth).
func (c *Crawler) admit(cd *candidate, depth, redirectHops int) (status storage.Status, reason string, soft, ok bool) {
	switch {
	case !cd.inScope:
		return storage.StatusOutOfScope, "", false, false
	case redirectHops > c.opts.MaxRedirects:
		return storage.StatusRejected, "too-many-redirects", false, false
	}
	if r, dropped := c.droppedHost(cd.host); dropped {
		return storage.StatusDeferred, r, false, false
	}
	switch {
	case c.opts.MaxDepth >= 0 && depth > c.opts.MaxDepth:
		return storage.StatusRejected, "max-depth", true, false
	case c.opts.HostMaxPages > 0 && c.admitted[cd.host] >= c.opts.HostMaxPages:
		return storage.StatusRejected, "host-max-pages", false, false
	}
	return 0, "", false, true
}

// count adds to a run counter and to the stored counters.
func (c *Crawler) count(name string, n uint64) {
	c.batch.Count(name, n)
	c.countMu.Lock()
	c.counts[name] += n
	c.countMu.Unlock()
}
