package testweb

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Addrs says where StartAddrs listens. HTTP "" means "127.0.0.1:0" (port 0
// picks a free port). HTTPS and Control "" mean the HTTP address's IP with
// port 0; "-" turns them off.
type Addrs struct {
	HTTP, HTTPS, Control string
}

// Server is a running test web: plain HTTP, HTTPS with a throw-away CA, and
// a control endpoint, on loopback ports.
type Server struct {
	web                        *Web
	httpAddr, httpsAddr, cAddr string
	servers                    []*http.Server
	ca                         *authority
	resolve                    map[string]string
	dir                        string // holds the CA file; removed by Close

	closeOnce sync.Once
	closeErr  error
	done      chan struct{}
}

// Start serves w on addr (http), and https and the control endpoint on the
// same IP with free ports, until ctx ends or Close is called.
func (w *Web) Start(ctx context.Context, addr string) (*Server, error) {
	return w.StartAddrs(ctx, Addrs{HTTP: addr})
}

// StartAddrs serves w on the given addresses until ctx ends or Close is
// called. It returns once every listener is open; an error leaves nothing
// listening.
func (w *Web) StartAddrs(ctx context.Context, a Addrs) (*Server, error) {
	if a.HTTP == "" {
		a.HTTP = "127.0.0.1:0"
	}
	ip, _, err := net.SplitHostPort(a.HTTP)
	if err != nil {
		return nil, fmt.Errorf("%w: http address %q: %v", ErrOptions, a.HTTP, err)
	}
	if a.HTTPS == "" {
		a.HTTPS = net.JoinHostPort(ip, "0")
	}
	if a.Control == "" {
		a.Control = net.JoinHostPort(ip, "0")
	}
	s := &Server{web: w, done: make(chan struct{})}
	s.ca, err = newAuthority(func(name string) bool { _, ok := w.site.hostIndex[name]; return ok })
	if err != nil {
		return nil, err
	}
	quiet := log.New(io.Discard, "", 0) // clients that distrust the CA are expected
	var lc net.ListenConfig
	listen := func(what, addr string) (net.Listener, error) {
		ln, err := lc.Listen(ctx, "tcp", addr)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("testweb: listen for %s on %s: %w", what, addr, err)
		}
		return ln, nil
	}
	ln, err := listen("http", a.HTTP)
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: w, ReadHeaderTimeout: 30 * time.Second, ErrorLog: quiet, ConnState: w.busy.connState}
	s.servers = append(s.servers, hs)
	s.httpAddr = ln.Addr().String()
	go hs.Serve(ln)
	if a.HTTPS != "-" {
		ln, err := listen("https", a.HTTPS)
		if err != nil {
			return nil, err
		}
		tlsCfg := &tls.Config{GetCertificate: s.ca.certFor, MinVersion: tls.VersionTLS12}
		ts := &http.Server{Handler: w, TLSConfig: tlsCfg, ReadHeaderTimeout: 30 * time.Second, ErrorLog: quiet,
			ConnState: w.busy.connState}
		s.servers = append(s.servers, ts)
		s.httpsAddr = ln.Addr().String()
		go ts.ServeTLS(ln, "", "")
	}
	if a.Control != "-" {
		ln, err := listen("control", a.Control)
		if err != nil {
			return nil, err
		}
		cs := &http.Server{Handler: s.controlHandler(), ReadHeaderTimeout: 30 * time.Second, ErrorLog: quiet}
		s.servers = append(s.servers, cs)
		s.cAddr = ln.Addr().String()
		go cs.Serve(ln)
	}
	s.resolve = make(map[string]string, 2*len(w.site.hosts))
	for _, h := range w.site.hosts {
		s.resolve[h.Name+":80"] = s.httpAddr
		if s.httpsAddr != "" {
			s.resolve[h.Name+":443"] = s.httpsAddr
		}
	}
	if s.dir, err = os.MkdirTemp("", "seedcrawl-testweb-"); err != nil {
		s.Close()
		return nil, fmt.Errorf("testweb: make directory for the CA file: %w", err)
	}
	if err := s.WriteCA(s.CAFile()); err != nil {
		s.Close()
		return nil, err
	}
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.done:
		}
	}()
	return s, nil
}

// Web returns the web being served.
func (s *Server) Web() *Web { return s.web }

// HTTPAddr returns the address plain HTTP listens on, e.g. "127.0.0.1:40123".
func (s *Server) HTTPAddr() string { return s.httpAddr }

