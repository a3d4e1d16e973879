// Package pq is an indexed binary max-heap of uint64 ids ordered by a float64
// priority, ties broken by a sequence number (smaller first). It supports
// O(log n) push, pop, update and remove by id, as crawl frontiers and the
// scheduler simulator need: priorities of queued URLs change on every
// download (FPR, OPIC, backlink count).
package pq

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
// map (4 bytes per possible id, no hashing).
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
	if i, ok := h.index(it.ID); ok {
		h.items[i].Prio = it.Prio
		h.fix(i)
		return
	}
	h.items = append(h.items, it)
	i := len(h.items) - 1
	h.setIndex(it.ID, i)
	h.up(i)
}

// Update sets the priority of id if present and reports whether it was.
func (h *Heap) Update(id uint64, prio float64) bool {
	i, ok := h.index(id)
	if !ok {
		return false
	}
	h.items[i].Prio = prio
	h.fix(i)
	return true
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

func (h *Heap) removeAt(i int) {
	last := len(h.items) - 1
	h.clearIndex(h.items[i].ID)
	if i != last {
		h.items[i] = h.items[last]
		h.setIndex(h.items[i].ID, i)
	}
	h.items = h.items[:last]
	if i != last {
		h.fix(i)
	}
}

func less(a, b *Item) bool { // a ranks before b
	if a.Prio != b.Prio {
		return a.Prio > b.Prio
	}
	return a.Seq < b.Seq
}

func (h *Heap) fix(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

func (h *Heap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !less(&h.items[i], &h.items[p]) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

func (h *Heap) down(i0 int) bool {
	i, n := i0, len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		j := l
		if r := l + 1; r < n && less(&h.items[r], &h.items[l]) {
			j = r
		}
		if !less(&h.items[j], &h.items[i]) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}

func (h *Heap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.setIndex(h.items[i].ID, i)
	h.setIndex(h.items[j].ID, j)
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
