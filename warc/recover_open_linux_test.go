//go:build linux

package warc_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverOpensReadOnly: a whole file that needs only its index is
// opened for reading alone, so a file its owner made read-only is indexed
// too; only a file recovery cuts is opened for writing. The tests run as
// root, who may open any file for writing, so the open mode is seen
// through inotify: closing a descriptor open for writing is
// IN_CLOSE_WRITE, whether anything was written or not.
func TestRecoverOpensReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cut       int // bytes a kill left off the file's end
		wantWrite bool
	}{
		{"whole, read-only", 0, false},
		{"cut short", 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, b, results := writeFive(t, dir)
			b = b[:len(b)-tc.cut]
			var cut int64 // back to the last pair's whole response
			if tc.cut > 0 {
				cut = int64(len(b)) - results[4].Offset - results[4].Length
			}
			if err := os.WriteFile(path, b, 0o444); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
			before, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			closes := watchCloses(t, path)
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if got := w.Recovered(); len(got) != 1 || got[0] != (warc.Recovery{Name: filepath.Base(path), Cut: cut}) {
				t.Fatalf("recovered %v, unrecovered %v; want %s indexed, %d bytes cut", got, w.Unrecovered(), filepath.Base(path), cut)
			}
			write, nowrite := closes()
			if write != tc.wantWrite || !nowrite {
				t.Errorf("closed after writing %v, after reading %v; want writing %v and reading", write, nowrite, tc.wantWrite)
			}
			if tc.wantWrite {
				return
			}
			after, err := os.Stat(path)
			if err != nil || !after.ModTime().Equal(before.ModTime()) || after.Mode() != before.Mode() {
				t.Errorf("the whole file changed: %v, was %v (%v)", after, before, err)
			}
			if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, b) {
				t.Errorf("the whole file's bytes changed (%v)", err)
			}
		})
	}
}

// watchCloses watches the file at path with inotify and returns a
// function that reports whether it was closed, since, from a descriptor
// open for writing and from one open for reading only.
func watchCloses(t *testing.T, path string) func() (write, nowrite bool) {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if _, err := syscall.InotifyAddWatch(fd, path, syscall.IN_CLOSE_WRITE|syscall.IN_CLOSE_NOWRITE); err != nil {
		t.Fatal(err)
	}
	return func() (write, nowrite bool) {
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if errors.Is(err, syscall.EAGAIN) {
				return write, nowrite
			}
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				write = write || ev.Mask&syscall.IN_CLOSE_WRITE != 0
				nowrite = nowrite || ev.Mask&syscall.IN_CLOSE_NOWRITE != 0
				off += syscall.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}
