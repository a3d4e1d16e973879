package robots

import (
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestSkipStatus checks the status stored for each reason a job comes out
// of the frontier without a request.
func TestSkipStatus(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		want   storage.Status
	}{
		{"disallowed", ReasonDisallowed, storage.StatusRobotsDenied},
		{"private address", ReasonPrivateAddress, storage.StatusRejected},
		{"robots.txt deferred", ReasonDeferred + ": refused", storage.StatusDeferred},
		{"robots.txt unreachable", ReasonUnreachable + ": timeout", storage.StatusDeferred},
		{"crawl-delay above the cap", "crawl-delay 120s", storage.StatusDeferred},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SkipStatus(tt.reason); got != tt.want {
				t.Errorf("SkipStatus(%q) = %v, want %v", tt.reason, got, tt.want)
			}
		})
	}
}
