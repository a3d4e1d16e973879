package warc

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeSample writes a small WARC file with every record kind and returns
// its path.
func writeSample(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	w := openWriter(t, Options{Dir: dir})
	ctx := context.Background()
	for _, ex := range []Exchange{
		{URL: "http://example.com/", IP: "192.0.2.7", Request: request("/"), Response: htmlResponse("<p>one</p>")},
		{URL: "http://example.com/dup", Request: request("/dup"), Response: htmlResponse("<p>one</p>")},
		{URL: "http://example.com/", Request: request("/"), Response: []byte("HTTP/1.1 304 Not Modified\r\n\r\n")},
		{URL: "http://example.com/chunked", Request: request("/chunked"),
			Response: []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n")},
	} {
		if _, err := w.WriteExchange(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, w.Files()[0])
}

// parseIndependently is a minimal WARC parser written for this test only,
// sharing no code with the package: it inflates the whole file as one
// multi-member gzip stream, then cuts records by their Content-Length and
// checks both digests with its own SHA-1 and base32. It returns each
// record's type and block.
func parseIndependently(t *testing.T, gz []byte) (kinds []string, blocks [][]byte) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	digest := func(b []byte) string {
		s := sha1.Sum(b)
		return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
	}
	for len(data) > 0 {
		headEnd := bytes.Index(data, []byte("\r\n\r\n"))
		if headEnd < 0 {
			t.Fatalf("no header end in %q", data[:min(len(data), 100)])
		}
		lines := strings.Split(string(data[:headEnd]), "\r\n")
		if lines[0] != "WARC/1.1" {
			t.Fatalf("version line %q", lines[0])
		}
		fields := map[string]string{}
		for _, l := range lines[1:] {
			i := strings.Index(l, ": ")
			if i < 0 {
				t.Fatalf("field %q", l)
			}
			fields[l[:i]] = l[i+2:]
		}
		n, err := strconv.Atoi(fields["Content-Length"])
		if err != nil {
			t.Fatalf("Content-Length %q", fields["Content-Length"])
		}
		block := data[headEnd+4 : headEnd+4+n]
		if string(data[headEnd+4+n:headEnd+8+n]) != "\r\n\r\n" {
			t.Fatalf("record not ended by CRLF CRLF")
		}
		data = data[headEnd+8+n:]
		if got := digest(block); got != fields["WARC-Block-Digest"] {
			t.Errorf("%s: block digest %s, computed %s", fields["WARC-Record-ID"], fields["WARC-Block-Digest"], got)
		}
		if fields["WARC-Type"] == "response" {
			body := block[bytes.Index(block, []byte("\r\n\r\n"))+4:]
			if bytes.Contains(block, []byte("Transfer-Encoding: chunked")) {
				body = []byte("abcde") // the one chunked sample, decoded by hand
			}
			if got := digest(body); got != fields["WARC-Payload-Digest"] {
				t.Errorf("%s: payload digest %s, computed %s", fields["WARC-Record-ID"], fields["WARC-Payload-Digest"], got)
			}
		}
		kinds = append(kinds, fields["WARC-Type"])
		blocks = append(blocks, block)
	}
	return kinds, blocks
}

// TestIndependentParser reads the writer's output with the test's own
// parser and with the package Reader, from the .warc.gz and from the same
// records inflated into a plain .warc: all three agree.
func TestIndependentParser(t *testing.T) {
	path := writeSample(t)
	gz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kinds, blocks := parseIndependently(t, gz)
	want := "warcinfo,response,request,revisit,request,revisit,request,response,request"
	if got := strings.Join(kinds, ","); got != want {
		t.Fatalf("independent parser: %s\nwant %s", got, want)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(gz))
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct {
		name string
		data []byte
	}{{"warc.gz", gz}, {"plain warc", plain}} {
		rd, err := NewReader(bytes.NewReader(src.data))
		if err != nil {
			t.Fatal(err)
		}
		var n int
		var end int64
		for ; ; n++ {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: record %d: %v", src.name, n, err)
			}
			if rec.Type() != kinds[n] || !bytes.Equal(rec.Block, blocks[n]) || rec.Offset != end {
				t.Fatalf("%s: record %d is %s at %d, independent parser saw %s, previous ended at %d", src.name, n, rec.Type(), rec.Offset, kinds[n], end)
			}
			end = rec.Offset + rec.Length
		}
		if n != len(kinds) || end != int64(len(src.data)) {
			t.Fatalf("%s: %d records ending at %d, want %d ending at %d", src.name, n, end, len(kinds), len(src.data))
		}
	}
}

