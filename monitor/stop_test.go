package monitor

import (
	"errors"
	"testing"
)

// TestStoppingReason checks which reason wins when several hold.
func TestStoppingReason(t *testing.T) {
	tests := []struct {
		name string
		s    Stopping
		want string
	}{
		{name: "nothing: ran dry", want: StopExhausted},
		{name: "error wins", s: Stopping{Err: errors.New("commit"), Exhausted: true, Interrupted: true}, want: StopError},
		{name: "exhausted before the budget", s: Stopping{Exhausted: true, BudgetSpent: true}, want: StopExhausted},
		{name: "budget before interrupt", s: Stopping{BudgetSpent: true, Interrupted: true}, want: StopMaxPages},
		{name: "interrupt before time", s: Stopping{Interrupted: true, TimedOut: true}, want: StopInterrupted},
		{name: "time", s: Stopping{TimedOut: true}, want: StopMaxDuration},
	}
	for _, tt := range tests {
		if got := tt.s.Reason(); got != tt.want {
			t.Errorf("%s: Reason = %q, want %q", tt.name, got, tt.want)
		}
	}
}
