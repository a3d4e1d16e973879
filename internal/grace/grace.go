package grace

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Stop holds a job's stop and work contexts; New makes one, Close
// releases its timers.
type Stop struct {
	stop, work             context.Context
	stopCancel, workCancel context.CancelFunc
	limitCancel            context.CancelFunc
	unwatch                func() bool

	mu    sync.Mutex
	timer *time.Timer // the grace period, once the stop context ended
}

// New returns the contexts of a job under ctx: Stop ends with ctx, after
// limit (0: no limit) or on Abort; Work ends grace after Stop, on Abort or
// on Close, and not when ctx alone ends.
func New(ctx context.Context, limit, grace time.Duration) *Stop {
	s := &Stop{limitCancel: func() {}}
	parent := ctx
	if limit > 0 {
		parent, s.limitCancel = context.WithTimeout(ctx, limit)
	}
	s.stop, s.stopCancel = context.WithCancel(parent)
	s.work, s.workCancel = context.WithCancel(context.WithoutCancel(ctx))
	s.unwatch = context.AfterFunc(s.stop, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.timer = time.AfterFunc(grace, s.workCancel)
	})
	return s
}

// Stop ends when the job is to take no new work.
func (s *Stop) Stop() context.Context { return s.stop }

// Work ends when the work in flight is abandoned.
func (s *Stop) Work() context.Context { return s.work }

// Abort ends both contexts at once (a fatal error: no grace).
func (s *Stop) Abort() {
	s.stopCancel()
	s.workCancel()
}

// TimedOut reports that the stop context ended because the limit passed.
func (s *Stop) TimedOut() bool {
	return s.stop.Err() != nil && errors.Is(context.Cause(s.stop), context.DeadlineExceeded)
}

// Close ends both contexts and stops the timers; call it once the job
// returned.
func (s *Stop) Close() {
	s.unwatch()
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.workCancel()
	s.stopCancel()
	s.limitCancel()
}
