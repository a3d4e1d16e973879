package cond

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestWaitUntilCondition(t *testing.T) {
	var c Cond
	n := 0
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const waiters = 4
	done := make(chan int, waiters)
	for range waiters {
		go func() {
			err := c.Wait(ctx, func() bool { return n >= 3 })
			if err != nil {
				done <- -1
				return
			}
			c.Lock()
			done <- n
			c.Unlock()
		}()
	}
	for range 3 {
		c.Lock()
		n++
		c.Broadcast()
		c.Unlock()
	}
	for range waiters {
		if got := <-done; got != 3 {
			t.Fatalf("a waiter returned at n = %d, want 3", got)
		}
	}
}

func TestWaitContext(t *testing.T) {
	var c Cond
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Wait(ctx, func() bool { return false }); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with a canceled context = %v", err)
	}
	if err := c.Wait(ctx, func() bool { return true }); err != nil {
		t.Fatalf("Wait for a condition already true = %v", err)
	}
}
