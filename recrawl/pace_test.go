package recrawl

import (
	"container/heap"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/storage"
)

// paceFrontier stands in for the frontier's Credit in the pacer's tests:
// it records what is queued and refuses pages it is told are in flight,
// as frontier.Frontier.Credit does.
type paceFrontier struct {
	queued   map[uint64]float64
	inFlight map[uint64]bool
}

func (f *paceFrontier) credit(t frontier.Target) int {
	if f.inFlight[t.ID] {
		return 0
	}
	if _, ok := f.queued[t.ID]; ok {
		f.queued[t.ID] += t.Mass
		return 0
	}
	if !t.New {
		return 0
	}
	f.queued[t.ID] = t.Mass
	return 1
}

// newPaceFrontier returns a paceFrontier with nothing queued and the
// pages inFlight in flight.
func newPaceFrontier(inFlight ...uint64) *paceFrontier {
	f := &paceFrontier{queued: map[uint64]float64{}, inFlight: map[uint64]bool{}}
	for _, id := range inFlight {
		f.inFlight[id] = true
	}
	return f
}

// burstPacer returns the pacer of a paced cycle with maxRefresh refetches
// in a budget of budget fetches, every page weighing 0.01, after the
// scheduler handed out known pages 1..n before any fetch and the burst
// refetch (page 1) ended; with the count of refetches granted and the
// frontier its releases credit.
func burstPacer(maxRefresh, budget int64, n uint64) (*pacer, *atomic.Int64, *paceFrontier) {
	p := newPacer(&CycleOptions{Paced: true, MaxRefresh: maxRefresh, Budget: budget, Weight: func(uint64) float64 { return 0.01 }})
	granted := new(atomic.Int64)
	fr := newPaceFrontier()
	for id := uint64(1); id <= n; id++ {
		p.decide(&storage.Page{ID: id, URL: "https://a.test/"}, 0, granted)
	}
	p.release(1, 1, granted, fr.credit)
	return p, granted, fr
}

// TestPacerSpreadsRefetches: with 10 refetches in a budget of 100 fetches,
// the candidates the scheduler hands out at the start are granted up to
// the burst, the rest owed (held in the frontier at priority 0 after the
// next fetch), and released at the share's rate as fetches come, largest
// weight (stored PageRank) first, not in the order owed, at their weight.
func TestPacerSpreadsRefetches(t *testing.T) {
	rc := &CycleOptions{Paced: true, MaxRefresh: 10, Budget: 100,
		Weight: func(id uint64) float64 { return float64(id) / 100 }}
	p := newPacer(rc)
	if p == nil {
		t.Fatal("no pacer for a paced, capped, budget-limited cycle")
	}
	var granted atomic.Int64
	fr := newPaceFrontier()
	page := func(id uint64) *storage.Page { return &storage.Page{ID: id, URL: "https://a.test/p"} }

	// Event 1: the scheduler hands out 5 known pages before any fetch.
	var got []string
	for id := uint64(1); id <= 5; id++ {
		why, _ := p.decide(page(id), 0, &granted)
		got = append(got, why)
	}
	want := []string{refreshFetched, refreshPaced, refreshPaced, refreshPaced, refreshPaced}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("decisions before any fetch = %v, want %v (burst 1)", got, want)
		}
	}
	// Event 2: page 5's traversal is still in flight when page 1's fetch
	// ends: pages 2-4 are held at priority 0, 5 stays owed.
	fr.inFlight[5] = true
	p.release(1, 1, &granted, fr.credit)
	if len(fr.queued) != 3 || fr.queued[2] != 0 || fr.queued[4] != 0 || granted.Load() != 1 {
		t.Fatalf("after the first fetch: queued %v, granted %d; want 2, 3, 4 held at 0, 1 granted", fr.queued, granted.Load())
	}
	delete(fr.inFlight, 5)
	// Event 3: 9 more fetches (10 in all): the rate allows 1 + 10·10/100 = 2
	// refetches, so one owed page is released, the largest weight: 5 (owed
	// last), at its weight; 2 stays held.
	p.release(99, 10, &granted, fr.credit)
	if granted.Load() != 2 || fr.queued[5] != 0.05 || fr.queued[2] != 0 || !p.released[5] || p.released[2] {
		t.Fatalf("after 10 fetches: queued %v, granted %d; want page 5 released at 0.05, 2 held", fr.queued, granted.Load())
	}
	// Event 4: page 5 comes out: it is the owed refetch, fetched.
	delete(fr.queued, 5)
	if !p.take(5) || p.take(5) {
		t.Fatal("released page 5 is not taken once")
	}
	// Event 5: page 3 comes out before its release (a link raised it)
	// while page 5's refetch is under way: traversed again, still owed.
	delete(fr.queued, 3) // handed out
	if owed, fetch := p.popped(3, 10, &granted); !owed || fetch {
		t.Fatalf("page 3 popped early: owed %v fetch %v; want owed, not fetched", owed, fetch)
	}
	// Event 6: 40 fetches: the rate allows 5; the 3 others are released.
	p.release(5, 40, &granted, fr.credit)
	for _, id := range []uint64{2, 3, 4} {
		if !p.released[id] {
			t.Errorf("page %d not released after 40 fetches (granted %d)", id, granted.Load())
		}
	}
	if granted.Load() != 5 || p.owed.Len() != 0 {
		t.Errorf("granted %d, owed %v; want 5 granted, none owed", granted.Load(), p.owed)
	}
	// Event 7: candidates beyond the cap are over the share.
	for id := uint64(6); id <= 20; id++ {
		p.decide(page(id), 100, &granted)
	}
	if why, fetch := p.decide(page(21), 100, &granted); why != refreshOverShare || fetch || granted.Load() > 10 {
		t.Errorf("candidate past the cap: %s %v, granted %d; want over-share, at most 10", why, fetch, granted.Load())
	}
}

