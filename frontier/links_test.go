package frontier

import (
	"reflect"
	"testing"

	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// TestBFSOrder checks FIFO ties: with a scheduler that never changes Prio
// the crawl order is breadth-first in document order.
func TestBFSOrder(t *testing.T) {
	w := web{
		host: func(id uint64) string { return []string{"a", "b", "c"}[id%3] },
		out: map[uint64][]uint64{
			0: {1, 2, 3},
			1: {4, 0, 5},
			2: {6, 1},
			3: {7, 8, 3},
			4: {9},
			6: {10, 11},
			9: {12},
		},
	}
	f := newFrontier(t, bfsSched{}, newFakeClock(), 1)
	c := newCrawler(w)
	if err := f.Seed(c.seeds(0), nil); err != nil {
		t.Fatal(err)
	}
	got := drain(t, f, c, nil)
	want := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("BFS order = %v, want %v", got, want)
	}
}

// TestLinkClassification checks what the scheduler is told about each
// target: New, Queued with its current Prio, Done, and Intra.
func TestLinkClassification(t *testing.T) {
	rec := &recSched{}
	f := newFrontier(t, rec, newFakeClock(), 10)
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "a", New: true}, {ID: 3, Host: "b", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	j1 := mustNext(t, f) // 1 (seed prio 3)
	j2 := mustNext(t, f) // 2 in flight
	var ch Changes
	out := Outcome{Downloaded: true, Links: []Target{
		{ID: 1, Host: "a"},                        // self-link: Done
		{ID: 2, Host: "a"},                        // in flight: Done
		{ID: 3, Host: "b"},                        // queued elsewhere
		{ID: 4, Host: "a", New: true},             // new intra
		{ID: 5, Host: "A", New: true},             // new, host differs by case: inter
		{ID: 6, Host: "c", New: true, Skip: true}, // skipped: Done, not enqueued
		{ID: 7, Host: "c"},                        // known, not pending: Done
	}}
	if err := f.Complete(j1, out, &ch); err != nil {
		t.Fatal(err)
	}
	want := []scheduler.Link{
		{ID: 1, Intra: true, State: scheduler.Done},
		{ID: 2, Intra: true, State: scheduler.Done},
		{ID: 3, Intra: false, State: scheduler.Queued, Prio: 1},
		{ID: 4, Intra: true, State: scheduler.New},
		{ID: 5, Intra: false, State: scheduler.New},
		{ID: 6, Intra: false, State: scheduler.Done},
		{ID: 7, Intra: false, State: scheduler.Done},
	}
	if !reflect.DeepEqual(rec.lastOut, want) {
		t.Fatalf("scheduler saw\n%+v\nwant\n%+v", rec.lastOut, want)
	}
	if rec.lastPage.ID != 1 || rec.lastPage.Prio != 3 {
		t.Fatalf("page = %+v, want id 1 prio 3", rec.lastPage)
	}
	// recSched sets Prio = 100+id for New/Queued: 3 updated, 4 and 5 new.
	if len(ch.Put) != 3 || ch.Put[0].ID != 3 || ch.Put[0].Prio != 103 || ch.Put[1].ID != 4 || ch.Put[2].ID != 5 || ch.Put[2].Depth != 0 {
		t.Fatalf("Changes.Put = %+v", ch.Put)
	}
	if !reflect.DeepEqual(ch.Delete, []uint64{1}) {
		t.Fatalf("Changes.Delete = %v, want [1]", ch.Delete)
	}
	if st := f.Stats(); st.Pending != 3 || st.InFlight != 1 || st.Hosts != 3 {
		t.Fatalf("Stats = %+v, want 3 pending, 1 in flight, 3 hosts", st)
	}
	for _, want := range []uint64{5, 4, 3} {
		if j := mustNext(t, f); j.ID != want {
			t.Fatalf("Next = %d, want %d", j.ID, want)
		}
	}
	_ = j2
}

// recSched records the last Downloaded call and sets Prio = 100+id.
type recSched struct {
	lastPage scheduler.Link
	lastOut  []scheduler.Link
}

func (r *recSched) Name() string { return "rec-test" }

func (r *recSched) Seed(seeds []scheduler.Link) {
	for i := range seeds {
		seeds[i].Prio = float64(4 - seeds[i].ID)
	}
}

func (r *recSched) Downloaded(page scheduler.Link, out []scheduler.Link) {
	r.lastPage = page
	r.lastOut = append([]scheduler.Link(nil), out...)
	for i := range out {
		if out[i].State != scheduler.Done {
			out[i].Prio = 100 + float64(out[i].ID)
		}
	}
}

