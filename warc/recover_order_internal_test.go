package warc

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// orderMember writes one record as one gzip member to buf.
func orderMember(t *testing.T, buf *bytes.Buffer, h Header, block string) {
	zw := gzip.NewWriter(buf)
	zw.Write(appendRecordHead(nil, h, len(block)))
	zw.Write([]byte(block))
	zw.Write([]byte(recordEnd))
	zw.Close()
}

// TestRecoverRequestFirstFile: a whole, unindexed file named with the
// prefix whose exchanges put the request first (wget, warcio) is indexed
// whole: its last response's request came before it, so it is no pair
// cut short.
func TestRecoverRequestFirstFile(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	date := "2026-01-02T03:04:05Z"
	orderMember(t, &buf, Header{{"WARC-Type", "warcinfo"}, {"WARC-Record-ID", "<urn:uuid:1>"}, {"WARC-Date", date}}, "software: other\r\n")
	for i, u := range []string{"http://a.example/1", "http://a.example/2"} {
		req, res := "<urn:uuid:req"+string(rune('0'+i))+">", "<urn:uuid:res"+string(rune('0'+i))+">"
		orderMember(t, &buf, Header{{"WARC-Type", "request"}, {"WARC-Record-ID", req}, {"WARC-Date", date}, {"WARC-Target-URI", u}}, "GET / HTTP/1.1\r\nHost: a.example\r\n\r\n")
		orderMember(t, &buf, Header{{"WARC-Type", "response"}, {"WARC-Record-ID", res}, {"WARC-Date", date}, {"WARC-Target-URI", u}, {"WARC-Concurrent-To", req}},
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok")
	}
	path := filepath.Join(dir, "seedcrawl-20260102030405-00000.warc.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	done, failed, err := recoverFiles(dir, "seedcrawl")
	st, _ := os.Stat(path)
	idx, _ := os.ReadFile(filepath.Join(dir, "seedcrawl-20260102030405-00000.cdxj"))
	if err != nil || len(done) != 1 || len(failed) != 0 {
		t.Fatalf("recovered %v, failed %v, %v; want the file", done, failed, err)
	}
	if st.Size() != int64(buf.Len()) {
		t.Errorf("whole file cut from %d to %d bytes", buf.Len(), st.Size())
	}
	if n := bytes.Count(idx, []byte("\n")); n != 2 {
		t.Errorf("index of %d lines, want both responses:\n%s", n, idx)
	}
}
