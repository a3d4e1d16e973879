package testweb

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/cputime"
)

// BenchmarkServe measures the handler over real loopback HTTP with
// keep-alive: 8 client goroutines GET HTML pages of a clean web, spread
// over its hosts, on persistent connections.
//
// Clients: "raw" writes HTTP/1.1 requests and parses responses itself
// (like wrk), so the figure is the server's; "net-http" uses the Server's
// http.Client (what a crawler pays on top). Metrics: pages/s (wall clock,
// the goal is at least 20,000 on a 2-core machine), pages/cpu-s (pages per
// second of process CPU time, client included: independent of other load
// on the machine), B/page and B/s (body bytes per second). The
// profile=docs cases serve documentation-site pages (ProfileDocs).
func BenchmarkServe(b *testing.B) {
	for _, c := range []struct {
		pages, hosts int
		client       string
		profile      Profile
	}{
		{1000, 20, "raw", ProfileDefault},
		{100000, 200, "raw", ProfileDefault},
		{1000, 20, "net-http", ProfileDefault},
		{100000, 200, "net-http", ProfileDefault},
		{1000, 20, "net-http-tls", ProfileDefault},
		// Documentation-site pages: about 30 KB and 75 links each.
		{1000, 20, "raw", ProfileDocs},
		{100000, 200, "raw", ProfileDocs},
		{1000, 20, "net-http", ProfileDocs},
		{1000, 20, "net-http-tls", ProfileDocs},
	} {
		name := fmt.Sprintf("pages=%d/%s", c.pages, c.client)
		if c.profile != ProfileDefault {
			name += "/profile=" + c.profile.String()
		}
		b.Run(name, func(b *testing.B) {
			tls := c.client == "net-http-tls"
			site := mustGenerate(b, GenOptions{Seed: 1, Pages: c.pages, Hosts: c.hosts, Preset: Clean, NoHTTPS: !tls,
				Profile: c.profile})
			_, srv := startWeb(b, site, Options{})
			truth, err := site.Truth(0)
			if err != nil {
				b.Fatal(err)
			}
			var urls []string
			for v, u := range truth.Graph.URLs {
				if truth.Nodes[v].Kind == KindPage && tls == strings.HasPrefix(u, "https:") {
					urls = append(urls, u)
				}
			}
			var get func(worker int, u string) (int64, error)
			switch c.client {
			case "raw":
				conns := make([]*rawConn, 8)
				get = func(worker int, u string) (int64, error) {
					if conns[worker] == nil {
						rc, err := dialRaw(srv.HTTPAddr())
						if err != nil {
							return 0, err
						}
						conns[worker] = rc
						b.Cleanup(func() { rc.c.Close() })
					}
					return conns[worker].get(u)
				}
			default:
				client := srv.Client()
				get = func(_ int, u string) (int64, error) { return netHTTPGet(client, u) }
			}
			benchFetch(b, urls, 8, get)
		})
	}
}

func netHTTPGet(c *http.Client, u string) (int64, error) {
	resp, err := c.Get(u)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return n, err
}

// rawConn is a minimal HTTP/1.1 keep-alive client connection.
type rawConn struct {
	c   net.Conn
	r   *bufio.Reader
	req []byte
}

func dialRaw(addr string) (*rawConn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &rawConn{c: c, r: bufio.NewReaderSize(c, 64<<10)}, nil
}

func (rc *rawConn) get(u string) (int64, error) {
	rest := strings.TrimPrefix(u, "http://")
	host, path := rest, "/"
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	rc.req = append(rc.req[:0], "GET "...)
	rc.req = append(rc.req, path...)
	rc.req = append(rc.req, " HTTP/1.1\r\nHost: "...)
	rc.req = append(rc.req, host...)
	rc.req = append(rc.req, "\r\nUser-Agent: testweb-bench\r\n\r\n"...)
	if _, err := rc.c.Write(rc.req); err != nil {
		return 0, err
	}
	status, _ := rc.r.ReadSlice('\n')
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) {
		return 0, fmt.Errorf("GET %s: status line %q", u, status)
	}
	length := -1
	for {
		line, err := rc.r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(line) <= 2 {
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if length < 0 {
		return 0, fmt.Errorf("GET %s: no Content-Length", u)
	}
	n, err := rc.r.Discard(length)
	return int64(n), err
}

func benchFetch(b *testing.B, urls []string, workers int, get func(worker int, u string) (int64, error)) {
	var next, total atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	// Warm up: open every worker's connections to every host.
	for w := range workers {
		for i := w; i < len(urls) && i < 4*len(urls)/len(urls)+400; i += workers {
			if _, err := get(w, urls[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	cpu0 := cputime.Process()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				n, err := get(w, urls[(i*7919)%int64(len(urls))])
				if err != nil {
					errs <- err
					return
				}
				total.Add(n)
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	cpu := cputime.Process() - cpu0
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "pages/cpu-s")
	}
	b.ReportMetric(float64(total.Load())/float64(b.N), "B/page")
	b.ReportMetric(float64(total.Load())/b.Elapsed().Seconds(), "B/s")
}

// discardWriter is a minimal http.ResponseWriter for handler benchmarks.
type discardWriter struct {
	h http.Header
	n int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }

// BenchmarkHandler measures ServeHTTP alone, without the network: the
// cost of looking a page up and rendering it.
func BenchmarkHandler(b *testing.B) {
	for _, pages := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) {
			site := mustGenerate(b, GenOptions{Seed: 1, Pages: pages, Hosts: max(20, pages/500), Preset: Clean})
			w, err := New(site, Options{})
			if err != nil {
				b.Fatal(err)
			}
			truth, _ := site.Truth(0)
			var reqs []*http.Request
			for v, u := range truth.Graph.URLs {
				if truth.Nodes[v].Kind == KindPage {
					r, _ := http.NewRequest("GET", u, nil)
					r.RequestURI = r.URL.RequestURI()
					reqs = append(reqs, r)
				}
			}
			d := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				clear(d.h)
				w.ServeHTTP(d, reqs[(i*7919)%len(reqs)])
			}
			b.ReportMetric(float64(d.n)/float64(b.N), "B/page")
		})
	}
}
