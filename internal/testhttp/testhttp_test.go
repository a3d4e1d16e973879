package testhttp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// echo answers "hello" at / and 404 elsewhere, echoing the request's
// X-Ask field as X-Echo.
func echo(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Echo", r.Header.Get("X-Ask"))
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, "hello")
}

// TestGet: the request carries the given header fields, and the status,
// header and whole body come back, a 404 included.
func TestGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(echo))
	defer srv.Close()
	resp, body := Get(t, srv.Client(), srv.URL+"/", "X-Ask", "v1")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Echo") != "v1" || string(body) != "hello" {
		t.Errorf("GET /: %d, X-Echo %q, body %q; want 200, v1, hello", resp.StatusCode, resp.Header.Get("X-Echo"), body)
	}
	resp, _ = Get(t, nil, srv.URL+"/missing")
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /missing: %d, want 404", resp.StatusCode)
	}
}
