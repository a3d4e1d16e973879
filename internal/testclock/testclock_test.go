package testclock

import (
	"sync"
	"testing"
	"time"
)

// TestClockMovesOnlyOnAdvance: Now stands still between calls and moves by
// exactly the sum of the Advances, also when they come from several
// goroutines at once.
func TestClockMovesOnlyOnAdvance(t *testing.T) {
	c := New()
	t0 := c.Now()
	if !t0.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("new clock reads %v", t0)
	}
	if t1 := c.Now(); !t1.Equal(t0) {
		t.Fatalf("Now moved without Advance: %v then %v", t0, t1)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				c.Advance(time.Millisecond)
				c.Now()
			}
		})
	}
	wg.Wait()
	if got := c.Now().Sub(t0); got != 800*time.Millisecond {
		t.Fatalf("clock moved %v, want 800ms", got)
	}
}
