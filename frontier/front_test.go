package frontier

import (
	"cmp"
	"slices"
	"testing"
)

// TestAddGoesFirst checks that URLs queued with Add (a site's sitemaps)
// come out before the host's other URLs, whatever their priorities, by
// priority and then in the order added, also after a restart from the
// stored entries; a URL queued already moves in front; and that
// the sequence numbers of a restored frontier continue after the largest
// stored one, the mark of Add's entries aside.
func TestAddGoesFirst(t *testing.T) {
	prio := map[uint64]float64{1: 0.9, 2: 0.8, 3: 0.7, 5: 0.95, 7: 0.7}
	for _, tc := range []struct {
		name     string
		restart  bool
		wantHost []uint64 // ids of host a in the order handed out
	}{
		{name: "one frontier", wantHost: []uint64{3, 4, 6, 1, 2}},
		{name: "restored from the stored entries", restart: true, wantHost: []uint64{3, 4, 6, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			f := newFrontier(t, fixedSched{prio: prio}, clk, 1)
			var ch Changes
			// Pages 1-3 of host a are queued by the scheduler; 4 and 6
			// (sitemaps) are added later at a lower priority than any of
			// them, and 3, queued already, is offered again: it moves in
			// front with its priority, above 4 and 6; 5 is a page of host
			// b with the highest priority.
			if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 2, Host: "a", New: true},
				{ID: 3, Host: "a", New: true}, {ID: 5, Host: "b", New: true}}, &ch); err != nil {
				t.Fatal(err)
			}
			if n := f.Add([]Target{{ID: 4, Host: "a"}, {ID: 3, Host: "a"}, {ID: 6, Host: "a"}}, 0.1, &ch); n != 2 {
				t.Fatalf("Add enqueued %d, want 2", n)
			}
			if tc.restart {
				st := newStore()
				st.apply(&ch)
				f = newFrontier(t, fixedSched{prio: prio}, clk, 1)
				if err := f.Restore(st.snapshot()); err != nil {
					t.Fatal(err)
				}
				// A URL queued after the restart gets a sequence number
				// after the stored ones: last among equal priorities.
				if err := f.Seed([]Target{{ID: 7, Host: "a", New: true}}, nil); err != nil {
					t.Fatal(err)
				}
			}
			var host []uint64
			for range f.Len() {
				j, _, err := nextAdvancing(t, f, clk)
				if err != nil {
					t.Fatal(err)
				}
				if j.Host == "a" {
					host = append(host, j.ID)
				}
				if j.ID == 4 && j.Prio != 0.1 {
					t.Errorf("added job's priority %v, want 0.1 (what the scheduler is told)", j.Prio)
				}
				if _, err := f.Done(j, Result{Requested: true}, nil); err != nil {
					t.Fatal(err)
				}
			}
			want := tc.wantHost
			if tc.restart {
				want = append(slices.Clone(want), 7)
			}
			if !slices.Equal(host, want) {
				t.Errorf("host a handed out %v, want %v", host, want)
			}
		})
	}
}

// TestAddKeepsHostOrder checks that a URL put at the front of its host's
// queue by Add goes ahead of the host's other URLs only: between hosts,
// the host still ranks by its best URL's priority and discovery. With
// every priority equal (as under bfs), host a, whose pages and sitemap
// were found before host b's page, comes first; a mark that ranked hosts
// too put every host with a queued sitemap behind every host without one.
func TestAddKeepsHostOrder(t *testing.T) {
	clk := newFakeClock()
	f := newFrontier(t, fixedSched{prio: map[uint64]float64{}}, clk, 1)
	var ch Changes
	if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}, {ID: 3, Host: "a", New: true}}, &ch); err != nil {
		t.Fatal(err)
	}
	first, _, err := nextAdvancing(t, f, clk)
	if err != nil || first.ID != 1 {
		t.Fatalf("first job %d, %v; want 1", first.ID, err)
	}
	if n := f.Add([]Target{{ID: 2, Host: "a"}}, 0, &ch); n != 1 {
		t.Fatalf("Add enqueued %d, want 1", n)
	}
	if err := f.Seed([]Target{{ID: 10, Host: "b", New: true}}, &ch); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Done(first, Result{Requested: true}, nil); err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for range f.Len() {
		j, _, err := nextAdvancing(t, f, clk)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, j.ID)
		if _, err := f.Done(j, Result{Requested: true}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if want := []uint64{2, 3, 10}; !slices.Equal(got, want) {
		t.Errorf("handed out %v, want %v (a's sitemap, a's page, then b's page found after both)", got, want)
	}
}

// TestRenumber: a frontier rebuilt in a new order (a recrawl cycle's
// start) sorts stored entries by SeqOrder, the discovery the number
// holds, and renumbers them with Renumber, which keeps a sitemap's place
// at its host's front: a marked number sorts by its discovery, not after
// every unmarked one, and stays marked.
func TestRenumber(t *testing.T) {
	marked := Renumber(frontSeq, 2) // a sitemap found second, queued with Add
	stored := []uint64{5, marked, 3}
	slices.SortFunc(stored, func(a, b uint64) int { return cmp.Compare(SeqOrder(a), SeqOrder(b)) })
	if want := []uint64{marked, 3, 5}; !slices.Equal(stored, want) {
		t.Errorf("sorted %v, want %v", stored, want)
	}
	for n, seq := range stored {
		got := Renumber(seq, uint64(n))
		if SeqOrder(got) != uint64(n) || (got&frontSeq != 0) != (seq == marked) {
			t.Errorf("Renumber(%#x, %d) = %#x: want order %d, marked only for the sitemap", seq, n, got, n)
		}
	}
}
