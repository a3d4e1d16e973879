package testhttp

import (
	"io"
	"net/http"
	"testing"
)

// Do sends req with c (http.DefaultClient when nil) and returns the
// response with its body read and closed. An error sending the request or
// reading the body fails tb; any status is returned as it came.
func Do(tb testing.TB, c *http.Client, req *http.Request) (*http.Response, []byte) {
	tb.Helper()
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: read body: %v", req.Method, req.URL, err)
	}
	return resp, b
}

// Get is Do of a GET of u, ended with tb, with the header fields hdr
// lists as name, value pairs.
func Get(tb testing.TB, c *http.Client, u string, hdr ...string) (*http.Response, []byte) {
	tb.Helper()
	req, err := http.NewRequestWithContext(tb.Context(), http.MethodGet, u, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return Do(tb, c, req)
}