// HTTPSAddr returns the address HTTPS listens on ("" when off).
func (s *Server) HTTPSAddr() string { return s.httpsAddr }

// ControlAddr returns the address of the control endpoint ("" when off).
// GET or POST /epoch?n=N switches the web to epoch N; /epoch alone reports
// the epoch; both answer {"epoch":N}. /resolve, /seeds and /ca.pem serve
// the resolve file, the seed URLs and the CA certificate.
func (s *Server) ControlAddr() string { return s.cAddr }

// Resolve maps "HOST:80" to the HTTP address and "HOST:443" to the HTTPS
// address for every host of the web, for a crawler's resolver override.
func (s *Server) Resolve() map[string]string {
	m := make(map[string]string, len(s.resolve))
	for k, v := range s.resolve {
		m[k] = v
	}
	return m
}

// ResolveText returns the resolve file: a comment, then one "HOST:PORT
// ADDR" line per host and port, sorted. seedcrawl crawl --resolve-file
// reads it.
func (s *Server) ResolveText() string {
	keys := make([]string, 0, len(s.resolve))
	for k := range s.resolve {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	fmt.Fprintf(&sb, "# seedcrawl testweb: HOST:PORT ADDR (%d hosts)\n", len(s.web.site.hosts))
	for _, k := range keys {
		sb.WriteString(k)
		sb.WriteByte(' ')
		sb.WriteString(s.resolve[k])
		sb.WriteByte('\n')
	}
	return sb.String()
}

// WriteResolveFile writes ResolveText to path.
func (s *Server) WriteResolveFile(path string) error {
	if err := os.WriteFile(path, []byte(s.ResolveText()), 0o644); err != nil {
		return fmt.Errorf("testweb: write resolve file: %w", err)
	}
	return nil
}

// CAPEM returns the PEM certificate of the server's throw-away CA, which
// signs the certificates of every https host.
func (s *Server) CAPEM() []byte { return append([]byte(nil), s.ca.pem...) }

// CAFile returns the path of a temporary file holding CAPEM; Close removes it.
func (s *Server) CAFile() string { return filepath.Join(s.dir, "ca.pem") }

// WriteCA writes CAPEM to path.
func (s *Server) WriteCA(path string) error {
	if err := os.WriteFile(path, s.ca.pem, 0o644); err != nil {
		return fmt.Errorf("testweb: write CA certificate: %w", err)
	}
	return nil
}

// Client returns an HTTP client for tests: it dials the web's hosts at
// their loopback addresses (and refuses any other host), trusts the CA,
// speaks HTTP/2 over TLS, does not decompress (so the gzip bomb stays a
// bomb) and does not follow redirects.
func (s *Server) Client() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.ca.pem)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		to, ok := s.resolve[strings.ToLower(addr)]
		if !ok {
			return nil, fmt.Errorf("%w: %s is not a host of the test web", ErrUnknownURL, addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
	tr := &http.Transport{
		DialContext:         dial,
		TLSClientConfig:     &tls.Config{RootCAs: pool},
		ForceAttemptHTTP2:   true,
		DisableCompression:  true,
		MaxIdleConnsPerHost: 64,
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Done is closed when the server has been closed.
func (s *Server) Done() <-chan struct{} { return s.done }

// Close stops every listener and drops open connections, then removes the
// CA file. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		for _, hs := range s.servers {
			if err := hs.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		if s.dir != "" {
			if err := os.RemoveAll(s.dir); err != nil {
				errs = append(errs, err)
			}
		}
		s.closeErr = errors.Join(errs...)
		close(s.done)
	})
	return s.closeErr
}

func (s *Server) controlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/epoch", func(rw http.ResponseWriter, r *http.Request) {
		if v := r.FormValue("n"); v != "" {
			n, err := strconv.Atoi(v)
			if err == nil {
				err = s.web.SetEpoch(n)
			}
			if err != nil {
				http.Error(rw, fmt.Sprintf("set epoch %q: %v", v, err), http.StatusBadRequest)
				return
			}
		}
		rw.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(rw, "{\"epoch\":%d}\n", s.web.Epoch())
	})
	mux.HandleFunc("/resolve", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(rw, s.ResolveText())
	})
	mux.HandleFunc("/seeds", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		for _, u := range s.web.site.Seeds() {
			io.WriteString(rw, u+"\n")
		}
	})
	mux.HandleFunc("/ca.pem", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/x-pem-file")
		rw.Write(s.ca.pem)
	})
	return mux
}
