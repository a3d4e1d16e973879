package fetch

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// rawServer is a loopback TCP server that writes exactly the bytes its
// handler chooses, to test what the fetcher does with any server
// behaviour, lies and hangs included. Each connection reads one request
// head at a time (GET has no body) and passes its raw bytes to handle;
// handle returns false to close the connection. done is closed when the
// test ends, so a hanging handler can return.
type rawServer struct {
	ln     net.Listener
	addr   string
	done   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]bool
	alpn   []string // negotiated protocols, TLS only
	handle func(s *rawServer, w net.Conn, req []byte) bool
	// onAccept, when set, takes each new connection instead of the
	// request loop, for servers that misbehave before HTTP starts.
	onAccept func(s *rawServer, c net.Conn)
}

// newRawServer starts a rawServer on 127.0.0.1; with conf it speaks TLS.
func newRawServer(t testing.TB, conf *tls.Config, handle func(s *rawServer, w net.Conn, req []byte) bool) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if conf != nil {
		ln = tls.NewListener(ln, conf)
	}
	s := &rawServer{ln: ln, addr: ln.Addr().String(), done: make(chan struct{}), conns: map[net.Conn]bool{}, handle: handle}
	return s.start(t)
}

// newAcceptServer starts a rawServer whose connections go to onAccept as
// soon as they are accepted.
func newAcceptServer(t testing.TB, onAccept func(s *rawServer, c net.Conn)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, addr: ln.Addr().String(), done: make(chan struct{}), conns: map[net.Conn]bool{}, onAccept: onAccept}
	return s.start(t)
}

func (s *rawServer) start(t testing.TB) *rawServer {
	ln := s.ln
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() {
		close(s.done)
		ln.Close()
		s.mu.Lock()
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *rawServer) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			if s.onAccept != nil {
				s.onAccept(s, c)
				return
			}
			if tc, ok := c.(*tls.Conn); ok {
				if tc.Handshake() != nil {
					return
				}
				s.mu.Lock()
				s.alpn = append(s.alpn, tc.ConnectionState().NegotiatedProtocol)
				s.mu.Unlock()
			}
			br := bufio.NewReader(c)
			for {
				req, err := readHead(br)
				if err != nil {
					return
				}
				if !s.handle(s, c, req) {
					return
				}
			}
		}()
	}
}

// readHead reads a request head up to and including the blank line.
func readHead(br *bufio.Reader) ([]byte, error) {
	var head []byte
	for {
		line, err := br.ReadBytes('\n')
		head = append(head, line...)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(line, []byte("\r\n")) || bytes.Equal(line, []byte("\n")) {
			return head, nil
		}
		if len(head) > 64<<10 {
			return nil, io.ErrShortBuffer
		}
	}
}

// hang blocks until the test ends.
func (s *rawServer) hang() { <-s.done }

// trickle writes b one byte at a time every d until it is written, the
// client goes away or the test ends; with b nil it writes 'x' forever.
func (s *rawServer) trickle(w net.Conn, b []byte, d time.Duration) {
	tick := time.NewTicker(d)
	defer tick.Stop()
	for i := 0; b == nil || i < len(b); i++ {
		c := byte('x')
		if b != nil {
			c = b[i]
		}
		if _, err := w.Write([]byte{c}); err != nil {
			return
		}
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
	}
}

// testTLS returns a server TLS config for 127.0.0.1 with a fresh
// self-signed certificate, offering h2 and http/1.1 in ALPN, and the path
// of a CA file that trusts it.
func testTLS(t testing.TB) (*tls.Config, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "seedcrawl test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		NextProtos:   []string{"h2", "http/1.1"},
	}
	return conf, ca
}
