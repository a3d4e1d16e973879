package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func newFetcher(t testing.TB, o Options) *Fetcher {
	t.Helper()
	if o.AllowHosts == nil && !o.AllowPrivate {
		o.AllowHosts = []string{"127.0.0.1"}
	}
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func fetch(t testing.TB, f *Fetcher, u string) Response {
	t.Helper()
	return f.Fetch(context.Background(), Request{URL: u})
}

func TestFetchHTML(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	for _, path := range []string{"/html", "/xhtml"} {
		r := fetch(t, f, s.URL+path)
		if r.Err != nil || r.Code != 200 || string(r.Body) != page || r.Truncated || r.Reason != "" {
			t.Fatalf("%s: code %d err %v reason %q body %q", path, r.Code, r.Err, r.Reason, r.Body)
		}
		if r.Length != int64(len(page)) || r.Dur <= 0 || r.URL != s.URL+path {
			t.Errorf("%s: length %d dur %v url %s", path, r.Length, r.Dur, r.URL)
		}
	}
	r := fetch(t, f, s.URL+"/html")
	if r.ContentType != "text/html" {
		t.Errorf("ContentType = %q", r.ContentType)
	}
	h := s.header("/html")
	if ua := h.Get("User-Agent"); !strings.HasPrefix(ua, "seedcrawl/") {
		t.Errorf("User-Agent = %q", ua)
	}
	if h.Get("Accept-Encoding") != acceptEncoding {
		t.Errorf("Accept-Encoding = %q", h.Get("Accept-Encoding"))
	}
}

func TestNonHTMLHasNoBody(t *testing.T) {
	s := newTestServer(t, 1<<20)
	f := newFetcher(t, Options{})
	r := fetch(t, f, s.URL+"/pdf")
	if r.Err != nil || r.Code != 200 || r.Body != nil || r.ContentType != "application/pdf" {
		t.Fatalf("pdf: code %d err %v body %d type %q", r.Code, r.Err, len(r.Body), r.ContentType)
	}
	r = fetch(t, f, s.URL+"/big-pdf")
	if r.Err != nil || r.Body != nil || r.Length != 1<<20 {
		t.Fatalf("big pdf: err %v body %d length %d", r.Err, len(r.Body), r.Length)
	}
	r = fetch(t, f, s.URL+"/missing")
	if r.Err != nil || r.Code != 404 || r.Body != nil {
		t.Fatalf("404: code %d err %v body %q", r.Code, r.Err, r.Body)
	}
}

func TestConditionalGet(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	r := fetch(t, f, s.URL+"/etag")
	if r.Code != 200 || r.ETag != `"v1"` {
		t.Fatalf("first fetch: code %d etag %q", r.Code, r.ETag)
	}
	r = f.Fetch(context.Background(), Request{URL: s.URL + "/etag", ETag: r.ETag})
	if r.Code != http.StatusNotModified || r.Err != nil || r.Body != nil || r.ETag != `"v1"` {
		t.Fatalf("revalidation: code %d err %v body %q etag %q", r.Code, r.Err, r.Body, r.ETag)
	}
	r = fetch(t, f, s.URL+"/lastmod")
	if r.Code != 200 || r.LastModified == "" {
		t.Fatalf("lastmod first: code %d lm %q", r.Code, r.LastModified)
	}
	r = f.Fetch(context.Background(), Request{URL: s.URL + "/lastmod", LastModified: r.LastModified})
	if r.Code != http.StatusNotModified || r.Err != nil {
		t.Fatalf("lastmod revalidation: code %d err %v", r.Code, r.Err)
	}
	if got := s.header("/lastmod").Get("If-Modified-Since"); got != "Wed, 21 Oct 2015 07:28:00 GMT" {
		t.Errorf("If-Modified-Since sent = %q", got)
	}
}

func TestRedirectsNotFollowed(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	for _, code := range []string{"301", "302", "303", "307", "308"} {
		r := fetch(t, f, s.URL+"/redirect/"+code)
		want := s.URL + "/html?from=" + code
		if r.Code != atoi(code) || r.Location != want || r.Err != nil || r.Body != nil {
			t.Errorf("%s: code %d location %q err %v; want location %q", code, r.Code, r.Location, r.Err, want)
		}
	}
	if h := s.header("/html"); h != nil {
		t.Errorf("a redirect was followed")
	}
	r := fetch(t, f, s.URL+"/redirect/bad")
	if r.Code != 302 || r.Location != "" || r.Reason != ReasonBadLocation {
		t.Errorf("bad location: code %d location %q reason %q", r.Code, r.Location, r.Reason)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestRetryAfter(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	r := fetch(t, f, s.URL+"/429-seconds")
	if r.Code != 429 || r.RetryAfter != 120*time.Second || r.Err != nil {
		t.Errorf("429: code %d retry %v err %v", r.Code, r.RetryAfter, r.Err)
	}
	r = fetch(t, f, s.URL+"/503-date")
	if r.Code != 503 || r.RetryAfter < 59*time.Minute || r.RetryAfter > 61*time.Minute {
		t.Errorf("503: code %d retry %v", r.Code, r.RetryAfter)
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":                              0,
		"0":                             0,
		"-5":                            0,
		"30":                            30 * time.Second,
		" 7 ":                           7 * time.Second,
		"Wed, 01 Jan 2025 12:10:00 GMT": 10 * time.Minute,
		"Wed, 01 Jan 2025 11:00:00 GMT": 0,
		"soon":                          0,
		"99999999999":                   365 * 24 * time.Hour,
	} {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestBodyLimit(t *testing.T) {
	const limit = 64 << 10
	s := newTestServer(t, 4*limit)
	f := newFetcher(t, Options{MaxBody: limit})
	r := fetch(t, f, s.URL+"/big")
	if !r.Truncated || r.Err != nil || r.Reason != ReasonTruncated {
		t.Fatalf("big: truncated %v err %v reason %q", r.Truncated, r.Err, r.Reason)
	}
	if len(r.Body) != limit || r.Length != limit || !strings.HasPrefix(string(r.Body), "<html><body>") {
		t.Fatalf("big: body %d length %d", len(r.Body), r.Length)
	}
	// A body of exactly the limit is not truncated.
	s2 := newTestServer(t, limit)
	r = fetch(t, f, s2.URL+"/exact")
	if r.Truncated || r.Err != nil || len(r.Body) != limit {
		t.Fatalf("exact: truncated %v err %v body %d", r.Truncated, r.Err, len(r.Body))
	}
}

func TestDecoding(t *testing.T) {
	s := newTestServer(t, 64<<10)
	f := newFetcher(t, Options{MaxBody: 64 << 10})
	for _, enc := range []string{"gzip", "zlib", "flate"} {
		r := fetch(t, f, s.URL+"/enc/"+enc)
		if r.Err != nil || string(r.Body) != page || r.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: err %v body %q", enc, r.Err, r.Body)
		}
	}
	for _, p := range []string{"/enc/corrupt", "/enc/not-gzip"} {
		r := fetch(t, f, s.URL+p)
		if r.Err == nil || r.Reason != ReasonBadBody || r.Body != nil || r.Code != 200 {
			t.Errorf("%s: code %d err %v reason %q", p, r.Code, r.Err, r.Reason)
		}
	}
	// The fetcher's reused gzip reader still works after a corrupt body.
	if r := fetch(t, f, s.URL+"/enc/gzip"); r.Err != nil || string(r.Body) != page {
		t.Errorf("gzip after corrupt: err %v", r.Err)
	}
	r := fetch(t, f, s.URL+"/enc/br")
	if !errors.Is(r.Err, ErrEncoding) || r.Reason != ReasonEncoding || r.Body != nil {
		t.Errorf("br: err %v reason %q", r.Err, r.Reason)
	}
	// An ordinary page that is too big once decoded is truncated, not
	// called a bomb.
	r = fetch(t, f, s.URL+"/enc/big-gzip")
	if !r.Truncated || r.Reason != ReasonTruncated || len(r.Body) != 64<<10 {
		t.Errorf("big gzip: truncated %v reason %q body %d", r.Truncated, r.Reason, len(r.Body))
	}
}

func TestGzipBombRefused(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{MaxBody: 1 << 20})
	r := fetch(t, f, s.URL+"/bomb")
	if !errors.Is(r.Err, ErrBomb) || r.Reason != ReasonBomb || r.Body != nil {
		t.Fatalf("bomb: err %v reason %q body %d", r.Err, r.Reason, len(r.Body))
	}
	// Decoding stopped at the limit: the 16 MiB were never inflated.
	if r.Length > 1<<20 {
		t.Fatalf("bomb inflated to %d bytes, limit %d", r.Length, 1<<20)
	}
}

// TestCharsetNotConverted: the body keeps the document's own bytes and
// the header's charset is reported beside it, for the extractor to weigh
// against the BOM and <meta>. (Bodies used to be converted to UTF-8 here
// when the header named a charset.)
func TestCharsetNotConverted(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	tests := []struct {
		path, body, charset string
	}{
		{"/latin1", "<title>caf\xe9</title>", "iso-8859-1"},
		{"/html", page, "utf-8"},
		{"/xhtml", page, ""},
	}
	for _, tt := range tests {
		r := fetch(t, f, s.URL+tt.path)
		if r.Err != nil || string(r.Body) != tt.body || r.Charset != tt.charset {
			t.Errorf("%s: err %v body %q charset %q; want body %q charset %q", tt.path, r.Err, r.Body, r.Charset, tt.body, tt.charset)
		}
		if r.Header.Get("Content-Type") == "" {
			t.Errorf("%s: Content-Type header lost", tt.path)
		}
	}
}

func TestTimeouts(t *testing.T) {
	s := newTestServer(t, 1<<10)
	tests := []struct {
		name, path string
		opts       Options
		code       int
	}{
		{"response header timeout", "/slow-header", Options{HeaderTimeout: 200 * time.Millisecond}, 0},
		{"total timeout during body", "/slow-body", Options{Timeout: 300 * time.Millisecond}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetcher(t, tt.opts)
			start := time.Now()
			r := fetch(t, f, s.URL+tt.path)
			if r.Err == nil || r.Reason != ReasonTimeout || r.Code != tt.code || r.Body != nil {
				t.Fatalf("code %d err %v reason %q", r.Code, r.Err, r.Reason)
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Fatalf("took %v", el)
			}
		})
	}
}

func TestConnectionDroppedMidBody(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	r := fetch(t, f, s.URL+"/drop")
	if r.Err == nil || r.Reason != ReasonConnLost || r.Code != 200 || r.Body != nil {
		t.Fatalf("code %d err %v reason %q body %q", r.Code, r.Err, r.Reason, r.Body)
	}
}

// headersSeen wraps a transport and closes seen once a response's
// headers have arrived, so a test can act while its body is being read.
type headersSeen struct {
	next http.RoundTripper
	seen chan struct{}
	once sync.Once
}

func (h *headersSeen) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := h.next.RoundTrip(r)
	if err == nil {
		h.once.Do(func() { close(h.seen) })
	}
	return resp, err
}

func TestContextCanceled(t *testing.T) {
	s := newTestServer(t, 1<<10)
	tr, err := NewTransport(Options{AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := &headersSeen{next: tr, seen: make(chan struct{})}
	f := newFetcher(t, Options{Transport: hs})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-hs.seen // the server holds the body open: cancel mid-body
		cancel()
	}()
	start := time.Now()
	r := f.Fetch(ctx, Request{URL: s.URL + "/slow-body"})
	if r.Reason != ReasonCanceled || !errors.Is(r.Err, context.Canceled) {
		t.Fatalf("err %v reason %q", r.Err, r.Reason)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("cancel took %v", el)
	}
	// The fetcher is usable afterwards.
	if r := fetch(t, f, s.URL+"/html"); r.Err != nil || r.Code != 200 {
		t.Fatalf("after cancel: code %d err %v", r.Code, r.Err)
	}
}

func TestKeepAlive(t *testing.T) {
	s := newTestServer(t, 1<<10)
	f := newFetcher(t, Options{})
	for _, p := range []string{"/html", "/missing", "/redirect/301", "/pdf", "/etag", "/html"} {
		if r := fetch(t, f, s.URL+p); r.Err != nil {
			t.Fatalf("%s: %v", p, r.Err)
		}
	}
	if n := s.conns.Load(); n != 1 {
		t.Fatalf("%d connections for 6 sequential fetches, want 1", n)
	}
}

func TestBadURL(t *testing.T) {
	f := newFetcher(t, Options{})
	for _, u := range []string{"ftp://example.com/", "example.com", "", "http://exa mple.com/", "http:///x"} {
		r := fetch(t, f, u)
		if r.Err == nil || r.Reason != ReasonBadURL {
			t.Errorf("%q: err %v reason %q", u, r.Err, r.Reason)
		}
	}
}

func TestNewRejectsNegative(t *testing.T) {
	if _, err := New(Options{MaxBody: -1}); !errors.Is(err, ErrOptions) {
		t.Fatalf("err = %v", err)
	}
	if _, err := NewTransport(Options{Timeout: -time.Second}); !errors.Is(err, ErrOptions) {
		t.Fatalf("err = %v", err)
	}
}

// TestBodySizes checks that a page's body arrives byte for byte whatever
// its size relative to the first buffer (bodyStartSize) and MaxBody, with a
// Content-Length and without one (chunked), and is cut at MaxBody.
func TestBodySizes(t *testing.T) {
	const limit = 256 << 10
	body := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "<p>abcdefghij</p>\n"[i%18]
		}
		return string(b)
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Query().Get("cl") == "1" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		io.WriteString(w, body(n))
	}))
	t.Cleanup(s.Close)
	f := newFetcher(t, Options{MaxBody: limit})
	for _, tc := range []struct {
		name string
		n    int
	}{
		{"empty", 0},
		{"one byte", 1},
		{"just under the first buffer", bodyStartSize - 1},
		{"the first buffer", bodyStartSize},
		{"just over the first buffer", bodyStartSize + 1},
		{"several doublings", 100_000},
		{"exactly the limit", limit},
		{"over the limit", limit + 1},
		{"far over the limit", 3 * limit},
	} {
		for _, cl := range []string{"1", "0"} {
			r := fetch(t, f, s.URL+"/?n="+strconv.Itoa(tc.n)+"&cl="+cl)
			want := body(min(tc.n, limit))
			if r.Err != nil || r.Code != 200 || r.Body == nil || string(r.Body) != want {
				t.Errorf("%s (content-length %s): code %d err %v body %d bytes, want %d", tc.name, cl, r.Code, r.Err, len(r.Body), len(want))
			}
			if r.Truncated != (tc.n > limit) || r.Length != int64(len(want)) {
				t.Errorf("%s (content-length %s): truncated %v length %d", tc.name, cl, r.Truncated, r.Length)
			}
		}
	}
}
