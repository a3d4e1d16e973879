package crawler

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/warc"
)

// spyRecorder sums what a Recorder is told.
type spyRecorder struct {
	mu      sync.Mutex
	fetches uint64
	bytes   int64
	codes   map[int]uint64
	counts  map[string]uint64
}

func newSpyRecorder() *spyRecorder {
	return &spyRecorder{codes: map[int]uint64{}, counts: map[string]uint64{}}
}

func (s *spyRecorder) ObserveFetch(code int, bytes int64, _ time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetches++
	s.bytes += bytes
	s.codes[code]++
}

func (s *spyRecorder) Count(key string, n uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[key] += n
}

// spyArchive keeps the exchanges it is given; it fails with err when set.
type spyArchive struct {
	mu  sync.Mutex
	got map[string][]warc.Exchange
	err error
}

func (a *spyArchive) WriteExchange(_ context.Context, x warc.Exchange) (warc.Result, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return warc.Result{}, a.err
	}
	a.got[x.URL] = append(a.got[x.URL], x)
	return warc.Result{Type: warc.TypeResponse}, nil
}

// captured serves an HTML page with a capture of its exchange, and 304
// to a request that carries its ETag.
func captured(w *fakeweb.Web, u, body string) {
	w.Pages[u] = func(req fetch.Request, _ int) fetch.Response {
		cp := &fetch.Capture{Request: []byte("GET " + u + " HTTP/1.1\r\n\r\n")}
		if req.ETag == `"v1"` {
			cp.Response = []byte("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n")
			return fetch.Response{Code: 304, ETag: `"v1"`, Header: http.Header{}, Capture: cp, Start: time.Now()}
		}
		cp.Response = []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: \"v1\"\r\n\r\n" + body)
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte(body), Length: int64(len(body)),
			Header: http.Header{"Content-Type": {"text/html"}}, ETag: `"v1"`, Capture: cp, Start: time.Now()}
	}
}

// TestRecorderAndArchive crawls three times: a first crawl, then two
// refetches of the seed answered 304. The Recorder must be told exactly
// what the run counts, the Archive must get each exchange once, and a
// 304's RefersToDate must be the first (full) fetch's time, also when the
// fetch before it was a 304 too.
func TestRecorderAndArchive(t *testing.T) {
	r := newRig(t)
	captured(r.Web, "http://a.test/", `<a href="/b">b</a><a href="/missing">m</a><a href="ftp://x/">x</a>`)
	captured(r.Web, "http://a.test/b", `<a href="/">home</a>`)
	rec := newSpyRecorder()
	arc := &spyArchive{got: map[string][]warc.Exchange{}}
	r.opts.Recorder, r.opts.Archive = rec, arc

	s := r.mustRun("http://a.test/")
	if rec.fetches != s.Fetches || uint64(rec.bytes) != s.Bytes || s.Fetches != 3 {
		t.Errorf("recorder: %d fetches %d bytes; summary %d fetches %d bytes", rec.fetches, rec.bytes, s.Fetches, s.Bytes)
	}
	if rec.codes[200] != 2 || rec.codes[404] != 1 {
		t.Errorf("recorder codes %v, want 200×2 404×1", rec.codes)
	}
	runs, err := r.DB.Runs()
	if err != nil {
		t.Fatal(err)
	}
	stored := maps.Clone(runs[0].Counters)
	for _, k := range []string{"fetches", "pages", "discovered", "bytes"} {
		delete(stored, k) // totals, told through ObserveFetch
	}
	if !maps.Equal(rec.counts, stored) {
		t.Errorf("recorder counts %v, stored %v", rec.counts, stored)
	}
	// The 404 came without a capture: nothing to archive.
	if len(arc.got) != 2 || len(arc.got["http://a.test/"]) != 1 || len(arc.got["http://a.test/b"]) != 1 {
		t.Fatalf("archived %v, want each captured page once", arc.got)
	}
	first := r.Page("http://a.test/").FetchedAt

	r.opts.Refetch = true
	for i := range 2 {
		r.reopen()
		r.opts.Recorder, r.opts.Archive, r.opts.Refetch = rec, arc, true
		r.mustRun("http://a.test/")
		xs := arc.got["http://a.test/"]
		if len(xs) != 2+i || string(xs[len(xs)-1].Response[:12]) != "HTTP/1.1 304" {
			t.Fatalf("refetch %d: %d exchanges archived for the seed, want a 304 added", i+1, len(xs))
		}
		if got := xs[len(xs)-1].RefersToDate; !got.Equal(first) {
			t.Errorf("refetch %d: RefersToDate %v, want the first fetch %v", i+1, got, first)
		}
		if p := r.Page("http://a.test/"); p.Status != storage.StatusNotModified {
			t.Errorf("refetch %d: seed status %v, want not-modified", i+1, p.Status)
		}
	}
}

// An archive that fails stops the crawl with its error, and the URL whose
// exchange was not kept stays in the stored frontier for the next run.
func TestArchiveFailureStopsCrawl(t *testing.T) {
	r := newRig(t)
	captured(r.Web, "http://a.test/", "<p>x</p>")
	errFull := errors.New("warc dir full")
	r.opts.Archive = &spyArchive{err: errFull}
	_, err := r.run(context.Background(), "http://a.test/")
	if !errors.Is(err, errFull) {
		t.Fatalf("Run = %v, want the archive's error", err)
	}
	if n := r.FrontierLen(); n != 1 {
		t.Errorf("stored frontier holds %d entries, want the seed still queued", n)
	}
}
