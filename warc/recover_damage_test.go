package warc_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverLeavesDamagedFile: a file without index whose 2nd of 5
// exchanges is damaged (not a cut-short write) must not be cut there, as
// the exchanges after the damage are whole, nor indexed: Open leaves it
// byte for byte and reports it in Unrecovered with the cause.
func TestRecoverLeavesDamagedFile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, b []byte, r warc.Result) []byte
		cause  error // besides ErrUnrecovered; nil for any
	}{
		{"flipped byte", func(_ *testing.T, b []byte, r warc.Result) []byte {
			b[r.Offset+r.Length/2] ^= 0xff // inside the 2nd response's gzip member
			return b
		}, nil},
		// FEXTRA: gzip then skips a length read from the compressed data,
		// past the file's end, and the read fails with an unexpected EOF.
		{"header bit", func(_ *testing.T, b []byte, r warc.Result) []byte {
			b[r.Offset+3] |= 0x04
			return b
		}, io.ErrUnexpectedEOF},
		// A member that decompresses whole, its block changed: whole
		// members, bytes that changed.
		{"digest mismatch", func(t *testing.T, b []byte, r warc.Result) []byte {
			rec := gunzip(t, b[r.Offset:r.Offset+r.Length])
			rec[len(rec)-len("\r\n\r\n")-1] ^= 0x01 // the block's last byte
			return slices.Concat(b[:r.Offset], gzipped(t, rec), b[r.Offset+r.Length:])
		}, warc.ErrDigest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, b, results := writeFive(t, dir)
			b = tc.damage(t, b, results[1])
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if got := w.Recovered(); len(got) != 0 {
				t.Errorf("recovered %v; a damaged file is not this writer's to index", got)
			}
			checkUnrecovered(t, w, path, b, tc.cause)
		})
	}
}

// checkUnrecovered fails t unless w reports the file at path, and it
// alone, as unrecovered (wrapping ErrUnrecovered and cause, when not nil,
// naming path once and saying it is unchanged), and the file still holds
// want, without an index.
func checkUnrecovered(t *testing.T, w *warc.Writer, path string, want []byte, cause error) {
	t.Helper()
	got := w.Unrecovered()
	if len(got) != 1 {
		t.Fatalf("unrecovered %v, want one error for %s", got, path)
	}
	err := got[0]
	if !errors.Is(err, warc.ErrUnrecovered) || (cause != nil && !errors.Is(err, cause)) {
		t.Errorf("unrecovered error %q wraps neither ErrUnrecovered nor %v", err, cause)
	}
	if msg := err.Error(); strings.Count(msg, filepath.Base(path)) != 1 || !strings.Contains(msg, "(unchanged)") {
		t.Errorf("unrecovered error %q: want the file named once and said unchanged", msg)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, want) {
		t.Errorf("the unrecovered file changed: %d bytes, was %d (%v)", len(after), len(want), err)
	}
	if _, err := os.Stat(strings.TrimSuffix(path, ".warc.gz") + ".cdxj"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the unrecovered file got an index: %v", err)
	}
}

// gunzip returns the content of the gzip member b.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gzipped returns b in one gzip member.
func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
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

// TestRecoverZeroedTail: a power cut that loses a file's last blocks
// leaves zeros from a block boundary, inside the last exchange: the file
// is cut back to the exchange before it, or to its response when that is
// whole, and indexed.
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
			kept := keptOf(last, last.Offset+from)
			want := warc.Recovery{Name: filepath.Base(path), Cut: int64(len(z)) - kept}
			if after, got := size(t, path), w.Recovered(); after != kept || len(got) != 1 || got[0] != want {
				t.Errorf("zeros from %d into the last exchange: file now %d bytes, recovered %v; want cut at %d and indexed, %v", from, after, got, kept, want)
			}
		})
	}
}

// TestRecoverLeavesNonWARC: a file in the WARC directory that matches the
// Writer's file names but does not read as a WARC from its first byte is
// none of a killed Writer's: Open leaves it byte for byte, without an
// index, and reports it.
func TestRecoverLeavesNonWARC(t *testing.T) {
	noise := make([]byte, 5000)
	rand.NewChaCha8([32]byte{1}).Read(noise)
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"random bytes", noise},
		{"gzip of text", gzipped(t, []byte("not a WARC record\n"))},
		{"gzip magic, then noise", append([]byte{0x1f, 0x8b, 0x08, 0}, noise...)},
		{"one whole member, then noise", append(gzipped(t, []byte("not a WARC record\n")), noise...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "seedcrawl-mine.warc.gz")
			if err := os.WriteFile(path, tc.b, 0o644); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if got := w.Recovered(); len(got) != 0 {
				t.Errorf("recovered %v from a file that is no WARC", got)
			}
			checkUnrecovered(t, w, path, tc.b, nil)
		})
	}
}
