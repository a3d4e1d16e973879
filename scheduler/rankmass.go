package scheduler

import "math"

// rankMass is Windowed-RankMass (Cho and Schonfeld, "RankMass crawler: a
// crawler with high personalized PageRank coverage guarantee", VLDB 2007,
// section 4, with the window as a share of the frontier).
//
// It keeps rm, the rank mass known to have reached each page, for every known
// page, and the out-links of every downloaded page. The queue downloads the
// frontier in the order of rm as ranked at the last flush (pages discovered
// since then wait with priority 0); after a window of P% of the frontier
// (at that flush) has been downloaded, Due says so and Flush makes one
// propagation pass: every downloaded page p with rm_p > 0 sends d·rm_p/N_p to
// each of its N_p distinct out-link targets, downloaded or not, and sets
// rm_p = 0; then the new rm of every changed frontier URL is emitted. Mass
// that reaches a downloaded page flows on at the next flush: that is what
// separates RankMass from FPR, and what makes it cost more per page.
//
// A downloaded page's mass at or below a floor, 1e-9 of a seed's initial
// mass, is held back (not propagated) until more arrives; without a floor,
// mass circulating among downloaded pages would keep every one of them active
// forever, shrinking by d per flush.
type rankMass struct {
	name      string
	d, window float64 // window as a fraction of the frontier

	store idStore

	// Downloaded pages: targets of page i are arena[pages[i].lo:pages[i].hi].
	pages  []dlPage
	arena  []uint64
	active []int32 // downloaded pages holding mass to propagate
	spare  []int32 // the previous flush's active list, reused

	dirty []uint64 // undownloaded ids whose rm changed since the last flush

	since, size int // downloads since the last flush; window size in pages
	queued      int // frontier size at the last Due

	crm   float64 // propagated mass: the paper's CRM, the coverage guarantee
	floor float64 // mass held back, see above
}

type dlPage struct {
	id     uint64
	lo, hi int
	active bool
}

// floorShare is the floor as a share of a seed's initial rank mass;
// minFloor is the floor before any Seed call (a resumed crawl).
const (
	floorShare = 1e-9
	minFloor   = 1e-18
)

func newRankMass(name string, d, percent float64, nodes int) *rankMass {
	s := &rankMass{name: name, d: d, window: percent / 100, size: 1, floor: minFloor}
	if nodes > 0 {
		s.store = newDenseStore(nodes)
	} else {
		s.store = newMapStore()
	}
	return s
}

func (s *rankMass) Name() string { return s.name }

func (s *rankMass) Seed(seeds []Link) {
	if len(seeds) == 0 {
		return
	}
	v := (1 - s.d) / float64(len(seeds))
	s.floor = max(s.floor, v*floorShare)
	for i := range seeds {
		l := &seeds[i]
		if l.State == Done {
			continue
		}
		e := s.store.entry(l.ID)
		e.rm = math.Max(e.rm, l.Prio) + v
		l.Prio = e.rm
	}
	s.size = s.windowOf(len(seeds) + s.queued)
}

func (s *rankMass) Downloaded(page Link, out []Link) {
	e := s.store.entry(page.ID)
	// A resumed crawl starts with no rm; the stored priority is a lower
	// bound of it (rm of an undownloaded page only grows).
	e.rm = math.Max(e.rm, page.Prio)
	e.dl = int32(len(s.pages)) + 1
	p := dlPage{id: page.ID, lo: len(s.arena)}
	for i := range out {
		l := &out[i]
		s.arena = append(s.arena, l.ID)
		if l.State == Queued {
			if q := s.store.entry(l.ID); q.rm < l.Prio {
				q.rm = l.Prio
			}
		}
		// New targets keep priority 0 and Queued ones their ranking from
		// the last flush until the window is done.
	}
	p.hi = len(s.arena)
	if e.rm > s.floor {
		p.active = true
		s.active = append(s.active, int32(len(s.pages)))
	}
	s.pages = append(s.pages, p)
	s.since++
}

// Due reports whether a window of downloads is complete.
func (s *rankMass) Due(queued int) bool {
	s.queued = queued
	return s.since >= s.size
}

// Flush makes one propagation pass and emits the new rm of every changed
// undownloaded URL.
func (s *rankMass) Flush(emit func(id uint64, prio float64)) {
	act := s.active
	s.active = s.spare[:0] // pages that receive mass now flow at the next flush
	for _, i := range act {
		p := &s.pages[i]
		p.active = false
		e := s.store.entry(p.id)
		r := e.rm
		if r <= s.floor {
			continue
		}
		e.rm = 0
		s.crm += r
		if p.hi == p.lo {
			continue // dangling: the mass leaves the graph
		}
		w := s.d * r / float64(p.hi-p.lo)
		for _, q := range s.arena[p.lo:p.hi] {
			t := s.store.entry(q)
			t.rm += w
			switch {
			case t.dl > 0:
				if dp := &s.pages[t.dl-1]; !dp.active && t.rm > s.floor {
					dp.active = true
					s.active = append(s.active, t.dl-1)
				}
			case !t.dirty:
				t.dirty = true
				s.dirty = append(s.dirty, q)
			}
		}
	}
	for _, q := range s.dirty {
		t := s.store.entry(q)
		t.dirty = false
		if t.dl == 0 {
			emit(q, t.rm)
		}
	}
	s.dirty = s.dirty[:0]
	s.spare = act
	s.since = 0
	s.size = s.windowOf(s.queued)
}

func (s *rankMass) windowOf(frontier int) int {
	n := int(math.Ceil(s.window * float64(frontier)))
	return max(n, 1)
}

// rmEntry is what rankMass keeps per known id.
type rmEntry struct {
	rm    float64
	dl    int32 // index+1 into pages once downloaded, else 0
	dirty bool
}

// idStore maps ids to entries: an array when ids are dense and bounded, a
// map otherwise. entry never returns nil.
type idStore interface {
	entry(id uint64) *rmEntry
}

type denseStore struct {
	a     []rmEntry
	extra mapStore // ids at or above the promised bound
}

func newDenseStore(n int) *denseStore {
	return &denseStore{a: make([]rmEntry, n), extra: mapStore{m: map[uint64]*rmEntry{}}}
}

func (s *denseStore) entry(id uint64) *rmEntry {
	if id < uint64(len(s.a)) {
		return &s.a[id]
	}
	return s.extra.entry(id)
}

type mapStore struct{ m map[uint64]*rmEntry }

func newMapStore() *mapStore { return &mapStore{m: map[uint64]*rmEntry{}} }

func (s *mapStore) entry(id uint64) *rmEntry {
	e, ok := s.m[id]
	if !ok {
		e = &rmEntry{}
		s.m[id] = e
	}
	return e
}
