package frontier

import "github.com/seedcrawl/seedcrawl/storage"

// Flush writes c into b in the order a store applies it (every Put, every
// Delete, the host ready times, the scheduler state when set) and empties
// c, so that b's Commit persists the frontier's changes in the
// transaction that stores the results they belong to.
func (c *Changes) Flush(b *storage.Batch) {
	for _, e := range c.Put {
		b.PutFrontier(e)
	}
	for _, id := range c.Delete {
		b.DeleteFrontier(id)
	}
	for _, h := range c.Hosts {
		b.SetHostReady(h.Host, h.ReadyAt, h.Reason)
	}
	if c.SchedState != nil {
		b.SetSchedulerState(c.SchedState)
	}
	c.Reset()
}
