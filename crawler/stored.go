package crawler

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
