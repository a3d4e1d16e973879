package robots

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// errGuard stands for the SSRF guard's refusal of an address.
var errGuard = errors.New("test guard: private address")

// TestFailureSchedules checks how each kind of robots.txt failure is
// retried: a refused address is decided at once, a failure to connect
// retries on the short ConnBackoff schedule, a 5xx on the Backoff one; both
// give up after MaxFailures attempts with the cause kept.
func TestFailureSchedules(t *testing.T) {
	// A port where nothing listens.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	s5xx := newRobotsServer(t, serve(http.StatusServiceUnavailable, ""))
	untrusted := httptest.NewTLSServer(serve(http.StatusOK, "User-agent: *\nDisallow:\n"))
	t.Cleanup(untrusted.Close)

	tests := []struct {
		name      string
		origin    string
		refuse    bool
		waits     []time.Duration // the deferrals before the origin is given up
		final     string
		causePart string
	}{
		{"refused address", dead, true, nil, ReasonPrivateAddress, "test guard"},
		{"connection refused", dead, false, []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second}, ReasonUnreachable, "refused"},
		{"503", s5xx.URL, false, []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute}, ReasonUnreachable, "503"},
		// Asking again does not make a certificate trusted: given up at once.
		{"untrusted certificate", untrusted.URL, false, nil, ReasonUnreachable, "tls: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			o := Options{Now: func() time.Time { return now }}
			if tc.refuse {
				o.Client = &http.Client{Transport: refusingTransport{}}
				o.Refused = func(err error) bool { return errors.Is(err, errGuard) }
			}
			c := newCache(t, o)
			for i, want := range tc.waits {
				d := check(t, c, tc.origin+"/page")
				if d.Allowed || d.Reason != ReasonDeferred || !d.RetryAt.Equal(now.Add(want)) {
					t.Fatalf("attempt %d: %+v; want deferred for %v", i+1, d, want)
				}
				if !strings.Contains(d.Cause, tc.causePart) {
					t.Errorf("attempt %d: cause %q does not say %q", i+1, d.Cause, tc.causePart)
				}
				now = d.RetryAt
			}
			d := check(t, c, tc.origin+"/page")
			if d.Allowed || d.Reason != tc.final || !strings.Contains(d.Cause, tc.causePart) {
				t.Fatalf("last attempt: %+v; want %s with a cause saying %q", d, tc.final, tc.causePart)
			}
		})
	}
}

// refusingTransport fails every request the way the SSRF guard does.
type refusingTransport struct{}

func (refusingTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, errGuard }
