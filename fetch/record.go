package fetch

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"time"
)

// Capture holds the bytes of one HTTP/1.1 exchange exactly as they crossed
// the connection, above TLS: what a WARC request and response record hold.
type Capture struct {
	// Request is the request as written: request line, headers (and body,
	// which a GET has none of).
	Request []byte
	// Response is the response as read: status line, headers and body,
	// still transfer- and content-encoded (chunk framing and gzip kept).
	// It holds at most MaxBody+MaxHeaderBytes bytes.
	Response []byte
	// Truncated reports that Response is not the whole response: the
	// capture limit was reached, the body was longer than the fetcher
	// reads (Response.Truncated, or a non-HTML body left unread), or the
	// exchange broke off.
	Truncated bool
}

// recorder collects one exchange's bytes; a recConn feeds it while it is
// attached.
type recorder struct {
	req, resp limitBuf
}

// limitBuf is an append-only buffer that keeps at most max bytes.
type limitBuf struct {
	b    []byte
	max  int
	over bool
}

func (l *limitBuf) write(p []byte) {
	if room := l.max - len(l.b); len(p) > room {
		p = p[:max(room, 0)]
		l.over = true
	}
	l.b = append(l.b, p...)
}

// recConn is a connection whose bytes can be recorded. Every connection of
// a recording transport is one; it copies bytes only while a recorder is
// attached (by the Fetch or the Recording transport using the connection,
// from httptrace's GotConn), so a request that is not recorded costs one
// mutex per read.
type recConn struct {
	net.Conn
	mu  sync.Mutex
	rec *recorder
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.tee(p[:n], true)
	return n, err
}

// Write records p before writing it: once it is on the wire the answer
// can come back, be read and the recorder detached before this goroutine
// runs again, and bytes recorded then would be lost. A write that fails
// part-way leaves the capture holding bytes not sent; its exchange has no
// whole response anyway.
func (c *recConn) Write(p []byte) (int, error) {
	c.tee(p, false)
	return c.Conn.Write(p)
}

// tee copies p, bytes just read (in) or written, to the response or the
// request of the attached recorder, if any.
func (c *recConn) tee(p []byte, in bool) {
	if len(p) == 0 {
		return
	}
	c.mu.Lock()
	if r := c.rec; r != nil {
		if in {
			r.resp.write(p)
		} else {
			r.req.write(p)
		}
	}
	c.mu.Unlock()
}

// attach starts recording into r. The transport's read loop may already
// be blocked in Read waiting for the next response; bytes it gets after
// attach are recorded, and no response bytes can arrive before the
// request is written, which happens after GotConn.
func (c *recConn) attach(r *recorder) {
	c.mu.Lock()
	c.rec = r
	c.mu.Unlock()
}

// reserve makes room for n more response bytes in r (within its limit),
// once the response's Content-Length is known, so a large body is copied
// into the capture once instead of through repeated growth.
func (c *recConn) reserve(r *recorder, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := &r.resp
	want := min(int64(len(b.b))+n, int64(b.max))
	if want > int64(cap(b.b)) {
		grown := make([]byte, len(b.b), want)
		copy(grown, b.b)
		b.b = grown
	}
}

// detach stops recording into r. Taking the lock also orders every write
// into r before the caller reads it.
func (c *recConn) detach(r *recorder) {
	c.mu.Lock()
	if c.rec == r {
		c.rec = nil
	}
	c.mu.Unlock()
}

// recordDialer dials through the guard and wraps each connection in a
// recConn, doing the TLS handshake itself for https so the wrapper sits
// above TLS and sees plaintext HTTP/1.1.
type recordDialer struct {
	guard      *guardDialer
	tls        *tls.Config
	tlsTimeout time.Duration
}

func (d *recordDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := d.guard.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &recConn{Conn: conn}, nil
}

func (d *recordDialer) DialTLSContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("fetch: dial tls %s: %w", addr, err)
	}
	raw, err := d.guard.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	conf := d.tls.Clone()
	conf.ServerName = host
	conf.NextProtos = []string{"http/1.1"}
	tc := tls.Client(raw, conf)
	hctx, cancel := context.WithTimeout(ctx, d.tlsTimeout)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err != nil {
		raw.Close()
		return nil, fmt.Errorf("fetch: tls handshake with %s: %w", addr, err)
	}
	return &recConn{Conn: tc}, nil
}

// capture is the recorder of one round trip and the recording connection
// it is attached to: a Fetch's (Options.Record) and a Recording's alike.
type capture struct {
	conn   *recConn
	rec    *recorder
	notRec bool // the connection used does not record
}

// gotConn attaches a new recorder, keeping at most maxCapture response
// bytes, to conn, the connection an httptrace GotConn names. net/http may
// retry an idempotent request on a fresh connection when a reused one
// turns out dead: the recorder of an earlier attempt is detached, and only
// the last attempt's bytes count.
func (p *capture) gotConn(conn net.Conn, maxCapture int64) {
	if p.conn != nil {
		p.conn.detach(p.rec)
		p.conn, p.rec = nil, nil
	}
	rc, ok := conn.(*recConn)
	if p.notRec = !ok; !ok {
		return
	}
	p.rec = &recorder{req: limitBuf{max: MaxHeaderBytes}, resp: limitBuf{max: int(maxCapture)}}
	p.conn = rc
	rc.attach(p.rec)
}

// reserve sizes the response buffer for a body of n bytes (the response's
// Content-Length), when recording.
func (p *capture) reserve(n int64) {
	if p.rec != nil && n > 0 {
		p.conn.reserve(p.rec, n)
	}
}
