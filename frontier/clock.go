package frontier

import "time"

// Clock is the frontier's source of time. Politeness is all about time, so
// tests inject a fake clock and check ready times without sleeping.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a timer that fires once, d from now. Next uses it to
	// wait for the earliest host ready time; d ≤ 0 fires at once.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer made by a Clock.
type Timer interface {
	// C returns the channel on which the timer delivers its time.
	C() <-chan time.Time
	// Stop prevents the timer from firing and reports whether it stopped it.
	Stop() bool
}

// SystemClock is the Clock backed by package time; the zero value is ready
// to use and is what New uses when Options.Clock is nil.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// NewTimer returns a time.Timer wrapped as a Timer.
func (SystemClock) NewTimer(d time.Duration) Timer { return sysTimer{time.NewTimer(d)} }

type sysTimer struct{ t *time.Timer }

func (s sysTimer) C() <-chan time.Time { return s.t.C }
func (s sysTimer) Stop() bool          { return s.t.Stop() }
