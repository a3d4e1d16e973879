package warc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverFailureSkipsFile: a killed writer's file whose index cannot
// be written (here a directory stands where the index's temporary file
// goes, which stops root as well as anyone) must not make Open fail: Open
// skips it, says why in Unrecovered naming the file, leaves its bytes as
// they were and writes new exchanges to a file of its own; another killed
// file beside it is still recovered, and once the obstacle is gone a
// later Open recovers the skipped one.
func TestRecoverFailureSkipsFile(t *testing.T) {
	dir := t.TempDir()
	fine, _, _ := writeFive(t, dir)
	stuck, before, _ := writeFive(t, dir) // its Open indexed fine
	fineIndex := strings.TrimSuffix(fine, ".warc.gz") + ".cdxj"
	if err := os.Remove(fineIndex); err != nil {
		t.Fatal(err)
	}
	index := strings.TrimSuffix(stuck, ".warc.gz") + ".cdxj"
	if err := os.Mkdir(index+".tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := warc.Open(warc.Options{Dir: dir})
	if err != nil {
		t.Fatalf("open with a file whose recovery fails: %v", err)
	}
	got := w.Unrecovered()
	if len(got) != 1 || !errors.Is(got[0], warc.ErrUnrecovered) || !strings.Contains(got[0].Error(), filepath.Base(stuck)) {
		t.Errorf("unrecovered %v; want one ErrUnrecovered naming %s", got, filepath.Base(stuck))
	}
	if rec := w.Recovered(); len(rec) != 1 || rec[0] != (warc.Recovery{Name: filepath.Base(fine)}) {
		t.Errorf("recovered %v, want %s", rec, filepath.Base(fine))
	}
	res, err := w.WriteExchange(context.Background(), fetchExchange(t, pageServer(t).URL+"/q"))
	if err != nil {
		t.Fatalf("write after a skipped recovery: %v", err)
	}
	if res.File == filepath.Base(stuck) || res.File == filepath.Base(fine) {
		t.Errorf("the new writer appended to an earlier file %s", res.File)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(stuck)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, before) {
		t.Errorf("the unrecovered file changed: %d bytes, was %d", len(after), len(before))
	}
	if _, err := os.Stat(index); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the unrecovered file got an index: %v", err)
	}

	if err := os.Remove(index + ".tmp"); err != nil {
		t.Fatal(err)
	}
	w = warc.OpenWriter(t, warc.Options{Dir: dir})
	if rec := w.Recovered(); len(rec) != 1 || rec[0] != (warc.Recovery{Name: filepath.Base(stuck)}) || len(w.Unrecovered()) != 0 {
		t.Errorf("second open: recovered %v, unrecovered %v; want %s recovered", rec, w.Unrecovered(), filepath.Base(stuck))
	}
	if recs := warc.ReadAll(t, stuck); len(recs) != 11 {
		t.Errorf("%d records in the recovered file, want warcinfo and 5 exchanges", len(recs))
	}
}

// TestRecoverCutThenIndexFails: a killed writer's file cut short inside
// its last exchange is cut back before its index is written; when the
// index then cannot be written, Unrecovered says how many bytes were cut,
// not that the file is unchanged.
func TestRecoverCutThenIndexFails(t *testing.T) {
	dir := t.TempDir()
	path, b, results := writeFive(t, dir)
	if err := os.WriteFile(path, b[:len(b)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(strings.TrimSuffix(path, ".warc.gz")+".cdxj.tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	w := warc.OpenWriter(t, warc.Options{Dir: dir})
	got := w.Unrecovered()
	if len(got) != 1 || !errors.Is(got[0], warc.ErrUnrecovered) {
		t.Fatalf("unrecovered %v, want one error for %s", got, path)
	}
	kept := results[4].Offset + results[4].Length // the last response, whole
	cut := int64(len(b)-20) - kept
	if msg := got[0].Error(); !strings.Contains(msg, fmt.Sprintf("(cut by %d bytes, a partial last record pair, before its index failed)", cut)) || strings.Contains(msg, "unchanged") {
		t.Errorf("unrecovered error %q: want it to say %d bytes of a partial last record pair were cut", msg, cut)
	}
	if after := size(t, path); after != kept {
		t.Errorf("file of %d bytes now %d, want cut after the last response, %d", len(b)-20, after, kept)
	}
}
