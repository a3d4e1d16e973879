package monitor

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRecorderNil checks that a crawl without --listen can call a nil
// Recorder and Warnings unconditionally.
func TestRecorderNil(t *testing.T) {
	var r *Recorder
	r.ObserveFetch(200, 10, time.Second)
	r.Reject("x")
	r.Error("x")
	r.Page("fetched")
	if c := r.Counters(); c.Fetches != 0 || c.Codes == nil {
		t.Errorf("nil Recorder counters = %+v", c)
	}
	var w *Warnings
	w.Add(time.Now(), "WARN", "x")
	if w.Recent() != nil {
		t.Errorf("nil Warnings kept something")
	}
}

func TestRecorderCodes(t *testing.T) {
	r := NewRecorder()
	for _, code := range []int{200, 200, 0, 999, 1000, -1, 599} {
		r.ObserveFetch(code, -5, 0) // negative bytes are ignored
	}
	c := r.Counters()
	want := map[string]uint64{"200": 2, "0": 1, "999": 1, "599": 1, OtherLabel: 2}
	if fmt.Sprint(c.Codes) != fmt.Sprint(want) || c.Fetches != 7 || c.Bytes != 0 {
		t.Errorf("codes %v fetches %d bytes %d, want %v 7 0", c.Codes, c.Fetches, c.Bytes, want)
	}
}

// TestRecorderLabelLimit feeds more distinct reasons than MaxLabels: the
// first MaxLabels keep their own count, the rest share OtherLabel, and
// nothing is lost.
func TestRecorderLabelLimit(t *testing.T) {
	r := NewRecorder()
	const n = MaxLabels + 50
	for i := range n {
		r.Error(fmt.Sprintf("reason-%d", i))
	}
	r.Error("reason-0")
	r.Error("reason-999999")
	c := r.Counters()
	var total uint64
	for _, v := range c.Errors {
		total += v
	}
	if total != n+2 {
		t.Errorf("total %d, want %d", total, n+2)
	}
	if len(c.Errors) != MaxLabels+1 {
		t.Errorf("%d labels, want %d", len(c.Errors), MaxLabels+1)
	}
	if c.Errors["reason-0"] != 2 || c.Errors[OtherLabel] != n-MaxLabels+1 {
		t.Errorf("reason-0 %d, other %d", c.Errors["reason-0"], c.Errors[OtherLabel])
	}
}

// TestRecorderConcurrent counts from many goroutines (run with -race).
func TestRecorderConcurrent(t *testing.T) {
	r := NewRecorder()
	const workers, each = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				r.ObserveFetch(200+w%2, 3, time.Millisecond)
				r.Reject(fmt.Sprintf("r%d", i%20))
				r.Page("fetched")
			}
		})
	}
	// Read while writing, as a scrape does.
	for range 10 {
		_ = r.Counters()
	}
	wg.Wait()
	c := r.Counters()
	var rejects uint64
	for _, v := range c.Rejects {
		rejects += v
	}
	if c.Fetches != workers*each || c.Bytes != 3*workers*each || c.Pages["fetched"] != workers*each || rejects != workers*each || len(c.Rejects) != 20 {
		t.Errorf("fetches %d bytes %d pages %v rejects %d in %d labels", c.Fetches, c.Bytes, c.Pages, rejects, len(c.Rejects))
	}
}

// TestHostileLabels checks that reasons and states a hostile server could
// shape (invalid UTF-8, very long) neither break the scrape nor grow it.
func TestHostileLabels(t *testing.T) {
	r := NewRecorder()
	long := strings.Repeat("x", 10_000)
	for range 3 {
		r.Reject("bad\xff\xfeutf8")
		r.Error(long)
	}
	s := start(t, Options{Recorder: r, Source: SourceFunc(func() Status {
		return Status{HostStates: map[string]int{"st\xffate": 2}}
	})})
	mfs := scrape(t, s)
	if got := byLabel(mfs, "seedcrawl_rejections_total", "reason"); got["bad\uFFFDutf8"] != 3 || len(got) != 1 {
		t.Errorf("rejections = %v", got)
	}
	errs := byLabel(mfs, "seedcrawl_errors_total", "reason")
	if len(errs) != 1 || errs[long[:MaxLabelLen]] != 3 {
		t.Errorf("errors: %d labels, want one of %d bytes counted 3 times", len(errs), MaxLabelLen)
	}
	if got := byLabel(mfs, "seedcrawl_hosts", "state"); got["st\uFFFDate"] != 2 {
		t.Errorf("hosts = %v", got)
	}
}

func TestRecorderCount(t *testing.T) {
	r := NewRecorder()
	tests := []struct {
		key  string
		n    uint64
		want string // Counters after the call, compactly
	}{
		{"fetch/fetched", 1, "pages map[fetched:1] rejects map[] errors map[]"},
		{"fetch/fetched", 2, "pages map[fetched:3] rejects map[] errors map[]"},
		{"reject/max-depth", 5, "pages map[fetched:3] rejects map[max-depth:5] errors map[]"},
		{"error/timeout", 1, "pages map[fetched:3] rejects map[max-depth:5] errors map[timeout:1]"},
		{"skip/nofollow", 4, "pages map[fetched:3] rejects map[max-depth:5] errors map[timeout:1]"},
		{"truncated", 1, "pages map[fetched:3] rejects map[max-depth:5] errors map[timeout:1]"},
		{"error/http-503", 0, "pages map[fetched:3] rejects map[max-depth:5] errors map[timeout:1]"},
		{"error/vanished/404", 1, "pages map[fetched:3] rejects map[max-depth:5] errors map[timeout:1 vanished/404:1]"},
	}
	for _, tc := range tests {
		r.Count(tc.key, tc.n)
		c := r.Counters()
		if got := fmt.Sprintf("pages %v rejects %v errors %v", c.Pages, c.Rejects, c.Errors); got != tc.want {
			t.Errorf("after Count(%q, %d): %s, want %s", tc.key, tc.n, got, tc.want)
		}
	}
	var nr *Recorder
	nr.Count("fetch/fetched", 1)
}
