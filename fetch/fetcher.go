package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Request is one URL to fetch.
type Request struct {
	// URL is the absolute URL to GET, normally urlnorm's form.
	URL string
	// ETag, when set, is sent as If-None-Match.
	ETag string
	// LastModified, when set, is sent as If-Modified-Since (the
	// Last-Modified value of an earlier fetch, verbatim).
	LastModified string
	// KeepBody keeps the body of a 2xx response whatever its media type
	// (a sitemap: XML, plain text or a gzip file), under the same MaxBody
	// and decompression bounds as HTML; otherwise only HTML bodies are
	// read.
	KeepBody bool
}

// Response is the outcome of one Fetch. Every outcome is a Response: a
// network failure has Code 0 and Err set.
type Response struct {
	// URL is the requested URL. Redirects are not followed, so it is
	// also the URL the response came from.
	URL string
	// Code is the HTTP status, 0 if no response arrived.
	Code int
	// Header is the response header (Content-Encoding removed when the
	// body was decoded here); nil if no response arrived.
	Header http.Header
	// ContentType is the media type, lower-case, without parameters.
	ContentType string
	// Body is the body with its Content-Encoding (gzip, deflate) removed
	// but its bytes otherwise as sent, in the document's own character
	// encoding: no conversion to UTF-8 happens here, because the charset
	// can also come from a BOM or a <meta> tag only a parser sees (see
	// Charset). Only for 2xx HTML responses (any 2xx with
	// Request.KeepBody); at most MaxBody bytes.
	Body []byte
	// Charset is the charset parameter of the Content-Type header,
	// lower-cased and trimmed ("iso-8859-1", "utf-8"); "" if the header
	// names none. It is the transport-level claim a decoder weighs against
	// the BOM and <meta> (the WHATWG encoding sniffing order).
	Charset string
	// Length is the body size: the decoded bytes read for 2xx HTML
	// responses, the Content-Length header otherwise (-1 if unknown; such
	// bodies are not downloaded).
	Length int64
	// Truncated reports that the body was longer than MaxBody and was cut.
	Truncated bool
	// Start is when Fetch began (wall clock): the date of the capture, for
	// WARC-Date.
	Start time.Time
	// Dur is the time from sending the request to having the whole body.
	Dur time.Duration
	// TTFB is the server's time to first byte: from the request being
	// completely written to the first byte of the response arriving
	// (httptrace WroteRequest to GotFirstResponseByte). Unlike Dur it
	// leaves out connecting, TLS and reading the body, and is measured by
	// the transport's own goroutines at the moment bytes move, so it
	// reflects how long the server took rather than how busy this process
	// is; a per-host politeness delay should scale with it. 0 if no
	// response byte arrived.
	TTFB time.Duration
	// RemoteAddr is the IP address the request went to ("" if no
	// connection was made), for WARC-IP-Address.
	RemoteAddr string
	// Capture holds the exact bytes of the exchange when Options.Record is
	// set (nil otherwise, and nil if no connection was made).
	Capture *Capture
	// Location is the redirect target of a 3xx, resolved against URL and
	// normalized; "" if absent or invalid (Reason says which).
	Location string
	// RetryAfter is the Retry-After header (delay-seconds or HTTP-date) as
	// a duration from now; 0 if absent or in the past. An HTTP-date is
	// read against the answer's Date header when it has one, so a server
	// clock that is off does not stretch or shrink the wait.
	RetryAfter time.Duration
	// ETag and LastModified are the response's validators, to send back
	// on the next fetch of URL.
	ETag         string
	LastModified string
	// Err is the failure, if any: a network or protocol error (Code may
	// still be set when the connection broke during the body), ErrBomb or
	// ErrEncoding. A failed fetch has no Body. Truncation is not a
	// failure: see Truncated.
	Err error
	// Reason names the failure or the notable outcome (a Reason constant:
	// ReasonTruncated, ReasonBadLocation for a successful fetch); "" for
	// a plain response.
	Reason string
}

