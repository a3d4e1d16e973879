package grace

import (
	"context"
	"testing"
	"time"
)

// TestStop drives a job's contexts through each way a job stops and checks,
// after each event, which of them ended.
func TestStop(t *testing.T) {
	const long = time.Hour // a limit or grace that never passes in a test
	tests := []struct {
		name         string
		limit, grace time.Duration
		event        func(cancel context.CancelFunc, s *Stop)
		waitWork     bool // Work ends (after the grace period)
		timedOut     bool
	}{
		{
			name:  "caller's ctx ends: no new work, work in hand goes on",
			grace: long,
			event: func(cancel context.CancelFunc, _ *Stop) { cancel() },
		},
		{
			name:  "caller's ctx ends: work abandoned after the grace period",
			grace: time.Millisecond, waitWork: true,
			event: func(cancel context.CancelFunc, _ *Stop) { cancel() },
		},
		{
			name:  "limit passes",
			limit: time.Millisecond, grace: long, timedOut: true,
			event: func(context.CancelFunc, *Stop) {},
		},
		{
			name:  "abort ends both at once",
			limit: long, grace: long, waitWork: true,
			event: func(_ context.CancelFunc, s *Stop) { s.Abort() },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := New(ctx, tc.limit, tc.grace)
			defer s.Close()
			if s.Stop().Err() != nil || s.Work().Err() != nil {
				t.Fatal("a context ended before any event")
			}
			tc.event(cancel, s)
			<-s.Stop().Done()
			if tc.waitWork {
				<-s.Work().Done()
			} else if s.Work().Err() != nil {
				t.Fatal("Work ended before the grace period")
			}
			if got := s.TimedOut(); got != tc.timedOut {
				t.Fatalf("TimedOut = %v, want %v", got, tc.timedOut)
			}
		})
	}
}

// TestClose checks that Close ends both contexts without the caller's ctx.
func TestClose(t *testing.T) {
	ctx := context.Background()
	s := New(ctx, time.Hour, time.Hour)
	s.Close()
	if s.Stop().Err() == nil || s.Work().Err() == nil {
		t.Fatal("Close left a context running")
	}
	if s.TimedOut() {
		t.Fatal("TimedOut after Close")
	}
}
