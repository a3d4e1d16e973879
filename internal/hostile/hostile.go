package hostile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Redirects is the length of the r0..r999 redirect chain; DenseHosts the
// number of dense* hosts; BigLinks the links of the links host; Nesting the
// depth of the nested host's tags.
const (
	Redirects  = 1000
	DenseHosts = 16
	BigLinks   = 100_000
	Nesting    = 100_000
	// Unsolicited is the number of pages the unsolicited host links from
	// its home page.
	Unsolicited = 20
	// MaxBody bounds what one endless response writes (1 GiB), so a
	// client that never stops reading cannot keep the server busy forever.
	MaxBody = 1 << 30
)

// Server is the hostile web; Close stops it and every response in progress.
type Server struct {
	ln      net.Listener
	srv     *http.Server
	refused string // 127.0.0.1:PORT where nothing listens
	ctx     context.Context
	cancel  context.CancelFunc

	mu      sync.Mutex
	hits    map[string]int           // "host path" -> requests
	waiters map[string]chan struct{} // "host path" -> closed at its first request
}

// Start listens on 127.0.0.1 and serves the hostile hosts.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("hostile: listen: %w", err)
	}
	// A port where nothing listens: bind one, then close it.
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("hostile: reserve a refused port: %w", err)
	}
	refused := dead.Addr().String()
	dead.Close()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{ln: ln, refused: refused, ctx: ctx, cancel: cancel, hits: map[string]int{}, waiters: map[string]chan struct{}{}}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and ends every response in progress.
func (s *Server) Close() error {
	s.cancel()
	return s.srv.Close()
}

// Port is the port every host is served on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// URL returns http://HOST.test:PORT/PATH.
func (s *Server) URL(host, path string) string {
	return fmt.Sprintf("http://%s.test:%d%s", host, s.Port(), path)
}

// Hosts lists every host name served (with .test), refused included.
func (s *Server) Hosts() []string {
	names := []string{"hang", "slowloris", "cl-short", "cl-long", "chunked", "bigrobots", "binrobots",
		"links", "nested", "private", "latin1", "sjis", "cp1251", "refused", "unsolicited"}
	for i := range DenseHosts {
		names = append(names, "dense"+strconv.Itoa(i))
	}
	for i := range Redirects {
		names = append(names, "r"+strconv.Itoa(i))
	}
	for i := range names {
		names[i] += ".test"
	}
	return names
}

// WriteResolve writes a resolve file (HOST:PORT ADDR lines) for every host.
func (s *Server) WriteResolve(path string) error {
	var b strings.Builder
	for _, h := range s.Hosts() {
		addr := s.ln.Addr().String()
		if h == "refused.test" {
			addr = s.refused
		}
		fmt.Fprintf(&b, "%s:%d %s\n", h, s.Port(), addr)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("hostile: write resolve file: %w", err)
	}
	return nil
}

// Hits returns how many requests host (without .test) got for path.
func (s *Server) Hits(host, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[host+" "+path]
}

// Requested returns a channel closed once host (without .test) has had a
// request for path, so a test can act on that event without polling.
func (s *Server) Requested(host, path string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := host + " " + path
	ch, ok := s.waiters[k]
	if !ok {
		ch = make(chan struct{})
		s.waiters[k] = ch
		if s.hits[k] > 0 {
			close(ch)
		}
	}
	return ch
}

// HostHits returns the requests per host (without .test), all paths.
func (s *Server) HostHits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, n := range s.hits {
		h, _, _ := strings.Cut(k, " ")
		out[h] += n
	}
	return out
}

