package warc_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverKeepsDamagedLastMember: damage in the last gzip member of a
// file without its index (a flipped byte, a bad checksum or size in its
// trailer) is no write cut short: the whole response before it must not
// be cut with it. Open leaves the file byte for byte and reports it.
func TestRecoverKeepsDamagedLastMember(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   func(b []byte, last warc.Result) int64 // the byte flipped
	}{
		{"byte in the middle of the last request", func(b []byte, r warc.Result) int64 {
			return r.Offset + r.Length + (int64(len(b))-r.Offset-r.Length)/2
		}},
		{"checksum byte in the last trailer", func(b []byte, _ warc.Result) int64 { return int64(len(b)) - 8 }},
		{"size byte in the last trailer", func(b []byte, _ warc.Result) int64 { return int64(len(b)) - 1 }},
		{"byte in the middle of the last response", func(_ []byte, r warc.Result) int64 { return r.Offset + r.Length/2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, b, results := writeFive(t, dir)
			b[tc.at(b, results[4])] ^= 0x01
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if got := w.Recovered(); len(got) != 0 {
				t.Errorf("recovered %v; damage in the last member is no cut-short write", got)
			}
			checkUnrecovered(t, w, path, b, nil)
		})
	}
}

// TestRecoverForeignLayouts: files named as the Writer names its own that
// it did not write as they are (another tool's layout, a copy under
// another name) keep every byte: those that read to their end are
// indexed as they are, the others reported and left unchanged.
func TestRecoverForeignLayouts(t *testing.T) {
	const name = "seedcrawl-20260102030405-00000.warc.gz"
	for _, tc := range []struct {
		name    string
		build   func(t *testing.T) (file string, b []byte)
		indexed int // index lines of a file indexed as it is; -1: unrecovered
	}{
		{"all pairs in one member, its end cut", func(t *testing.T) (string, []byte) {
			_, b, results := writeFive(t, t.TempDir())
			info := b[:results[0].Offset] // names the file: a Writer's warcinfo
			one := gzipped(t, gunzip(t, b[results[0].Offset:]))
			return name, slices.Concat(rename(t, info, name), one[:len(one)-20])
		}, -1},
		{"request first, a whole last response with a date of another format", func(t *testing.T) (string, []byte) {
			return name, slices.Concat(
				member(t, "warcinfo", "<urn:uuid:i>", "2024-01-01T00:00:00Z", "WARC-Filename: "+name, "software: other\r\n"),
				member(t, "request", "<urn:uuid:q1>", "2024-01-01T00:00:01Z", "", "GET / HTTP/1.1\r\n\r\n"),
				member(t, "response", "<urn:uuid:r1>", "2024-01-01T00:00:01Z", "WARC-Concurrent-To: <urn:uuid:q1>", "HTTP/1.1 200 OK\r\n\r\nok"),
				member(t, "request", "<urn:uuid:q2>", "2024-01-01 00:00:01", "", "GET /2 HTTP/1.1\r\n\r\n"),
				member(t, "response", "<urn:uuid:r2>", "2024-01-01 00:00:01", "WARC-Concurrent-To: <urn:uuid:q2>", "HTTP/1.1 200 OK\r\n\r\nok"))
		}, -1},
		{"a whole last response whose partner is not in the file", func(t *testing.T) (string, []byte) {
			return name, slices.Concat(
				member(t, "warcinfo", "<urn:uuid:i>", "2024-01-01T00:00:00Z", "", "software: other\r\n"),
				member(t, "response", "<urn:uuid:r1>", "2024-01-01T00:00:01Z", "WARC-Concurrent-To: <urn:uuid:q1>", "HTTP/1.1 200 OK\r\n\r\nok"),
				member(t, "request", "<urn:uuid:q1>", "2024-01-01T00:00:01Z", "", "GET / HTTP/1.1\r\n\r\n"),
				member(t, "response", "<urn:uuid:r2>", "2024-01-01T00:00:02Z", "WARC-Concurrent-To: <urn:uuid:elsewhere>", "HTTP/1.1 200 OK\r\n\r\nok"))
		}, 2},
		{"a copy under another name, still being written", func(t *testing.T) (string, []byte) {
			_, b, _ := writeFive(t, t.TempDir())
			return "seedcrawl-copy.warc.gz", b[:len(b)-20]
		}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file, b := tc.build(t)
			path := filepath.Join(dir, file)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if tc.indexed < 0 {
				if got := w.Recovered(); len(got) != 0 {
					t.Errorf("recovered %v", got)
				}
				checkUnrecovered(t, w, path, b, nil)
				return
			}
			if got := w.Recovered(); len(got) != 1 || got[0] != (warc.Recovery{Name: file}) || len(w.Unrecovered()) != 0 {
				t.Errorf("recovered %v, unrecovered %v; want %s indexed, nothing cut", got, w.Unrecovered(), file)
			}
			if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, b) {
				t.Errorf("file of %d bytes now %d (%v)", len(b), len(after), err)
			}
			idx, err := os.ReadFile(strings.TrimSuffix(path, ".warc.gz") + ".cdxj")
			if n := bytes.Count(idx, []byte("\n")); err != nil || n != tc.indexed {
				t.Errorf("index of %d lines (%v), want %d:\n%s", n, err, tc.indexed, idx)
			}
		})
	}
}

// member returns one WARC record of type typ, its block as given, in a
// gzip member of its own; extra is one more header line, or "".
func member(t *testing.T, typ, id, date, extra, block string) []byte {
	t.Helper()
	h := "WARC/1.1\r\nWARC-Type: " + typ + "\r\nWARC-Record-ID: " + id + "\r\nWARC-Date: " + date +
		"\r\nWARC-Target-URI: http://a.example/\r\n"
	if extra != "" {
		h += extra + "\r\n"
	}
	if typ != "warcinfo" {
		h += "Content-Type: application/http; msgtype=" + typ + "\r\n"
	}
	return gzipped(t, []byte(fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s\r\n\r\n", h, len(block), block)))
}

// rename returns the warcinfo member info with its WARC-Filename set to
// name.
func rename(t *testing.T, info []byte, name string) []byte {
	t.Helper()
	rec := gunzip(t, info)
	i := bytes.Index(rec, []byte("WARC-Filename: "))
	j := bytes.Index(rec[i:], []byte("\r\n"))
	if i < 0 || j < 0 {
		t.Fatal(errors.New("warcinfo without WARC-Filename"))
	}
	return gzipped(t, slices.Concat(rec[:i], []byte("WARC-Filename: "+name), rec[i+j:]))
}
