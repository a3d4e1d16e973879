//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestProcessCounts spins until the process has used 20 ms of CPU more
// than at the start: Process must grow with work done, and never shrink.
func TestProcessCounts(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v at start, want > 0 (the test binary has run)", start)
	}
	deadline := time.Now().Add(10 * time.Second)
	prev, x := start, 0
	for prev-start < 20*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatalf("CPU time grew by %v in 10 s of spinning, want 20 ms", prev-start)
		}
		for i := range 100000 {
			x += i
		}
		now := Process()
		if now < prev {
			t.Fatalf("Process() went back from %v to %v", prev, now)
		}
		prev = now
	}
	_ = x
}