// TestPacerDryCycleRefetchesOwed: a cycle with nothing left to fetch but
// refetches (every URL known) does not strand owed refetches: once the
// last held page comes out while no refetch is under way the cycle is
// dry, and from then on owed pages are refetched at once.
func TestPacerDryCycleRefetchesOwed(t *testing.T) {
	// Pages 1-6 handed out before any fetch; the one burst refetch (1)
	// ends and the owed pages are held.
	p, granted, fr := burstPacer(20, 40, 6)
	if p.held == 0 {
		t.Fatal("no owed page held after the first fetch")
	}
	// Nothing else is queued: held pages come out one after another, no
	// refetch under way, no fetch between them. The first ones are taken
	// for pages a link raised and traversed again; the last makes the
	// cycle dry and is refetched.
	for i, id := range []uint64{2, 3, 4, 5, 6} {
		delete(fr.queued, id)
		owed, fetch := p.popped(id, 1, granted)
		if want := i == 4; !owed || fetch != want {
			t.Fatalf("held page %d, %d-th in a row in a dry cycle: owed %v fetch %v; want fetch %v", id, i+1, owed, fetch, want)
		}
	}
	if !p.dry {
		t.Error("cycle not dry after a held page came out with no refetch under way")
	}
	// The refetch of 6 ends (in a dry cycle every fetch is a refetch):
	// every owed page is released.
	p.release(6, 2, granted, fr.credit)
	if p.owed.Len() != 0 {
		t.Errorf("owed %v after a fetch in a dry cycle; want every owed page released", p.owed)
	}
}

