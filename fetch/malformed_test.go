package fetch

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// A response that breaks HTTP/1.1's framing is a bad response, recorded
// and not retried: the server sends the same bytes again, and calling it
// "network" retried the URL three times while its host backed off
// exponentially (a host with four such pages held a crawl for minutes).
// A connection lost mid-body stays transient.
func TestMalformedResponseNotTransient(t *testing.T) {
	tests := []struct {
		name      string
		raw       string
		code      int
		reason    string
		transient bool
	}{
		{"control bytes in a header line", "HTTP/1.1 302 Found\r\nLocation: /x\x01\x7f\r\nContent-Length: 0\r\n\r\n", 0, ReasonBadResponse, false},
		{"header line without a colon", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nno colon here\r\nContent-Length: 0\r\n\r\n", 0, ReasonBadResponse, false},
		{"headers over the limit", htmlHead + "X-Huge: " + strings.Repeat("h", MaxHeaderBytes+1) + "\r\n\r\n", 0, ReasonBadResponse, false},
		{"not HTTP", "SSH-2.0-OpenSSH_9.6\r\n\r\n", 0, ReasonBadResponse, false},
		{"bad status code", "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n", 0, ReasonBadResponse, false},
		{"two Content-Lengths", htmlHead + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n<html>", 0, ReasonBadResponse, false},
		{"bad chunk length", htmlHead + "Transfer-Encoding: chunked\r\n\r\n5\r\n<html\r\nZZZ\r\nabc\r\n", 200, ReasonBadResponse, false},
		{"chunk length too large", htmlHead + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nabc", 200, ReasonBadResponse, false},
		{"chunk without its CRLF", htmlHead + "Transfer-Encoding: chunked\r\n\r\n5\r\n<htmlXX0\r\n\r\n", 200, ReasonBadResponse, false},
		{"chunked body cut off", htmlHead + "Transfer-Encoding: chunked\r\n\r\n5\r\n<html", 200, ReasonConnLost, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRawServer(t, nil, func(s *rawServer, w net.Conn, _ []byte) bool {
				_, _ = w.Write([]byte(tt.raw))
				return false
			})
			f := newFetcher(t, Options{Timeout: 5 * time.Second})
			r := f.Fetch(context.Background(), Request{URL: "http://" + s.addr + "/"})
			if r.Code != tt.code || r.Reason != tt.reason || r.Body != nil {
				t.Fatalf("code %d reason %q body %q err %v; want code %d reason %q, no body", r.Code, r.Reason, r.Body, r.Err, tt.code, tt.reason)
			}
			rec, retry := r.Record(&storage.Page{}, false)
			if rec.Status != storage.StatusFetchError || retry.Transient != tt.transient {
				t.Errorf("recorded %v, transient %v; want fetch-error, transient %v", rec.Status, retry.Transient, tt.transient)
			}
		})
	}
}

// A redirect whose Location is no URL net/http can parse is a redirect
// without a usable Location, recorded as such and not retried; net/http
// fails the request for it, which read as a transient "network" failure.
func TestUnparsableLocation(t *testing.T) {
	for _, loc := range []string{"http://exa mple.com:99999/", "http://[::1/x", "http://a b/"} {
		t.Run(loc, func(t *testing.T) {
			s := newRawServer(t, nil, func(s *rawServer, w net.Conn, _ []byte) bool {
				_, _ = w.Write([]byte("HTTP/1.1 302 Found\r\nLocation: " + loc + "\r\nContent-Length: 0\r\n\r\n"))
				return true
			})
			f := newFetcher(t, Options{Timeout: 5 * time.Second})
			r := f.Fetch(context.Background(), Request{URL: "http://" + s.addr + "/"})
			if r.Code != 302 || r.Reason != ReasonBadLocation || r.Err != nil || r.Location != "" {
				t.Fatalf("code %d reason %q err %v location %q; want 302, %q, no error, no location", r.Code, r.Reason, r.Err, r.Location, ReasonBadLocation)
			}
			rec, retry := r.Record(&storage.Page{}, false)
			if rec.Status != storage.StatusHTTPError || rec.Reason != ReasonBadLocation || retry.Transient {
				t.Errorf("recorded %v %q, transient %v; want http-error %q, not transient", rec.Status, rec.Reason, retry.Transient, ReasonBadLocation)
			}
		})
	}
}
