package frontier

import (
	"math/rand/v2"
	"testing"
)

// TestQueueAgainstModel runs random pushes, updates, removals and pops on
// a few host queues sharing one slot table, with ids both dense and far
// apart (the table's map fallback), and checks every pop and every
// recorded position against a plain model.
func TestQueueAgainstModel(t *testing.T) {
	tests := []struct {
		name string
		id   func(r *rand.Rand) uint64
	}{
		{"dense ids", func(r *rand.Rand) uint64 { return uint64(r.IntN(3000)) }},
		{"sparse ids", func(r *rand.Rand) uint64 { return uint64(r.IntN(3000)) << 40 }},
		{"mixed ids", func(r *rand.Rand) uint64 {
			if r.IntN(2) == 0 {
				return uint64(r.IntN(3000)) * 50
			}
			return uint64(r.IntN(3000)) << 40
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, 12))
			var s slots
			qs := make([]queue, 3)
			model := map[uint64]qitem{}
			hostOf := map[uint64]int{}
			var seq uint64
			check := func() {
				for id, it := range model {
					sl := s.get(id)
					if sl.host == 0 || int(sl.host-1) != hostOf[id] {
						t.Fatalf("id %d: slot %+v, want host %d", id, sl, hostOf[id]+1)
					}
					if got := qs[hostOf[id]].items[sl.pos]; got != it {
						t.Fatalf("id %d: item at pos %d is %+v, want %+v", id, sl.pos, got, it)
					}
				}
			}
			for step := 0; step < 8_000; step++ {
				id := tc.id(r)
				h := r.IntN(len(qs))
				switch op := r.IntN(10); {
				case op < 5: // push or update
					if it, ok := model[id]; ok {
						it.prio = float64(r.IntN(50))
						sl := s.get(id)
						qs[hostOf[id]].update(&s, int(sl.pos), it.prio)
						model[id] = it
						continue
					}
					it := qitem{id: id, prio: float64(r.IntN(50)), seq: seq}
					seq++
					s.set(id, slot{host: uint32(h) + 1, depth: uint32(step)})
					qs[h].push(&s, it)
					model[id], hostOf[id] = it, h
				case op < 7: // remove an arbitrary queued id
					if _, ok := model[id]; !ok {
						continue
					}
					sl := s.get(id)
					qs[hostOf[id]].removeAt(&s, int(sl.pos))
					s.clear(id)
					delete(model, id)
				default: // pop the best of host h
					if qs[h].len() == 0 {
						continue
					}
					var want qitem
					first := true
					for id, it := range model {
						if hostOf[id] == h && (first || it.before(&want)) {
							want, first = it, false
						}
					}
					got := qs[h].pop(&s)
					if got != want {
						t.Fatalf("step %d: pop = %+v, want %+v", step, got, want)
					}
					s.clear(got.id)
					delete(model, got.id)
				}
				if step%1000 == 0 {
					check()
				}
			}
			check()
			if tc.name == "sparse ids" && len(s.dense) > 1<<20 {
				t.Fatalf("sparse ids grew the array to %d slots", len(s.dense))
			}
		})
	}
}
