package crawler

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Recrawl cycles: the start of a cycle (its frontier, written by Run's first
// commit) and the per-page figures a recrawl needs from storage.

// pageTable is what one pass over the page records tells a recrawl: the
// frontier host key and depth of every page.
type pageTable struct {
	host  []uint32 // index into names
	depth []uint32
	names []string
}

// countAdmitted sets the per-host URL counts of a resumed crawl from the
// page records: every URL that was queued, whatever became of it (fetched,
// failed, robots-denied, deferred), counts against --host-max-pages; URLs
// only discovered, out of scope or rejected by a guard or budget do not.
// One cursor pass over the page records.
func (c *Crawler) countAdmitted() error {
	clear(c.admitted)
	err := c.opts.Store.EachPage(func(p *storage.Page) error {
		switch p.Status {
		case storage.StatusDiscovered, storage.StatusOutOfScope, storage.StatusRejected:
		default:
			c.admitted[urlnorm.Authority(p.URL)]++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("crawler: count admitted URLs: %w", err)
	}
	return nil
}

// loadAdmitted sets the per-host URL counts of a recrawl (c.admitted: the
// URLs of the host that were ever queued or fetched; refetches do not
// count against --host-max-pages) from storage's admitted index, which
// Commit keeps with the pages: no pass over the page records, so a cycle's
// start does not grow with the db.
func (c *Crawler) loadAdmitted() error {
	m, err := c.opts.Store.AdmittedByHost()
	if err != nil {
		return fmt.Errorf("crawler: per-host URL counts: %w", err)
	}
	clear(c.admitted)
	maps.Copy(c.admitted, m)
	return nil
}

// scanPages returns every page's host and depth (a cycle that is not lazy
// queues every known page). One cursor pass over the page records.
func (c *Crawler) scanPages() (*pageTable, error) {
	var t pageTable
	byName := map[string]uint32{}
	err := c.opts.Store.EachPage(func(p *storage.Page) error {
		h := urlnorm.Authority(p.URL)
		hi, ok := byName[h]
		if !ok {
			hi = uint32(len(t.names))
			byName[h] = hi
			t.names = append(t.names, h)
		}
		for uint64(len(t.host)) < p.ID {
			// Ids are dense; a gap would be a corrupt file, kept harmless.
			t.host = append(t.host, hi)
			t.depth = append(t.depth, 0)
		}
		t.host = append(t.host, hi)
		t.depth = append(t.depth, p.Depth)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("crawler: read pages: %w", err)
	}
	return &t, nil
}

// startCycle builds the frontier of a new cycle from the stored one, the
// cycle's seeds and its refresh list, and puts the cycle record, every
// frontier entry (priorities reset) and the seeds' weights into the batch
// that Run commits first. It returns the number of URLs queued.
func (c *Crawler) startCycle() (int, error) {
	rc := c.rc
	var seedURLs []string
	var picks []Pick
	seen := map[string]bool{}
	for _, s := range rc.Seeds {
		n, err := urlnorm.Normalize(s.URL)
		if err != nil {
			return 0, fmt.Errorf("%w: %q: %w", ErrSeed, s.URL, err)
		}
		if !seen[n] {
			seen[n] = true
			seedURLs = append(seedURLs, n)
			picks = append(picks, s)
		}
	}
	var stored []storage.Entry
	if err := c.opts.Store.LoadFrontier(func(e storage.Entry) error {
		stored = append(stored, e)
		return nil
	}); err != nil {
		return 0, fmt.Errorf("crawler: restore frontier: %w", err)
	}
	slices.SortFunc(stored, func(a, b storage.Entry) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	var snap frontier.Snapshot
	if err := c.restoreHosts(&snap, nil); err != nil {
		return 0, err
	}
	var tab *pageTable
	var err error
	if !rc.Lazy {
		tab, err = c.scanPages()
	}
	if err == nil {
		err = c.loadAdmitted()
	}
	if err != nil {
		return 0, err
	}
	var ints []storage.Interned
	if len(seedURLs) > 0 {
		if ints, err = c.opts.Store.Intern(seedURLs, storage.NoPage, 0); err != nil {
			return 0, fmt.Errorf("crawler: intern %d seeds: %w", len(seedURLs), err)
		}
	}

	// Seeds first, then what was pending, then the refresh list: new
	// sequence numbers in that order, every priority 0 until the scheduler
	// weighs the seeds.
	in := map[uint64]bool{}
	seedIDs := map[uint64]bool{}
	for i := range seedURLs {
		seedIDs[ints[i].ID] = true
	}
	var seq uint64
	add := func(e frontier.Entry) {
		in[e.ID] = true
		if rc.Prior != nil && e.Prio == 0 && !seedIDs[e.ID] {
			if x := rc.Prior(e.ID); x > 0 && x < math.MaxFloat64 {
				e.Prio = x
			}
		}
		e.Seq = seq
		seq++
		snap.Entries = append(snap.Entries, e)
	}
	rc.Cycle.Seeds = rc.Cycle.Seeds[:0]
	remote := 0
	targets := make([]frontier.Target, 0, len(seedURLs))
	for i, u := range seedURLs {
		id := ints[i].ID
		if in[id] {
			continue
		}
		host := urlnorm.Authority(u)
		rc.Cycle.Seeds = append(rc.Cycle.Seeds, storage.Seed{ID: id, Score: picks[i].Score, Why: picks[i].Why})
		if c.remoteHost(host) {
			// Another node's seed: counted by the scheduler, queued by its
			// owner.
			in[id] = true
			targets = append(targets, frontier.Target{ID: id, Host: host, Remote: true})
			remote++
			continue
		}
		add(frontier.Entry{ID: id, Host: host})
		targets = append(targets, frontier.Target{ID: id, Host: host, New: true})
		if ints[i].New {
			c.admitted[host]++
		}
	}
	for _, e := range stored {
		if !in[e.ID] {
			add(frontier.Entry{ID: e.ID, Host: e.Host, Depth: int(e.Depth), Attempt: int(e.Attempt)})
		}
	}
	for _, id := range rc.Refresh {
		if in[id] {
			continue
		}
		if tab == nil {
			// Lazy: Refresh is about the cycle's budget; read each record.
			p, err := c.opts.Store.Page(id)
			if err != nil {
				return 0, fmt.Errorf("crawler: refresh page %d: %w", id, err)
			}
			add(frontier.Entry{ID: id, Host: urlnorm.Authority(p.URL), Depth: int(p.Depth)})
			continue
		}
		if id >= uint64(len(tab.host)) {
			continue
		}
		add(frontier.Entry{ID: id, Host: tab.names[tab.host[id]], Depth: int(tab.depth[id])})
	}
	if err := c.opts.Frontier.Restore(snap); err != nil {
		return 0, fmt.Errorf("crawler: start cycle %d: %w", rc.Cycle.N, err)
	}
	if rc.Cycle.Start.IsZero() {
		rc.Cycle.Start = c.start
	}
	c.batch.PutCycle(rc.Cycle)
	for _, e := range snap.Entries {
		c.batch.PutFrontier(storage.Entry{ID: e.ID, Host: e.Host, Prio: e.Prio, Seq: e.Seq, Depth: uint32(e.Depth), Attempt: uint32(e.Attempt)})
	}
	c.batch.SetSchedulerState(nil)
	if err := c.opts.Frontier.Seed(targets, &c.changes); err != nil {
		return 0, fmt.Errorf("crawler: seed cycle %d: %w", rc.Cycle.N, err)
	}
	c.flushChanges()
	for _, s := range rc.Cycle.Seeds {
		c.seedSet[s.ID] = true
	}
	for _, e := range snap.Entries {
		c.markCycle(e.ID)
	}
	c.count("seeds", uint64(len(targets)-remote))
	c.count("refresh/queued", uint64(len(snap.Entries)-len(targets)+remote))
	return len(snap.Entries), nil
}

// refreshDecision decides how a job for page prev, fetched in an earlier
// cycle or earlier in this one, is handled in a recrawl: fetched (reason
// refreshFetched, true) or traversed from storage (the reason, false).
func (c *Crawler) refreshDecision(job uint64, prev *storage.Page) (string, bool) {
	rc := c.rc
	if prev.Cycle >= rc.Cycle.N || c.recentlyDone(job) {
		return refreshSeen, false
	}
	if rc.Policy != nil && !rc.Policy.Due(prev, time.Now()) && !c.sitemapChanged(job, prev) {
		return refreshNotDue, false
	}
	if rc.RefetchHead > 0 && !c.refetchSet[job] {
		return refreshOverShare, false
	}
	if rc.MaxRefresh < 0 {
		return refreshOverShare, false
	}
	if rc.MaxRefresh > 0 {
		if c.refreshed.Add(1) > rc.MaxRefresh {
			c.refreshed.Add(-1)
			return refreshOverShare, false
		}
	}
	return refreshFetched, true
}

// recentlyDone reports whether id's result is in the batch not yet
// committed (its stored record does not show it yet).
func (c *Crawler) recentlyDone(id uint64) bool {
	c.recentMu.RLock()
	defer c.recentMu.RUnlock()
	_, ok := c.recent[id]
	return ok
}

func (c *Crawler) markDone(id uint64) {
	if c.rc == nil {
		return
	}
	c.recentMu.Lock()
	c.recent[id] = struct{}{}
	c.recentMu.Unlock()
}

// storedLinks returns the stored out-links of page id as candidates, for a
// page answering 304 or traversed from storage.
func (c *Crawler) storedLinks(id uint64) ([]candidate, error) {
	links, err := c.opts.Store.Links(id)
	if err != nil {
		return nil, fmt.Errorf("crawler: stored links of %d: %w", id, err)
	}
	out := make([]candidate, 0, len(links))
	for _, l := range links {
		u, _, err := c.lookup(l.To)
		if err != nil {
			return nil, err
		}
		cand, _, ok := c.candidate(u, l.Kind)
		if !ok {
			continue // a guard tightened since: not followed now
		}
		out = append(out, cand)
	}
	return out, nil
}

// markCycle notes that id was queued in this cycle (Recrawl.Lazy).
func (c *Crawler) markCycle(id uint64) {
	if c.rc == nil || !c.rc.Lazy {
		return
	}
	w := id / 64
	if w >= uint64(len(c.inCycle)) {
		c.inCycle = append(c.inCycle, make([]uint64, w+1-uint64(len(c.inCycle))+uint64(len(c.inCycle))/4)...)
	}
	c.inCycle[w] |= 1 << (id % 64)
}

// lazyQueue reports whether a link of this cycle to id, a URL seen
// before, queues it (Recrawl.Lazy): not yet queued in this cycle, and a
// page fetched before or a URL an earlier cycle left pending. Either way
// id is not considered again in this cycle.
func (c *Crawler) lazyQueue(id uint64) (bool, error) {
	if c.rc == nil || !c.rc.Lazy {
		return false, nil
	}
	if w := id / 64; w < uint64(len(c.inCycle)) && c.inCycle[w]&(1<<(id%64)) != 0 {
		return false, nil
	}
	c.markCycle(id)
	p, err := c.opts.Store.Page(id)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil // interned in this cycle, not committed: queued when it was new
	}
	if err != nil {
		return false, fmt.Errorf("crawler: look up linked page %d: %w", id, err)
	}
	return p.Fetches > 0 || p.Status == storage.StatusQueued, nil
}
