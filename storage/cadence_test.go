package storage

import (
	"testing"
	"time"
)

// TestCadence asks a cadence of 1 s, 100 ms when starved and 3 pages,
// in the order a crawl does: after a commit, as results arrive and time
// passes.
func TestCadence(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Cadence{Pages: 3, Interval: time.Second, Starve: 100 * time.Millisecond}
	c.Committed(t0)
	if got := c.Tick(); got != 100*time.Millisecond {
		t.Fatalf("Tick = %v, want 100ms (the starve gap, under a quarter of the interval)", got)
	}
	steps := []struct {
		name    string
		at      time.Duration // since t0
		pages   int
		starved bool
		commit  bool // Full or Due; a commit is then noted
	}{
		{name: "fresh batch", at: 10 * time.Millisecond, pages: 1},
		{name: "starved before the gap", at: 50 * time.Millisecond, pages: 1, starved: true},
		{name: "starved past the gap", at: 100 * time.Millisecond, pages: 1, starved: true, commit: true},
		{name: "busy within the interval", at: 900 * time.Millisecond, pages: 2},
		{name: "batch full", at: 950 * time.Millisecond, pages: 3, commit: true},
		{name: "busy just before the interval", at: 1949 * time.Millisecond, pages: 1},
		{name: "interval passed", at: 1950 * time.Millisecond, pages: 1, commit: true},
	}
	for _, s := range steps {
		now := t0.Add(s.at)
		got := c.Full(s.pages) || c.Due(now, s.starved)
		if got != s.commit {
			t.Fatalf("%s: commit = %v, want %v", s.name, got, s.commit)
		}
		if got {
			c.Committed(now)
		}
	}
	if c := (Cadence{Interval: 200 * time.Millisecond, Starve: time.Second}); c.Tick() != 50*time.Millisecond {
		t.Fatalf("Tick = %v, want a quarter of the interval", c.Tick())
	}
}
