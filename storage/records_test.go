package storage_test

import (
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestStatusRequested checks which outcomes count as a request to the
// page's server: every response and a fetch error, and none of the
// statuses a URL gets without a request.
func TestStatusRequested(t *testing.T) {
	for _, tc := range []struct {
		s    storage.Status
		want bool
	}{
		{storage.StatusDiscovered, false},
		{storage.StatusQueued, false},
		{storage.StatusFetched, true},
		{storage.StatusNotModified, true},
		{storage.StatusRedirect, true},
		{storage.StatusHTTPError, true},
		{storage.StatusFetchError, true},
		{storage.StatusRobotsDenied, false},
		{storage.StatusOutOfScope, false},
		{storage.StatusRejected, false},
		{storage.StatusDeferred, false},
		{storage.StatusGone, true},
	} {
		if got := tc.s.Requested(); got != tc.want {
			t.Errorf("%v.Requested() = %v, want %v", tc.s, got, tc.want)
		}
	}
}
