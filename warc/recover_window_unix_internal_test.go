//go:build unix

package warc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecoverLooksAgainAfterLock: recovery opens a file, then takes its
// lock; until then its writer may write on and then close it with its
// index, or be killed. What recovery does must follow the file as it is
// once locked: a file closed meanwhile is left with its own index, and
// one written on is indexed to its end.
func TestRecoverLooksAgainAfterLock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		closed bool // the writer closes the file; else it is killed
	}{
		{"closed", true},
		{"killed", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Open(Options{Dir: dir, Now: newClock().now})
			if err != nil {
				t.Fatal(err)
			}
			var last Result
			write := func(u string) {
				if last, err = w.WriteExchange(t.Context(), Exchange{URL: u, Request: request("/"), Response: htmlResponse("<p>" + u + "</p>")}); err != nil {
					t.Fatal(err)
				}
			}
			write("http://a.example/1")
			write("http://a.example/2")
			path := filepath.Join(dir, w.Files()[0])
			index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
			// Recovery opens the file, its writer still at work.
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			write("http://a.example/3")
			write("http://a.example/4")
			var half []byte
			if tc.closed {
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
			} else {
				// Killed inside the write of a fifth pair: half of it in
				// the file, the lock gone, no index.
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				half = b[last.Offset : last.Offset+(int64(len(b))-last.Offset)/2]
				if _, err := w.f.Write(half); err != nil {
					t.Fatal(err)
				}
				w.f.Close()
				w.f = nil
			}
			before, _ := os.ReadFile(index)
			cut, ok, err := recoverOpened(f, st, path, index)
			after, ierr := os.ReadFile(index)
			if err != nil || ierr != nil || cut != int64(len(half)) || ok == tc.closed {
				t.Fatalf("cut %d, indexed %v, %v (index: %v); want %d bytes cut, indexed %v", cut, ok, err, ierr, len(half), !tc.closed)
			}
			if n := bytes.Count(after, []byte("\n")); n != 4 || (tc.closed && !bytes.Equal(after, before)) {
				t.Errorf("index of %d lines, want the 4 exchanges' (the writer's own: %v):\n%s", n, tc.closed, after)
			}
		})
	}
}
