package pq

import (
	"math/rand/v2"
	"sort"
	"testing"
)

func TestHeapOrderAndUpdates(t *testing.T) {
	for _, dense := range []bool{false, true} {
		r := rand.New(rand.NewPCG(1, 2))
		var h *Heap
		if dense {
			h = NewDense(1000)
		} else {
			h = &Heap{}
		}
		want := map[uint64]Item{}
		for i := 0; i < 1000; i++ {
			id := uint64(r.IntN(1000))
			prio := float64(r.IntN(20))
			switch r.IntN(4) {
			case 0:
				if h.Remove(id) != (want[id] != Item{}) {
					t.Fatalf("Remove(%d) disagrees with model", id)
				}
				delete(want, id)
			default:
				it, ok := want[id]
				if !ok {
					it = Item{ID: id, Seq: uint64(i)}
				}
				it.Prio = prio
				want[id] = it
				h.Push(Item{ID: id, Prio: prio, Seq: uint64(i)})
			}
		}
		var items []Item
		for _, it := range want {
			items = append(items, it)
		}
		sort.Slice(items, func(i, j int) bool { return less(&items[i], &items[j]) })
		if h.Len() != len(items) {
			t.Fatalf("Len = %d, want %d", h.Len(), len(items))
		}
		for i, w := range items {
			got, _ := h.Pop()
			if got != w {
				t.Fatalf("dense=%v pop %d = %+v, want %+v", dense, i, got, w)
			}
		}
	}
}

func BenchmarkPushPopUpdate(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(sizeName(n), func(b *testing.B) {
			h := NewDense(n)
			r := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < n; i++ {
				h.Push(Item{ID: uint64(i), Prio: r.Float64(), Seq: uint64(i)})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.Update(uint64(r.IntN(n)), r.Float64())
			}
		})
	}
}

func sizeName(n int) string {
	switch {
	case n >= 1_000_000:
		return "n=1M"
	case n >= 1000:
		return "n=" + itoa(n/1000) + "k"
	}
	return "n=" + itoa(n)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
