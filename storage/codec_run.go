package storage

import "slices"

// Runs, cycles and cycle statistics: small records written once per batch
// at most, so clarity over compactness. Each layout is listed once and
// coded in both directions by rec (codec_rec.go).

func (x *Run) code(r *rec) {
	r.time(&x.Start)
	r.time(&x.End)
	r.str(&x.Command)
	r.str(&x.Config)
	// Counters in name order, so equal runs encode to equal bytes.
	names := make([]string, 0, len(x.Counters))
	for k := range x.Counters {
		names = append(names, k)
	}
	slices.Sort(names)
	n := r.count(len(names))
	if r.read {
		x.Counters = make(map[string]uint64, n)
		names = make([]string, n)
	}
	for _, k := range names[:n] {
		v := x.Counters[k]
		r.str(&k)
		recUv(r, &v)
		if r.read {
			x.Counters[k] = v
		}
	}
}

func encodeRun(dst []byte, x *Run) []byte { return encodeRec(dst, x.code) }

func decodeRun(id uint64, v []byte) (Run, error) {
	x := Run{ID: id}
	err := decodeRec(v, x.code)
	return x, err
}

func (x *Cycle) code(r *rec) {
	r.time(&x.Start)
	r.time(&x.End)
	r.str(&x.SeedAlgo)
	recList(r, &x.Seeds, func(r *rec, s *Seed) {
		r.id(&s.ID)
		r.f64(&s.Score)
		r.str(&s.Why)
	})
	recList(r, &x.Replaced, func(r *rec, p *Replacement) {
		r.id(&p.Old)
		r.id(&p.New)
		r.str(&p.Reason)
	})
	r.str(&x.Info)
}

func encodeCycle(dst []byte, x *Cycle) []byte { return encodeRec(dst, x.code) }

func decodeCycle(n uint32, v []byte) (Cycle, error) {
	x := Cycle{N: n}
	err := decodeRec(v, x.code)
	return x, err
}

func (x *CycleStats) code(r *rec) {
	for _, p := range []*uint64{&x.Fetches, &x.New, &x.Changed, &x.Unchanged, &x.Gone,
		&x.Errors, &x.Bytes, &x.Found, &x.NextID} {
		recUv(r, p)
	}
	r.time(&x.First)
	r.time(&x.Last)
	// Added last: a record written before it decodes as 0 retries (a
	// missing trailing varint reads as 0), and older builds ignore it.
	recUv(r, &x.Retries)
}

func encodeCycleStats(dst []byte, x *CycleStats) []byte { return encodeRec(dst, x.code) }

func decodeCycleStats(v []byte) (CycleStats, error) {
	var x CycleStats
	err := decodeRec(v, x.code)
	return x, err
}
