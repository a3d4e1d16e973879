package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"syscall"
	"time"

	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// Defaults for Options' zero fields.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultTLSTimeout     = 10 * time.Second
	DefaultHeaderTimeout  = 30 * time.Second
	DefaultTimeout        = 60 * time.Second
	DefaultIdleTimeout    = 90 * time.Second
	DefaultMaxIdlePerHost = 2
	DefaultMaxBody        = 10 << 20
	DefaultMaxRatio       = 100
	// MaxHeaderBytes bounds the status line and headers of a response; a
	// longer head is an error rather than unbounded memory.
	MaxHeaderBytes = 1 << 20
)

// Options configure NewTransport and New. The zero value of each field
// means the default named in its comment; negative durations and sizes are
// errors (ErrOptions).
type Options struct {
	// UserAgent is sent with every request. "": version.UserAgent.
	UserAgent string

	// Transport is used by New instead of building one from the fields
	// below; pass one NewTransport result to every worker's Fetcher so
	// they share a connection pool. nil: New builds its own.
	Transport http.RoundTripper

	// ConnectTimeout bounds the TCP connect. Default 10s.
	ConnectTimeout time.Duration
	// TLSTimeout bounds the TLS handshake. Default 10s.
	TLSTimeout time.Duration
	// HeaderTimeout bounds the wait for response headers after the request
	// is sent. Default 30s.
	HeaderTimeout time.Duration
	// Timeout bounds a whole fetch, body included (Fetcher only).
	// Default 60s.
	Timeout time.Duration
	// IdleTimeout is how long an idle keep-alive connection is kept.
	// Default 90s.
	IdleTimeout time.Duration
	// MaxIdlePerHost is how many idle connections are kept per host.
	// Default 2.
	MaxIdlePerHost int

	// Resolve overrides name resolution (--resolve, --resolve-file).
	// Hosts in it are exempt from the SSRF guard.
	Resolve ResolveMap
	// CAFile names a PEM file of extra trusted root certificates
	// (--ca-file), added to the system roots. "": system roots only.
	CAFile string
	// AllowPrivate turns the SSRF guard off (--allow-private).
	AllowPrivate bool
	// AllowHosts are host names (or IP literals) exempt from the SSRF
	// guard: the crawler passes the hosts of its seeds.
	AllowHosts []string

	// MaxBody is the most body bytes kept, after decoding (Fetcher only).
	// Default 10 MiB.
	MaxBody int64
	// MaxRatio is the decoded:encoded size ratio beyond which a compressed
	// body that also exceeds MaxBody is refused as a bomb (Fetcher only).
	// Default 100.
	MaxRatio int64

	// Record asks for the exact bytes of each exchange (Response.Capture),
	// for WARC. NewTransport then wraps every connection above TLS so the
	// bytes are seen as HTTP/1.1 text, and speaks HTTP/1.1 only: HTTP/2
	// frames are not the HTTP/1.1 messages a WARC response record holds
	// (wget and warcprox make the same choice). A Fetcher with Record needs
	// a transport built with Record (its own, or opts.Transport from
	// NewTransport with Record set); otherwise each Fetch fails with
	// ErrNotRecording. false: no capture, HTTP/2 when offered.
	Record bool

	// HTTP2 offers HTTP/2 to https servers (in TLS ALPN) and speaks it
	// with those that accept. false: HTTP/1.1 only. A crawl sends one
	// request at a time on a connection and at most a few per host, so it
	// has no use for HTTP/2's multiplexing, and HTTP/2 costs more CPU per
	// response at both ends: frame headers, flow-control updates written
	// back while a body arrives, header compression, a stream's own
	// buffers. On documentation pages over TLS it took about 15% more of
	// the crawler's CPU and half again the server's. Record overrides it:
	// a recording transport speaks HTTP/1.1.
	HTTP2 bool

	// Now is the clock used for Retry-After dates of answers without a
	// Date header. nil: time.Now.
	Now func() time.Time
}

func (o *Options) validate() error {
	if o.ConnectTimeout < 0 || o.TLSTimeout < 0 || o.HeaderTimeout < 0 || o.Timeout < 0 ||
		o.IdleTimeout < 0 || o.MaxIdlePerHost < 0 || o.MaxBody < 0 || o.MaxRatio < 0 {
		return fmt.Errorf("%w: negative timeout or limit", ErrOptions)
	}
	return nil
}

