// Package mailbox is an unbounded queue of functions for one goroutine to
// run: posting never waits for it, and a closed mailbox refuses what is
// posted after and tells, to whoever waits, why it was closed. The crawl
// loop's disposer runs what its extensions post (crawler.Loop.Post) and
// closes it when it stops (crawler.Loop.Stopped, Err).
package mailbox

import "sync"

// Mailbox holds the functions posted and not yet taken. Build one with
// New; it is safe for concurrent use.
type Mailbox struct {
	mu     sync.Mutex
	fns    []func() error
	sig    chan struct{} // cap 1: something was posted
	closed bool
	done   chan struct{} // closed by Close
	err    error         // Close's error; read after done
}

// New returns an empty, open Mailbox.
func New() *Mailbox { return &Mailbox{sig: make(chan struct{}, 1), done: make(chan struct{})} }

// Post queues fn and signals Posted; it reports false, and drops fn, once
// the mailbox is closed.
func (m *Mailbox) Post(fn func() error) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	m.fns = append(m.fns, fn)
	select {
	case m.sig <- struct{}{}:
	default:
	}
	return true
}

// Posted receives a value after something was posted; one value may
// stand for several posts, so the receiver takes them all.
func (m *Mailbox) Posted() <-chan struct{} { return m.sig }

// Take returns the functions posted so far, in order, and empties the
// mailbox.
func (m *Mailbox) Take() []func() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	fns := m.fns
	m.fns = nil
	return fns
}

// Empty reports that nothing posted waits to be taken.
func (m *Mailbox) Empty() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.fns) == 0
}

// Close refuses every later Post and closes Closed, with err (nil: a
// graceful end) as the reason Err gives; a later Close changes nothing.
func (m *Mailbox) Close(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.closed, m.err = true, err
	close(m.done)
}

// Closed is closed once the mailbox is.
func (m *Mailbox) Closed() <-chan struct{} { return m.done }

// Err is the error the mailbox was first closed with; read it after Closed.
func (m *Mailbox) Err() error { return m.err }
