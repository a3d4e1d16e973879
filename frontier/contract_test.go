package frontier

import (
	"reflect"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/pq"
	"github.com/seedcrawl/seedcrawl/scheduler"
)

// sharedSchedulers are the scheduler package's policies, built fresh for
// each frontier (they carry state). restorable says whether all their
// state is per-URL Prio or Stateful, so a restored frontier continues in
// the same order.
var sharedSchedulers = []struct {
	name       string
	restorable bool
}{
	{"bfs", true},
	{"fpr", true},
	{"fpr@2", true},
	{"fpr@100", true},
	{"opic", true},
	{"backlink", true},
	{"random@7", true},
	{"omniscient", true},
	{"rankmass-window@5", false}, // keeps per-page rank mass in memory
}

func byName(t testing.TB, name string) scheduler.Scheduler {
	t.Helper()
	s, err := scheduler.ByName(name, scheduler.Options{Truth: hashPrio})
	if err != nil {
		t.Fatalf("scheduler.ByName(%q): %v", name, err)
	}
	return s
}

// referenceOrder crawls w with s on one plain priority queue (internal/pq,
// no hosts, no politeness), as the simulator does: the order a frontier
// without politeness limits must reproduce.
func referenceOrder(s scheduler.Scheduler, w web, seeds []uint64) []uint64 {
	var h pq.Heap
	seen := map[uint64]bool{}
	var seq uint64
	links := make([]scheduler.Link, 0, len(seeds))
	for _, id := range seeds {
		links = append(links, scheduler.Link{ID: id, State: scheduler.New})
		seen[id] = true
	}
	s.Seed(links)
	for _, l := range links {
		h.Push(pq.Item{ID: l.ID, Prio: l.Prio, Seq: seq})
		seq++
	}
	batch, _ := s.(scheduler.Batcher)
	var order []uint64
	for h.Len() > 0 {
		page, _ := h.Pop()
		order = append(order, page.ID)
		links = links[:0]
		for _, q := range w.out[page.ID] {
			l := scheduler.Link{ID: q, Intra: w.host(q) == w.host(page.ID), State: scheduler.Done}
			if it, ok := h.Get(q); ok {
				l.State, l.Prio = scheduler.Queued, it.Prio
			} else if !seen[q] {
				l.State = scheduler.New
				seen[q] = true
			}
			links = append(links, l)
		}
		s.Downloaded(scheduler.Link{ID: page.ID, Prio: page.Prio, State: scheduler.Done}, links)
		for _, l := range links {
			switch l.State {
			case scheduler.New:
				h.Push(pq.Item{ID: l.ID, Prio: l.Prio, Seq: seq})
				seq++
			case scheduler.Queued:
				h.Update(l.ID, l.Prio)
			}
		}
		if batch != nil && batch.Due(h.Len()) {
			batch.Flush(func(id uint64, prio float64) { h.Update(id, prio) })
		}
	}
	return order
}

// TestSharedSchedulers runs every scheduler of the scheduler package
// through the frontier with politeness out of the way (no delays,
// concurrency above any host's size) and checks the crawl order equals a
// plain priority queue's: host queues plus the ready-host heap hand out
// the global best URL, ties FIFO.
func TestSharedSchedulers(t *testing.T) {
	w := randomWeb(1500, 9, 7, 21)
	seeds := []uint64{0, 5, 9}
	for _, sc := range sharedSchedulers {
		t.Run(sc.name, func(t *testing.T) {
			want := referenceOrder(byName(t, sc.name), w, seeds)
			f := newFrontier(t, byName(t, sc.name), newFakeClock(), 1<<20)
			c := newCrawler(w)
			if err := f.Seed(c.seeds(seeds...), nil); err != nil {
				t.Fatal(err)
			}
			got := drain(t, f, c, nil)
			if len(want) < 500 {
				t.Fatalf("reference crawled only %d pages", len(want))
			}
			if !reflect.DeepEqual(got, want) {
				for i := range got {
					if i >= len(want) || got[i] != want[i] {
						t.Fatalf("%s: order differs from the plain queue at download %d (frontier %d pages, queue %d)", sc.name, i, len(got), len(want))
					}
				}
				t.Fatalf("%s: frontier crawled %d pages, queue %d", sc.name, len(got), len(want))
			}
		})
	}
}

// TestSharedSchedulersRestore crawls part of a web with each restorable
// scheduler, persists Changes, restores a new frontier with a new
// scheduler of the same name, and checks both continue identically.
func TestSharedSchedulersRestore(t *testing.T) {
	w := randomWeb(1200, 5, 6, 33)
	for _, sc := range sharedSchedulers {
		if !sc.restorable {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			clk := newFakeClock()
			f1 := newFrontier(t, byName(t, sc.name), clk, 1)
			c := newCrawler(w)
			st := newStore()
			var ch Changes
			if err := f1.Seed(c.seeds(0, 1), &ch); err != nil {
				t.Fatal(err)
			}
			st.apply(&ch)
			for i := 0; i < 200; i++ {
				j := mustNext(t, f1)
				if err := f1.Complete(j, Outcome{Downloaded: true, Links: c.targets(j)}, &ch); err != nil {
					t.Fatal(err)
				}
				st.apply(&ch)
			}
			f2 := newFrontier(t, byName(t, sc.name), clk, 1)
			if err := f2.Restore(st.snapshot()); err != nil {
				t.Fatal(err)
			}
			c2 := &crawler{w: w, seen: map[uint64]bool{}}
			for id := range c.seen {
				c2.seen[id] = true
			}
			o1, o2 := drain(t, f1, c, nil), drain(t, f2, c2, nil)
			if len(o1) < 100 {
				t.Fatalf("only %d pages after the restore point", len(o1))
			}
			if !reflect.DeepEqual(o1, o2) {
				t.Fatalf("restored frontier diverges:\n%v\n%v", o1, o2)
			}
		})
	}
}
