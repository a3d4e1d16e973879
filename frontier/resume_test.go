package frontier

import (
	"errors"
	"reflect"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// restoreLog is a Restorer that keeps the snapshots it was handed and
// fails with err.
type restoreLog struct {
	snaps []Snapshot
	err   error
}

func (r *restoreLog) Restore(s Snapshot) error {
	r.snaps = append(r.snaps, s)
	return r.err
}

func TestCountFor(t *testing.T) {
	for _, tc := range []struct {
		max  int64
		want Count
	}{
		{0, CountHosts},
		{1, CountPages},
		{50000, CountPages},
	} {
		if got := CountFor(tc.max); got != tc.want {
			t.Errorf("CountFor(%d) = %v, want %v", tc.max, got, tc.want)
		}
	}
}

// TestResume: a stored frontier reaches a fresh frontier with the budget
// counts count names; an empty db restores nothing; a failure says which
// step failed.
func TestResume(t *testing.T) {
	full := stored{
		entries:  []Entry{{ID: 1, Host: "a"}, {ID: 2, Host: "b"}},
		hosts:    []storage.Host{{Name: "a", Fetches: 3}},
		pages:    []storage.Page{{URL: "http://a/", Status: storage.StatusFetched}},
		admitted: map[string]int64{"a": 7},
		state:    []byte("s"),
	}
	errStore := errors.New("disk gone")
	errRestore := errors.New("not empty")
	for _, tc := range []struct {
		name         string
		st           stored
		count        Count
		restoreErr   error
		wantIDs      []uint64
		wantAdmitted map[string]int64 // nil: Restore not called
		wantErr      error
	}{
		{name: "empty db", st: stored{}, count: CountHosts},
		{name: "hosts count", st: full, count: CountHosts, wantIDs: []uint64{1, 2},
			wantAdmitted: map[string]int64{"a": 4, "b": 1}},
		{name: "index count", st: full, count: CountIndex, wantIDs: []uint64{1, 2},
			wantAdmitted: map[string]int64{"a": 7}},
		{name: "pages count", st: full, count: CountPages, wantIDs: []uint64{1, 2},
			wantAdmitted: map[string]int64{"a": 1}},
		{name: "store fails", st: stored{err: errStore}, count: CountHosts, wantErr: errStore},
		{name: "restore fails", st: full, count: CountHosts, restoreErr: errRestore, wantErr: errRestore,
			wantAdmitted: map[string]int64{"a": 4, "b": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &restoreLog{err: tc.restoreErr}
			entries, err := Resume(tc.st, r, tc.count)
			if !errors.Is(err, tc.wantErr) || (err != nil) != (tc.wantErr != nil) {
				t.Fatalf("Resume: %v, want %v", err, tc.wantErr)
			}
			var ids []uint64
			for _, e := range entries {
				ids = append(ids, e.ID)
			}
			if !reflect.DeepEqual(ids, tc.wantIDs) {
				t.Errorf("entries %v, want %v", ids, tc.wantIDs)
			}
			if tc.wantAdmitted == nil {
				if len(r.snaps) != 0 {
					t.Errorf("Restore called with %+v", r.snaps)
				}
				return
			}
			if len(r.snaps) != 1 || !reflect.DeepEqual(r.snaps[0].Admitted, tc.wantAdmitted) {
				t.Fatalf("Restore calls %+v, want one with Admitted %v", r.snaps, tc.wantAdmitted)
			}
		})
	}
}

// TestResumeFrontier: the URLs Resume restores are handed out by a real
// frontier.
func TestResumeFrontier(t *testing.T) {
	f := newFrontier(t, bfsSched{}, newFakeClock(), 1)
	st := stored{entries: []Entry{{ID: 1, Host: "a", Seq: 1}, {ID: 2, Host: "b", Seq: 2}}}
	entries, err := Resume(st, f, CountHosts)
	if err != nil || len(entries) != 2 {
		t.Fatalf("Resume = %v, %v", entries, err)
	}
	if got := f.Stats().Pending; got != 2 {
		t.Errorf("pending after Resume %d, want 2", got)
	}
	if j := mustNext(t, f); j.ID != 1 {
		t.Errorf("first job %d, want 1", j.ID)
	}
}
