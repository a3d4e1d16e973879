package frontier

import (
	"testing"

	"github.com/seedcrawl/seedcrawl/scheduler"
)

// TestRemoteTargets: a target another node owns counts among the seeds
// and out-links and gets its share in Mass, but is never queued here.
func TestRemoteTargets(t *testing.T) {
	d := 0.85 // a variable: shares computed in float64, as the scheduler does
	sched, err := scheduler.ByName("fpr", scheduler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := newFrontier(t, sched, newFakeClock(), 10)
	// Two seeds, one remote: the local one gets (1−d)/2.
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "b", Remote: true}}, nil); err != nil {
		t.Fatal(err)
	}
	if n := f.Len(); n != 1 {
		t.Fatalf("%d URLs queued after seeding, want 1 (the remote seed is not)", n)
	}
	j := mustNext(t, f)
	if fSeed := (1 - d) / 2; j.ID != 1 || j.Prio != fSeed {
		t.Fatalf("seed job %+v, want id 1 at (1−d)/2 = %v", j, fSeed)
	}
	links := []Target{{ID: 3, Host: "a", Depth: 1, New: true}, {ID: 4, Host: "c", Depth: 1, New: true, Remote: true},
		{ID: 2, Host: "b", Depth: 1, Remote: true}}
	if err := f.Complete(j, Outcome{Downloaded: true, Links: links}, nil); err != nil {
		t.Fatal(err)
	}
	share := d * j.Prio / 3
	for i, want := range []float64{0, share, share} {
		if links[i].Mass != want {
			t.Errorf("link %d: Mass %v, want %v", links[i].ID, links[i].Mass, want)
		}
	}
	if n := f.Len(); n != 1 {
		t.Fatalf("%d URLs queued, want 1 (remote targets are not)", n)
	}
	if j := mustNext(t, f); j.ID != 3 || j.Prio != share {
		t.Fatalf("job %+v, want id 3 at the share %v", j, share)
	}
}

// TestCredit follows mass from other nodes through its cases, in order:
// a new URL is queued at its mass, a pending one gets mass added and the
// lesser depth, one in flight or marked Skip is left alone.
func TestCredit(t *testing.T) {
	f := newFrontier(t, bfsSched{}, newFakeClock(), 10)
	var ch Changes
	steps := []struct {
		name     string
		in       Target
		enqueued int
		prio     float64 // of id 1 when pending after the step
		depth    int
	}{
		{"new URL queued at its mass", Target{ID: 1, Host: "a", Depth: 5, New: true, Mass: 0.25}, 1, 0.25, 5},
		{"pending: mass added, lesser depth", Target{ID: 1, Host: "a", Depth: 3, Mass: 0.5}, 0, 0.75, 3},
		{"pending: a deeper path changes no depth", Target{ID: 1, Host: "a", Depth: 9, Mass: 0.25}, 0, 1, 3},
		{"pending, no mass: depth only", Target{ID: 1, Host: "a", Depth: 2}, 0, 1, 2},
		{"New again while pending: added, not queued twice", Target{ID: 1, Host: "a", Depth: 2, New: true, Mass: 1}, 0, 2, 2},
		{"Skip is never queued", Target{ID: 7, Host: "a", New: true, Skip: true, Mass: 9}, 0, 2, 2},
	}
	for _, s := range steps {
		ch.Reset()
		if n := f.Credit([]Target{s.in}, &ch); n != s.enqueued {
			t.Fatalf("%s: Credit enqueued %d, want %d", s.name, n, s.enqueued)
		}
		if len(ch.Put) > 0 {
			e := ch.Put[len(ch.Put)-1]
			if e.ID != 1 || e.Prio != s.prio || int(e.Depth) != s.depth {
				t.Fatalf("%s: stored entry %+v, want id 1 at %v, depth %d", s.name, e, s.prio, s.depth)
			}
		}
	}
	j := mustNext(t, f)
	if j.ID != 1 || j.Prio != 2 || j.Depth != 2 {
		t.Fatalf("job %+v, want id 1 at priority 2, depth 2", j)
	}
	// In flight: the mass is dropped, as a downloaded target's share is.
	ch.Reset()
	if n := f.Credit([]Target{{ID: 1, Host: "a", Depth: 0, New: true, Mass: 4}}, &ch); n != 0 || len(ch.Put) != 0 || f.Len() != 0 {
		t.Fatalf("Credit of a URL in flight: %d enqueued, %d entries, %d queued; want none", n, len(ch.Put), f.Len())
	}
}

// TestLocalLinkLowersDepth: a pending URL found again by a shorter path
// keeps the lesser depth, so its own links are counted from it.
func TestLocalLinkLowersDepth(t *testing.T) {
	f := newFrontier(t, bfsSched{}, newFakeClock(), 10)
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "b", New: true}}, nil); err != nil {
		t.Fatal(err)
	}
	j1 := mustNext(t, f)
	if err := f.Complete(j1, Outcome{Downloaded: true, Links: []Target{{ID: 3, Host: "c", Depth: 4, New: true}}}, nil); err != nil {
		t.Fatal(err)
	}
	j2 := mustNext(t, f)
	var ch Changes
	if err := f.Complete(j2, Outcome{Downloaded: true, Links: []Target{{ID: 3, Host: "c", Depth: 1}}}, &ch); err != nil {
		t.Fatal(err)
	}
	if len(ch.Put) != 1 || ch.Put[0].ID != 3 || ch.Put[0].Depth != 1 {
		t.Fatalf("changes %+v: want the entry of id 3 stored at depth 1", ch.Put)
	}
	if j := mustNext(t, f); j.ID != 3 || j.Depth != 1 {
		t.Fatalf("job %+v, want id 3 at depth 1", j)
	}
}
