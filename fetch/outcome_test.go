package fetch

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRecord checks the stored record and the retry verdict of each kind
// of response, against the page's record before the fetch.
func TestRecord(t *testing.T) {
	fetched := storage.Page{Status: storage.StatusFetched, ETag: `"old"`, LastModified: "Mon, 02 Jan 2006 15:04:05 GMT",
		Hash: storage.HashOf([]byte("old body"))}
	broken := errors.New("broken")
	tests := []struct {
		name string
		resp Response
		prev storage.Page
		// want: the record's Status, Reason and Truncated, the validators
		// kept, the retry verdict, whether the body was hashed.
		status     storage.Status
		reason     string
		truncated  bool
		etag       string
		retry      Retry
		hashed     bool
		lastModSet bool
	}{
		{name: "200 with a body", resp: Response{Code: 200, Body: []byte("<p>hi</p>"), Length: 9, ETag: `"new"`},
			status: storage.StatusFetched, etag: `"new"`, hashed: true},
		{name: "200 truncated", resp: Response{Code: 200, Body: []byte("cut"), Truncated: true, Reason: ReasonTruncated},
			status: storage.StatusFetched, reason: ReasonTruncated, truncated: true, hashed: true},
		{name: "200 without a body (not HTML)", resp: Response{Code: 200, Length: -1},
			status: storage.StatusFetched},
		{name: "no response", resp: Response{Err: broken, Reason: ReasonTimeout}, prev: fetched,
			status: storage.StatusFetchError, reason: ReasonTimeout, etag: `"old"`, lastModSet: true, retry: Retry{Transient: true}},
		{name: "no response, no reason", resp: Response{Err: broken}, prev: fetched,
			status: storage.StatusFetchError, reason: ReasonNetwork, etag: `"old"`, lastModSet: true},
		{name: "DNS failure is not transient", resp: Response{Err: broken, Reason: ReasonDNS},
			status: storage.StatusFetchError, reason: ReasonDNS},
		{name: "body broke off", resp: Response{Code: 200, Err: broken, Reason: ReasonConnLost, Truncated: true},
			status: storage.StatusFetchError, reason: ReasonConnLost, truncated: true, retry: Retry{Transient: true}},
		{name: "decompression bomb", resp: Response{Code: 200, Err: ErrBomb, Reason: ReasonBomb, Truncated: true},
			status: storage.StatusFetchError, reason: ReasonBomb},
		{name: "304 keeps old validators", resp: Response{Code: 304}, prev: fetched,
			status: storage.StatusNotModified, etag: `"old"`, lastModSet: true},
		{name: "304 renews the ETag", resp: Response{Code: 304, ETag: `"renewed"`}, prev: fetched,
			status: storage.StatusNotModified, etag: `"renewed"`, lastModSet: true},
		{name: "301 with Location", resp: Response{Code: 301, Location: "http://127.0.0.1/b"},
			status: storage.StatusRedirect},
		{name: "302 without Location", resp: Response{Code: 302},
			status: storage.StatusHTTPError, reason: "no-location"},
		{name: "302 with a bad Location", resp: Response{Code: 302, Reason: ReasonBadLocation},
			status: storage.StatusHTTPError, reason: ReasonBadLocation},
		{name: "429 with Retry-After", resp: Response{Code: 429, RetryAfter: 30 * time.Second},
			status: storage.StatusHTTPError, retry: Retry{Transient: true, After: 30 * time.Second}},
		{name: "503", resp: Response{Code: 503},
			status: storage.StatusHTTPError, retry: Retry{Transient: true}},
		{name: "500", resp: Response{Code: 500, RetryAfter: time.Minute},
			status: storage.StatusHTTPError, retry: Retry{Transient: true}},
		{name: "404 of a new URL", resp: Response{Code: 404},
			status: storage.StatusHTTPError},
		{name: "404 of a fetched page", resp: Response{Code: 404}, prev: fetched,
			status: storage.StatusGone},
		{name: "410 of a page already gone", resp: Response{Code: 410}, prev: storage.Page{Status: storage.StatusGone},
			status: storage.StatusGone},
		{name: "404 of a page that failed before", resp: Response{Code: 404}, prev: storage.Page{Status: storage.StatusHTTPError},
			status: storage.StatusHTTPError},
		{name: "403", resp: Response{Code: 403},
			status: storage.StatusHTTPError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.resp.Header = http.Header{"Date": {"Tue, 03 Jan 2006 10:00:00 GMT"}}
			rec, retry := tt.resp.Record(&tt.prev, false)
			if rec.Status != tt.status || rec.Reason != tt.reason || rec.Truncated != tt.truncated {
				t.Errorf("status %v reason %q truncated %v, want %v %q %v", rec.Status, rec.Reason, rec.Truncated,
					tt.status, tt.reason, tt.truncated)
			}
			if retry != tt.retry {
				t.Errorf("retry %+v, want %+v", retry, tt.retry)
			}
			if rec.ETag != tt.etag || (rec.LastModified != "") != tt.lastModSet {
				t.Errorf("validators %q %q, want ETag %q, Last-Modified set %v", rec.ETag, rec.LastModified, tt.etag, tt.lastModSet)
			}
			if hashed := rec.Hash != (storage.Hash{}); hashed != tt.hashed {
				t.Errorf("hashed %v, want %v", hashed, tt.hashed)
			} else if hashed && rec.Hash != storage.HashOf(tt.resp.Body) {
				t.Errorf("hash %v, want the body's", rec.Hash)
			}
			if rec.Code != tt.resp.Code || rec.Date != "Tue, 03 Jan 2006 10:00:00 GMT" || rec.Length != max(tt.resp.Length, 0) {
				t.Errorf("code %d date %q length %d, want the response's", rec.Code, rec.Date, rec.Length)
			}
		})
	}
}
