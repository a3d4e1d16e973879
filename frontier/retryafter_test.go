package frontier

import (
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/storage"
)

// A Retry-After beyond MaxBackoff (a server may ask for a year) is not
// waited for: the URL is completed, not retried, and the host is dropped
// until then, at most DropFor, so its other URLs come out at once with the
// reason and the crawl can end. A Retry-After within MaxBackoff is waited.
func TestRetryAfterAboveMaxBackoffDropsHost(t *testing.T) {
	tests := []struct {
		name        string
		retryAfter  time.Duration
		wantRetried bool
		wantSkip    string
		wantAt      time.Duration // when a.test's next job comes out
		wantUntil   time.Duration // the stored host state's ready time
	}{
		{"within max-backoff", 5 * time.Minute, true, "", 5 * time.Minute, 5 * time.Minute},
		{"a year", 365 * 24 * time.Hour, false, "retry-after 8760h0m0s exceeds max-backoff 10m0s", 0, time.Hour},
		{"shorter than DropFor", 30 * time.Minute, false, "retry-after 30m0s exceeds max-backoff 10m0s", 0, 30 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newPoliteRig(t, config.Politeness{MaxBackoff: 10 * time.Minute, MaxRetries: 3}, nil)
			j, _ := r.nextOf("a.test")
			if got := r.done(j, Result{Requested: true, Transient: true, RetryAfter: tt.retryAfter}); got != tt.wantRetried {
				t.Fatalf("retried = %v, want %v", got, tt.wantRetried)
			}
			next, at := r.nextOf("a.test")
			if next.Skip != tt.wantSkip || at != tt.wantAt {
				t.Errorf("next a.test job at %v skipped %q, want at %v skipped %q", at, next.Skip, tt.wantAt, tt.wantSkip)
			}
			if tt.wantSkip == "" {
				return
			}
			if got := SkipName(storage.StatusDeferred, next.Skip); got != "retry-after-too-long" {
				t.Errorf("SkipName = %q", got)
			}
			if why, ok := r.f.Dropped("a.test"); !ok || why != tt.wantSkip {
				t.Errorf("Dropped(a.test) = %q, %v", why, ok)
			}
			var stored HostState
			for _, h := range r.ch.Hosts {
				if h.Host == "a.test" {
					stored = h
				}
			}
			if stored.Reason != tt.wantSkip || !stored.ReadyAt.Equal(r.t0.Add(tt.wantUntil)) {
				t.Errorf("stored host state %+v, want the reason until t0+%v", stored, tt.wantUntil)
			}
			if !restoredDrop(stored, r.clk.Now()) {
				t.Errorf("a restore would not keep the host dropped")
			}
		})
	}
}
