package warc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverLeavesDamagedFile: a file without index whose 2nd exchange has
// one damaged byte (not a cut-short write) must not be cut there: the
// exchanges after the damage are whole and must be kept.
func TestRecoverLeavesDamagedFile(t *testing.T) {
	dir := t.TempDir()
	path, b, results := writeFive(t, dir)
	r := results[1]
	b[r.Offset+r.Length/2] ^= 0xff // one flipped byte inside the 2nd response's gzip member
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w := warc.OpenWriter(t, warc.Options{Dir: dir})
	if got := w.Recovered(); len(got) != 0 {
		t.Errorf("recovered %v; a damaged file is not this writer's to index", got)
	}
	if after := size(t, path); after != int64(len(b)) {
		t.Errorf("damaged file cut from %d to %d bytes: exchanges 3-5 (whole) lost", len(b), after)
	}
}

// writeFive writes five exchanges into a new writer's file in dir, closes
// it, removes its index as a kill before the index would, and returns the
// file's path and bytes with the exchanges' results.
func writeFive(t *testing.T, dir string) (string, []byte, []warc.Result) {
	t.Helper()
	srv := pageServer(t)
	w := warc.OpenWriter(t, warc.Options{Dir: dir})
	var results []warc.Result
	for range 5 {
		res, err := w.WriteExchange(context.Background(), fetchExchange(t, srv.URL+"/p"))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, results[0].File)
	os.Remove(strings.TrimSuffix(path, ".warc.gz") + ".cdxj")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b, results
}

// TestRecoverLeavesHeaderDamage: one bit set in the gzip header of the
// 2nd of 5 exchanges (FEXTRA: gzip then skips a length read from the
// compressed data, past the file's end) fails the read with an unexpected
// EOF, but whole exchanges follow it: damage, left alone.
func TestRecoverLeavesHeaderDamage(t *testing.T) {
	dir := t.TempDir()
	path, b, results := writeFive(t, dir)
	b[results[1].Offset+3] |= 0x04
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w := warc.OpenWriter(t, warc.Options{Dir: dir})
	if after := size(t, path); after != int64(len(b)) || len(w.Recovered()) != 0 {
		t.Errorf("damaged file cut from %d to %d bytes, recovered %v: exchanges 3-5 (whole) lost", len(b), after, w.Recovered())
	}
}

// TestRecoverZeroedTail: a power cut that loses a file's last blocks
// leaves zeros from a block boundary, inside the last exchange: the file
// is cut back to the exchange before it and indexed.
func TestRecoverZeroedTail(t *testing.T) {
	orig, b, results := writeFive(t, t.TempDir())
	last := results[4]
	pair := int64(len(b)) - last.Offset
	for _, from := range []int64{1, pair / 4, pair / 2, 3 * pair / 4, pair - 8} {
		t.Run(fmt.Sprint(from), func(t *testing.T) {
			z := append([]byte(nil), b...)
			clear(z[last.Offset+from:])
			dir := t.TempDir()
			path := filepath.Join(dir, filepath.Base(orig))
			if err := os.WriteFile(path, z, 0o644); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if after := size(t, path); after != last.Offset || len(w.Recovered()) != 1 {
				t.Errorf("zeros from %d into the last exchange: file now %d bytes, recovered %v; want cut at %d and indexed", from, after, w.Recovered(), last.Offset)
			}
		})
	}
}
