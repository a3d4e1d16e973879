package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the Reader: it must end with a
// record, io.EOF or an error, never panic or allocate past MaxRecord.
func FuzzReader(f *testing.F) {
	dir := f.TempDir()
	w, err := Open(Options{Dir: dir, Now: newClock().now})
	if err != nil {
		f.Fatal(err)
	}
	if _, err := w.WriteExchange(f.Context(), Exchange{URL: "http://example.com/", Request: request("/"),
		Response: []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")}); err != nil {
		f.Fatal(err)
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	gz, err := os.ReadFile(dir + "/" + w.Files()[0])
	if err != nil {
		f.Fatal(err)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(gz))
	plain, _ := io.ReadAll(zr)
	f.Add(gz)
	f.Add(plain)
	f.Add([]byte("WARC/1.1\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		rd.MaxRecord = 1 << 20
		for i := 0; i < 1000; i++ {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil && !errors.Is(err, ErrDigest) {
				return
			}
			if int64(len(rec.Block)) > rd.MaxRecord {
				t.Fatalf("block of %d bytes past the limit", len(rec.Block))
			}
		}
	})
}

// FuzzRecover runs recovery on arbitrary bytes in a file named as a
// Writer's file is, seeded with such a file whole, cut short, zeroed at
// its end and with bits flipped in its last member. Whatever the bytes,
// recovery must leave the file as it was, or cut it, having said how many
// bytes, only back to where the bytes cut hold no whole record: stored
// bytes that hold a whole record are never lost. The file
// of whole records with one byte changed (a flipped bit) is damage, never
// cut: the change may break one record, but no other.
func FuzzRecover(f *testing.F) {
	dir := f.TempDir()
	w, err := Open(Options{Dir: dir, Now: newClock().now})
	if err != nil {
		f.Fatal(err)
	}
	for _, u := range []string{"http://a.example/1", "http://a.example/2"} {
		if _, err := w.WriteExchange(f.Context(), Exchange{URL: u, Request: request("/"), Response: htmlResponse("<p>page</p>")}); err != nil {
			f.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	name := w.Files()[0]
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)-20])
	f.Add(append(b[:len(b)-100:len(b)-100], make([]byte, 100)...))
	// Bit flips in the last deflate bytes and trailer of the last member.
	for at := len(b) - 30; at < len(b); at++ {
		for _, bit := range []byte{0x01, 0x80} {
			flipped := bytes.Clone(b)
			flipped[at] ^= bit
			f.Add(flipped)
		}
	}
	// One directory for every input: t.TempDir in a fuzz loop spins.
	work := f.TempDir()
	path := filepath.Join(work, name)
	index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.Remove(index); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cut, ok, err := recoverFile(path, index)
		after, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if cut == 0 {
			if !bytes.Equal(after, data) {
				t.Fatalf("file of %d bytes now %d, no cut said (ok %v, %v)", len(data), len(after), ok, err)
			}
			return
		}
		if oneByteOff(data, b) {
			t.Fatalf("cut %d bytes of a file of whole records with one byte changed", cut)
		}
		if !bytes.HasPrefix(data, after) || int64(len(data)-len(after)) != cut || len(after) == 0 {
			t.Fatalf("file of %d bytes now %d, said cut by %d", len(data), len(after), cut)
		}
		tail := data[len(after):]
		for i := 0; i+3 <= len(tail); i++ {
			if !bytes.HasPrefix(tail[i:], []byte{0x1f, 0x8b, 0x08}) {
				continue
			}
			if whole, _ := wholeMember(bytes.NewReader(tail), int64(i), int64(len(tail))); whole {
				t.Fatalf("cut %d bytes holding a whole record at %d of them", cut, i)
			}
		}
	})
}

// oneByteOff reports whether data is b with one byte changed.
func oneByteOff(data, b []byte) bool {
	if len(data) != len(b) {
		return false
	}
	diff := 0
	for i := range data {
		if data[i] != b[i] {
			diff++
		}
	}
	return diff == 1
}
