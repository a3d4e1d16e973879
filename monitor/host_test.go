package monitor

import (
	"net/http"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/testhttp"
)

// TestLoopbackRefusesForeignHost checks the DNS-rebinding guard of a
// monitor on a loopback address: a request naming another host in its
// Host header (what a browser sends for a page's own name that resolved to
// 127.0.0.1) gets no status, metrics or profile, while requests to the
// address itself or to localhost are served.
func TestLoopbackRefusesForeignHost(t *testing.T) {
	s := start(t, Options{})
	_, port, _ := strings.Cut(s.Addr(), ":")
	for _, tc := range []struct {
		host, path string
		want       int
	}{
		{"", "/status", http.StatusOK}, // the address itself
		{"localhost:" + port, "/status", http.StatusOK},
		{"LOCALHOST.", "/metrics", http.StatusOK},
		{"[::1]:" + port, "/", http.StatusOK},
		{"evil.example:" + port, "/status", http.StatusForbidden},
		{"evil.example", "/debug/pprof/cmdline", http.StatusForbidden},
		{"localhost.evil.example", "/metrics", http.StatusForbidden},
		{"127.0.0.1.nip.io:" + port, "/", http.StatusForbidden},
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+s.Addr()+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, body := testhttp.Do(t, nil, req)
		if resp.StatusCode != tc.want {
			t.Errorf("Host %q %s: %s, want %d", tc.host, tc.path, resp.Status, tc.want)
		}
		if tc.want == http.StatusForbidden && strings.Contains(string(body), "pid") {
			t.Errorf("Host %q %s: refused but the body holds status: %.80s", tc.host, tc.path, body)
		}
	}
}
