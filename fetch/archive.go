package fetch

import (
	"context"
	"net/http"
	"time"

	"github.com/seedcrawl/seedcrawl/warc"
)

// Archiver is what Response.Archive writes an exchange to; *warc.Writer
// implements it.
type Archiver interface {
	WriteExchange(ctx context.Context, x warc.Exchange) (warc.Result, error)
}

// Archive writes the exchange r captured (Options.Record) to a: the
// request and response bytes as they crossed the wire, the URL, when the
// request started and the server's address. A 304 refers to the URL's
// last full capture, whose date lastFull gives (called only for a 304).
// A response without captured bytes (Record off, no connection made) is
// not written. The error is a's.
func (r *Response) Archive(ctx context.Context, a Archiver, lastFull func() time.Time) error {
	cp := r.Capture
	if cp == nil || len(cp.Response) == 0 {
		return nil
	}
	x := warc.Exchange{URL: r.URL, Date: r.Start, IP: r.RemoteAddr, Request: cp.Request,
		Response: cp.Response, Truncated: cp.Truncated}
	if cp.Truncated {
		x.Truncation = truncation(r.Reason)
	}
	if r.Code == http.StatusNotModified {
		x.RefersToDate = lastFull()
	}
	_, err := a.WriteExchange(ctx, x)
	return err
}

// truncation says in WARC-Truncated's terms why a response whose capture
// is cut ended as it did (reason is Response.Reason): the fetch timeout,
// a connection that broke off, the crawl stopping; otherwise a limit on
// length (--max-body, the capture limit, a bomb's ratio).
func truncation(reason string) string {
	switch reason {
	case ReasonTimeout:
		return warc.TruncatedTime
	case ReasonConnLost, ReasonNetwork:
		return warc.TruncatedDisconnect
	case ReasonCanceled:
		return warc.TruncatedUnspecified
	}
	return warc.TruncatedLength
}
