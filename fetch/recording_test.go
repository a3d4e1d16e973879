package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecording makes requests with an http.Client of its own through a
// Recording over loopback and checks the exchanges it archives: one per
// round trip, redirect hops included, with the captured bytes, and
// WARC-Truncated's reason when the body was left unread, cut at the
// capture limit, broken off or timed out; failures go to failed, the
// caller's response is untouched.
func TestRecording(t *testing.T) {
	s := newTestServer(t, 64<<10)
	huge := newTestServer(t, MaxHeaderBytes+64<<10) // /big over the capture limit of a 1 KiB maxBody
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() // nothing listens there
	ln.Close()
	errFull := errors.New("disk full")
	type want struct {
		path, status, truncation string // truncation: "" for a whole response
	}
	for _, tc := range []struct {
		name      string
		url       string
		noRecord  bool  // the transport wrapped does not record
		maxBody   int64 // 0: 1 MiB
		read      int   // bytes of the body read before Close; -1: all
		timeout   time.Duration
		archErr   error
		want      []want
		wantFail  error // what failed is told, nil: nothing
		wantGetOK bool  // the client's Get succeeds
	}{
		{name: "whole", url: s.URL + "/html", read: -1, wantGetOK: true,
			want: []want{{"/html", "200", ""}}},
		{name: "closed early", url: s.URL + "/big", read: 10, wantGetOK: true,
			want: []want{{"/big", "200", warc.TruncatedLength}}},
		{name: "capture limit", url: huge.URL + "/big", maxBody: 1 << 10, read: -1, wantGetOK: true,
			want: []want{{"/big", "200", warc.TruncatedLength}}},
		{name: "redirect hops", url: s.URL + "/redirect/301", read: -1, wantGetOK: true,
			want: []want{{"/redirect/301", "301", ""}, {"/html?from=301", "200", ""}}},
		{name: "404 drained", url: s.URL + "/missing", read: -1, wantGetOK: true,
			want: []want{{"/missing", "404", ""}}},
		{name: "broken off", url: s.URL + "/drop", read: -1, wantGetOK: true,
			want: []want{{"/drop", "200", warc.TruncatedDisconnect}}},
		{name: "timed out", url: s.URL + "/slow-body", read: -1, timeout: 200 * time.Millisecond, wantGetOK: true,
			want: []want{{"/slow-body", "200", warc.TruncatedTime}}},
		{name: "no connection", url: closed + "/robots.txt", read: -1},
		{name: "archiver fails", url: s.URL + "/html", read: -1, archErr: errFull, wantGetOK: true,
			want: []want{{"/html", "200", ""}}, wantFail: errFull},
		{name: "not recording", url: s.URL + "/html", noRecord: true, read: -1, wantGetOK: true,
			wantFail: ErrNotRecording},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := NewTransport(Options{Record: !tc.noRecord, AllowHosts: []string{"127.0.0.1"}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(tr.CloseIdleConnections)
			a := &exchanges{err: tc.archErr}
			var failures []error
			failed := func(_ context.Context, err error) { failures = append(failures, err) }
			client := &http.Client{Transport: Recording{Archive: a}.Wrap(tr, pick(tc.maxBody, 1<<20), failed)}
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, tc.url, nil)
			resp, err := client.Do(req)
			if (err == nil) != tc.wantGetOK {
				t.Fatalf("Get: %v", err)
			}
			if err == nil {
				if tc.read < 0 {
					_, _ = io.ReadAll(resp.Body)
				} else {
					_, _ = io.ReadFull(resp.Body, make([]byte, tc.read))
				}
				resp.Body.Close()
			}
			if len(failures) > 1 || (tc.wantFail == nil) != (len(failures) == 0) || tc.wantFail != nil && !errors.Is(failures[0], tc.wantFail) {
				t.Errorf("failures %v, want %v", failures, tc.wantFail)
			}
			if len(a.got) != len(tc.want) {
				t.Fatalf("%d exchanges archived, want %d", len(a.got), len(tc.want))
			}
			base, _, _ := strings.Cut(strings.TrimPrefix(tc.url, "http://"), "/")
			base = "http://" + base
			for i, w := range tc.want {
				x := a.got[i]
				if x.URL != base+w.path || x.IP != "127.0.0.1" || x.Date.IsZero() {
					t.Errorf("exchange %d: %s from %q at %v, want %s from 127.0.0.1", i, x.URL, x.IP, x.Date, base+w.path)
				}
				if line := "GET " + w.path + " HTTP/1.1\r\n"; !bytes.HasPrefix(x.Request, []byte(line)) {
					t.Errorf("exchange %d: request %.40q, want it to start %q; resp %q", i, x.Request, line, x.Response)
				}
				if !bytes.HasPrefix(x.Response, []byte("HTTP/1.1 "+w.status+" ")) {
					t.Errorf("exchange %d: response %.40q, want status %s", i, x.Response, w.status)
				}
				if x.Truncated != (w.truncation != "") || x.Truncated && x.Truncation != w.truncation {
					t.Errorf("exchange %d: truncated %v (%q), want %q", i, x.Truncated, x.Truncation, w.truncation)
				}
				if limit := tc.maxBody + MaxHeaderBytes; tc.maxBody > 0 && int64(len(x.Response)) > limit {
					t.Errorf("exchange %d: %d response bytes, over the capture limit %d", i, len(x.Response), limit)
				}
			}
			if tc.name == "whole" && !strings.HasSuffix(string(a.got[0].Response), page) {
				t.Errorf("whole response does not end with the page")
			}
		})
	}
}
