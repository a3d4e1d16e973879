package cond

import (
	"context"
	"sync"
)

// Cond lets goroutines wait for a condition on state that its mutex
// guards: lock it to change the state, then Broadcast. The zero value is
// ready to use; a Cond must not be copied after first use.
type Cond struct {
	sync.Mutex
	ch chan struct{} // closed by Broadcast; nil while nobody waits
}

// Wait blocks until ok reports true or ctx ends, and returns ctx's error
// in the second case. ok is called with the mutex held, first at once and
// then after every Broadcast; Wait takes and releases the mutex itself.
func (c *Cond) Wait(ctx context.Context, ok func() bool) error {
	c.Lock()
	for !ok() {
		if c.ch == nil {
			c.ch = make(chan struct{})
		}
		ch := c.ch
		c.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		c.Lock()
	}
	c.Unlock()
	return nil
}

// Broadcast wakes every waiter to check its condition again. Call it with
// the mutex held, after changing the state.
func (c *Cond) Broadcast() {
	if c.ch != nil {
		close(c.ch)
		c.ch = nil
	}
}
