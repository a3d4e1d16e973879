package frontier

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// stored is an in-memory Stored: entries, hosts, pages, an admitted
// index and a scheduler state.
type stored struct {
	entries  []Entry
	hosts    []storage.Host
	pages    []storage.Page
	admitted map[string]int64
	state    []byte
	err      error
}

func (s stored) AdmittedByHost() (map[string]int64, error) { return s.admitted, s.err }

func (s stored) EachPage(fn func(p *storage.Page) error) error {
	for i := range s.pages {
		if err := fn(&s.pages[i]); err != nil {
			return err
		}
	}
	return s.err
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
		pages: []storage.Page{
			{URL: "http://a/1", Status: storage.StatusFetched},
			{URL: "http://a/2", Status: storage.StatusRobotsDenied},
			{URL: "http://a/3", Status: storage.StatusQueued},
			{URL: "http://a/4", Status: storage.StatusDiscovered},
			{URL: "http://b/", Status: storage.StatusDeferred},
			{URL: "http://b/x", Status: storage.StatusOutOfScope},
			{URL: "http://c/", Status: storage.StatusRejected},
		},
		admitted: map[string]int64{"a": 9, "z": 1},
		state:    []byte("s"),
	}
	for _, tc := range []struct {
		name  string
		count Count
		want  map[string]int64
	}{
		// Fetches plus pending URLs; a host only pending counts its
		// pending URLs.
		{"hosts", CountHosts, map[string]int64{"a": 7, "b": 2, "c": 1}},
		// The stored index as it is.
		{"index", CountIndex, map[string]int64{"a": 9, "z": 1}},
		// Every URL that was queued, whatever became of it; not those
		// only discovered, out of scope or rejected.
		{"pages", CountPages, map[string]int64{"a": 3, "b": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap, err := LoadSnapshot(st, tc.count)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(snap.Entries, st.entries) {
				t.Errorf("entries %+v, want %+v", snap.Entries, st.entries)
			}
			if want := []HostState{{Host: "b", ReadyAt: at, Reason: "robots"}}; !reflect.DeepEqual(snap.Hosts, want) {
				t.Errorf("hosts %+v, want %+v", snap.Hosts, want)
			}
			if !reflect.DeepEqual(snap.Admitted, tc.want) {
				t.Errorf("admitted %v, want %v", snap.Admitted, tc.want)
			}
			if string(snap.SchedState) != "s" {
				t.Errorf("scheduler state %q", snap.SchedState)
			}
		})
	}
	bad := errors.New("disk")
	for _, c := range []Count{CountHosts, CountIndex, CountPages} {
		if _, err := LoadSnapshot(stored{err: bad}, c); !errors.Is(err, bad) {
			t.Errorf("count %d: load error %v, want wrapping %v", c, err, bad)
		}
	}
}
