package storage

import "slices"

// Runs, cycles and cycle statistics: small records written once per batch
// at most, so clarity over compactness.

func encodeRun(dst []byte, r *Run) []byte {
	e := enc{b: dst}
	e.u8(recordFormat)
	e.time(r.Start)
	e.time(r.End)
	e.str(r.Command)
	e.str(r.Config)
	names := make([]string, 0, len(r.Counters))
	for k := range r.Counters {
		names = append(names, k)
	}
	slices.Sort(names)
	e.uv(uint64(len(names)))
	for _, k := range names {
		e.str(k)
		e.uv(r.Counters[k])
	}
	return e.b
}

func decodeRun(id uint64, v []byte) (Run, error) {
	d := dec{b: v}
	r := Run{ID: id}
	if d.u8() == 0 {
		return r, errShort
	}
	r.Start = d.time()
	r.End = d.time()
	r.Command = d.str()
	r.Config = d.str()
	n := d.uv()
	if n > uint64(len(v)) {
		return r, errShort
	}
	r.Counters = make(map[string]uint64, n)
	for range n {
		k := d.str()
		r.Counters[k] = d.uv()
	}
	return r, d.err
}

func encodeCycle(dst []byte, c *Cycle) []byte {
	e := enc{b: dst}
	e.u8(recordFormat)
	e.time(c.Start)
	e.time(c.End)
	e.str(c.SeedAlgo)
	e.uv(uint64(len(c.Seeds)))
	for _, s := range c.Seeds {
		e.id(s.ID)
		e.f64(s.Score)
		e.str(s.Why)
	}
	e.uv(uint64(len(c.Replaced)))
	for _, r := range c.Replaced {
		e.id(r.Old)
		e.id(r.New)
		e.str(r.Reason)
	}
	e.str(c.Info)
	return e.b
}

func decodeCycle(n uint32, v []byte) (Cycle, error) {
	d := dec{b: v}
	c := Cycle{N: n}
	if d.u8() == 0 {
		return c, errShort
	}
	c.Start = d.time()
	c.End = d.time()
	c.SeedAlgo = d.str()
	k := d.uv()
	if k > uint64(len(v)) {
		return c, errShort
	}
	for range k {
		c.Seeds = append(c.Seeds, Seed{ID: d.id(), Score: d.f64(), Why: d.str()})
	}
	k = d.uv()
	if k > uint64(len(v)) {
		return c, errShort
	}
	for range k {
		c.Replaced = append(c.Replaced, Replacement{Old: d.id(), New: d.id(), Reason: d.str()})
	}
	c.Info = d.str()
	return c, d.err
}

func encodeCycleStats(dst []byte, s *CycleStats) []byte {
	e := enc{b: dst}
	e.u8(recordFormat)
	e.uv(s.Fetches)
	e.uv(s.New)
	e.uv(s.Changed)
	e.uv(s.Unchanged)
	e.uv(s.Gone)
	e.uv(s.Errors)
	e.uv(s.Bytes)
	e.uv(s.Found)
	e.uv(s.NextID)
	e.time(s.First)
	e.time(s.Last)
	return e.b
}

func decodeCycleStats(v []byte) (CycleStats, error) {
	d := dec{b: v}
	var s CycleStats
	if d.u8() == 0 {
		return s, errShort
	}
	s.Fetches = d.uv()
	s.New = d.uv()
	s.Changed = d.uv()
	s.Unchanged = d.uv()
	s.Gone = d.uv()
	s.Errors = d.uv()
	s.Bytes = d.uv()
	s.Found = d.uv()
	s.NextID = d.uv()
	s.First = d.time()
	s.Last = d.time()
	return s, d.err
}
