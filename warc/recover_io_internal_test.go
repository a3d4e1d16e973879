package warc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// failingFile is a real file whose reads fail with EIO as a disk's do on
// a bad sector: sequential reads at or past failAt, or every ReadAt.
type failingFile struct {
	*os.File
	failAt int64 // -1: sequential reads do not fail
	failRA bool
	pos    int64
}

func (f *failingFile) eio() error { return &os.PathError{Op: "read", Path: f.Name(), Err: syscall.EIO} }

func (f *failingFile) Read(p []byte) (int, error) {
	if f.failAt >= 0 {
		if f.pos >= f.failAt {
			return 0, f.eio()
		}
		p = p[:min(int64(len(p)), f.failAt-f.pos)]
	}
	n, err := f.File.Read(p)
	f.pos += int64(n)
	return n, err
}

func (f *failingFile) ReadAt(p []byte, off int64) (int, error) {
	if f.failRA {
		return 0, f.eio()
	}
	return f.File.ReadAt(p, off)
}

// TestRecoverReadError: a killed writer's file cut short inside its last
// exchange is cut back and indexed when it reads soundly; when a read
// fails, before the cut or in the look for whole records after it, the
// file is no cut-short write known to be: recovery leaves it byte for
// byte, writes no index and returns the read's error, without the path
// its caller names.
func TestRecoverReadError(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, Options{Dir: dir})
	for _, u := range []string{"http://a.example/1", "http://a.example/2", "http://a.example/3"} {
		if _, err := w.WriteExchange(context.Background(), Exchange{URL: u, Request: request("/"), Response: htmlResponse(strings.Repeat("x", 300))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	name := w.Files()[0]
	whole, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	b := whole[:len(whole)-20] // a kill inside the last request's member
	for _, tc := range []struct {
		name   string
		failAt int64
		failRA bool
		ok     bool
	}{
		{"sound reads", -1, false, true},
		{"ReadAt fails", -1, true, false},
		{"read fails in the last exchange", int64(len(b)) - 100, false, false},
		{"read fails at the first byte", 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ff := &failingFile{File: f, failAt: tc.failAt, failRA: tc.failRA}
			cut, ok, err := recoverOpen(ff, nil, path, int64(len(b)), index)
			after, rerr := os.ReadFile(path)
			if rerr != nil {
				t.Fatal(rerr)
			}
			_, ierr := os.Stat(index)
			if tc.ok {
				if !ok || cut != int64(len(b)-len(after)) || err != nil || len(after) >= len(b) || ierr != nil {
					t.Fatalf("ok %v, cut %v, %v, %d of %d bytes left, index %v; want the partial exchange cut and an index",
						ok, cut, err, len(after), len(b), ierr)
				}
				return
			}
			if ok || cut != 0 || !errors.Is(err, syscall.EIO) {
				t.Errorf("ok %v, cut %v, error %v; want neither and EIO", ok, cut, err)
			}
			if err != nil && strings.Contains(err.Error(), path) {
				t.Errorf("error %q names the file, which its caller names", err)
			}
			if !bytes.Equal(after, b) {
				t.Errorf("file of %d bytes now %d after a failed read", len(b), len(after))
			}
			if !errors.Is(ierr, os.ErrNotExist) {
				t.Errorf("index written after a failed read: %v", ierr)
			}
		})
	}
}
