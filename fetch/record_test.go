package fetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCaptureExactBytes serves known bytes from a raw server over plain
// HTTP and over TLS (offering h2 in ALPN), fetches with Record, and checks
// that the capture holds exactly the bytes the server wrote and read,
// encodings kept.
func TestCaptureExactBytes(t *testing.T) {
	gz := compress("gzip", []byte(page))
	chunked := func(parts ...string) string {
		var sb strings.Builder
		for _, p := range parts {
			fmt.Fprintf(&sb, "%x\r\n%s\r\n", len(p), p)
		}
		return sb.String() + "0\r\n\r\n"
	}
	responses := []struct {
		name, raw string
		code      int
		body      string
	}{
		{"content-length", htmlHead + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(page), page), 200, page},
		{"chunked", htmlHead + "Transfer-Encoding: chunked\r\n\r\n" + chunked(page[:10], page[10:]), 200, page},
		{"gzip kept encoded", htmlHead + fmt.Sprintf("Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", len(gz), gz), 200, page},
		{"gzip chunked", htmlHead + "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(string(gz[:7]), string(gz[7:])), 200, page},
		{"latin-1 kept", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\nContent-Length: 19\r\n\r\n<title>caf\xe9</title>", 200, "<title>caf\xe9</title>"},
		{"404 page", "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\nnot found", 404, ""},
		{"non-HTML read through", "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\n\x89PNG", 200, ""},
		{"304", "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n", 304, ""},
		{"redirect", "HTTP/1.1 301 Moved Permanently\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n", 301, ""},
	}
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			var mu sync.Mutex
			var gotReqs [][]byte
			next := 0
			var conf *tls.Config
			var ca string
			if scheme == "https" {
				c, f := testTLS(t)
				conf, ca = c, f
			}
			s := newRawServer(t, conf, func(s *rawServer, w net.Conn, req []byte) bool {
				mu.Lock()
				gotReqs = append(gotReqs, req)
				raw := responses[next%len(responses)].raw
				next++
				mu.Unlock()
				_, _ = w.Write([]byte(raw))
				return true // keep-alive: later fetches reuse the connection
			})
			f := newFetcher(t, Options{Record: true, CAFile: ca})
			for i, tt := range responses {
				r := f.Fetch(context.Background(), Request{URL: scheme + "://" + s.addr + "/p" + fmt.Sprint(i)})
				if r.Err != nil || r.Code != tt.code || string(r.Body) != tt.body {
					t.Fatalf("%s: code %d err %v body %q", tt.name, r.Code, r.Err, r.Body)
				}
				if r.Capture == nil {
					t.Fatalf("%s: no capture", tt.name)
				}
				if !bytes.Equal(r.Capture.Response, []byte(tt.raw)) {
					t.Errorf("%s: captured response\n%q\nwant exactly\n%q", tt.name, r.Capture.Response, tt.raw)
				}
				mu.Lock()
				wantReq := gotReqs[len(gotReqs)-1]
				mu.Unlock()
				if !bytes.Equal(r.Capture.Request, wantReq) {
					t.Errorf("%s: captured request\n%q\nserver read\n%q", tt.name, r.Capture.Request, wantReq)
				}
				if r.Capture.Truncated {
					t.Errorf("%s: capture marked truncated", tt.name)
				}
				if r.RemoteAddr != "127.0.0.1" {
					t.Errorf("%s: RemoteAddr %q", tt.name, r.RemoteAddr)
				}
			}
			if scheme == "https" {
				s.mu.Lock()
				alpn := s.alpn
				s.mu.Unlock()
				if len(alpn) != 1 || alpn[0] != "http/1.1" {
					t.Errorf("negotiated %q over %d connections, want one http/1.1 connection", alpn, len(alpn))
				}
			}
		})
	}
}

// TestCaptureTruncatedAtLimit fetches a body longer than MaxBody: the
// capture is a prefix of what the server sent, within its bound, and
// marked truncated.
func TestCaptureTruncatedAtLimit(t *testing.T) {
	const maxBody = 8 << 10
	body := strings.Repeat("<p>long</p>", 10000)
	raw := htmlHead + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	s := newRawServer(t, nil, func(s *rawServer, w net.Conn, _ []byte) bool {
		_, _ = w.Write([]byte(raw))
		return false
	})
	f := newFetcher(t, Options{Record: true, MaxBody: maxBody})
	r := f.Fetch(context.Background(), Request{URL: "http://" + s.addr + "/"})
	if r.Err != nil || !r.Truncated || len(r.Body) != maxBody {
		t.Fatalf("err %v truncated %v body %d", r.Err, r.Truncated, len(r.Body))
	}
	c := r.Capture
	if c == nil || !c.Truncated || !strings.HasPrefix(raw, string(c.Response)) || len(c.Response) < maxBody {
		t.Fatalf("capture %+v", c)
	}
	if len(c.Response) > maxBody+MaxHeaderBytes {
		t.Fatalf("capture %d bytes over its bound", len(c.Response))
	}
}

