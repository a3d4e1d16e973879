package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Source is what the monitor needs from a running crawl: a snapshot of its
// state. Status is called from the server's goroutines (each /status
// request, page view and scrape) while the crawl runs, so it must be safe
// for concurrent use and cheap; it returns a fresh value the caller may
// modify (the server sorts and cuts Hosts in place).
type Source interface {
	Status() Status
}

// SourceFunc adapts a function to Source.
type SourceFunc func() Status

// Status calls f.
func (f SourceFunc) Status() Status { return f() }

// Options configure Start. The zero value serves an empty status, no
// crawl counters and no warnings.
type Options struct {
	// Source is polled for the crawl's state; nil serves an empty Status.
	Source Source
	// Recorder is exported on /metrics and as Status.Recorded; nil
	// exports no crawl counters.
	Recorder *Recorder
	// Warnings are shown on the page and in Status.Warnings when the
	// Source gives none; nil shows none.
	Warnings *Warnings
	// Refresh is how often the HTML page reloads itself. Zero means 2 s.
	Refresh time.Duration
	// Hosts is how many hosts /status and the page list by default
	// (/status?hosts=N overrides it). Zero means 1000; negative means all.
	Hosts int
	// Logger receives errors the HTTP server meets (a failed scrape, a
	// broken connection). Nil means slog.Default().
	Logger *slog.Logger
}

const (
	defaultRefresh = 2 * time.Second
	defaultHosts   = 1000
	pageHosts      = 100 // hosts on the HTML page: a screenful, not a dump
	shutdownGrace  = 5 * time.Second
)

// Server is a running monitor.
type Server struct {
	addr string
	dial string // addr, with a loopback host in place of a wildcard
	done chan struct{}
	err  error // set before done is closed
}

// Addr returns the address the server listens on: with port 0 in the
// address given to Start, the port the system chose.
func (s *Server) Addr() string { return s.addr }

// DialAddr returns an address on this machine that reaches the server, to
// print for a person or record for another process: Addr, except that a
// server listening on every interface ("0.0.0.0:0", "[::]:0", ":0") is
// reached at the loopback address. The system reports such a listener as
// "[::]:PORT" even when it was asked for "0.0.0.0", and a browser cannot
// open a wildcard.
func (s *Server) DialAddr() string { return s.dial }

// URL returns the status page's URL, at DialAddr, for a person to open;
// for a server on every interface it says so, with the port:
// "http://127.0.0.1:4242/ (listening on all interfaces, port 4242)".
func (s *Server) URL() string { return pageURL(s.dial, s.dial != s.addr) }

// pageURL is URL for a server reached at dial, on every interface if all.
func pageURL(dial string, all bool) string {
	u := "http://" + dial + "/"
	if all {
		_, port, _ := net.SplitHostPort(dial)
		u += " (listening on all interfaces, port " + port + ")"
	}
	return u
}

// dialAddr returns the address that reaches a listener bound at bound
// when asked to listen at requested: bound itself, or for a wildcard host
// the loopback address of the requested family (IPv6 only when the
// request named an IPv6 address; "0.0.0.0" and "" ask for IPv4, which a
// dual-stack wildcard also serves).
func dialAddr(requested, bound string) string {
	host, port, err := net.SplitHostPort(bound)
	if err != nil {
		return bound
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
		return bound
	}
	loop := "127.0.0.1"
	if rh, _, err := net.SplitHostPort(requested); err == nil {
		if ip := net.ParseIP(rh); ip != nil && ip.To4() == nil {
			loop = "::1"
		}
	}
	return net.JoinHostPort(loop, port)
}

// Done is closed when the server has stopped, after ctx ended.
func (s *Server) Done() <-chan struct{} { return s.done }

// Err returns why the server stopped (nil after a clean shutdown); valid
// once Done is closed.
func (s *Server) Err() error {
	<-s.done
	return s.err
}

