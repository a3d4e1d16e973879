package testweb

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// busyCount counts the open connections of a Server and the requests its
// Web is answering, and wakes waiters when the count drops to zero.
type busyCount struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to zero; nil when nobody waits
}

func (b *busyCount) add(d int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n += d
	if b.n == 0 && b.idle != nil {
		close(b.idle)
		b.idle = nil
	}
}

// wait blocks until the count is zero or ctx ends.
func (b *busyCount) wait(ctx context.Context) error {
	for {
		b.mu.Lock()
		if b.n == 0 {
			b.mu.Unlock()
			return nil
		}
		if b.idle == nil {
			b.idle = make(chan struct{})
		}
		ch := b.idle
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// connState counts a web connection from its opening to its end.
func (b *busyCount) connState(_ net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		b.add(1)
	case http.StateClosed, http.StateHijacked:
		b.add(-1)
	}
}

// WaitIdle blocks until no connection to the web is open and no request is
// being answered, or ctx ends. Once a client process has exited or been
// killed, the requests it sent have then been answered and logged: a test
// reads the access log of a killed crawler after WaitIdle rather than after
// a guessed pause. The control endpoint does not count.
func (s *Server) WaitIdle(ctx context.Context) error {
	return s.web.busy.wait(ctx)
}
