package testweb

import (
	"context"
	"net"
	"net/http"

	"github.com/seedcrawl/seedcrawl/internal/cond"
)

// busyCount counts the open connections of a Server and the requests its
// Web is answering.
type busyCount struct {
	c cond.Cond // guards n; broadcast when n drops to zero
	n int
}

func (b *busyCount) add(d int) {
	b.c.Lock()
	defer b.c.Unlock()
	b.n += d
	if b.n == 0 {
		b.c.Broadcast()
	}
}

// wait blocks until the count is zero or ctx ends.
func (b *busyCount) wait(ctx context.Context) error {
	return b.c.Wait(ctx, func() bool { return b.n == 0 })
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
