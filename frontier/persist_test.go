package frontier

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestFlushRoundTrip flushes two rounds of changes into batches of a
// real database, each committed, and checks that LoadSnapshot reads back
// the frontier they leave: a later Put wins, a Delete removes, host ready
// times and the last scheduler state stay.
func TestFlushRoundTrip(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "f.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ints, err := db.Intern([]string{"http://a.test/1", "http://a.test/2", "http://b.test/"}, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	a1, a2, b := ints[0].ID, ints[1].ID, ints[2].ID
	at := time.Unix(1_700_000_000, 0)
	rounds := []Changes{
		{Put: []Entry{{ID: a1, Host: "a.test", Prio: 1}, {ID: a2, Host: "a.test", Prio: 2}, {ID: b, Host: "b.test"}},
			Hosts: []HostState{{Host: "a.test", ReadyAt: at}}, SchedState: []byte("s1")},
		{Put: []Entry{{ID: a2, Host: "a.test", Prio: 5, Attempt: 1}}, Delete: []uint64{b},
			Hosts: []HostState{{Host: "b.test", ReadyAt: at.Add(time.Minute), Reason: "robots-deferred"}}},
	}
	for i := range rounds {
		ch := &rounds[i]
		var batch storage.Batch
		ch.Flush(&batch)
		if !ch.Empty() {
			t.Fatalf("round %d: changes not emptied: %+v", i, ch)
		}
		if err := db.Commit(&batch); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := LoadSnapshot(db, CountHosts)
	if err != nil {
		t.Fatal(err)
	}
	var got []Entry
	for _, e := range snap.Entries {
		got = append(got, Entry{ID: e.ID, Host: e.Host, Prio: e.Prio, Attempt: e.Attempt})
	}
	slices.SortFunc(got, func(x, y Entry) int { return int(x.ID) - int(y.ID) })
	want := []Entry{{ID: a1, Host: "a.test", Prio: 1}, {ID: a2, Host: "a.test", Prio: 5, Attempt: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("entries %+v, want %+v", got, want)
	}
	hosts := map[string]HostState{}
	for _, h := range snap.Hosts {
		hosts[h.Host] = h
	}
	if !hosts["a.test"].ReadyAt.Equal(at) || !hosts["b.test"].ReadyAt.Equal(at.Add(time.Minute)) || hosts["b.test"].Reason != "robots-deferred" {
		t.Errorf("hosts %+v", snap.Hosts)
	}
	if string(snap.SchedState) != "s1" {
		t.Errorf("scheduler state %q, want the last one set, s1", snap.SchedState)
	}
}
