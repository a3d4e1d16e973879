package main

import (
	"testing"
	"time"
)

// TestChoreTicks: a crawl's one ticker raises the memory limit at most
// crawlMemoryLimitEvery apart and prints a progress line every --progress
// exactly, whatever --progress is.
func TestChoreTicks(t *testing.T) {
	for _, tc := range []struct {
		progress  time.Duration
		tick      time.Duration
		lineEvery int
	}{
		{progress: 0, tick: crawlMemoryLimitEvery, lineEvery: 0},
		{progress: -time.Second, tick: crawlMemoryLimitEvery, lineEvery: 0},
		{progress: 10 * time.Millisecond, tick: 10 * time.Millisecond, lineEvery: 1},
		{progress: time.Second, tick: time.Second, lineEvery: 1},
		{progress: 2 * time.Second, tick: 2 * time.Second, lineEvery: 1},
		{progress: 3 * time.Second, tick: 1500 * time.Millisecond, lineEvery: 2},
		{progress: 7 * time.Second, tick: 1750 * time.Millisecond, lineEvery: 4},
		{progress: time.Minute, tick: 2 * time.Second, lineEvery: 30},
	} {
		tick, lineEvery := choreTicks(tc.progress)
		if tick != tc.tick || lineEvery != tc.lineEvery {
			t.Errorf("choreTicks(%v) = %v, %d; want %v, %d", tc.progress, tick, lineEvery, tc.tick, tc.lineEvery)
		}
		if tick <= 0 || tick > crawlMemoryLimitEvery {
			t.Errorf("choreTicks(%v): tick %v, want in (0, %v]", tc.progress, tick, crawlMemoryLimitEvery)
		}
		if lineEvery > 0 && tick*time.Duration(lineEvery) != tc.progress {
			t.Errorf("choreTicks(%v): a line every %d ticks of %v, not every %v", tc.progress, lineEvery, tick, tc.progress)
		}
	}
}
