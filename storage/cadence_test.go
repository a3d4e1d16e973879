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
	cadenceSteps(t, &c, t0, []cadenceStep{
		{name: "fresh batch", at: 10 * time.Millisecond, pages: 1},
		{name: "starved before the gap", at: 50 * time.Millisecond, pages: 1, starved: true},
		{name: "starved past the gap", at: 100 * time.Millisecond, pages: 1, starved: true, commit: true},
		{name: "busy within the interval", at: 900 * time.Millisecond, pages: 2},
		{name: "batch full", at: 950 * time.Millisecond, pages: 3, commit: true},
		{name: "busy just before the interval", at: 1949 * time.Millisecond, pages: 1},
		{name: "interval passed", at: 1950 * time.Millisecond, pages: 1, commit: true},
	})
	if c := (Cadence{Interval: 200 * time.Millisecond, Starve: time.Second}); c.Tick() != 50*time.Millisecond {
		t.Fatalf("Tick = %v, want a quarter of the interval", c.Tick())
	}
}

// TestCadenceWait: how long the committer may sleep before a batch can be
// Due, on given times.
func TestCadenceWait(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name          string
		interval, gap time.Duration
		at            time.Duration // since the last commit
		want          time.Duration
	}{
		{"equal gaps: the rest of the interval", time.Second, time.Second, 300 * time.Millisecond, 700 * time.Millisecond},
		{"equal gaps: interval passed", time.Second, time.Second, 2 * time.Second, time.Millisecond},
		{"short starve gap: until the gap", time.Second, 100 * time.Millisecond, 40 * time.Millisecond, 60 * time.Millisecond},
		{"short starve gap passed: every Tick", time.Second, 100 * time.Millisecond, 300 * time.Millisecond, 100 * time.Millisecond},
		{"short starve gap passed, interval near", time.Second, 100 * time.Millisecond, 950 * time.Millisecond, 50 * time.Millisecond},
		{"starve gap longer than the interval", 200 * time.Millisecond, time.Second, 50 * time.Millisecond, 150 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Cadence{Pages: 10, Interval: tt.interval, Starve: tt.gap}
			c.Committed(t0)
			now := t0.Add(tt.at)
			got := c.Wait(now)
			if got != tt.want {
				t.Fatalf("Wait = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCadenceTrickle: a crawl's cadence without a starvation rule, with a
// trickle of results as a crawl bound by politeness gets them: a batch of
// fewer than Few results lingers past the interval, for at most Linger;
// starving changes nothing.
func TestCadenceTrickle(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Cadence{Pages: 256, Interval: time.Second, Few: 8, Linger: 10 * time.Second}
	c.Committed(t0)
	if got := c.Tick(); got != 250*time.Millisecond {
		t.Fatalf("Tick = %v, want a quarter of the interval", got)
	}
	cadenceSteps(t, &c, t0, []cadenceStep{
		{name: "one result, starved", at: 1100 * time.Millisecond, pages: 1, starved: true, wait: 8900 * time.Millisecond},
		{name: "seven results past the interval", at: 7 * time.Second, pages: 7, starved: true, wait: 3 * time.Second},
		{name: "the eighth result", at: 7500 * time.Millisecond, pages: 8, starved: true, commit: true, sooner: true},
		{name: "one result within the interval", at: 8 * time.Second, pages: 1, wait: 9500 * time.Millisecond},
		{name: "eight results within the interval", at: 8400 * time.Millisecond, pages: 8, wait: 100 * time.Millisecond, sooner: true},
		{name: "eight results at the interval", at: 8500 * time.Millisecond, pages: 8, commit: true},
		{name: "two results lingering", at: 18 * time.Second, pages: 2, wait: 500 * time.Millisecond},
		{name: "two results at the linger", at: 18500 * time.Millisecond, pages: 2, commit: true},
	})
}

// cadenceStep is a moment of a crawl as its committer sees it.
type cadenceStep struct {
	name    string
	at      time.Duration // since t0
	pages   int           // records and results in the batch
	starved bool
	commit  bool          // Full or Due; a commit is then noted
	wait    time.Duration // Wait's answer when no commit is due (0: not asked)
	sooner  bool          // a Result of the step says the wait got shorter
}

// cadenceSteps asks c about each step in order, as a crawl does: after a
// commit, as results arrive and time passes.
func cadenceSteps(t *testing.T, c *Cadence, t0 time.Time, steps []cadenceStep) {
	t.Helper()
	for _, s := range steps {
		now := t0.Add(s.at)
		sooner := false
		for c.results < s.pages {
			sooner = c.Result() || sooner
		}
		if sooner != s.sooner {
			t.Fatalf("%s: a Result said the wait got shorter: %v, want %v", s.name, sooner, s.sooner)
		}
		got := c.Full(s.pages) || c.Due(now, s.starved)
		if got != s.commit {
			t.Fatalf("%s: commit = %v, want %v", s.name, got, s.commit)
		}
		if got {
			c.Committed(now)
			continue
		}
		if w := c.Wait(now); s.wait != 0 && w != s.wait {
			t.Fatalf("%s: Wait = %v, want %v", s.name, w, s.wait)
		}
	}
}