// Start listens on addr (host:port; port 0 picks a free one) and serves
// /metrics, /status, /debug/pprof/ and the HTML page / until ctx ends,
// then shuts down, giving open requests 5 s to finish. It returns once the
// listener is bound, so Addr is usable at once.
//
// pprof exposes the process's memory and lets a caller burn CPU: bind to a
// loopback address unless the network is trusted.
func Start(ctx context.Context, addr string, opts Options) (*Server, error) {
	if opts.Refresh <= 0 {
		opts.Refresh = defaultRefresh
	}
	if opts.Hosts == 0 {
		opts.Hosts = defaultHosts
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Source == nil {
		opts.Source = SourceFunc(func() Status { return Status{} })
	}
	reg := prometheus.NewRegistry()
	cs := []prometheus.Collector{
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewGoCollector(),
		sourceCollector{opts.Source},
	}
	if opts.Recorder != nil {
		cs = append(cs, recorderCollector{opts.Recorder})
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("monitor: register metrics: %w", err)
		}
	}
	h := &handler{opts: opts, pid: os.Getpid()}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorLog:          slogPrinter{opts.Logger},
		ErrorHandling:     promhttp.ContinueOnError,
		Registry:          reg, // promhttp_metric_handler_* about the scrapes themselves
		EnableOpenMetrics: true,
	}))
	mux.HandleFunc("GET /status", h.status)
	mux.HandleFunc("GET /{$}", h.page)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("monitor: listen on %s: %w", addr, err)
	}
	var handler http.Handler = mux
	if loopbackOnly(ln.Addr()) {
		handler = localHostsOnly(mux)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelDebug),
		// No WriteTimeout: /debug/pprof/profile?seconds=N writes after N
		// seconds, and net/http/pprof refuses N beyond a WriteTimeout.
	}
	s := &Server{addr: ln.Addr().String(), done: make(chan struct{})}
	s.dial = dialAddr(addr, s.addr)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	go func() {
		defer close(s.done)
		select {
		case err := <-served: // the listener failed before ctx ended
			s.err = fmt.Errorf("monitor: serve on %s: %w", s.addr, err)
			return
		case <-ctx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			// A profile or a slow client outlived the grace period.
			_ = srv.Close()
		}
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.err = fmt.Errorf("monitor: serve on %s: %w", s.addr, err)
		}
	}()
	return s, nil
}

// loopbackOnly reports whether a listener at addr can be reached from
// this machine only.
func loopbackOnly(addr net.Addr) bool {
	ta, ok := addr.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// localHostsOnly refuses requests whose Host header is not an IP address or
// localhost. A monitor on a loopback address is meant for this machine,
// but a web page open in a browser here can still reach it through a name
// of its own that it resolves to 127.0.0.1 (DNS rebinding) and read
// /status and /debug/pprof as its own origin; such a request carries that
// name in Host. On other addresses the monitor may well be reached by a
// name (a scrape of monitor.internal:9090), so there every Host passes.
func localHostsOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.ToLower(host), ".")
		if net.ParseIP(strings.Trim(host, "[]")) == nil && host != "localhost" {
			http.Error(w, fmt.Sprintf("monitor: Host %q refused: this monitor listens on loopback and answers only requests to an IP address or localhost", r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// handler serves /status and the page.
type handler struct {
	opts Options
	pid  int
}

// snapshot polls the Source and fills in what the server owns.
func (h *handler) snapshot(limit int) Status {
	st := h.opts.Source.Status()
	st.Recorded = h.opts.Recorder.Counters()
	if len(st.Warnings) == 0 {
		st.Warnings = h.opts.Warnings.Recent()
	}
	st.normalize(time.Now(), h.pid, limit)
	return st
}

func (h *handler) status(w http.ResponseWriter, r *http.Request) {
	limit := h.opts.Hosts
	if q := r.URL.Query().Get("hosts"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < -1 {
			http.Error(w, fmt.Sprintf("monitor: hosts=%q: want a count, or -1 for all", q), http.StatusBadRequest)
			return
		}
		limit = n
	}
	st := h.snapshot(limit)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		h.opts.Logger.Debug("monitor: write /status", "err", err)
	}
}

// slogPrinter adapts a logger to promhttp.Logger.
type slogPrinter struct{ l *slog.Logger }

func (p slogPrinter) Println(v ...any) { p.l.Warn("monitor: /metrics: " + fmt.Sprint(v...)) }
