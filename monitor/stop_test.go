package monitor

import (
	"errors"
	"testing"
)

// TestStoppingReason checks which reason wins when several hold: each
// case adds a reason that loses to the one before it.
func TestStoppingReason(t *testing.T) {
	for want, s := range map[string]Stopping{
		StopError:       {Err: errors.New("commit"), Exhausted: true, Interrupted: true},
		StopExhausted:   {Exhausted: true, BudgetSpent: true},
		StopMaxPages:    {BudgetSpent: true, Interrupted: true},
		StopInterrupted: {Interrupted: true, TimedOut: true},
		StopMaxDuration: {TimedOut: true},
	} {
		if got := s.Reason(); got != want {
			t.Errorf("%+v: Reason = %q, want %q", s, got, want)
		}
	}
	if got := (Stopping{}).Reason(); got != StopExhausted {
		t.Errorf("nothing holds: Reason = %q, want %q (ran dry)", got, StopExhausted)
	}
}