// Reasons, stable strings for counting outcomes.
const (
	ReasonTimeout        = "timeout"
	ReasonCanceled       = "canceled"
	ReasonPrivateAddress = "private-address"
	ReasonDNS            = "dns"
	ReasonRefused        = "connect-refused"
	ReasonConnLost       = "connection-lost"
	ReasonTLS            = "tls"
	ReasonNetwork        = "network"
	ReasonTruncated      = "truncated"
	ReasonBomb           = "decompression-bomb"
	ReasonEncoding       = "unsupported-encoding"
	ReasonBadBody        = "bad-body" // a compressed body that does not decode
	ReasonBadLocation    = "bad-location"
	ReasonBadURL         = "bad-url"
	ReasonNotRecording   = "not-recording"
	// ReasonBadResponse is a response that breaks HTTP/1.1's framing: a
	// malformed status or header line, headers past the limit, broken
	// chunked encoding. A server that sends one sends it again: it is not
	// retried.
	ReasonBadResponse = "bad-response"
)

// call is the state of one Fetch, shared by the colly callbacks and the
// limitTransport through the request context.
type call struct {
	gotHeaders  bool
	code        int
	header      http.Header
	contentType string
	length      int64
	wantBody    bool
	keepBody    bool // Request.KeepBody
	bodyBytes   int64
	truncated   bool
	bomb        bool
	badEncoding string
	badBody     bool
	body        []byte
	// spare is the Fetcher's released buffer lent to this call: fill
	// reads into it when it is large enough (spareUsed), so the body
	// handed out may be a buffer released earlier.
	spare       []byte
	spareUsed   bool
	gotResponse bool
	// bodyUnread: part of the body was left unread (dropped or cut).
	bodyUnread bool

	// Timing and connection, set by httptrace callbacks, which run on
	// the transport's goroutines: times are nanoseconds since start,
	// atomically stored.
	start      time.Time
	wrote      atomic.Int64
	firstByte  atomic.Int64
	remoteAddr string
	record     bool
	capture    // with record: the exchange's bytes
	maxCapture int64
}

// Fetcher fetches one URL per call through a colly collector. It is NOT
// safe for concurrent use: each worker owns one (New is cheap; share the
// Transport).
type Fetcher struct {
	c    *colly.Collector
	opts Options
	cur  *call
	now  func() time.Time
	// spare is one body buffer handed back by Release, reused by the
	// next Fetch: a worker fetches one page at a time, so one buffer per
	// Fetcher is all the reuse there is to have, and a Fetcher holds at
	// most bodySpareMax bytes of it.
	spare []byte
}

// New builds a Fetcher. Without opts.Transport it builds one with
// NewTransport(opts).
func New(opts Options) (*Fetcher, error) {
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("fetch: new fetcher: %w", err)
	}
	opts.MaxBody = pick(opts.MaxBody, DefaultMaxBody)
	opts.MaxRatio = pick(opts.MaxRatio, DefaultMaxRatio)
	opts.Timeout = pick(opts.Timeout, DefaultTimeout)
	if opts.UserAgent == "" {
		opts.UserAgent = version.UserAgent
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	tr := opts.Transport
	if tr == nil {
		t, err := NewTransport(opts)
		if err != nil {
			return nil, err
		}
		tr = t
	}
	c := newCollector(opts.UserAgent)
	c.WithTransport(&limitTransport{next: tr, maxBody: opts.MaxBody, maxRatio: opts.MaxRatio})
	// Fetch bounds each request with a context deadline instead: an
	// http.Client timeout costs a timer, a context and a dozen more
	// allocations per request on top of the context a request has anyway.
	c.SetRequestTimeout(0)
	f := &Fetcher{c: c, opts: opts, now: now}
	c.OnResponse(func(r *colly.Response) {
		if f.cur != nil {
			// The body of a page is in f.cur.body (limitBody), not in
			// r.Body, which colly read empty.
			f.cur.gotResponse = true
		}
	})
	return f, nil
}

// newCollector builds the colly collector as a bare fetch engine. It calls
// Init instead of colly.NewCollector because NewCollector then applies
// COLLY_* environment variables (COLLY_MAX_BODY_SIZE would cut bodies
// silently, COLLY_CACHE_DIR would answer from disk, COLLY_USER_AGENT would
// change who we say we are); the crawl's settings come from its own
// flags. Every field colly lets the environment override is then set
// explicitly, so a future colly that reads the environment in Init too
// still gets our values.
func newCollector(userAgent string) *colly.Collector {
	c := &colly.Collector{}
	c.Init()
	c.UserAgent = userAgent
	c.AllowedDomains = nil
	c.DisallowedDomains = nil
	c.CacheDir = ""
	c.DetectCharset = false
	c.IgnoreRobotsTxt = true // package robots owns robots.txt
	c.AllowURLRevisit = true // the frontier owns the seen-set
	c.MaxDepth = 0
	c.MaxRequests = 0
	// Our limitTransport bounds the body; colly's own limit would cut
	// silently and hide truncation.
	c.MaxBodySize = 0
	c.ParseHTTPErrorResponse = true
	c.TraceHTTP = false
	c.Async = false
	c.DisableCookies()
	c.SetRedirectHandler(func(*http.Request, []*http.Request) error {
		// The crawler records the hop and queues the target itself.
		return http.ErrUseLastResponse
	})
	return c
}

