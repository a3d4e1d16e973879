package fetch

import (
	"cmp"
	"net/http"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// Retry says whether a failed fetch may succeed later: the frontier
// retries the URL or backs its host off.
type Retry struct {
	// Transient: the failure may go away (a timeout, a refused or lost
	// connection, 429, 503, any 5xx).
	Transient bool
	// After is the server's Retry-After (429, 503); 0 if none.
	After time.Duration
}

// Record returns what the crawl stores for r: the fetch record of a page
// whose record before this fetch is prev (the zero Page for a URL never
// fetched), and whether the failure, if any, is transient. olderHashes
// asks for the body's hash of the older kind too (storage.HashesOf).
//
// The status follows r: no response, or a body broken off by a transient
// failure, is a fetch error (Reason says which, "network" if nothing
// more is known), as is a body refused (decompression bomb, unsupported
// or broken encoding) or a response that breaks HTTP framing
// (ReasonBadResponse, not retried); 304 is not-modified; a 3xx with a Location is a
// redirect, one without an HTTP error ("no-location"); 2xx is fetched,
// with the body's content hash; 404 and 410 of a page that had content
// (fetched, not modified or already gone) are gone; anything else is an
// HTTP error. Validators are kept from prev when no response arrived and
// renewed by a 304 that sends new ones. The caller sets ID, Host,
// FetchedAt and Interval.
func (r *Response) Record(prev *storage.Page, olderHashes bool) (storage.Fetch, Retry) {
	rec := storage.Fetch{
		Code:         r.Code,
		ContentType:  r.ContentType,
		Length:       max(r.Length, 0),
		Truncated:    r.Truncated,
		ETag:         r.ETag,
		LastModified: r.LastModified,
		Date:         bounded(r.Header.Get("Date"), maxHTTPDate),
		Duration:     r.Dur,
		Reason:       r.Reason,
	}
	// Keep the validators of the fetch that had content; a 304 may renew
	// them.
	switch r.Code {
	case 0:
		rec.ETag, rec.LastModified = prev.ETag, prev.LastModified
	case http.StatusNotModified:
		rec.ETag, rec.LastModified = cmp.Or(r.ETag, prev.ETag), cmp.Or(r.LastModified, prev.LastModified)
	}
	var retry Retry
	code := r.Code
	switch {
	case code == 0 || r.Err != nil && transientReason(r.Reason):
		// No response, or the body broke off (a dropped connection, a
		// timeout mid-body): nothing usable arrived.
		rec.Status = storage.StatusFetchError
		retry.Transient = transientReason(r.Reason)
		rec.Reason = cmp.Or(rec.Reason, ReasonNetwork)
	case r.Reason == ReasonBomb || r.Reason == ReasonEncoding || r.Reason == ReasonBadBody || r.Reason == ReasonBadResponse:
		rec.Status = storage.StatusFetchError
		rec.Truncated = false
	case code == http.StatusNotModified:
		rec.Status = storage.StatusNotModified
	case code >= 300 && code < 400:
		if r.Location == "" {
			rec.Status = storage.StatusHTTPError
			rec.Reason = cmp.Or(r.Reason, "no-location")
			break
		}
		rec.Status = storage.StatusRedirect
	case code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable:
		rec.Status = storage.StatusHTTPError
		retry = Retry{Transient: true, After: r.RetryAfter}
	case code >= 500:
		rec.Status = storage.StatusHTTPError
		retry.Transient = true
	case code >= 200 && code < 300:
		rec.Status = storage.StatusFetched
		if r.Body != nil {
			rec.Hash, rec.OlderHash = storage.HashesOf(r.Body, prev.Hash, olderHashes)
		}
	case (code == http.StatusNotFound || code == http.StatusGone) && (prev.Status.Fetched() || prev.Status == storage.StatusGone):
		rec.Status = storage.StatusGone
	default:
		rec.Status = storage.StatusHTTPError
	}
	return rec, retry
}

// transientReason reports whether a fetch failure may go away on retry.
func transientReason(reason string) bool {
	switch reason {
	case ReasonTimeout, ReasonRefused, ReasonConnLost, ReasonNetwork:
		return true
	}
	return false
}
