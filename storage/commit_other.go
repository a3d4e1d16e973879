package storage

import (
	"fmt"
	"slices"
)

// The rest of a batch: cycle records and statistics, frontier entries,
// hosts, counters, state blobs and runs.

func (c *committer) putCycle(cy *Cycle) error {
	if cy.N != c.cycle && cy.N != c.cycle+1 {
		return fmt.Errorf("put cycle %d while cycle %d is current: %w", cy.N, c.cycle, ErrCycleOrder)
	}
	for _, s := range cy.Seeds {
		if s.ID >= c.limit {
			return fmt.Errorf("cycle %d seed %d: %w", cy.N, s.ID, ErrUnknownID)
		}
	}
	for _, r := range cy.Replaced {
		if r.Old >= c.limit || (r.New != NoPage && r.New >= c.limit) {
			return fmt.Errorf("cycle %d replacement %d->%d: %w", cy.N, r.Old, r.New, ErrUnknownID)
		}
	}
	v := c.take(encodeCycle(c.value(256), cy))
	if err := c.tx.Bucket(bktCycles).Put(c.key32(cy.N), v); err != nil {
		return fmt.Errorf("put cycle %d: %w", cy.N, err)
	}
	c.cycle = cy.N
	return nil
}

func (c *committer) loadStats() error {
	v := c.tx.Bucket(bktCycleStats).Get(u32key(c.cycle))
	if v == nil {
		c.stats = CycleStats{}
		return nil
	}
	s, err := decodeCycleStats(v)
	if err != nil {
		return fmt.Errorf("%w: %s: cycle stats %d: %v", ErrCorrupt, c.db.path, c.cycle, err)
	}
	c.stats = s
	return nil
}

func (c *committer) putFrontier() error {
	if len(c.b.frontier) == 0 {
		return nil
	}
	fb := c.tx.Bucket(bktFrontier)
	ids := make([]uint64, 0, len(c.b.frontier))
	for id := range c.b.frontier {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		i := c.b.frontier[id]
		if i < 0 {
			if err := fb.Delete(u64key(id)); err != nil {
				return fmt.Errorf("delete frontier %d: %w", id, err)
			}
			continue
		}
		if id >= c.limit {
			return fmt.Errorf("frontier entry %d (next id %d): %w", id, c.limit, ErrUnknownID)
		}
		e := &c.b.fput[i]
		v := c.take(encodeEntry(c.value(len(e.Host)+32), e))
		if err := fb.Put(c.key64(id), v); err != nil {
			return fmt.Errorf("put frontier %d: %w", id, err)
		}
	}
	return nil
}

func (c *committer) putHosts() error {
	if len(c.hosts) == 0 && len(c.b.ready) == 0 {
		return nil
	}
	names := make([]string, 0, len(c.hosts)+len(c.b.ready))
	for n := range c.hosts {
		names = append(names, n)
	}
	for n := range c.b.ready {
		if _, ok := c.hosts[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	hb := c.tx.Bucket(bktHosts)
	for _, n := range names {
		if n == "" {
			return fmt.Errorf("put host: empty host name")
		}
		h := Host{Name: n}
		if v := hb.Get(keyOf(n)); v != nil {
			var err error
			if h, err = decodeHost(n, v); err != nil {
				return fmt.Errorf("%w: %s: host %q: %v", ErrCorrupt, c.db.path, n, err)
			}
		}
		if d := c.hosts[n]; d != nil {
			h.Fetches += d.Fetches
			h.Successes += d.Successes
			h.Errors += d.Errors
			h.Bytes += d.Bytes
			if !d.LastFetch.Before(h.LastFetch) {
				h.LastFetch = d.LastFetch
				h.LastDuration = d.LastDuration
			}
		}
		if r, ok := c.b.ready[n]; ok {
			h.ReadyAt = r.at
			h.Reason = r.reason
		}
		v := c.take(encodeHost(c.value(len(n)+64), &h))
		if err := hb.Put([]byte(n), v); err != nil {
			return fmt.Errorf("put host %q: %w", n, err)
		}
	}
	return nil
}

func (c *committer) putCounters() error {
	cb := c.tx.Bucket(bktCounters)
	for name, delta := range c.b.counters {
		if name == "" {
			return fmt.Errorf("count: empty counter name")
		}
		var cur uint64
		if v := cb.Get(keyOf(name)); len(v) == 8 {
			cur = getU64(v)
		}
		if err := cb.Put([]byte(name), c.key64(cur+delta)); err != nil {
			return fmt.Errorf("put counter %q: %w", name, err)
		}
	}
	return nil
}

func (c *committer) putStates() error {
	sb := c.tx.Bucket(bktState)
	for name, v := range c.b.state {
		if name == "" {
			return fmt.Errorf("set state: empty name")
		}
		var err error
		if v == nil {
			err = sb.Delete([]byte(name))
		} else {
			err = sb.Put([]byte(name), v)
		}
		if err != nil {
			return fmt.Errorf("put state %q: %w", name, err)
		}
	}
	return nil
}

func (c *committer) putRuns() error {
	if len(c.b.runs) == 0 {
		return nil
	}
	last := getU64(c.tx.Bucket(bktMeta).Get(keyNextRun))
	rb := c.tx.Bucket(bktRuns)
	for i := range c.b.runs {
		r := &c.b.runs[i]
		if r.ID == 0 || r.ID > last {
			return fmt.Errorf("put run %d: not started (last run %d)", r.ID, last)
		}
		v := c.take(encodeRun(c.value(len(r.Command)+len(r.Config)+64), r))
		if err := rb.Put(c.key64(r.ID), v); err != nil {
			return fmt.Errorf("put run %d: %w", r.ID, err)
		}
	}
	return nil
}