// Fetch GETs req.URL once and reports the outcome; it never follows
// redirects. ctx cancels the request at any stage.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (res Response) {
	start := time.Now()
	res = Response{URL: req.URL, Length: -1, Start: start}
	if !strings.HasPrefix(req.URL, "http://") && !strings.HasPrefix(req.URL, "https://") {
		res.Err = fmt.Errorf("fetch: %q: %w", req.URL, urlnorm.ErrScheme)
		res.Reason = ReasonBadURL
		return res
	}
	if u, err := url.Parse(req.URL); err != nil || u.Host == "" {
		res.Err = fmt.Errorf("fetch: %q: %w", req.URL, urlnorm.ErrParse)
		res.Reason = ReasonBadURL
		return res
	}
	c := &call{length: -1, start: start, record: f.opts.Record, maxCapture: f.opts.MaxBody + MaxHeaderBytes, keepBody: req.KeepBody}
	c.spare, f.spare = f.spare, nil
	f.cur = c
	defer func() {
		f.cur = nil
		// What the caller did not get back stays with the Fetcher: the
		// unused spare, or a body read but not handed out (a failure).
		if !c.spareUsed {
			f.keep(c.spare)
		}
		if res.Body == nil {
			f.keep(c.body)
		}
	}()
	hdr := http.Header{}
	hdr.Set("User-Agent", f.opts.UserAgent)
	hdr.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
	hdr.Set("Accept-Encoding", acceptEncoding)
	if req.ETag != "" {
		hdr.Set("If-None-Match", req.ETag)
	}
	if req.LastModified != "" {
		hdr.Set("If-Modified-Since", req.LastModified)
	}
	// colly builds each request on Collector.Context; this Fetcher runs
	// one request at a time, so setting it per call scopes it to this
	// request.
	rctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	f.c.Context = context.WithValue(rctx, callKey{}, c)
	err := f.c.Request(http.MethodGet, req.URL, nil, nil, hdr)
	f.c.Context = context.Background()
	cancel()
	res.Dur = time.Since(start)
	res.RemoteAddr = c.remoteAddr
	if w, fb := c.wrote.Load(), c.firstByte.Load(); w > 0 && fb > 0 {
		// A server may answer before the request is fully written; that
		// is no time at all on its side.
		res.TTFB = time.Duration(max(fb-w, 0))
	}
	if c.rec != nil {
		c.conn.detach(c.rec)
		res.Capture = &Capture{
			Request:   c.rec.req.b,
			Response:  c.rec.resp.b,
			Truncated: c.rec.resp.over || c.rec.req.over || c.bodyUnread || c.truncated || c.bomb || err != nil,
		}
	}
	if f.opts.Record && c.notRec {
		res.Err = fmt.Errorf("fetch: get %s: %w", req.URL, ErrNotRecording)
		res.Reason = ReasonNotRecording
		return res
	}

	if c.gotHeaders {
		res.Code = c.code
		res.Header = c.header
		res.ContentType = bounded(c.contentType, maxMediaType)
		res.Charset = charsetOf(c.header.Get("Content-Type"))
		res.Length = c.length
		res.ETag = bounded(c.header.Get("ETag"), maxETag)
		res.LastModified = bounded(c.header.Get("Last-Modified"), maxHTTPDate)
		res.RetryAfter = retryAfter(c.header.Get("Retry-After"), serverNow(c.header.Get("Date"), f.now()))
		if res.Code >= 300 && res.Code < 400 && res.Code != http.StatusNotModified {
			if loc := c.header.Get("Location"); loc != "" {
				if u, lerr := urlnorm.Resolve(req.URL, loc); lerr == nil {
					res.Location = u
				} else {
					res.Reason = ReasonBadLocation
				}
			}
		}
	}
	switch {
	case err != nil && res.Reason == ReasonBadLocation && badLocation(err):
		// net/http parses a redirect's Location before asking whether to
		// follow it, and fails the request when it is no URL; the answer
		// itself arrived whole: a redirect without a usable Location.
	case err != nil:
		res.Err = fmt.Errorf("fetch: get %s: %w", req.URL, err)
		res.Reason = classify(ctx, err)
		if c.badBody && res.Reason != ReasonCanceled && res.Reason != ReasonTimeout {
			res.Reason = ReasonBadBody
		}
		if c.bomb {
			res.Err, res.Reason = fmt.Errorf("fetch: get %s: %w", req.URL, ErrBomb), ReasonBomb
		}
		return res
	case c.badEncoding != "":
		res.Err = fmt.Errorf("fetch: get %s: %w %q", req.URL, ErrEncoding, c.badEncoding)
		res.Reason = ReasonEncoding
		return res
	case c.bomb:
		res.Err = fmt.Errorf("fetch: get %s: %w: expands over %d:1 past %d bytes", req.URL, ErrBomb, f.opts.MaxRatio, f.opts.MaxBody)
		res.Reason = ReasonBomb
		res.Truncated = true
		res.Length = c.bodyBytes
		return res
	}
	if c.wantBody {
		res.Body = c.body
		res.Length = c.bodyBytes
		if c.truncated {
			// Not an error: the first MaxBody bytes are a usable page.
			res.Truncated = true
			res.Reason = ReasonTruncated
		}
	}
	return res
}

