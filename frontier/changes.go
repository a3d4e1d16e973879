package frontier

// Changes collects the frontier mutations that must be persisted. Every
// mutating method appends to the *Changes it is given (nil discards them),
// in the order the frontier applied them, so the crawl loop can write them
// in the same bbolt transaction as the page results they belong to
// (ARCHITECTURE.md, crash consistency). See the package documentation for
// the locking protocol that keeps the order right.
//
// Applying a Changes to a store: write every Put (a later Put of the same
// ID supersedes an earlier one), then remove every Delete, then write Hosts
// and, when non-nil, SchedState. The frontier never Puts an ID after
// Deleting it, so deletes may always be applied last.
type Changes struct {
	// Put holds new pending URLs and priority or attempt updates.
	Put []Entry
	// Delete holds ids that left the frontier: completed (their result is in
	// the same batch) or dropped.
	Delete []uint64
	// Hosts holds host ready-time updates.
	Hosts []HostState
	// SchedState is the scheduler's latest MarshalState, nil when the
	// scheduler is not Stateful or did not run.
	SchedState []byte
}

// Reset empties c, keeping its capacity for the next batch.
func (c *Changes) Reset() {
	c.Put = c.Put[:0]
	c.Delete = c.Delete[:0]
	c.Hosts = c.Hosts[:0]
	c.SchedState = nil
}

// Empty reports whether c holds nothing to persist.
func (c *Changes) Empty() bool {
	return len(c.Put) == 0 && len(c.Delete) == 0 && len(c.Hosts) == 0 && c.SchedState == nil
}

// Compact keeps only the last Put of each ID, drops Puts of deleted IDs and
// keeps only the last host update of each host, preserving order otherwise.
// The result applies to a store exactly as c would; it is smaller when a
// batch updates hot URLs many times (FPR adds to the same targets often).
func (c *Changes) Compact() {
	if len(c.Put) > 1 || len(c.Delete) > 0 {
		deleted := make(map[uint64]struct{}, len(c.Delete))
		for _, id := range c.Delete {
			deleted[id] = struct{}{}
		}
		last := make(map[uint64]int, len(c.Put))
		for i, e := range c.Put {
			last[e.ID] = i
		}
		out := c.Put[:0]
		for i, e := range c.Put {
			if _, gone := deleted[e.ID]; gone || last[e.ID] != i {
				continue
			}
			out = append(out, e)
		}
		c.Put = out
	}
	if len(c.Hosts) > 1 {
		last := make(map[string]int, len(c.Hosts))
		for i, h := range c.Hosts {
			last[h.Host] = i
		}
		out := c.Hosts[:0]
		for i, h := range c.Hosts {
			if last[h.Host] == i {
				out = append(out, h)
			}
		}
		c.Hosts = out
	}
}