// TestReaderBadInput feeds the Reader damaged and hostile files: each gives
// a clear error (a digest mismatch lets iteration go on), none panics or
// allocates what a header merely claims.
func TestReaderBadInput(t *testing.T) {
	path := writeSample(t)
	gz, _ := os.ReadFile(path)
	zr, _ := gzip.NewReader(bytes.NewReader(gz))
	plain, _ := io.ReadAll(zr)
	flip := func(b []byte, at string) []byte {
		c := bytes.Clone(b)
		i := bytes.Index(c, []byte(at))
		c[i] ^= 0x20 // changes case: still text, different bytes
		return c
	}
	tests := []struct {
		name    string
		data    []byte
		maxRec  int64
		wantErr error
		records int // records returned before (or with) the error
	}{
		{"changed block byte", flip(plain, "<p>one"), 0, ErrDigest, 2},
		{"cut in the middle of a gzip member", gz[:len(gz)-20], 0, io.ErrUnexpectedEOF, 8},
		{"cut in the middle of a block", plain[:len(plain)-10], 0, ErrFormat, 8},
		{"not a WARC", []byte("hello world\r\n\r\n"), 0, ErrFormat, 0},
		{"lying Content-Length", []byte("WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 999999999999\r\n\r\nshort"), 0, ErrTooLarge, 0},
		{"block over the reader's limit", plain, 100, ErrTooLarge, 0},
		{"header line without end", append([]byte("WARC/1.1\r\nX: "), bytes.Repeat([]byte("a"), 100<<10)...), 0, ErrFormat, 0},
		{"garbage gzip", []byte{0x1f, 0x8b, 1, 2, 3, 4, 5}, 0, io.ErrUnexpectedEOF, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd, err := NewReader(bytes.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if tt.maxRec > 0 {
				rd.MaxRecord = tt.maxRec
			}
			n := 0
			var first error
			for {
				rec, err := rd.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if rec != nil {
					n++
				}
				if err != nil && first == nil {
					first = err
				}
				if err != nil && !errors.Is(err, ErrDigest) {
					break
				}
			}
			if !errors.Is(first, tt.wantErr) {
				t.Fatalf("first error %v, want %v", first, tt.wantErr)
			}
			if tt.wantErr == ErrDigest && n != 9 {
				t.Fatalf("iteration stopped after %d records; a digest mismatch should not end it", n)
			}
			if tt.wantErr != ErrDigest && n > tt.records {
				t.Fatalf("%d records returned, at most %d expected", n, tt.records)
			}
		})
	}
}

// TestDechunk checks the payload computation on chunked bodies.
func TestDechunk(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"two chunks and trailer", "3\r\nabc\r\n2\r\nde\r\n0\r\nX: y\r\n\r\n", "abcde", true},
		{"extension", "3;name=v\r\nabc\r\n0\r\n\r\n", "abc", true},
		{"cut inside a chunk", "5\r\nab", "ab", true},
		{"bad size", "zz\r\nabc\r\n", "", false},
	}
	for _, tt := range tests {
		got, ok := dechunk([]byte(tt.in))
		if ok != tt.ok || (ok && string(got) != tt.want) {
			t.Errorf("%s: %q %v, want %q %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
