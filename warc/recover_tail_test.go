package warc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	for at := len(b) - 30; at < len(b); at++ {
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
		t.Logf("%d of 60 flips cut the file", cuts)
	}
}

// TestRecoverEveryTruncation: a kill inside the write of the last record
// pair can leave any prefix of it. Whatever its length, the file is cut
// back to the end of its last whole record, the pair's response when that
// is whole, and indexed.
func TestRecoverEveryTruncation(t *testing.T) {
	orig, b, results := writeFive(t, t.TempDir())
	last := results[4]
	for n := last.Offset + 1; n < int64(len(b)); n++ {
		path, w := recoverBytes(t, filepath.Base(orig), b[:n])
		want := []warc.Recovery{{Name: filepath.Base(path), Cut: n - keptOf(last, n)}}
		if got := w.Recovered(); fmt.Sprint(got) != fmt.Sprint(want) || size(t, path) != keptOf(last, n) {
			t.Fatalf("file cut to %d of %d bytes: recovered %v, unrecovered %v, now %d bytes; want %v", n, len(b), got, w.Unrecovered(), size(t, path), want)
		}
		lines := 4 // a response of each whole pair
		if keptOf(last, n) > last.Offset {
			lines++
		}
		if idx := indexOf(t, path); len(idx) != lines {
			t.Fatalf("file cut to %d of %d bytes: index of %d lines, want %d", n, len(b), len(idx), lines)
		}
	}
}

// TestRecoverEveryZeroedTail: a power cut can zero the file from any byte
// of the last pair on. Wherever the zeros start, the file is cut back to
// the end of its last whole record, the pair's response when that is
// whole, and indexed; or, when the zeros took from a member's trailer no
// more than one byte that was not zero (which a flipped bit can do too),
// it is left as it was and reported.
func TestRecoverEveryZeroedTail(t *testing.T) {
	orig, b, results := writeFive(t, t.TempDir())
	last := results[4]
	size := int64(len(b))
	left := 0
	for n := last.Offset + 1; n < size; n++ {
		z := bytes.Clone(b)
		clear(z[n:])
		from := n // the first byte the zeros changed
		for from < size && b[from] == 0 {
			from++
		}
		path, w := recoverBytes(t, filepath.Base(orig), z)
		want := []warc.Recovery{{Name: filepath.Base(path), Cut: size - keptOf(last, from)}}
		for _, end := range []int64{last.Offset + last.Length, size} {
			if from >= end-8 && from < end && bytes.Count(b[from:end], []byte{0}) >= int(end-from)-1 {
				want = nil // one byte of a trailer lost
			}
		}
		if from == size {
			want[0].Cut = 0 // nothing changed
		}
		got := w.Recovered()
		if want == nil {
			left++
			if len(got) != 0 || len(w.Unrecovered()) != 1 || !bytes.Equal(fileBytes(t, path), z) {
				t.Errorf("zeros from byte %d of %d: recovered %v, unrecovered %v; want the file left as it was", n, size, got, w.Unrecovered())
			}
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(w.Unrecovered()) > 0 {
			t.Errorf("zeros from byte %d of %d (response ends at %d): recovered %v, unrecovered %v; want %v", n, size, last.Offset+last.Length, got, w.Unrecovered(), want)
		}
	}
	t.Logf("%d of %d zeroed tails left as they were", left, size-last.Offset-1)
}

// fileBytes returns the content of the file at path.
func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecoverZerosFromEarlierPair: a power cut whose zeros start in the
// request of the last pair but one, and run over the last pair, cuts the
// file after that pair's response, which is whole, and indexes it.
func TestRecoverZerosFromEarlierPair(t *testing.T) {
	orig, b, results := writeFive(t, t.TempDir())
	prev := results[3]
	end := prev.Offset + prev.Length // the request of the pair before last starts here
	for _, from := range []int64{end, end + 10, results[4].Offset - 9} {
		z := bytes.Clone(b)
		clear(z[from:])
		path, w := recoverBytes(t, filepath.Base(orig), z)
		want := warc.Recovery{Name: filepath.Base(path), Cut: int64(len(z)) - end}
		if got := w.Recovered(); len(got) != 1 || got[0] != want || size(t, path) != end {
			t.Errorf("zeros from byte %d: recovered %v, unrecovered %v, file now %d bytes; want %v", from, got, w.Unrecovered(), size(t, path), want)
		}
		if recs := warc.ReadAll(t, path); len(recs) != 8 || recs[7].Offset != prev.Offset || recs[7].Type() != prev.Type {
			t.Errorf("zeros from byte %d: records %s, want the response at %d last of 8", from, warc.Types(recs), prev.Offset)
		}
		if idx := indexOf(t, path); len(idx) != 4 || !strings.Contains(idx[3]+idx[2]+idx[1]+idx[0], fmt.Sprintf(`"offset":"%d"`, prev.Offset)) {
			t.Errorf("zeros from byte %d: index %q, want 4 lines, one of the kept response", from, idx)
		}
	}
}

// indexOf returns the lines of the CDXJ index of the WARC file at path.
func indexOf(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(strings.TrimSuffix(path, ".warc.gz") + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// keptOf is where recovery cuts a file whose pair that last leads stops
// at byte n (its end, or the start of zeros): after its response if that
// is whole, else before the pair.
func keptOf(last warc.Result, n int64) int64 {
	if end := last.Offset + last.Length; n >= end {
		return end
	}
	return last.Offset
}

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
