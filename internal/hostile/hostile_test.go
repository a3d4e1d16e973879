package hostile

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T) (*Server, *http.Client) {
	t.Helper()
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	addr := s.ln.Addr().String()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		if strings.HasPrefix(a, "refused.test:") {
			a = s.refused
		} else {
			a = addr
		}
		var d net.Dialer
		return d.DialContext(ctx, network, a)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return s, &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

func get(t *testing.T, c *http.Client, url string, limit int64) (*http.Response, []byte, error) {
	t.Helper()
	// Generous: under -race on a loaded 2-core machine reading 50 MB takes
	// a while. The cases that must time out set their own short deadline.
	timeout := 60 * time.Second
	if limit == 1<<20 {
		timeout = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	return resp, b, err
}

func TestBehaviours(t *testing.T) {
	s, c := start(t)
	tests := []struct {
		name  string
		url   string
		limit int64
		check func(t *testing.T, resp *http.Response, body []byte, err error)
	}{
		{"redirect hop", s.URL("r5", "/hop"), 1 << 10, func(t *testing.T, r *http.Response, _ []byte, err error) {
			if err != nil || r.StatusCode != 301 || r.Header.Get("Location") != s.URL("r6", "/hop") {
				t.Fatalf("got %v %v", r, err)
			}
		}},
		{"end of the chain", s.URL("r999", "/hop"), 1 << 10, func(t *testing.T, r *http.Response, _ []byte, err error) {
			if err != nil || r.StatusCode != 200 {
				t.Fatalf("got %v %v", r, err)
			}
		}},
		{"latin1 bytes raw", s.URL("latin1", "/"), 1 << 10, func(t *testing.T, _ *http.Response, b []byte, err error) {
			if err != nil || !strings.Contains(string(b), "na\xefve") {
				t.Fatalf("got %q %v", b, err)
			}
		}},
		{"endless body goes on", s.URL("dense3", "/"), 4 << 20, func(t *testing.T, _ *http.Response, b []byte, err error) {
			if err != nil || len(b) != 4<<20 || !strings.Contains(string(b), `href="/dense3/`) {
				t.Fatalf("read %d bytes, err %v", len(b), err)
			}
		}},
		{"links page", s.URL("links", "/"), 8 << 20, func(t *testing.T, _ *http.Response, b []byte, err error) {
			if err != nil || strings.Count(string(b), "<a ") != BigLinks {
				t.Fatalf("%d links, err %v", strings.Count(string(b), "<a "), err)
			}
		}},
		{"big robots", s.URL("bigrobots", "/robots.txt"), 64 << 20, func(t *testing.T, _ *http.Response, b []byte, err error) {
			if err != nil || len(b) < 50<<20 {
				t.Fatalf("robots.txt of %d bytes, err %v", len(b), err)
			}
		}},
		{"content-length lie, short", s.URL("cl-short", "/"), 1 << 20, func(t *testing.T, _ *http.Response, _ []byte, err error) {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err %v, want the client's deadline", err)
			}
		}},
		{"refused", s.URL("refused", "/"), 1, func(t *testing.T, _ *http.Response, _ []byte, err error) {
			if err == nil || !strings.Contains(err.Error(), "refused") {
				t.Fatalf("err %v, want connection refused", err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body, err := get(t, c, tc.url, tc.limit)
			tc.check(t, resp, body, err)
		})
	}
	if n := s.Hits("r5", "/hop"); n != 1 {
		t.Errorf("r5 /hop hits %d, want 1", n)
	}
}