// seedRec records Seed calls and gives each seed Prio = 10·calls + id.
type seedRec struct {
	recSched
	seeds [][]scheduler.Link
}

func (s *seedRec) Seed(seeds []scheduler.Link) {
	s.seeds = append(s.seeds, append([]scheduler.Link(nil), seeds...))
	for i := range seeds {
		seeds[i].Prio = float64(10*len(s.seeds)) + float64(seeds[i].ID)
	}
}

func TestSeedClassification(t *testing.T) {
	s := &seedRec{}
	f := newFrontier(t, s, newFakeClock(), 1)
	var ch Changes
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "a", New: true}, {ID: 3, Host: "b", New: true, Skip: true}}, &ch); err != nil {
		t.Fatal(err)
	}
	j := mustNext(t, f) // 2 (prio 12) in flight
	if j.ID != 2 {
		t.Fatalf("Next = %d, want 2", j.ID)
	}
	// Resume-style reseed: 1 is pending (Queued), 2 in flight and 4 known
	// elsewhere (Done: left out), 5 new.
	if err := f.Seed([]Target{{ID: 1, Host: "a"}, {ID: 2, Host: "a"}, {ID: 4, Host: "c"}, {ID: 5, Host: "c", New: true, Depth: 0}}, &ch); err != nil {
		t.Fatal(err)
	}
	want := [][]scheduler.Link{
		{{ID: 1, State: scheduler.New}, {ID: 2, State: scheduler.New}},
		{{ID: 1, State: scheduler.Queued, Prio: 11}, {ID: 5, State: scheduler.New}},
	}
	if !reflect.DeepEqual(s.seeds, want) {
		t.Fatalf("Seed calls\n%+v\nwant\n%+v", s.seeds, want)
	}
	if err := f.Seed([]Target{{ID: 4, Host: "c"}}, &ch); err != nil || len(s.seeds) != 2 {
		t.Fatalf("Seed of only known URLs called the scheduler (%d calls, %v)", len(s.seeds), err)
	}
	wantPut := []Entry{{ID: 1, Host: "a", Prio: 11, Seq: 0}, {ID: 2, Host: "a", Prio: 12, Seq: 1}, {ID: 1, Host: "a", Prio: 21, Seq: 0}, {ID: 5, Host: "c", Prio: 25, Seq: 2}}
	if !reflect.DeepEqual(ch.Put, wantPut) {
		t.Fatalf("Changes.Put\n%+v\nwant\n%+v", ch.Put, wantPut)
	}
}

// TestBatcher checks that a Batcher's Flush re-ranks queued URLs.
func TestBatcher(t *testing.T) {
	s := &batchSched{k: 2, in: map[uint64]int{}, queued: map[uint64]bool{}}
	f := newFrontier(t, s, newFakeClock(), 100)
	w := web{
		host: func(id uint64) string { return "h" },
		out: map[uint64][]uint64{
			0: {1, 2, 3},
			1: {3},
		},
	}
	c := newCrawler(w)
	if err := f.Seed(c.seeds(0), nil); err != nil {
		t.Fatal(err)
	}
	got := drain(t, f, c, nil)
	// After 0 and 1 (k=2), Flush ranks 3 (2 in-links) above 2 (1 in-link).
	if want := []uint64{0, 1, 3, 2}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
}

// TestIntraIgnoresPort: FPR@M's intra/inter split is by host name, so a
// port in the politeness key does not make a link inter-host, while a
// different name (even www. or letter case) does.
func TestIntraIgnoresPort(t *testing.T) {
	rec := &recSched{}
	f := newFrontier(t, rec, newFakeClock(), 10)
	if err := f.Seed([]Target{{ID: 1, Host: "a.test:8080", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	j := mustNext(t, f)
	out := Outcome{Downloaded: true, Links: []Target{
		{ID: 2, Host: "a.test", New: true},
		{ID: 3, Host: "a.test:9090", New: true},
		{ID: 4, Host: "www.a.test:8080", New: true},
		{ID: 5, Host: "[::1]:8080", New: true},
	}}
	if err := f.Complete(j, out, nil); err != nil {
		t.Fatal(err)
	}
	want := []bool{true, true, false, false}
	for i, l := range rec.lastOut {
		if l.Intra != want[i] {
			t.Errorf("link to %s: Intra = %v, want %v", out.Links[i].Host, l.Intra, want[i])
		}
	}
	for key, name := range map[string]string{"a.test:80": "a.test", "a.test": "a.test", "[::1]:8080": "[::1]", "[::1]": "[::1]"} {
		if got := urlnorm.Host(key).Name(); got != name {
			t.Errorf("Host(%q).Name() = %q, want %q", key, got, name)
		}
	}
}
