package testclock

import (
	"sync"
	"time"
)

// start is the time a new Clock reads.
var start = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Clock is a settable clock, safe for concurrent use. Pass its Now where
// code takes a func() time.Time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a Clock at 2025-01-01 00:00 UTC.
func New() *Clock { return &Clock{t: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
