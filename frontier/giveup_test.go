package frontier

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/storage"
)

// A Retry-After beyond MaxBackoff and MaxRetryAfter (a server may ask for
// a year) is not waited for: the URL is completed, not retried, and the
// host is dropped until then, at most DropFor, so its other URLs come out
// at once with the reason and the crawl can end. A shorter one is waited.
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
		{"within MaxRetryAfter", 50 * time.Minute, true, "", 50 * time.Minute, 50 * time.Minute},
		{"a year", 365 * 24 * time.Hour, false, "retry-after 8760h0m0s exceeds 1h0m0s", 0, 2 * time.Hour},
		{"shorter than DropFor", 90 * time.Minute, false, "retry-after 1h30m0s exceeds 1h0m0s", 0, 90 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newPoliteRig(t, config.Politeness{MaxBackoff: 10 * time.Minute, MaxRetries: 3}, nil)
			r.f.dropFor = 2 * time.Hour
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

// A Crawl-delay above MaxCrawlDelay read by this host's own robots.txt
// request drops the host at once: the URL comes out skipped at 0, where it
// first waited out the delay the robots.txt request set (MaxCrawlDelay),
// only to be recorded as given up without a request.
func TestCrawlDelayDropNotDelayed(t *testing.T) {
	clk0 := newFakeClock().Now()
	r := newPoliteRig(t, config.Politeness{MaxCrawlDelay: 30 * time.Second}, map[string][]Verdict{
		"a.test": {{Allowed: true, CrawlDelay: time.Hour, Requests: []Request{{"a.test", clk0}}}},
	})
	j, at := r.nextOf("a.test")
	if !DropReason(j.Skip) || at != 0 {
		t.Errorf("a.test job at %v skipped %q, want dropped at 0", at, j.Skip)
	}
}

// With HostMaxFailures, a host is given up once that many of its URLs in
// a row failed after all their retries: counted by URL, not by request
// (a URL's retries are one failure), and reset by any answer that is not a
// failure. Its next URL comes out skipped as host-failing; without the
// setting the host is never given up.
func TestHostMaxFailures(t *testing.T) {
	const fail, ok = "f", "ok"
	tests := []struct {
		name     string
		max      int
		outcomes []string // a.test's URLs 1, 2, 3 in turn: each fails all its attempts or succeeds
		wantSkip bool     // URL 4 comes out skipped
	}{
		{"off", 0, []string{fail, fail, fail}, false},
		{"two URLs failed", 2, []string{fail, fail}, true},
		{"one URL's retries are one failure", 3, []string{fail, fail}, false},
		{"a success between resets the count", 2, []string{fail, ok, fail}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newPoliteRig(t, config.Politeness{MaxRetries: 2, Backoff: time.Second, MaxBackoff: time.Minute, HostMaxFailures: tt.max}, nil)
			requests := 0
			for _, o := range tt.outcomes {
				for {
					j, _ := r.nextOf("a.test")
					requests++
					if o == ok {
						r.done(j, Result{Requested: true, Downloaded: true})
						break
					}
					if !r.done(j, Result{Requested: true, Transient: true}) {
						break
					}
				}
			}
			j, _ := r.nextOf("a.test")
			if skipped := j.Skip != ""; skipped != tt.wantSkip {
				t.Fatalf("after %d requests, URL %d skipped %q, want skipped %v", requests, j.ID, j.Skip, tt.wantSkip)
			}
			if tt.wantSkip && (SkipName(storage.StatusDeferred, j.Skip) != "host-failing" || !DropReason(j.Skip)) {
				t.Errorf("skip reason %q is not a host-failing drop", j.Skip)
			}
		})
	}
}

// Without HostMaxFailures a failing host is not given up, but its third
// URL in a row to fail all its attempts is said once on the log, so hours
// of retries are not silent; with the setting, the give-up is said instead.
func TestFailingHostNote(t *testing.T) {
	for _, tt := range []struct {
		name string
		max  int
		want []string // in the log
		not  string
	}{
		{"off", 0, []string{"host failing", "host=a.test", "failed_urls_in_a_row=3"}, "host given up"},
		{"give-up set", 3, []string{"host given up", "3 URLs in a row failed"}, "host failing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newPoliteRig(t, config.Politeness{MaxRetries: 0, Backoff: time.Second, MaxBackoff: time.Minute, HostMaxFailures: tt.max}, nil)
			var log bytes.Buffer
			r.f.log = slog.New(slog.NewTextHandler(&log, nil))
			for range 3 {
				j, _ := r.nextOf("a.test")
				r.done(j, Result{Requested: true, Transient: true})
			}
			got := log.String()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("log %q lacks %q", got, w)
				}
			}
			if strings.Contains(got, tt.not) || strings.Count(got, "\n") > 1 {
				t.Errorf("log %q: want one line, without %q", got, tt.not)
			}
		})
	}
}
