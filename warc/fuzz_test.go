package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
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
