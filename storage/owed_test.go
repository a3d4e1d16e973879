package storage_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestOwedRefetches: owed refetches are stored per cycle with their
// weight and order, replaced and deleted by later batches, read back in
// the order owed, and kept across a reopen (a file without the bucket
// reads as owing nothing); a batch owing an unknown page or a weight that
// is not finite is refused whole.
func TestOwedRefetches(t *testing.T) {
	db, path := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, urlsN("owed", 5)...)
	read := func(cycle uint32) string {
		t.Helper()
		got, err := db.Owed(cycle)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(got)
	}
	// Event 1: a file that never owed anything; a delete is harmless.
	if got := read(2); got != "[]" {
		t.Fatalf("owed of a fresh file: %s", got)
	}
	var b storage.Batch
	b.DeleteOwed(2, ids[0])
	commit(t, db, &b)
	// Event 2: cycle 2 owes three pages, out of id order; cycle 3 one.
	b.Reset()
	b.PutOwed(2, storage.Owed{ID: ids[3], Weight: 0.5, Seq: 0})
	b.PutOwed(2, storage.Owed{ID: ids[1], Weight: 0.25, Seq: 1})
	b.PutOwed(2, storage.Owed{ID: ids[4], Weight: 0.125, Seq: 2})
	b.PutOwed(3, storage.Owed{ID: ids[0], Weight: 1, Seq: 0})
	commit(t, db, &b)
	if got, want := read(2), fmt.Sprintf("[{%d 0.5 0} {%d 0.25 1} {%d 0.125 2}]", ids[3], ids[1], ids[4]); got != want {
		t.Fatalf("cycle 2 owes %s, want %s", got, want)
	}
	// Event 3: one refetch made (deleted), one owed again later (put
	// replaced), in one batch.
	b.Reset()
	b.DeleteOwed(2, ids[3])
	b.PutOwed(2, storage.Owed{ID: ids[1], Weight: 0.25, Seq: 7})
	commit(t, db, &b)
	// Event 4: a batch with a bad entry changes nothing.
	for _, bad := range []struct {
		o    storage.Owed
		want error
	}{
		{storage.Owed{ID: 99, Weight: 1, Seq: 9}, storage.ErrUnknownID},
		{storage.Owed{ID: ids[2], Weight: math.NaN(), Seq: 9}, storage.ErrBadRecord},
	} {
		b.Reset()
		b.DeleteOwed(2, ids[4])
		b.PutOwed(2, bad.o)
		if err := db.Commit(&b); !errors.Is(err, bad.want) {
			t.Errorf("commit owing %+v: %v, want %v", bad.o, err, bad.want)
		}
	}
	// Event 5: reopened.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openPath(t, path, nil)
	if got, want := read(2), fmt.Sprintf("[{%d 0.125 2} {%d 0.25 7}]", ids[4], ids[1]); got != want {
		t.Errorf("cycle 2 owes %s after the changes and a reopen, want %s", got, want)
	}
	if got, want := read(3), fmt.Sprintf("[{%d 1 0}]", ids[0]); got != want {
		t.Errorf("cycle 3 owes %s, want %s", got, want)
	}
}
