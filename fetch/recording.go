package fetch

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"time"

	"github.com/seedcrawl/seedcrawl/warc"
)

// Recording archives the exchanges of requests made through the
// transports it wraps (Wrap), for a caller with an http.Client of its
// own: the robots.txt cache, whose requests the crawl's WARC files hold
// beside the pages (which a Fetcher archives through Response.Archive).
// The transport wrapped must be built with Options.Record (NewTransport),
// so that its connections can be recorded.
type Recording struct {
	// Archive receives each exchange. Required.
	Archive Archiver
}

// Wrap returns next wrapped so that each exchange made through it, every
// redirect hop its own, is captured as a Fetch captures a page (the
// capture bounded by maxBody+MaxHeaderBytes) and written to r.Archive:
// when the caller closes the response body, or when the round trip fails
// after response bytes arrived. A body closed before its end (the caller
// read what it wanted) or a capture cut at its limit makes the response
// truncated, WARC-Truncated "length"; a failed round trip or read makes it
// "time" or "disconnect", as Response.Archive says. An exchange with no
// response bytes is not written. Each exchange that could not be archived,
// refused by Archive or not recorded (ErrNotRecording), is reported to
// failed with its request's context; what the caller gets from the round
// trip is the same either way. nil failed drops the failures.
func (r Recording) Wrap(next http.RoundTripper, maxBody int64, failed func(ctx context.Context, err error)) http.RoundTripper {
	if failed == nil {
		failed = func(context.Context, error) {}
	}
	return &recordingTransport{next: next, archive: r.Archive, maxCapture: maxBody + MaxHeaderBytes, failed: failed}
}

type recordingTransport struct {
	next       http.RoundTripper
	archive    Archiver
	maxCapture int64
	failed     func(context.Context, error)
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	u := *req.URL
	u.Fragment, u.RawFragment = "", "" // never sent: not part of the target
	x := &exchange{t: t, ctx: req.Context(), url: u.String(), start: time.Now()}
	resp, err := t.next.RoundTrip(req.WithContext(httptrace.WithClientTrace(req.Context(), x.trace())))
	if err != nil {
		x.finish(false, err)
		return nil, err
	}
	x.reserve(resp.ContentLength)
	resp.Body = &recordedBody{ReadCloser: resp.Body, x: x, eof: resp.Body == http.NoBody || resp.ContentLength == 0}
	return resp, nil
}

// exchange is one round trip being recorded.
type exchange struct {
	t     *recordingTransport
	ctx   context.Context
	url   string
	start time.Time
	ip    string
	capture
}

// trace attaches a recorder to the connection the request goes out on.
// GotConn runs on the round trip's goroutine; a dead reused connection
// retried on a fresh one keeps only the last attempt's bytes, as a
// Fetch's trace does.
func (x *exchange) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if a, ok := info.Conn.RemoteAddr().(*net.TCPAddr); ok {
			x.ip = a.IP.String()
		}
		x.gotConn(info.Conn, x.t.maxCapture)
	}}
}

// finish stops recording and archives what was captured: complete
// reports that the caller read the body to its end; cause is the error
// that ended the exchange early, if any.
func (x *exchange) finish(complete bool, cause error) {
	if x.conn != nil {
		x.conn.detach(x.rec)
	}
	if x.notRec {
		x.t.failed(x.ctx, fmt.Errorf("fetch: archive %s: %w", x.url, ErrNotRecording))
		return
	}
	if x.rec == nil || len(x.rec.resp.b) == 0 {
		return // no response arrived: nothing to archive, as Response.Archive
	}
	ex := warc.Exchange{URL: x.url, Date: x.start, IP: x.ip, Request: x.rec.req.b, Response: x.rec.resp.b,
		Truncated: !complete || x.rec.resp.over || x.rec.req.over}
	if ex.Truncated {
		reason := "" // a limit on length
		if cause != nil {
			reason = classify(x.ctx, cause)
		}
		ex.Truncation = truncation(reason)
	}
	// The response is in hand: a request context ended since does not
	// lose it, as a page's archiving goes on after a stop.
	if _, err := x.t.archive.WriteExchange(context.WithoutCancel(x.ctx), ex); err != nil {
		x.t.failed(x.ctx, fmt.Errorf("fetch: archive %s: %w", x.url, err))
	}
}

// recordedBody archives its exchange when it is closed, complete if the
// caller read it to its end.
type recordedBody struct {
	io.ReadCloser
	x       *exchange
	eof     bool
	readErr error
	closed  bool
}

func (b *recordedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil && b.readErr == nil:
		b.readErr = err
	}
	return n, err
}

func (b *recordedBody) Close() error {
	err := b.ReadCloser.Close()
	if !b.closed {
		b.closed = true
		b.x.finish(b.eof && b.readErr == nil, b.readErr)
	}
	return err
}
