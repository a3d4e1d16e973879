package crawler

import (
	"fmt"
	"maps"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

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

// recentlyDone reports whether id's result is in the batch not yet
// committed (its stored record does not show it yet).
func (c *Crawler) recentlyDone(id uint64) bool {
	c.recentMu.RLock()
	defer c.recentMu.RUnlock()
	_, ok := c.recent[id]
	return ok
}

// markDone notes that id's result is in the batch (a cycle's refresh
// decision and a Feed read it: Loop.Uncommitted; a plain crawl keeps
// nothing).
func (c *Crawler) markDone(id uint64) {
	if c.cyc == nil && c.opts.Feed == nil {
		return
	}
	c.recentMu.Lock()
	c.recent[id] = struct{}{}
	c.recentMu.Unlock()
}
