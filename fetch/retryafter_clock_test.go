package fetch

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestRetryAfterServerClock fetches 503s whose Retry-After is an
// HTTP-date two minutes ahead of the server's own clock, from servers
// whose clocks are off the crawler's: the wait is read against the
// answer's Date, so it is two minutes whatever the skew (read against the
// crawler's clock, a server two hours ahead would be waited for two hours
// and two minutes, and one behind not at all); without a Date it is read
// against the crawler's clock.
func TestRetryAfterServerClock(t *testing.T) {
	const wait = 2 * time.Minute
	for _, tc := range []struct {
		name   string
		skew   time.Duration
		noDate bool
	}{
		{name: "server clock right", skew: 0},
		{name: "server clock two hours ahead", skew: 2 * time.Hour},
		{name: "server clock three hours behind", skew: -3 * time.Hour},
		{name: "no Date header", skew: 0, noDate: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				clock := time.Now().Add(tc.skew).UTC()
				if tc.noDate {
					w.Header()["Date"] = nil // net/http adds none then
				} else {
					w.Header().Set("Date", clock.Format(http.TimeFormat))
				}
				w.Header().Set("Retry-After", clock.Add(wait).Format(http.TimeFormat))
				w.WriteHeader(http.StatusServiceUnavailable)
			}))
			t.Cleanup(srv.Close)
			r := fetch(t, newFetcher(t, Options{}), srv.URL+"/")
			if r.Code != http.StatusServiceUnavailable {
				t.Fatalf("code %d (%v), want 503", r.Code, r.Err)
			}
			// The dates have whole seconds: without a Date the wait may
			// be up to a second short.
			if r.RetryAfter < wait-time.Second || r.RetryAfter > wait {
				t.Errorf("Retry-After read as %v, want %v", r.RetryAfter, wait)
			}
		})
	}
}
