package monitor

import (
	"testing"
	"time"
)

// TestTallyProgress reads a tally's progress before the crawl began and
// after events, with what the crawl adds (requests on the wire, the
// frontier's numbers).
func TestTallyProgress(t *testing.T) {
	var tl Tally
	st := FrontierStats{Pending: 4, InFlight: 2, Hosts: 3, Ready: 1, Waiting: 1, Deferred: 1, Failing: 1, Dropped: 1}
	if p := tl.Progress(0, FrontierStats{}); p != (Progress{}) {
		t.Errorf("progress of a new tally %+v, want zero", p)
	}
	tl.Fetches.Add(3)
	tl.Pages.Add(2)
	tl.Discovered.Add(5)
	tl.Bytes.Add(700)
	tl.Add("error/timeout", 1)
	tl.Add("error/http-500", 1)
	tl.Add("fetch/fetched", 1)
	if p := tl.Progress(1, st); p.Elapsed != 0 {
		t.Errorf("elapsed before Begin %v, want 0", p.Elapsed)
	}
	tl.Begin(time.Now().Add(-time.Minute))
	p := tl.Progress(1, st)
	if p.Elapsed < time.Minute || p.Elapsed > time.Hour {
		t.Errorf("elapsed %v a minute after Begin", p.Elapsed)
	}
	p.Elapsed = 0
	want := Progress{Fetches: 3, Pages: 2, Discovered: 5, Bytes: 700, Errors: 2, InFlight: 1, FrontierStats: st}
	if p != want {
		t.Errorf("progress %+v, want %+v", p, want)
	}
	// The requests on the wire shadow the frontier's jobs handed out.
	if p.InFlight != 1 || p.FrontierStats.InFlight != 2 || p.Pending != 4 {
		t.Errorf("in flight %d (frontier %d), pending %d", p.InFlight, p.FrontierStats.InFlight, p.Pending)
	}
}
