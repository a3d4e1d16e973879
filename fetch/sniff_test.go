package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
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