// TestRecordNeedsRecordingTransport: a Fetcher asked to Record on a
// transport without Record fails clearly instead of capturing nothing.
func TestRecordNeedsRecordingTransport(t *testing.T) {
	s := newTestServer(t, 1<<10)
	tr, err := NewTransport(Options{AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	f := newFetcher(t, Options{Transport: tr, Record: true})
	r := fetch(t, f, s.URL+"/html")
	if !errors.Is(r.Err, ErrNotRecording) || r.Reason != ReasonNotRecording {
		t.Fatalf("err %v reason %q", r.Err, r.Reason)
	}
	// Without Record the same transport fetches normally, with no capture.
	r = fetch(t, newFetcher(t, Options{Transport: tr}), s.URL+"/html")
	if r.Err != nil || r.Capture != nil {
		t.Fatalf("err %v capture %v", r.Err, r.Capture)
	}
}

// TestTTFB checks that TTFB measures the server's delay before its first
// byte and leaves out a slow body.
func TestTTFB(t *testing.T) {
	const serverDelay = 300 * time.Millisecond
	tests := []struct {
		name        string
		serve       func(w net.Conn)
		minTTFB     time.Duration
		maxTTFB     time.Duration
		minDuration time.Duration
	}{
		{"server thinks before answering", func(w net.Conn) {
			// The sleep is the behaviour under test: the server's think time
			// before its first byte, which TTFB must measure.
			time.Sleep(serverDelay)
			_, _ = w.Write([]byte(htmlHead + "Content-Length: 6\r\n\r\n<html>"))
		}, serverDelay, 10 * time.Second, serverDelay},
		{"fast headers, slow body", func(w net.Conn) {
			_, _ = w.Write([]byte(htmlHead + "Content-Length: 12\r\n\r\n<html>"))
			// The sleep is the behaviour under test: a slow body after fast
			// headers, which TTFB must leave out.
			time.Sleep(serverDelay)
			_, _ = w.Write([]byte("</html>"[:6]))
		}, 0, serverDelay, serverDelay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRawServer(t, nil, func(s *rawServer, w net.Conn, _ []byte) bool {
				tt.serve(w)
				return false
			})
			f := newFetcher(t, Options{})
			r := f.Fetch(context.Background(), Request{URL: "http://" + s.addr + "/"})
			if r.Err != nil || r.Code != http.StatusOK {
				t.Fatalf("code %d err %v", r.Code, r.Err)
			}
			if r.TTFB < tt.minTTFB || r.TTFB >= tt.maxTTFB || r.Dur < tt.minDuration || r.TTFB > r.Dur {
				t.Fatalf("TTFB %v (want [%v, %v)), Dur %v (want >= %v)", r.TTFB, tt.minTTFB, tt.maxTTFB, r.Dur, tt.minDuration)
			}
		})
	}
}

// TestRecordTLSErrors: with Record the handshake is ours, and its
// failures are still classified as TLS problems.
func TestRecordTLSErrors(t *testing.T) {
	conf, ca := testTLS(t)
	s := newRawServer(t, conf, func(s *rawServer, w net.Conn, _ []byte) bool {
		_, _ = w.Write([]byte(htmlHead + "Content-Length: 6\r\n\r\n<html>"))
		return false
	})
	tests := []struct {
		name   string
		opts   Options
		url    string
		reason string
	}{
		{"unknown authority", Options{Record: true}, "https://" + s.addr + "/", ReasonTLS},
		{"name not in certificate", Options{Record: true, CAFile: ca, Resolve: ResolveMap{"example.com": s.addr}}, "https://example.com/", ReasonTLS},
		{"trusted", Options{Record: true, CAFile: ca}, "https://" + s.addr + "/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newFetcher(t, tt.opts).Fetch(context.Background(), Request{URL: tt.url})
			if r.Reason != tt.reason {
				t.Fatalf("reason %q err %v, want %q", r.Reason, r.Err, tt.reason)
			}
		})
	}
}
