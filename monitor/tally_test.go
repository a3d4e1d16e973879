package monitor

import (
	"maps"
	"testing"
	"time"
)

// TestTally counts a small run event by event and checks what each view
// of it says afterwards.
func TestTally(t *testing.T) {
	var tl Tally
	if len(tl.Counters()) != 0 || tl.Errors() != 0 {
		t.Fatalf("zero Tally: counters %v errors %d", tl.Counters(), tl.Errors())
	}
	events := []func(){
		func() { tl.Fetches.Add(1); tl.Bytes.Add(100); tl.Add("fetch/fetched", 1); tl.Pages.Add(1) },
		func() { tl.Discovered.Add(2); tl.Add("reject/max-depth", 1) },
		func() { tl.Fetches.Add(1); tl.Add("fetch/fetch-error", 1); tl.Add("error/timeout", 1); tl.Pages.Add(1) },
		func() { tl.Fetches.Add(1); tl.Add("fetch/http-error", 1); tl.Add("error/http-500", 1); tl.Pages.Add(1) },
		func() { tl.Commits.Add(1); tl.Add("truncated", 1) },
	}
	for _, ev := range events {
		ev()
	}
	want := map[string]uint64{"fetch/fetched": 1, "reject/max-depth": 1, "fetch/fetch-error": 1, "error/timeout": 1,
		"fetch/http-error": 1, "error/http-500": 1, "truncated": 1}
	got := tl.Counters()
	if !maps.Equal(got, want) {
		t.Errorf("Counters = %v, want %v", got, want)
	}
	got["fetch/fetched"] = 99
	if tl.Counters()["fetch/fetched"] != 1 {
		t.Error("Counters is not a copy")
	}
	if e := tl.Errors(); e != 2 {
		t.Errorf("Errors = %d, want 2", e)
	}
	stored := tl.Stored()
	for k, v := range map[string]uint64{"fetches": 3, "pages": 3, "discovered": 2, "bytes": 100, "error/timeout": 1} {
		if stored[k] != v {
			t.Errorf("Stored[%q] = %d, want %d", k, stored[k], v)
		}
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := tl.Summary(7, "exhausted", start, start.Add(3*time.Second), 5)
	if s.Run != 7 || s.Fetches != 3 || s.Pages != 3 || s.Discovered != 2 || s.Bytes != 100 || s.Commits != 1 ||
		s.Pending != 5 || s.Truncated != 1 || s.PagesPerSec != 1 {
		t.Errorf("Summary totals %+v", s.Totals)
	}
	if s.Errors["timeout"] != 1 || s.Errors["http-500"] != 1 || s.ByStatus["fetched"] != 1 || s.Rejected["max-depth"] != 1 {
		t.Errorf("Summary breakdown %+v", s.Breakdown)
	}
}
