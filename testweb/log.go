package testweb

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/cond"
)

// Entry is one request the test web answered, for auditing a crawler's
// politeness from the server side.
type Entry struct {
	// Time is when the request arrived, on the monotonic clock, measured
	// from the creation of the Web (New).
	Time time.Duration
	// Scheme is "http" or "https".
	Scheme string
	// Host is the Host header, lower-cased, without port.
	Host string
	// Method is the request method.
	Method string
	// Target is the request target (path and query) exactly as sent.
	Target string
	// Status is the response status; 0 if the handler wrote nothing.
	Status int
	// Bytes is the number of body bytes written (less than the
	// Content-Length when the connection was dropped).
	Bytes int64
	// UserAgent is the User-Agent header.
	UserAgent string
	// Proto is the request's protocol version, "HTTP/1.1" or "HTTP/2.0"
	// (kept in memory only: the access log's line format leaves it out).
	Proto string
}

// URL returns the requested URL: scheme, host and target as sent.
func (e Entry) URL() string { return e.Scheme + "://" + e.Host + e.Target }

// String formats e as one access log line: tab-separated time in
// nanoseconds, scheme, host, method, target, status, bytes and User-Agent
// (tabs and line breaks in the User-Agent replaced by spaces).
func (e Entry) String() string {
	return string(e.appendTo(nil))
}

func (e Entry) appendTo(b []byte) []byte {
	b = strconv.AppendInt(b, int64(e.Time), 10)
	b = append(b, '\t')
	b = append(b, e.Scheme...)
	b = append(b, '\t')
	b = append(b, clean(e.Host)...)
	b = append(b, '\t')
	b = append(b, clean(e.Method)...)
	b = append(b, '\t')
	b = append(b, clean(e.Target)...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, e.Bytes, 10)
	b = append(b, '\t')
	b = append(b, clean(e.UserAgent)...)
	return append(b, '\n')
}

func clean(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(s)
}

// ParseEntry parses one access log line written by the test web (with or
// without its trailing newline).
func ParseEntry(line string) (Entry, error) {
	f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
	if len(f) != 8 {
		return Entry{}, fmt.Errorf("%w: %d fields, want 8: %q", ErrLogFormat, len(f), line)
	}
	ns, err1 := strconv.ParseInt(f[0], 10, 64)
	status, err2 := strconv.Atoi(f[5])
	n, err3 := strconv.ParseInt(f[6], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return Entry{}, fmt.Errorf("%w: bad number in %q", ErrLogFormat, line)
	}
	return Entry{Time: time.Duration(ns), Scheme: f[1], Host: f[2], Method: f[3], Target: f[4],
		Status: status, Bytes: n, UserAgent: f[7]}, nil
}

// Recorder keeps entries in memory; pass its Add as Options.OnRequest. It
// is safe for concurrent use.
type Recorder struct {
	c       cond.Cond // guards entries; broadcast on each Add
	entries []Entry
}

// Add records e.
func (r *Recorder) Add(e Entry) {
	r.c.Lock()
	r.entries = append(r.entries, e)
	r.c.Broadcast()
	r.c.Unlock()
}

// Wait blocks until at least n entries are recorded or ctx ends, and
// returns how many there are. A test acts on a crawl at a point of its
// progress (stops it after its n-th request) with it, not by polling.
func (r *Recorder) Wait(ctx context.Context, n int) (int, error) {
	have := 0
	err := r.c.Wait(ctx, func() bool {
		have = len(r.entries)
		return have >= n
	})
	return have, err
}

// Entries returns a copy of the entries recorded so far, in arrival order
// of their completion.
func (r *Recorder) Entries() []Entry {
	r.c.Lock()
	defer r.c.Unlock()
	return append([]Entry(nil), r.entries...)
}

// Reset forgets all entries.
func (r *Recorder) Reset() {
	r.c.Lock()
	r.entries = nil
	r.c.Unlock()
}

// statusWriter records the status and body size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Flush lets the handler push a partial body before dropping a connection.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap supports http.ResponseController.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