// Release hands back the Body of a Response this Fetcher returned, once
// the caller is done with it: hashed, parsed, archived. The next Fetch
// may read another body into the same memory, so after Release the
// caller must not read body, nor keep anything that aliases it (a
// sub-slice; strings made with string(b) are copies and are fine). A
// body not released is simply left to the garbage collector. Like
// Fetch, Release must not run concurrently with this Fetcher's other
// calls.
//
// Reusing the buffer matters because bodies are most of the bytes a
// crawl allocates: a fresh buffer per page keeps the garbage collector
// busy for memory that is dead a millisecond later.
func (f *Fetcher) Release(body []byte) {
	f.keep(body)
}

// keep makes b the spare buffer if it is larger than the current one
// and no larger than bodySpareMax.
func (f *Fetcher) keep(b []byte) {
	if cap(b) > cap(f.spare) && cap(b) <= bodySpareMax {
		f.spare = b[:0]
	}
}

// serverNow is the server's clock when it answered: its Date header
// (RFC 9110 6.6.1), or now if it sent none that parses. A Retry-After
// date is on the server's clock, so it is read against the Date of the
// same answer: a server whose clock is two hours ahead asking for a retry
// in two minutes means two minutes, not two hours and two minutes (which
// would give the host up, as a Retry-After above an hour does).
func serverNow(date string, now time.Time) time.Time {
	if t, err := http.ParseTime(strings.TrimSpace(date)); err == nil {
		return t
	}
	return now
}

// retryAfter parses a Retry-After value (RFC 9110 10.2.3): delay-seconds or
// an HTTP-date, as a non-negative duration from now (the server's clock,
// serverNow).
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, int64(365*24*3600))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// Bounds of the header values a fetch keeps, which are stored with every
// page and sent back in conditional requests: a server may send a
// megabyte in each (Transport's MaxHeaderBytes), which would be a
// megabyte in every page record. Real values are far shorter: an
// HTTP-date is 29 bytes, entity tags are hashes or version stamps, and
// RFC 6838 limits a media type's type and subtype to 127 characters each.
const (
	maxETag      = 1024
	maxHTTPDate  = 64
	maxMediaType = 255
)

// bounded returns v, or "" when it is longer than max: a value cut short
// would be a wrong validator, a wrong date or a wrong type, and without it
// the page is simply fetched without a condition, or its type unknown.
func bounded(v string, max int) string {
	if len(v) > max {
		return ""
	}
	return v
}

// badLocation reports whether err is net/http's refusal of a redirect
// whose Location it cannot parse (it has no type for it).
func badLocation(err error) bool {
	return strings.Contains(err.Error(), "failed to parse Location header")
}

// classify names a fetch error for counting.
func classify(ctx context.Context, err error) string {
	switch {
	case errors.Is(err, ErrPrivateAddress):
		return ReasonPrivateAddress
	case ctx.Err() == context.Canceled || errors.Is(err, context.Canceled):
		return ReasonCanceled
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return ReasonTimeout
	}
	return classifyNet(err)
}