// TestPacerNotDryAfterAFetch: held pages also come out in a row while
// every host with other URLs is busy (the frontier hands out the best URL
// of a ready host): a few in a row do not make the cycle dry. When all
// of them came out it looks dry, but the fetch of a URL that is not a
// refetch then ends: pacing resumes, and owed pages wait for the rate
// again instead of all being released.
func TestPacerNotDryAfterAFetch(t *testing.T) {
	// Event 1: pages 1-10 handed out before any fetch; the burst refetch
	// (1) ends; 2-10 are held.
	p, granted, fr := burstPacer(50, 100, 10)
	// Event 2: four held pages come out in a row, no fetch between them,
	// no refetch under way: traversed again, still owed, not dry.
	for _, id := range []uint64{2, 3, 4, 5} {
		delete(fr.queued, id)
		if owed, fetch := p.popped(id, 1, granted); !owed || fetch || p.dry {
			t.Fatalf("held page %d in a row of four: owed %v fetch %v dry %v; want owed, traversed, not dry", id, owed, fetch, p.dry)
		}
	}
	// Event 3: the other held pages come out too: the last makes the
	// cycle look dry and is refetched.
	for _, id := range []uint64{6, 7, 8, 9, 10} {
		delete(fr.queued, id)
		p.popped(id, 1, granted)
	}
	if !p.dry {
		t.Fatal("not dry after every held page came out")
	}
	// Event 4: the fetch of a URL never fetched before (id 100) ends:
	// not dry. Granted so far: 1 and 10; the rate after 2 fetches allows
	// 1 + 1 = 2, so nothing more is released and 6-10 stay owed.
	g := granted.Load()
	p.release(100, 2, granted, fr.credit)
	if p.dry || granted.Load() != g || p.owed.Len() != 8 {
		t.Errorf("after a fetch that is not a refetch: dry %v, granted %d (was %d), %d owed; want not dry, nothing released, 8 owed",
			p.dry, granted.Load(), g, p.owed.Len())
	}
	// Event 5: a new candidate is owed, not granted at once.
	if why, fetch := p.decide(&storage.Page{ID: 11, URL: "https://a.test/"}, 2, granted); why != refreshPaced || fetch {
		t.Errorf("candidate after pacing resumed: %s %v; want paced", why, fetch)
	}
}

// TestPacerOff: pacing needs a cap, a budget and weights.
func TestPacerOff(t *testing.T) {
	w := func(uint64) float64 { return 1 }
	for _, rc := range []CycleOptions{
		{Paced: false, MaxRefresh: 10, Budget: 100, Weight: w},
		{Paced: true, MaxRefresh: 0, Budget: 100, Weight: w},
		{Paced: true, MaxRefresh: -1, Budget: 100, Weight: w},
		{Paced: true, MaxRefresh: 10, Budget: 0, Weight: w},
		{Paced: true, MaxRefresh: 10, Budget: 100},
	} {
		if newPacer(&rc) != nil {
			t.Errorf("pacer for %+v, want none", rc)
		}
	}
}

// owingPacer returns the pacer of a paced cycle with a cap of 2×owed
// refetches in a budget of owed×perOwed fetches, every page weighing 1,
// after the scheduler handed out known pages 1..owed+1 with a fetch
// between each (so the cycle is not dry and about owed of them are owed);
// with the count of refetches granted.
func owingPacer(owed int, perOwed int64) (*pacer, *atomic.Int64) {
	p := newPacer(&CycleOptions{Paced: true, MaxRefresh: int64(owed) * 2, Budget: int64(owed) * perOwed,
		Weight: func(uint64) float64 { return 1 }})
	granted := new(atomic.Int64)
	for id := uint64(1); id <= uint64(owed)+1; id++ {
		p.decide(&storage.Page{ID: id, URL: "https://a.test/p"}, id, granted)
	}
	return p, granted
}

// BenchmarkPacerPoppedKnown: the cost of asking the pacer about a known
// page that is not owed (every traversal of a known page in a paced cycle
// asks), with owed pages waiting; it must not grow with their number.
func BenchmarkPacerPoppedKnown(b *testing.B) {
	for _, owed := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("owed=%d", owed), func(b *testing.B) {
			p, granted := owingPacer(owed, 100)
			if p.owed.Len() < owed/2 {
				b.Fatalf("%d owed, want at least %d", p.owed.Len(), owed/2)
			}
			b.ResetTimer()
			for i := range b.N {
				if owed, _ := p.popped(uint64(owed)+10+uint64(i), uint64(owed), granted); owed {
					b.Fatal("a page never owed reads as owed")
				}
			}
		})
	}
}

