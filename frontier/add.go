package frontier

// Add enqueues URLs the crawl loop schedules itself, at priority prio and
// without the scheduler: they are no page's out-links (a host's sitemaps,
// named by its robots.txt, and the child sitemaps of an index). They go
// ahead of their host's other URLs, whatever the priorities (in the order
// added among themselves): a sitemap tells what changed and what is new,
// which a budget-limited crawl or recrawl cycle needs before it spends its
// budget on the host's pages (a recrawl cycle queues the known pages at
// its start, a site's sitemaps only once a page of the site is recorded).
// prio is the job's priority the scheduler is told when it is downloaded
// (the mass FPR hands on to the listed URLs). A target is enqueued unless
// it is already queued or in flight, whether storage saw it before or
// not, so a sitemap fetched in an earlier run or cycle is fetched again;
// one already queued (a recrawl cycle queued it among the known pages)
// moves to the front with the priority it has. Target.New and Target.Skip
// are ignored (the caller filters). It returns how many were enqueued. Added URLs are ordinary
// jobs from then on: Next hands them out under the same politeness
// (robots.txt, per-host delay, concurrency, back-off) as any URL, which is
// the point of routing them through here.
func (f *Frontier) Add(targets []Target, prio float64, ch *Changes) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, moved := 0, false
	for i := range targets {
		t := &targets[i]
		switch sl := f.slots.get(t.ID); {
		case sl.queued():
			moved = f.toFront(sl, t.ID, ch) || moved
		case sl.host == 0:
			f.enqueueMarked(t, prio, frontSeq, ch)
			n++
		}
	}
	if n > 0 || moved {
		f.settle(f.clock.Now().UnixNano())
		f.notify()
	}
	return n
}

// toFront moves pending URL id, whose slot is sl, in front of its host's
// URLs not queued with Add, keeping its priority, and records the change;
// false if it was there already.
func (f *Frontier) toFront(sl slot, id uint64, ch *Changes) bool {
	h := f.hosts[sl.hostIdx()]
	if h.q.items[sl.pos].seq&frontSeq != 0 {
		return false
	}
	h.q.front(&f.slots, int(sl.pos))
	f.touch(sl.hostIdx())
	f.record(id, ch)
	return true
}

// Credit applies priority mass that other nodes of a cluster computed for
// URLs this node owns (each Target.Mass is the share the scheduler gave a
// Remote target there), as the scheduler applies a share here: a New
// target that is neither queued nor in flight is enqueued at priority
// Mass, a pending one gets Mass added to its priority and keeps the lesser
// depth, and the others (in flight, done, Skip) are left alone, their
// mass dropped as a downloaded target's share is. It returns how many it
// enqueued. The scheduler is not called: for the additive schedulers
// (fpr, fpr@M) this is what its Downloaded would have done with the same
// shares.
func (f *Frontier) Credit(targets []Target, ch *Changes) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for i := range targets {
		t := &targets[i]
		sl := f.slots.get(t.ID)
		switch {
		case sl.queued():
			lowered := f.lower(t.ID, t.Depth)
			if t.Mass != 0 {
				f.update(t.ID, f.hosts[sl.hostIdx()].q.items[sl.pos].prio+t.Mass, ch)
			}
			if lowered {
				f.record(t.ID, ch) // a later Put of the same id supersedes the earlier
			}
		case t.New && !t.Skip && sl.host == 0:
			f.enqueue(t, t.Mass, ch)
			n++
		}
	}
	if n > 0 {
		f.settle(f.clock.Now().UnixNano())
		f.notify()
	}
	return n
}
