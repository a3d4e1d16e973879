package warc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecoverCutsThroughLockDescriptor: where the lock is held through a
// descriptor open for writing (NFS, whose emulated flock is a POSIX lock
// that closing any other descriptor of the file drops), the cut goes
// through that descriptor, and no other is opened: here the file's name
// is taken away once it is open, so that opening another one fails.
func TestRecoverCutsThroughLockDescriptor(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir, Now: newClock().now})
	if err != nil {
		t.Fatal(err)
	}
	var last Result
	for _, u := range []string{"http://a.example/1", "http://a.example/2"} {
		if last, err = w.WriteExchange(t.Context(), Exchange{URL: u, Request: request("/"), Response: htmlResponse("<p>page</p>")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, w.Files()[0])
	index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	size := st.Size() - 20 // killed inside the last request
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lf, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	moved := path + ".moved"
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	cut, ok, err := recoverOpen(f, lf, path, size, index)
	keep := last.Offset + last.Length
	if err != nil || !ok || cut != size-keep {
		t.Fatalf("cut %d, indexed %v, %v; want %d bytes cut and indexed", cut, ok, err, size-keep)
	}
	if st, err := os.Stat(moved); err != nil || st.Size() != keep {
		t.Errorf("file of %d bytes now %v (%v), want %d", size, st.Size(), err, keep)
	}
}