// BenchmarkPacerRelease: the cost of the pacer's work after a fetch
// (release) while owed pages wait, all held in the frontier and the rate
// allowing none: every fetch of a paced cycle pays it, so it must not grow
// with the number owed.
func BenchmarkPacerRelease(b *testing.B) {
	for _, owed := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("owed=%d", owed), func(b *testing.B) {
			p, granted := owingPacer(owed, 1000)
			fr := newPaceFrontier()
			p.release(0, uint64(owed), granted, fr.credit) // holds them all
			n, g := p.owed.Len(), granted.Load()
			if n < owed/2 || p.held != n {
				b.Fatalf("%d owed, %d held; want at least %d, all held", n, p.held, owed/2)
			}
			b.ResetTimer()
			for range b.N {
				p.release(0, uint64(owed), granted, fr.credit)
			}
			b.StopTimer()
			if p.owed.Len() != n || granted.Load() != g {
				b.Fatalf("releases at an unchanged fetch count: %d owed, %d granted; want %d, %d", p.owed.Len(), granted.Load(), n, g)
			}
		})
	}
}

// TestPacerReleaseKeepsQueue: a release that grants the rate's refetches
// and stops early (the rest all held) keeps an owed page whose traversal
// is in flight, and the held rest, in the order they were owed (equal
// weights).
func TestPacerReleaseKeepsQueue(t *testing.T) {
	p := newPacer(&CycleOptions{Paced: true, MaxRefresh: 10, Budget: 100, Weight: func(uint64) float64 { return 1 }})
	var granted atomic.Int64
	fr := newPaceFrontier(2)
	for id := uint64(1); id <= 5; id++ {
		p.decide(&storage.Page{ID: id, URL: "https://a.test/p"}, 0, &granted)
	}
	// Event 1: page 1's fetch ends: 3-5 are held, 2 is in flight.
	p.release(1, 1, &granted, fr.credit)
	if p.held != 3 || p.owed.Len() != 4 {
		t.Fatalf("after the first fetch: %d held of %d owed, want 3 of 4", p.held, p.owed.Len())
	}
	// Event 2: at 10 fetches one refetch more is allowed: 2 is still in
	// flight, so 3 is released; 2, 4 and 5 stay owed in that order.
	p.release(99, 10, &granted, fr.credit)
	ids := owedIDs(p)
	if fmt.Sprint(ids) != "[2 4 5]" || !p.released[3] || p.held != 2 || granted.Load() != 2 {
		t.Fatalf("after 10 fetches: owed %v, released %v, %d held, %d granted; want [2 4 5], 3, 2, 2", ids, p.released, p.held, granted.Load())
	}
	// Event 3: 2's traversal ends and 10 more fetches allow another: 2 is
	// released, then held pages in order.
	delete(fr.inFlight, 2)
	p.release(99, 20, &granted, fr.credit)
	if !p.released[2] || p.owed.Len() != 2 || owedIDs(p)[0] != 4 {
		t.Fatalf("after 20 fetches: owed %v, released %v; want 2 released, 4 first owed", p.owed, p.released)
	}
}

// owedIDs returns the ids of p's owed pages in the order they would be
// released.
func owedIDs(p *pacer) []uint64 {
	q := owedQueue{items: slices.Clone(p.owed.items), at: maps.Clone(p.owed.at)}
	var ids []uint64
	for q.Len() > 0 {
		ids = append(ids, heap.Pop(&q).(owedPage).id)
	}
	return ids
}

