package crawler

import (
	"fmt"
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

// scanPages sets the per-host URL counts of a recrawl (c.admitted: the URLs
// of the host that were ever queued or fetched; refetches do not count
// against --host-max-pages) and, when table, returns every page's host and
// depth. One cursor pass over the page records.
func (c *Crawler) scanPages(table bool) (*pageTable, error) {
	var t pageTable
	byName := map[string]uint32{}
	clear(c.admitted)
	err := c.opts.Store.EachPage(func(p *storage.Page) error {
		h := urlnorm.Authority(p.URL)
		if p.Fetches > 0 || p.Status == storage.StatusQueued {
			c.admitted[h]++
		}
		if !table {
			return nil
		}
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
	tab, err := c.scanPages(true)
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
	var seq uint64
	add := func(e frontier.Entry) {
		in[e.ID] = true
		e.Seq = seq
		seq++
		snap.Entries = append(snap.Entries, e)
	}
	rc.Cycle.Seeds = rc.Cycle.Seeds[:0]
	targets := make([]frontier.Target, 0, len(seedURLs))
	for i, u := range seedURLs {
		id := ints[i].ID
		if in[id] {
			continue
		}
		host := urlnorm.Authority(u)
		add(frontier.Entry{ID: id, Host: host})
		targets = append(targets, frontier.Target{ID: id, Host: host, New: true})
		rc.Cycle.Seeds = append(rc.Cycle.Seeds, storage.Seed{ID: id, Score: picks[i].Score, Why: picks[i].Why})
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
		if in[id] || id >= uint64(len(tab.host)) {
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
		c.batch.PutFrontier(storage.Entry{ID: e.ID, Host: e.Host, Seq: e.Seq, Depth: uint32(e.Depth), Attempt: uint32(e.Attempt)})
	}
	c.batch.SetSchedulerState(nil)
	if err := c.opts.Frontier.Seed(targets, &c.changes); err != nil {
		return 0, fmt.Errorf("crawler: seed cycle %d: %w", rc.Cycle.N, err)
	}
	c.flushChanges()
	for _, s := range rc.Cycle.Seeds {
		c.seedSet[s.ID] = true
	}
	c.count("seeds", uint64(len(targets)))
	c.count("refresh/queued", uint64(len(snap.Entries)-len(targets)))
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
