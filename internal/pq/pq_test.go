package pq

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
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
		return "n=" + strconv.Itoa(n/1000) + "k"
	}
	return "n=" + strconv.Itoa(n)
}

// BenchmarkFIFO is the breadth-first pattern: equal priorities, so order is
// by sequence; each pop is followed by about ten pushes while the queue is
// growing, then the queue drains.
func BenchmarkFIFO(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(sizeName(n), func(b *testing.B) {
			for b.Loop() {
				h := NewDense(n)
				var seq uint64
				for i := 0; i < 100 && i < n; i++ {
					h.Push(Item{ID: seq, Seq: seq})
					seq++
				}
				for h.Len() > 0 {
					h.Pop()
					for j := 0; j < 10 && seq < uint64(n); j++ {
						h.Push(Item{ID: seq, Seq: seq})
						seq++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
		})
	}
}

// BenchmarkIncrease is the FPR pattern: priorities only grow, and the top is
// popped after every ten increases.
func BenchmarkIncrease(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(sizeName(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			h := NewDense(n)
			for i := 0; i < n; i++ {
				h.Push(Item{ID: uint64(i), Prio: r.Float64(), Seq: uint64(i)})
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if i%10 == 9 {
					it, _ := h.Pop()
					h.Push(Item{ID: it.ID, Prio: r.Float64(), Seq: uint64(n + i)})
					continue
				}
				id := uint64(r.IntN(n))
				if it, ok := h.Get(id); ok {
					h.Update(id, it.Prio+r.Float64()*0.01)
				}
			}
		})
	}
}

// TestHeapInvariant checks the heap order and the index after every
// operation, with priorities raised, lowered and kept, and removals from
// anywhere (a refill from the end may have to rise above the hole).
func TestHeapInvariant(t *testing.T) {
	for _, dense := range []bool{false, true} {
		r := rand.New(rand.NewPCG(3, 4))
		h := &Heap{}
		if dense {
			h = NewDense(300)
		}
		for op := 0; op < 5000; op++ {
			id := uint64(r.IntN(300))
			switch r.IntN(6) {
			case 0:
				h.Remove(id)
			case 1:
				h.Pop()
			case 2:
				if it, ok := h.Get(id); ok {
					h.Update(id, it.Prio+float64(r.IntN(5)-2))
				} else if h.Update(id, 1) {
					t.Fatalf("Update of absent id %d reported true", id)
				}
			default:
				h.Push(Item{ID: id, Prio: float64(r.IntN(8)), Seq: uint64(op)})
			}
			items := h.Items()
			for i := range items {
				if p := (i - 1) / 2; i > 0 && less(&items[i], &items[p]) {
					t.Fatalf("dense=%v op %d: item %d ranks before its parent %d", dense, op, i, p)
				}
				if j, ok := h.index(items[i].ID); !ok || j != i {
					t.Fatalf("dense=%v op %d: index of id %d is %d, want %d", dense, op, items[i].ID, j, i)
				}
				if !h.Contains(items[i].ID) {
					t.Fatalf("Contains(%d) false for a queued id", items[i].ID)
				}
			}
			if top, ok := h.Peek(); ok && top != items[0] {
				t.Fatal("Peek is not the first item")
			}
		}
	}
}

// TestHeapNaNPriority: a NaN priority (a scheduler fed a NaN truth, a user
// weight of "NaN") must not break the order of the other items; it ranks
// last, as -Inf.
func TestHeapNaNPriority(t *testing.T) {
	for _, dense := range []bool{false, true} {
		h := &Heap{}
		if dense {
			h = NewDense(16)
		}
		nan := math.NaN()
		prios := []float64{5, nan, 3, 9, nan, 1, 7, 2, 8}
		for i, p := range prios {
			h.Push(Item{ID: uint64(i), Prio: p, Seq: uint64(i)})
		}
		h.Update(2, nan) // 3 becomes NaN
		h.Update(1, 4)   // a NaN becomes 4
		var got []float64
		var ids []uint64
		for h.Len() > 0 {
			it, _ := h.Pop()
			got = append(got, it.Prio)
			ids = append(ids, it.ID)
		}
		want := []float64{9, 8, 7, 5, 4, 2, 1, math.Inf(-1), math.Inf(-1)}
		if !slices.Equal(got, want) {
			t.Errorf("dense=%v: pop order %v, want %v", dense, got, want)
		}
		if ids[7] != 2 || ids[8] != 4 { // NaN ties FIFO by Seq
			t.Errorf("dense=%v: NaN items popped as %v, want ids 2 then 4", dense, ids[7:])
		}
	}
}