// Log returns "host path" lines with counts, sorted, for test failures.
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(s.hits)) {
		fmt.Fprintf(&b, "%s %d\n", k, s.hits[k])
	}
	return b.String()
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".test")
	s.mu.Lock()
	k := host + " " + r.URL.Path
	s.hits[k]++
	if ch, ok := s.waiters[k]; ok && s.hits[k] == 1 {
		close(ch)
	}
	s.mu.Unlock()

	if r.URL.Path == "/robots.txt" {
		s.robots(w, r, host)
		return
	}
	switch {
	case host == "hang":
		hijack(w, func(c net.Conn, _ *bufio.ReadWriter) { <-s.ctx.Done() })
	case host == "slowloris":
		hijack(w, func(c net.Conn, rw *bufio.ReadWriter) {
			rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n<html><body>")
			rw.Flush()
			t := time.NewTicker(200 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-s.ctx.Done():
					return
				case <-t.C:
					if _, err := c.Write([]byte("x")); err != nil {
						return
					}
				}
			}
		})
	case host == "cl-short":
		hijack(w, func(c net.Conn, rw *bufio.ReadWriter) {
			rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n")
			rw.WriteString(strings.Repeat("<p>short</p>", 8) + "<a href=/a>")
			rw.Flush()
			<-s.ctx.Done()
		})
	case host == "unsolicited":
		hijack(w, func(c net.Conn, rw *bufio.ReadWriter) {
			var body strings.Builder
			if r.URL.Path == "/" {
				for i := range Unsolicited {
					fmt.Fprintf(&body, "<a href=/u%d>u</a>", i)
				}
			}
			fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", body.Len(), body.String())
			rw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") // asked by no request
			rw.Flush()
			_, _ = io.Copy(io.Discard, c) // until the client hangs up
		})
	case host == "cl-long":
		hijack(w, func(c net.Conn, rw *bufio.ReadWriter) {
			rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10\r\nConnection: close\r\n\r\n")
			for i := range 250 {
				fmt.Fprintf(rw, "<a href=/l%d>x</a>", i)
			}
			rw.Flush()
		})
	case host == "chunked" || strings.HasPrefix(host, "dense"):
		s.endless(w, r, host)
	case strings.HasPrefix(host, "r") && isNum(host[1:]):
		n, _ := strconv.Atoi(host[1:])
		if n+1 >= Redirects {
			page(w, "text/html", `<html><body>end of the chain</body></html>`)
			return
		}
		http.Redirect(w, r, s.URL("r"+strconv.Itoa(n+1), "/hop"), http.StatusMovedPermanently)
	case host == "links":
		if r.URL.Path != "/" {
			page(w, "text/html", "<html><body>leaf</body></html>")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		bw := bufio.NewWriter(w)
		bw.WriteString("<html><body>")
		for i := range BigLinks {
			fmt.Fprintf(bw, "<a href=/p/%d>%d</a>\n", i, i)
		}
		bw.WriteString("</body></html>")
		bw.Flush()
	case host == "nested":
		w.Header().Set("Content-Type", "text/html")
		bw := bufio.NewWriter(w)
		bw.WriteString("<html><body>")
		for range Nesting {
			bw.WriteString("<div>")
		}
		bw.WriteString(`<a href="/deep">deep</a>`)
		for range Nesting {
			bw.WriteString("</div>")
		}
		bw.WriteString("</body></html>")
		bw.Flush()
	case host == "private":
		if r.URL.Path != "/" {
			page(w, "text/html", "<html><body>ok</body></html>")
			return
		}
		p := s.Port()
		page(w, "text/html", fmt.Sprintf(`<html><body>
<a href="http://127.0.0.1:%d/secret">v4 loopback literal</a>
<a href="http://[::1]:%d/secret">v6 loopback literal</a>
<a href="http://localhost:%d/secret">localhost</a>
<a href="http://127.1:%d/secret">short v4 form</a>
<a href="http://2130706433:%d/secret">decimal v4 form</a>
<a href="/public">a public page of the same host</a>
</body></html>`, p, p, p, p, p))
	case host == "latin1" || host == "sjis" || host == "cp1251":
		s.encoded(w, r, host)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) robots(w http.ResponseWriter, r *http.Request, host string) {
	switch host {
	case "bigrobots":
		w.Header().Set("Content-Type", "text/plain")
		bw := bufio.NewWriter(w)
		bw.WriteString("User-agent: *\nDisallow: /private\n")
		for i, written := 0, 0; written < 50<<20; i++ {
			n, err := fmt.Fprintf(bw, "Disallow: /generated/%08d/\n", i)
			if err != nil {
				return
			}
			written += n
		}
		bw.Flush()
	case "binrobots":
		w.Header().Set("Content-Type", "application/octet-stream")
		b := make([]byte, 64<<10)
		x := uint32(2463534242)
		for i := range b {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b[i] = byte(x)
		}
		w.Write(b)
	default:
		http.NotFound(w, r)
	}
}

// endless writes an HTML body of links until the client leaves, the server
// closes or MaxBody bytes are out.
func (s *Server) endless(w http.ResponseWriter, r *http.Request, host string) {
	if r.URL.Path != "/" {
		page(w, "text/html", "<html><body>leaf</body></html>")
		return
	}
	w.Header().Set("Content-Type", "text/html")
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString("<html><body>")
	written := 0
	for i := 0; written < MaxBody; i++ {
		if i%1024 == 0 && (s.ctx.Err() != nil || r.Context().Err() != nil) {
			return
		}
		n, err := fmt.Fprintf(bw, `<a href="/%s/%d">%d</a>`, host, i, i)
		if err != nil {
			return
		}
		written += n
	}
	bw.Flush()
}

// encoded serves a page in a legacy encoding whose links hold non-ASCII
// characters in the path and in the query, the bytes written raw.
func (s *Server) encoded(w http.ResponseWriter, r *http.Request, host string) {
	if r.URL.Path != "/" {
		page(w, "text/html", "<html><body>leaf</body></html>")
		return
	}
	var body string
	switch host {
	case "latin1":
		// "naïve" and "é" in ISO-8859-1: 0xEF and 0xE9.
		body = "<html><head><meta charset=\"iso-8859-1\"></head><body>" +
			"<a href=\"/na\xefve.html\">x</a><a href=\"/search?q=\xe9\">q</a></body></html>"
		w.Header().Set("Content-Type", "text/html")
	case "sjis":
		// "日本" in Shift_JIS: 0x93FA 0x967B.
		body = "<html><body><a href=\"/\x93\xfa\x96\x7b.html\">x</a>" +
			"<a href=\"/search?q=\x93\xfa\">q</a></body></html>"
		w.Header().Set("Content-Type", "text/html; charset=Shift_JIS")
	case "cp1251":
		// "мир" in windows-1251: 0xEC 0xE8 0xF0.
		body = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"></head><body>" +
			"<a href=\"/\xec\xe8\xf0.html\">x</a><a href=\"/search?q=\xec\">q</a></body></html>"
		w.Header().Set("Content-Type", "text/html")
	}
	io.WriteString(w, body)
}

func page(w http.ResponseWriter, ctype, body string) {
	w.Header().Set("Content-Type", ctype)
	io.WriteString(w, body)
}

// hijack takes the raw connection for a behaviour net/http cannot express.
func hijack(w http.ResponseWriter, fn func(net.Conn, *bufio.ReadWriter)) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijack", http.StatusInternalServerError)
		return
	}
	c, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	fn(c, rw)
}

func isNum(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil && !errors.Is(err, strconv.ErrRange)
}