// TestPacerSavesAndRestoresOwed: the owed queue goes to the db with each
// commit, changes only (a page owed, a refetch granted), and a pacer
// resuming the cycle from what was stored owes the same pages in the same
// release order, held where the frontier still has them.
func TestPacerSavesAndRestoresOwed(t *testing.T) {
	db := testDB(t, html("https://a.test/"), html("https://a.test/1"), html("https://a.test/2"), html("https://a.test/3"),
		html("https://a.test/4"), html("https://a.test/5"))
	rc := &CycleOptions{Paced: true, MaxRefresh: 10, Budget: 100,
		Weight: func(id uint64) float64 { return float64(6-id) / 100 }}
	p := newPacer(rc)
	var granted atomic.Int64
	fr := newPaceFrontier()
	save := func() {
		t.Helper()
		var b storage.Batch
		p.save(2, &b)
		crawltest.Commit(t, db, &b)
	}
	stored := func() []uint64 {
		t.Helper()
		got, err := db.Owed(2)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, o := range got {
			ids = append(ids, o.ID)
		}
		return ids
	}
	// Event 1: 1 is granted (the burst), 2-5 owed; committed.
	for id := uint64(1); id <= 5; id++ {
		p.decide(&storage.Page{ID: id, URL: "https://a.test/p"}, 0, &granted)
	}
	save()
	if got := fmt.Sprint(stored()); got != "[2 3 4 5]" {
		t.Fatalf("stored owed after the first commit: %s, want [2 3 4 5]", got)
	}
	// Event 2: 2 and 3 are held, 4 and 5 in flight still; at 10 fetches
	// one more is allowed and 2 (the largest weight) is granted.
	fr.inFlight[4], fr.inFlight[5] = true, true
	p.release(1, 10, &granted, fr.credit)
	save()
	if got := fmt.Sprint(stored()); got != "[3 4 5]" {
		t.Fatalf("stored owed after 2 was granted: %s, want [3 4 5]", got)
	}
	// Event 3: a commit with nothing changed writes nothing.
	var b storage.Batch
	p.save(2, &b)
	if !b.Empty() {
		t.Error("a save with no change since the last one filled the batch")
	}
	// Event 4: the process dies; a new pacer resumes from the db, the
	// frontier holding 3 only.
	owed, err := db.Owed(2)
	if err != nil {
		t.Fatal(err)
	}
	in := make([]OwedRefetch, len(owed))
	for i, o := range owed {
		in[i] = OwedRefetch{ID: o.ID, Host: "a.test", Weight: o.Weight, Seq: o.Seq}
	}
	q := newPacer(rc)
	if n := q.restore(in, func(id uint64) bool { return id == 3 }); n != 3 {
		t.Fatalf("restored %d owed, want 3", n)
	}
	if got, want := fmt.Sprint(owedIDs(q)), fmt.Sprint(owedIDs(p)); got != want || q.held != 1 || len(q.unheld) != 2 {
		t.Errorf("resumed pacer owes %s (%d held, %d to hold), want %s (1, 2)", got, q.held, len(q.unheld), want)
	}
	// Event 5: a new page owed after the resume comes after them in order.
	q.decide(&storage.Page{ID: 1, URL: "https://a.test/p"}, 0, &granted)
	if i := q.owed.at[1]; q.owed.items[i].seq <= 3 {
		t.Errorf("page owed after the resume has order %d, want after the stored ones (0-3)", q.owed.items[i].seq)
	}
	// Event 6: restoring more than the share allows keeps the largest.
	r := newPacer(&CycleOptions{Paced: true, MaxRefresh: 2, Budget: 100, Weight: rc.Weight})
	if n := r.restore(in, func(uint64) bool { return true }); n != 2 || fmt.Sprint(owedIDs(r)) != "[3 4]" {
		t.Errorf("restored into a share of 2: %d owed %v, want 2: [3 4]", n, owedIDs(r))
	}
	b.Reset()
	r.save(2, &b)
	crawltest.Commit(t, db, &b)
	if got := fmt.Sprint(stored()); got != "[3 4]" {
		t.Errorf("stored owed after the restore into a share of 2: %s, want [3 4]", got)
	}
}
