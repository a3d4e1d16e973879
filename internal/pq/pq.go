package pq

import "math"

// Item is an entry of the heap.
type Item struct {
	ID   uint64
	Prio float64
	Seq  uint64
}

// Heap is an indexed max-heap. The zero value is an empty heap that indexes
// ids with a map; NewDense gives an array index for ids below a known bound.
type Heap struct {
	items []Item
	pos   map[uint64]int32
	dense []int32 // dense[id] = position+1, 0 = absent; used when non-nil
}

// NewDense returns a heap for ids in [0, n), indexed by an array instead of a
// map (4 bytes per possible id, no hashing). Pushing an id ≥ n panics: the
// callers size it from a node or host count they own.
func NewDense(n int) *Heap { return &Heap{dense: make([]int32, n)} }

// Len returns the number of items.
func (h *Heap) Len() int { return len(h.items) }

// Contains reports whether id is in the heap.
func (h *Heap) Contains(id uint64) bool { _, ok := h.index(id); return ok }

// Get returns the item with id.
func (h *Heap) Get(id uint64) (Item, bool) {
	i, ok := h.index(id)
	if !ok {
		return Item{}, false
	}
	return h.items[i], true
}

// Peek returns the top item without removing it.
func (h *Heap) Peek() (Item, bool) {
	if len(h.items) == 0 {
		return Item{}, false
	}
	return h.items[0], true
}

// Push adds an item, or updates the priority of an existing id (keeping its Seq).
func (h *Heap) Push(it Item) {
	it.Prio = ordered(it.Prio)
	if i, ok := h.index(it.ID); ok {
		h.set(i, it.Prio)
		return
	}
	h.items = append(h.items, it)
	h.up(len(h.items)-1, it)
}

// Update sets the priority of id if present and reports whether it was.
func (h *Heap) Update(id uint64, prio float64) bool {
	i, ok := h.index(id)
	if !ok {
		return false
	}
	h.set(i, ordered(prio))
	return true
}

// ordered maps NaN to -Inf. less relies on a total order of priorities: with
// a NaN in the heap, "neither ranks before the other" stops being
// transitive and sifts leave better items below worse ones.
func ordered(p float64) float64 {
	if p != p {
		return math.Inf(-1)
	}
	return p
}

// Pop removes and returns the top item.
func (h *Heap) Pop() (Item, bool) {
	if len(h.items) == 0 {
		return Item{}, false
	}
	top := h.items[0]
	h.removeAt(0)
	return top, true
}

// Remove deletes id and reports whether it was present.
func (h *Heap) Remove(id uint64) bool {
	i, ok := h.index(id)
	if !ok {
		return false
	}
	h.removeAt(i)
	return true
}

// Items returns the items in heap order (not sorted). The slice aliases the heap.
func (h *Heap) Items() []Item { return h.items }

// The sifts move a hole instead of swapping: each step copies one item and
// writes one index entry, and the moving item is written once at the end.

func (h *Heap) removeAt(i int) {
	last := len(h.items) - 1
	h.clearIndex(h.items[i].ID)
	it := h.items[last]
	h.items = h.items[:last]
	if i == last {
		return
	}
	h.refill(i, it)
}

// set changes the priority of the item at i and restores the heap order.
func (h *Heap) set(i int, prio float64) {
	it := h.items[i]
	old := it.Prio
	it.Prio = prio
	switch {
	case prio > old:
		h.up(i, it)
	case prio < old:
		h.down(i, it)
	default:
		h.items[i] = it
	}
}

func less(a, b *Item) bool { // a ranks before b
	if a.Prio != b.Prio {
		return a.Prio > b.Prio
	}
	return a.Seq < b.Seq
}

// up places it at the hole i or above it.
func (h *Heap) up(i int, it Item) {
	items := h.items
	for i > 0 {
		p := (i - 1) / 2
		if !less(&it, &items[p]) {
			break
		}
		h.place(items, i, items[p])
		i = p
	}
	h.place(items, i, it)
}

// down places it at the hole i or below it.
func (h *Heap) down(i int, it Item) {
	items := h.items
	for {
		j := betterChild(items, i)
		if j < 0 || !less(&items[j], &it) {
			break
		}
		h.place(items, i, items[j])
		i = j
	}
	h.place(items, i, it)
}

// betterChild returns the child of i that ranks first, or -1 for a leaf.
func betterChild(items []Item, i int) int {
	l := 2*i + 1
	if l >= len(items) {
		return -1
	}
	if r := l + 1; r < len(items) && less(&items[r], &items[l]) {
		return r
	}
	return l
}

// refill fills the hole i with it, which came from the end of the heap, by
// Floyd's bottom-up method: the hole first sinks to a leaf along the better
// child (one comparison per level, not two), then it rises from there. An
// item taken from the end almost always belongs near the bottom, so the rise
// is short; it may also pass above i, which makes refill right for a hole
// anywhere.
func (h *Heap) refill(i int, it Item) {
	items := h.items
	for j := betterChild(items, i); j >= 0; j = betterChild(items, i) {
		h.place(items, i, items[j])
		i = j
	}
	h.up(i, it)
}

// place stores it at position i of items (h.items, which the sifts hold in a
// local so that it is not reloaded after each index write) and indexes it
// there: each step of a sift, and its end.
func (h *Heap) place(items []Item, i int, it Item) {
	items[i] = it
	h.setIndex(it.ID, i)
}

func (h *Heap) index(id uint64) (int, bool) {
	if h.dense != nil {
		if id >= uint64(len(h.dense)) || h.dense[id] == 0 {
			return 0, false
		}
		return int(h.dense[id] - 1), true
	}
	i, ok := h.pos[id]
	return int(i), ok
}

func (h *Heap) setIndex(id uint64, i int) {
	if h.dense != nil {
		h.dense[id] = int32(i + 1)
		return
	}
	if h.pos == nil {
		h.pos = make(map[uint64]int32)
	}
	h.pos[id] = int32(i)
}

func (h *Heap) clearIndex(id uint64) {
	if h.dense != nil {
		h.dense[id] = 0
		return
	}
	delete(h.pos, id)
}