// NewTransport builds the crawl's HTTP transport from opts (see the package
// documentation). It uses the connection, TLS, resolve and SSRF fields of
// opts; body limits apply in the Fetcher. Errors: ErrOptions, or a CA file
// that cannot be read or holds no certificate.
func NewTransport(opts Options) (*http.Transport, error) {
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("fetch: new transport: %w", err)
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if opts.CAFile != "" {
		pool, err := loadCAFile(opts.CAFile)
		if err != nil {
			return nil, err
		}
		tlsConf.RootCAs = pool
	}
	g := &guardDialer{
		dialer:   net.Dialer{Timeout: pick(opts.ConnectTimeout, DefaultConnectTimeout), KeepAlive: 30 * time.Second},
		resolve:  opts.Resolve,
		allowAll: opts.AllowPrivate,
		allow:    map[string]bool{},
		guard:    newAddrGuard(),
	}
	for _, h := range opts.AllowHosts {
		g.allow[urlnorm.BareName(h)] = true
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would hide the dialed address from the SSRF guard
		DialContext:            g.DialContext,
		TLSClientConfig:        tlsConf,
		TLSHandshakeTimeout:    pick(opts.TLSTimeout, DefaultTLSTimeout),
		ResponseHeaderTimeout:  pick(opts.HeaderTimeout, DefaultHeaderTimeout),
		IdleConnTimeout:        pick(opts.IdleTimeout, DefaultIdleTimeout),
		MaxIdleConns:           1024,
		MaxIdleConnsPerHost:    pick(opts.MaxIdlePerHost, DefaultMaxIdlePerHost),
		MaxResponseHeaderBytes: MaxHeaderBytes,
		ExpectContinueTimeout:  time.Second,
		// A custom DialContext and TLSClientConfig turn HTTP/2 off unless
		// asked for; with HTTP2 set, servers that offer h2 in ALPN get it.
		ForceAttemptHTTP2: opts.HTTP2,
	}
	if !opts.HTTP2 {
		// A non-nil empty map is how net/http is told not to speak h2,
		// whatever GODEBUG says.
		tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	if opts.Record {
		rd := &recordDialer{guard: g, tls: tlsConf, tlsTimeout: pick(opts.TLSTimeout, DefaultTLSTimeout)}
		tr.DialContext = rd.DialContext
		tr.DialTLSContext = rd.DialTLSContext
		tr.ForceAttemptHTTP2 = false
		// A non-nil empty map is how net/http is told not to speak h2.
		tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	return tr, nil
}

func pick[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// CheckCAFile reports the error NewTransport would give for Options.CAFile
// path (unreadable, or no PEM certificate in it) without loading the
// system's trusted roots, which take milliseconds and megabytes to parse.
func CheckCAFile(path string) error {
	_, err := readCAFile(path, x509.NewCertPool())
	return err
}

// loadCAFile returns the system's trusted roots with the certificates of
// the CA file path added.
func loadCAFile(path string) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	return readCAFile(path, pool)
}

// readCAFile adds the PEM certificates of path to pool.
func readCAFile(path string, pool *x509.CertPool) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fetch: read CA file: %w", err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("fetch: CA file %s: %w: no PEM certificate found", path, ErrOptions)
	}
	return pool, nil
}

// guardDialer applies the resolve map and the SSRF guard.
type guardDialer struct {
	dialer   net.Dialer
	resolve  ResolveMap
	allowAll bool
	allow    map[string]bool // read-only after NewTransport
	guard    addrGuard
}

// DialContext dials addr ("host:port"), through the resolve map when it
// names the host. Other hosts are dialed normally, but unless they are
// allowed, a connection to a special-purpose address (addrGuard) is refused
// at the socket, after resolution, so every address the resolver returns is
// checked.
func (g *guardDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("fetch: dial %s: %w", addr, err)
	}
	if to, ok := g.resolve.Lookup(host, port); ok {
		return g.dialer.DialContext(ctx, network, to)
	}
	if g.allowAll || g.allow[urlnorm.BareName(host)] {
		return g.dialer.DialContext(ctx, network, addr)
	}
	d := g.dialer
	d.Control = func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s dialed as %q: %w", ErrPrivateAddress, host, address, err)
		}
		if err := g.guard.check(ap.Addr()); err != nil {
			return fmt.Errorf("%w: %s is %s: %w", ErrPrivateAddress, host, ap.Addr(), err)
		}
		return nil
	}
	return d.DialContext(ctx, network, addr)
}
