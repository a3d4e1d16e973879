package outfile

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"
)

func TestWrite(t *testing.T) {
	errBody := errors.New("body failed")
	plain := func(t *testing.T, path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gunzip := func(t *testing.T, path string) string { return string(crawltest.ReadGzip(t, path)) }
	for _, tc := range []struct {
		name  string
		write func(string, func(*bufio.Writer) error) error
		read  func(*testing.T, string) string
	}{
		{"plain", Write, plain},
		{"gzip", WriteGzip, gunzip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out")
			// Larger than the buffer, so part of it reaches the file
			// before the failure below.
			big := make([]byte, 200_000)
			for i := range big {
				big[i] = byte('a' + i%26)
			}
			if err := tc.write(path, func(w *bufio.Writer) error { _, err := w.Write(big); return err }); err != nil {
				t.Fatal(err)
			}
			if got := tc.read(t, path); got != string(big) {
				t.Fatalf("read back %d bytes, want %d", len(got), len(big))
			}
			err := tc.write(path, func(w *bufio.Writer) error {
				w.Write(big)
				return errBody
			})
			if !errors.Is(err, errBody) {
				t.Fatalf("failing body: err = %v, want %v", err, errBody)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("after a failed write the file is still there: %v", err)
			}
		})
	}
	if err := Write(filepath.Join(t.TempDir(), "no", "such", "dir"), func(*bufio.Writer) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("create in a missing directory: err = %v", err)
	}
}
