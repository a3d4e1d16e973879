package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestSniffWithoutContentType: a 2xx response without a Content-Type is
// sniffed as browsers do: HTML comes back as text/html with its body (so
// its links are followed); anything else as before, with no type and no
// body, and not marked cut even past MaxBody.
func TestSniffWithoutContentType(t *testing.T) {
	png := append([]byte("\x89PNG\x0d\x0a\x1a\x0a"), bytes.Repeat([]byte{0}, 40<<10)...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // net/http would sniff and set one
		switch r.URL.Path {
		case "/html":
			w.Write([]byte("\n  <a href='/from-noctype'>x</a>"))
		case "/empty-type":
			w.Header()["Content-Type"] = []string{""}
			w.Write([]byte("<!DOCTYPE html><p>x"))
		case "/png":
			w.Write(png)
		case "/text":
			w.Write([]byte("just some words"))
		}
	}))
	t.Cleanup(srv.Close)
	f := newFetcher(t, Options{MaxBody: 16 << 10})
	for _, c := range []struct {
		path, ctype string
		body        bool
	}{
		{"/html", "text/html", true},
		{"/empty-type", "text/html", true},
		{"/png", "", false},
		{"/text", "", false},
	} {
		t.Run(c.path, func(t *testing.T) {
			r := f.Fetch(context.Background(), Request{URL: srv.URL + c.path})
			if r.Err != nil || r.Code != 200 || r.ContentType != c.ctype || (r.Body != nil) != c.body || r.Truncated {
				t.Fatalf("code %d err %v: type %q, %d body bytes, truncated %v; want type %q, body %v, not truncated",
					r.Code, r.Err, r.ContentType, len(r.Body), r.Truncated, c.ctype, c.body)
			}
		})
	}
}

// TestSniffLeavesNonPagesUnread: of a typeless response, only the first
// bytes are looked at: a compressed body is not decoded to guess (so a
// brotli body, a gzip bomb or broken gzip are no fetch errors), and a
// large download that stalls after its first bytes is dropped, not read
// until the timeout (a transient failure, retried).
func TestSniffLeavesNonPagesUnread(t *testing.T) {
	var zeros bytes.Buffer
	zw := gzip.NewWriter(&zeros)
	zw.Write(make([]byte, 4<<20)) // about 1000:1
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		switch r.URL.Path {
		case "/br":
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte("\x1b\x00\x00binary"))
		case "/gz":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(zeros.Bytes())
		case "/badgz":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte("not gzip at all"))
		case "/stall":
			w.Header().Set("Content-Length", "52428800")
			w.WriteHeader(200)
			w.Write(bytes.Repeat([]byte{0x1f, 0x8b, 0, 1}, 1<<18))
			w.(http.Flusher).Flush()
			<-r.Context().Done() // until the client hangs up
		}
	}))
	t.Cleanup(srv.Close)
	f := newFetcher(t, Options{MaxBody: 1 << 20, Timeout: 5 * time.Second})
	for _, p := range []string{"/br", "/gz", "/badgz", "/stall"} {
		r := f.Fetch(context.Background(), Request{URL: srv.URL + p})
		if r.Err != nil || r.Code != 200 || r.ContentType != "" || r.Body != nil {
			t.Errorf("%s: code %d, type %q, %d body bytes, err %v (reason %s); want a 200 of no type, dropped", p, r.Code, r.ContentType, len(r.Body), r.Err, r.Reason)
		}
	}
}
