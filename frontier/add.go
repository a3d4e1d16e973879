package frontier

// Add enqueues URLs the crawl loop schedules itself, at priority prio and
// without the scheduler: they are no page's out-links (a host's sitemaps,
// named by its robots.txt, and the child sitemaps of an index). A target is
// enqueued unless it is already queued or in flight, whether storage saw
// it before or not, so a sitemap fetched in an earlier run or cycle is
// fetched again; Target.New and Target.Skip are ignored (the caller
// filters). It returns how many were enqueued. Added URLs are ordinary
// jobs from then on: Next hands them out under the same politeness
// (robots.txt, per-host delay, concurrency, back-off) as any URL, which is
// the point of routing them through here.
func (f *Frontier) Add(targets []Target, prio float64, ch *Changes) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for i := range targets {
		t := &targets[i]
		if f.slots.get(t.ID).host != 0 {
			continue // queued or in flight
		}
		f.enqueue(t, prio, ch)
		n++
	}
	if n > 0 {
		f.settle(f.clock.Now().UnixNano())
		f.notify()
	}
	return n
}
