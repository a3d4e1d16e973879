package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bombOnce holds a gzip stream of 16 MiB of zeros at a 1000:1 ratio:
// one gzip member of 256 KiB of zeros repeated 64 times (gzip readers
// read concatenated members as one stream), cheap to build even under
// the race detector. Built once per test binary.
var bombOnce = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(make([]byte, 256<<10))
	_ = zw.Close()
	return bytes.Repeat(buf.Bytes(), 64)
})

const page = `<!doctype html><html><head><title>t</title></head><body><a href="/a">a</a></body></html>`

func compress(enc string, data []byte) []byte {
	var buf bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Close() error
	}
	switch enc {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zlib":
		w = zlib.NewWriter(&buf)
	case "flate":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	}
	_, _ = w.Write(data)
	_ = w.Close()
	return buf.Bytes()
}

// testServer is a loopback HTTP server with one route per behaviour the
// fetcher must handle. It records the request headers it saw and counts
// connections.
type testServer struct {
	*httptest.Server
	conns   atomic.Int64
	mu      sync.Mutex
	headers map[string]http.Header // path -> last request header
	protos  map[string]int         // path -> last ProtoMajor
}

func (s *testServer) header(path string) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[path]
}

func (s *testServer) proto(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.protos[path]
}

func newMux(bigSize int) *http.ServeMux {
	mux := http.NewServeMux()
	html := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) { html(w, page) })
	mux.HandleFunc("/xhtml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xhtml+xml")
		_, _ = w.Write([]byte(page))
	})
	mux.HandleFunc("/pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(bytes.Repeat([]byte("%PDF"), 1000))
	})
	mux.HandleFunc("/big-pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Length", fmt.Sprint(bigSize))
		_, _ = w.Write(bytes.Repeat([]byte("x"), bigSize))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<html>not found</html>"))
	})
	mux.HandleFunc("/etag", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		html(w, page)
	})
	mux.HandleFunc("/lastmod", func(w http.ResponseWriter, r *http.Request) {
		const lm = "Wed, 21 Oct 2015 07:28:00 GMT"
		w.Header().Set("Last-Modified", lm)
		if r.Header.Get("If-Modified-Since") == lm {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		html(w, page)
	})
	for _, code := range []int{301, 302, 303, 307, 308} {
		mux.HandleFunc(fmt.Sprintf("/redirect/%d", code), func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "../html?from="+fmt.Sprint(code)+"#frag")
			w.WriteHeader(code)
		})
	}
	mux.HandleFunc("/redirect/bad", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "mailto:x@example.com")
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/429-seconds", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	mux.HandleFunc("/503-date", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>"))
		_, _ = w.Write(bytes.Repeat([]byte("<p>filler</p>\n"), bigSize/14+1))
	})
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write(bytes.Repeat([]byte("x"), bigSize))
	})
	for _, enc := range []string{"gzip", "zlib", "flate"} {
		mux.HandleFunc("/enc/"+enc, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			name := map[string]string{"gzip": "gzip", "zlib": "deflate", "flate": "deflate"}[enc]
			w.Header().Set("Content-Encoding", name)
			_, _ = w.Write(compress(enc, []byte(page)))
		})
	}
	mux.HandleFunc("/enc/big-gzip", func(w http.ResponseWriter, r *http.Request) {
		// Ordinary text expanding 5-10x, bigger than the limit once decoded.
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		var sb strings.Builder
		for i := 0; sb.Len() < 2*bigSize; i++ {
			fmt.Fprintf(&sb, "<p>paragraph %d of an ordinary page %x</p>\n", i, i*7919)
		}
		_, _ = w.Write(compress("gzip", []byte(sb.String())))
	})
	mux.HandleFunc("/enc/corrupt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		z := compress("gzip", []byte(page))
		z[len(z)/2] ^= 0xff
		_, _ = w.Write(z)
	})
	mux.HandleFunc("/enc/not-gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write([]byte(page))
	})
	mux.HandleFunc("/enc/br", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "br")
		_, _ = w.Write([]byte{0x1b, 0x03, 0x00})
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bombOnce())
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		_, _ = w.Write([]byte("<title>caf\xe9</title>"))
	})
	mux.HandleFunc("/slow-header", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	mux.HandleFunc("/drop", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10000\r\n\r\n<html><body>partial")
		_ = buf.Flush()
		_ = conn.Close()
	})
	return mux
}

// newTestServer starts the behaviour server on 127.0.0.1 over HTTP/1.1.
func newTestServer(t testing.TB, bigSize int) *testServer {
	t.Helper()
	s := &testServer{headers: map[string]http.Header{}, protos: map[string]int{}}
	mux := newMux(bigSize)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.headers[r.URL.Path] = r.Header.Clone()
		s.protos[r.URL.Path] = r.ProtoMajor
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}
