package warc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a fake clock that moves one second per call, so file names and
// dates are deterministic. The Writer calls it from every writing
// goroutine.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)} }

func openWriter(t testing.TB, o Options) *Writer {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	if o.Now == nil {
		o.Now = newClock().now
	}
	w, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func request(path string) []byte {
	return []byte("GET " + path + " HTTP/1.1\r\nHost: example.com\r\nUser-Agent: test\r\nAccept-Encoding: gzip\r\n\r\n")
}

func htmlResponse(body string) []byte {
	return []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
}

// readAll reads every record of the file at path with the package Reader,
// failing the test on any error.
func readAll(t testing.TB, path string) []*Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []*Record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: record %d: %v", filepath.Base(path), len(out), err)
		}
		out = append(out, rec)
	}
}

func types(recs []*Record) string {
	var s []string
	for _, r := range recs {
		s = append(s, r.Type())
	}
	return strings.Join(s, ",")
}
