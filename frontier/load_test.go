package frontier

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// stored is an in-memory Stored: entries, hosts and a scheduler state.
type stored struct {
	entries []Entry
	hosts   []storage.Host
	state   []byte
	err     error
}

func (s stored) LoadFrontier(fn func(e Entry) error) error {
	for _, e := range s.entries {
		if err := fn(e); err != nil {
			return err
		}
	}
	return s.err
}

func (s stored) EachHost(fn func(h storage.Host) error) error {
	for _, h := range s.hosts {
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

func (s stored) SchedulerState() ([]byte, error) { return s.state, nil }

func TestLoadSnapshot(t *testing.T) {
	at := time.Unix(1000, 0)
	st := stored{
		entries: []Entry{{ID: 1, Host: "a", Seq: 3, Depth: 2, Attempt: 1}, {ID: 2, Host: "a"}, {ID: 3, Host: "c"}},
		hosts: []storage.Host{
			{Name: "a", Fetches: 5},
			{Name: "b", Fetches: 2, ReadyAt: at, Reason: "robots"},
		},
		state: []byte("s"),
	}
	admitted := map[string]int64{}
	snap, err := LoadSnapshot(st, admitted)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(snap.Entries, st.entries) {
		t.Errorf("entries %+v, want %+v", snap.Entries, st.entries)
	}
	if want := []HostState{{Host: "b", ReadyAt: at, Reason: "robots"}}; !reflect.DeepEqual(snap.Hosts, want) {
		t.Errorf("hosts %+v, want %+v", snap.Hosts, want)
	}
	// Host budgets: fetches plus pending URLs; a host only pending counts
	// its pending URLs.
	if want := map[string]int64{"a": 7, "b": 2, "c": 1}; !reflect.DeepEqual(admitted, want) || !reflect.DeepEqual(snap.Admitted, want) {
		t.Errorf("admitted %v, want %v", admitted, want)
	}
	if string(snap.SchedState) != "s" {
		t.Errorf("scheduler state %q", snap.SchedState)
	}
	bad := errors.New("disk")
	if _, err := LoadSnapshot(stored{err: bad}, map[string]int64{}); !errors.Is(err, bad) {
		t.Errorf("load error %v, want wrapping %v", err, bad)
	}
}
