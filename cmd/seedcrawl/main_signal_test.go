//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestStopOnSignal checks the line that says a signal stops the command:
// printed once when a signal came, never when the command ends by itself
// (it used to race with the end of every command and show up at random).
func TestStopOnSignal(t *testing.T) {
	const line = "seedcrawl: stopping; signal again to quit at once\n"
	t.Run("no signal", func(t *testing.T) {
		for range 200 {
			var stderr bytes.Buffer
			_, stop := stopOnSignal(context.Background(), &stderr, syscall.SIGUSR1)
			stop()
			if stderr.Len() != 0 {
				t.Fatalf("stderr after a command that ended by itself = %q, want nothing", stderr.String())
			}
		}
	})
	t.Run("signal", func(t *testing.T) {
		var stderr bytes.Buffer
		ctx, stop := stopOnSignal(context.Background(), &stderr, syscall.SIGUSR1)
		if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		stop()
		stop() // idempotent, as main's deferred and explicit calls need
		if got := stderr.String(); got != line {
			t.Errorf("stderr after a signal = %q, want %q", got, line)
		}
	})
	t.Run("parent cancelled", func(t *testing.T) {
		var stderr bytes.Buffer
		parent, cancel := context.WithCancel(context.Background())
		ctx, stop := stopOnSignal(parent, &stderr, syscall.SIGUSR1)
		cancel()
		<-ctx.Done()
		stop()
		if strings.Contains(stderr.String(), "stopping") {
			t.Errorf("stderr after the parent context ended = %q, want nothing", stderr.String())
		}
	})
}
