package fetch

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/warc"
)

var _ Archiver = (*warc.Writer)(nil)

// exchanges is an Archiver that keeps what it is given and fails with err.
type exchanges struct {
	got []warc.Exchange
	err error
}

func (e *exchanges) WriteExchange(_ context.Context, x warc.Exchange) (warc.Result, error) {
	e.got = append(e.got, x)
	return warc.Result{}, e.err
}

// TestArchive fetches over loopback and checks the exchange Archive hands
// on: the captured bytes with where and when, a 304's reference to the
// last full capture, nothing without a capture, the archiver's error.
func TestArchive(t *testing.T) {
	s := newTestServer(t, 1<<10)
	full := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	errFull := errors.New("disk full")
	for _, tc := range []struct {
		name     string
		record   bool
		etag     string // sent: a 304
		err      error
		wantX    bool
		wantCode int
	}{
		{name: "200", record: true, wantX: true, wantCode: http.StatusOK},
		{name: "304", record: true, etag: `"v1"`, wantX: true, wantCode: http.StatusNotModified},
		{name: "not recorded", record: false},
		{name: "archiver fails", record: true, err: errFull, wantX: true, wantCode: http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFetcher(t, Options{Record: tc.record})
			r := f.Fetch(context.Background(), Request{URL: s.URL + "/etag", ETag: tc.etag})
			a := &exchanges{err: tc.err}
			asked := 0
			err := r.Archive(context.Background(), a, func() time.Time { asked++; return full })
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("Archive: %v, want %v", err, tc.err)
			}
			if !tc.wantX {
				if len(a.got) != 0 || asked != 0 {
					t.Fatalf("wrote %d exchanges, asked lastFull %d times; want none", len(a.got), asked)
				}
				return
			}
			if len(a.got) != 1 || r.Code != tc.wantCode {
				t.Fatalf("code %d, %d exchanges; want %d and one", r.Code, len(a.got), tc.wantCode)
			}
			x := a.got[0]
			if x.URL != s.URL+"/etag" || !x.Date.Equal(r.Start) || x.IP != r.RemoteAddr || x.IP == "" || x.Truncated {
				t.Errorf("exchange %s at %v from %q (truncated %v); want %s at %v from %q",
					x.URL, x.Date, x.IP, x.Truncated, r.URL, r.Start, r.RemoteAddr)
			}
			if !bytes.HasPrefix(x.Request, []byte("GET /etag HTTP/1.1\r\n")) || !bytes.Equal(x.Response, r.Capture.Response) {
				t.Errorf("request %.20q, response not the captured bytes", x.Request)
			}
			want304 := tc.wantCode == http.StatusNotModified
			if want304 != (asked == 1) || want304 != x.RefersToDate.Equal(full) || !want304 && !x.RefersToDate.IsZero() {
				t.Errorf("lastFull asked %d times, RefersToDate %v; want it only for a 304", asked, x.RefersToDate)
			}
		})
	}
}
