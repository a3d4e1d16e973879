package warc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverFlipNearEnd: a flipped bit in the last bytes of a file's last
// request member (its last deflate bytes, its trailer) can make gzip read
// the trailer as data and run into the file's end as a cut-short write
// does. It is damage: the file, whose every record was whole, must not be
// cut, neither the damaged request nor the whole response before it.
func TestRecoverFlipNearEnd(t *testing.T) {
	orig, b, _ := writeFive(t, t.TempDir())
	cuts := 0
	for at := len(b) - 30; at < len(b)-8; at++ {
		for _, bit := range []byte{0x01, 0x80} {
			z := bytes.Clone(b)
			z[at] ^= bit
			path, w := recoverBytes(t, filepath.Base(orig), z)
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(after, z) {
				cuts++
				t.Errorf("bit %#x of byte %d of %d flipped: file cut to %d bytes, recovered %v", bit, at, len(b), len(after), w.Recovered())
			}
		}
	}
	if cuts > 0 {
		t.Logf("%d of 44 flips cut the file", cuts)
	}
}

// TestRecoverEveryTruncation: a kill inside the write of the last record
// pair can leave any prefix of it. Whatever its length, the file is cut
// back to the last byte of a whole record and indexed.
func TestRecoverEveryTruncation(t *testing.T) {
	orig, b, results := writeFive(t, t.TempDir())
	last := results[4]
	for n := last.Offset + 1; n < int64(len(b)); n++ {
		path, w := recoverBytes(t, filepath.Base(orig), b[:n])
		want := []warc.Recovery{{Name: filepath.Base(path), Cut: n - keptOf(last, n)}}
		if got := w.Recovered(); fmt.Sprint(got) != fmt.Sprint(want) || size(t, path) != keptOf(last, n) {
			t.Fatalf("file cut to %d of %d bytes: recovered %v, unrecovered %v, now %d bytes; want %v", n, len(b), got, w.Unrecovered(), size(t, path), want)
		}
	}
}

// keptOf is where recovery cuts a file that ends n bytes into the pair
// last leads.
func keptOf(last warc.Result, n int64) int64 { return last.Offset }

// recoverBytes writes b as the file named name into a directory of its
// own and opens a Writer there, which recovers it.
func recoverBytes(t *testing.T, name string, b []byte) (string, *warc.Writer) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := warc.Open(warc.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, w
}
