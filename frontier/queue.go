package frontier

// Per-URL memory is what bounds a frontier at millions of URLs (the budget:
// frontier + seen-set ≤ 150 bytes per discovered URL). internal/pq indexes
// each heap with its own map, which costs 30–40 bytes per entry on top of
// the 24-byte item when there is one heap per host. The host queues below
// instead share one position table indexed by URL id (storage ids are
// dense, ARCHITECTURE.md), so a queued URL costs its 24-byte item plus a
// 12-byte slot. The heaps of hosts, one entry per host, use internal/pq.

// qitem is one queued URL in its host's heap.
type qitem struct {
	id   uint64
	prio float64
	seq  uint64
}

// frontSeq, set in a sequence number, queues its URL ahead of every URL
// of its host without it, whatever their priorities: URLs queued with Add
// (a site's sitemaps) are read before the site's pages, so a crawl whose
// budget ends before the host's queue does still reads them. The rest of
// the number keeps the order of discovery among such URLs. It is stored
// with the entry, so a restored frontier keeps the place.
const frontSeq = 1 << 63

// Renumber returns stored sequence number seq given the discovery order n
// instead, keeping its URL's place at the front of its host's queue if it
// had one (a sitemap queued with Add); SeqOrder is the discovery order
// seq holds. A frontier rebuilt from stored entries in a new order (a
// recrawl cycle's start) sorts by SeqOrder and renumbers with Renumber.
func Renumber(seq, n uint64) uint64 { return n | seq&frontSeq }

// SeqOrder returns the order of discovery stored sequence number seq
// holds, without the mark of a URL queued at its host's front.
func SeqOrder(seq uint64) uint64 { return seq &^ frontSeq }

// before reports whether a ranks before b: a URL queued in front first
// (frontSeq), then higher priority, then the earlier discovery (the tie
// rule of scheduler.Scheduler).
func (a *qitem) before(b *qitem) bool {
	if (a.seq^b.seq)&frontSeq != 0 {
		return a.seq&frontSeq != 0
	}
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.seq < b.seq
}

// slot is the frontier's record of one URL id: which host holds it (host
// index + 1; 0 = neither queued nor in flight, with the inFlight bit set
// while a job has it), its position in the host's queue, and its depth.
// Jobs in flight keep their slot, so no separate map is needed for them.
type slot struct {
	host  uint32
	pos   uint32
	depth uint32
}

// inFlight marks the slot of a URL handed out by Next.
const inFlight = 1 << 31

func (s slot) queued() bool    { return s.host != 0 && s.host&inFlight == 0 }
func (s slot) flying() bool    { return s.host&inFlight != 0 }
func (s slot) hostIdx() uint32 { return s.host&^inFlight - 1 }

// slots maps URL ids to slots: an array for ids below a bound that grows
// with the ids seen (storage ids are dense from 0), a map for ids far
// beyond it, so a stray huge id cannot make the array huge.
type slots struct {
	dense  []slot
	sparse map[uint64]slot
}

// denseSlack is how far beyond the array an id may be and still grow it.
const denseSlack = 1 << 16

// An id below len(dense) is always in dense: grow moves sparse entries in.

func (s *slots) get(id uint64) slot {
	if id < uint64(len(s.dense)) {
		return s.dense[id]
	}
	return s.sparse[id] // zero slot when absent, also for a nil map
}

func (s *slots) set(id uint64, sl slot) {
	if id >= uint64(len(s.dense)) && !s.grow(id) {
		if s.sparse == nil {
			s.sparse = make(map[uint64]slot)
		}
		s.sparse[id] = sl
		return
	}
	s.dense[id] = sl
}

func (s *slots) setPos(id uint64, pos int) {
	if id < uint64(len(s.dense)) {
		s.dense[id].pos = uint32(pos)
		return
	}
	sl := s.sparse[id]
	sl.pos = uint32(pos)
	s.sparse[id] = sl
}

func (s *slots) clear(id uint64) {
	if id < uint64(len(s.dense)) {
		s.dense[id] = slot{}
		return
	}
	delete(s.sparse, id)
}

// grow extends the array to cover id if id is near it, moving sparse
// entries that now fall inside, and reports whether it did.
func (s *slots) grow(id uint64) bool {
	if id >= 2*uint64(len(s.dense))+denseSlack {
		return false
	}
	n := max(id+1, uint64(len(s.dense))+uint64(len(s.dense))/4, 1024)
	grown := make([]slot, n)
	copy(grown, s.dense)
	s.dense = grown
	for k, sl := range s.sparse {
		if k < n {
			s.dense[k] = sl
			delete(s.sparse, k)
		}
	}
	return true
}

// queue is one host's pending URLs: a binary max-heap by (prio, seq) whose
// positions live in the shared slots.
type queue struct {
	items []qitem
}

func (q *queue) len() int { return len(q.items) }

func (q *queue) top() qitem { return q.items[0] }

// push adds it; the caller has set its slot (host, depth).
func (q *queue) push(s *slots, it qitem) {
	q.items = append(q.items, it)
	q.up(s, len(q.items)-1, it)
}

// pop removes and returns the best item; its slot is left to the caller.
func (q *queue) pop(s *slots) qitem {
	top := q.items[0]
	q.removeAt(s, 0)
	return top
}

// update sets the priority of the item at i.
func (q *queue) update(s *slots, i int, prio float64) {
	it := q.items[i]
	old := it.prio
	it.prio = prio
	if prio > old {
		q.up(s, i, it)
	} else {
		q.down(s, i, it)
	}
}

// front queues the item at i in front of the items without frontSeq.
func (q *queue) front(s *slots, i int) {
	it := q.items[i]
	it.seq |= frontSeq
	q.up(s, i, it)
}

func (q *queue) removeAt(s *slots, i int) {
	last := len(q.items) - 1
	it := q.items[last]
	q.items = q.items[:last]
	if i == last {
		return
	}
	if i > 0 && it.before(&q.items[(i-1)/2]) {
		q.up(s, i, it)
	} else {
		q.down(s, i, it)
	}
}

// up moves it from the hole at i towards the root, then stores it.
func (q *queue) up(s *slots, i int, it qitem) {
	for i > 0 {
		p := (i - 1) / 2
		if !it.before(&q.items[p]) {
			break
		}
		q.place(s, i, q.items[p])
		i = p
	}
	q.place(s, i, it)
}

// down moves it from the hole at i towards the leaves, then stores it.
func (q *queue) down(s *slots, i int, it qitem) {
	n := len(q.items)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && q.items[r].before(&q.items[c]) {
			c = r
		}
		if !q.items[c].before(&it) {
			break
		}
		q.place(s, i, q.items[c])
		i = c
	}
	q.place(s, i, it)
}

// place stores it at position i and records the position in its slot: each
// step of a sift, and its end.
func (q *queue) place(s *slots, i int, it qitem) {
	q.items[i] = it
	s.setPos(it.id, i)
}
