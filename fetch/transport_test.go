package fetch

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseResolve(t *testing.T) {
	tests := []struct {
		in, key, addr string
		ok            bool
	}{
		{"example.com=127.0.0.1", "example.com", "127.0.0.1", true},
		{"Example.COM:8080=127.0.0.1:9000", "example.com:8080", "127.0.0.1:9000", true},
		{" a.test = ::1 ", "a.test", "::1", true},
		{"a.test=[::1]:8080", "a.test", "[::1]:8080", true},
		{"[::1]:80=127.0.0.1", "[::1]:80", "127.0.0.1", true},
		{"example.com", "", "", false},
		{"=127.0.0.1", "", "", false},
		{"example.com=not-an-ip", "", "", false},
		{"example.com=127.0.0.1:0", "", "", false},
		{"example.com:http=127.0.0.1", "", "", false},
		{"example.com:70000=127.0.0.1", "", "", false},
		{"a/b=127.0.0.1", "", "", false},
	}
	for _, tt := range tests {
		k, a, err := ParseResolve(tt.in)
		if (err == nil) != tt.ok || k != tt.key || a != tt.addr {
			t.Errorf("ParseResolve(%q) = %q, %q, %v; want %q, %q, ok=%v", tt.in, k, a, err, tt.key, tt.addr, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrResolve) {
			t.Errorf("ParseResolve(%q) error %v does not wrap ErrResolve", tt.in, err)
		}
	}
}

func TestResolveLookup(t *testing.T) {
	m := ResolveMap{}
	for _, v := range []string{"a.test=127.0.0.1", "a.test:8443=127.0.0.2:9443", "b.test=127.0.0.3:8080"} {
		if err := m.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		host, port, want string
		ok               bool
	}{
		{"a.test", "80", "127.0.0.1:80", true},
		{"A.TEST", "80", "127.0.0.1:80", true},
		{"a.test", "8443", "127.0.0.2:9443", true},
		{"b.test", "443", "127.0.0.3:8080", true},
		{"c.test", "80", "", false},
	}
	for _, tt := range tests {
		got, ok := m.Lookup(tt.host, tt.port)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Lookup(%s, %s) = %q, %v; want %q, %v", tt.host, tt.port, got, ok, tt.want, tt.ok)
		}
	}
	if h := m.Hosts(); strings.Join(h, ",") != "a.test,b.test" {
		t.Errorf("Hosts() = %v", h)
	}
	var nilMap ResolveMap
	if _, ok := nilMap.Lookup("a.test", "80"); ok {
		t.Error("nil map resolved something")
	}
}

func TestLoadResolveFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "hosts")
	if err := os.WriteFile(good, []byte("# test web\na.test 127.0.0.1\n\n  b.test:8080   127.0.0.1:9000  # inline comment\nc.test=::1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := LoadResolveFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 3 || m["a.test"] != "127.0.0.1" || m["b.test:8080"] != "127.0.0.1:9000" || m["c.test"] != "::1" {
		t.Fatalf("map = %v", m)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("a.test 127.0.0.1\n# fine\nb.test nowhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadResolveFile(bad)
	if err == nil || !strings.Contains(err.Error(), bad+":3") || !errors.Is(err, ErrResolve) {
		t.Fatalf("error %v does not name %s:3", err, bad)
	}
	three := filepath.Join(dir, "three")
	if err := os.WriteFile(three, []byte("a.test 127.0.0.1 extra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadResolveFile(three); err == nil || !strings.Contains(err.Error(), three+":1") {
		t.Fatalf("error %v does not name %s:1", err, three)
	}
	if _, err := LoadResolveFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing file accepted")
	}
}

func TestResolveOverride(t *testing.T) {
	s := newTestServer(t, 1<<10)
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	tests := []struct {
		name    string
		resolve string
		url     string
	}{
		{"host to ip:port", "fake.test=127.0.0.1:" + port, "http://fake.test/html"},
		{"host to ip keeps url port", "fake.test=127.0.0.1", "http://fake.test:" + port + "/html"},
		{"host:port to ip:port", "fake.test:80=127.0.0.1:" + port, "http://fake.test/html"},
		// Links name an IDN host in punycode (URLs are normalized); the
		// entry may be written as a person writes the name.
		{"IDN entry", "Bücher.test=127.0.0.1:" + port, "http://xn--bcher-kva.test/html"},
		{"IDN entry with port", "bücher.test:80=127.0.0.1:" + port, "http://xn--bcher-kva.test/html"},
		// The same DNS name, absolute: never a lookup past the override.
		{"trailing dot in URL", "fake.test=127.0.0.1:" + port, "http://fake.test./html"},
		{"trailing dot in entry", "fake.test.=127.0.0.1:" + port, "http://fake.test/html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ResolveMap{}
			if err := m.Add(tt.resolve); err != nil {
				t.Fatal(err)
			}
			// No AllowHosts: the resolve map alone exempts the host.
			f, err := New(Options{Resolve: m, AllowHosts: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			r := f.Fetch(context.Background(), Request{URL: tt.url})
			if r.Err != nil || r.Code != 200 || string(r.Body) != page {
				t.Fatalf("code %d err %v reason %q", r.Code, r.Err, r.Reason)
			}
			if got := s.header("/html").Get("Host"); got != "" && !strings.HasPrefix(got, "fake.test") {
				t.Errorf("Host header %q", got)
			}
		})
	}
}

func TestSSRFGuard(t *testing.T) {
	s := newTestServer(t, 1<<10)
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	tests := []struct {
		name   string
		opts   Options
		url    string
		refuse bool
	}{
		{"loopback ip refused", Options{AllowHosts: []string{}}, "http://127.0.0.1:" + port + "/html", true},
		{"name resolving to loopback refused", Options{AllowHosts: []string{}}, "http://localhost:" + port + "/html", true},
		{"seed host allowed", Options{AllowHosts: []string{"127.0.0.1"}}, "http://127.0.0.1:" + port + "/html", false},
		{"seed name allowed", Options{AllowHosts: []string{"LocalHost"}}, "http://localhost:" + port + "/html", false},
		{"other seed does not allow", Options{AllowHosts: []string{"example.com"}}, "http://127.0.0.1:" + port + "/html", true},
		{"allow-private", Options{AllowPrivate: true}, "http://localhost:" + port + "/html", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := f.Fetch(context.Background(), Request{URL: tt.url})
			if tt.refuse {
				if !errors.Is(r.Err, ErrPrivateAddress) || r.Reason != ReasonPrivateAddress || r.Code != 0 {
					t.Fatalf("not refused: code %d err %v reason %q", r.Code, r.Err, r.Reason)
				}
				return
			}
			if r.Err != nil || r.Code != 200 {
				t.Fatalf("refused: code %d err %v", r.Code, r.Err)
			}
		})
	}
}

// TestHTTP2AndCAFile serves HTTPS offering HTTP/2 from a certificate only
// the CA file vouches for, reached under a name through the resolve map (the
// test certificate covers example.com).
func TestHTTP2AndCAFile(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("X-Proto", r.Proto)
		_, _ = w.Write([]byte(page))
	}))
	srv.EnableHTTP2 = true
	// The handshake the untrusted client aborts would be logged.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	caFile := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	resolve := ResolveMap{"example.com": "127.0.0.1:" + port}

	// Without the CA file the certificate is unknown.
	f := newFetcher(t, Options{Resolve: resolve})
	r := f.Fetch(context.Background(), Request{URL: "https://example.com/"})
	if r.Err == nil || r.Reason != ReasonTLS {
		t.Fatalf("untrusted certificate: code %d err %v reason %q", r.Code, r.Err, r.Reason)
	}

	// HTTP/2 only when asked for, though the server offers it.
	for _, tc := range []struct {
		http2 bool
		want  string
	}{{false, "HTTP/1.1"}, {true, "HTTP/2.0"}} {
		f = newFetcher(t, Options{Resolve: resolve, CAFile: caFile, HTTP2: tc.http2})
		r = f.Fetch(context.Background(), Request{URL: "https://example.com/"})
		if r.Err != nil || r.Code != 200 || string(r.Body) != page {
			t.Fatalf("with CA file, HTTP2 %v: code %d err %v", tc.http2, r.Code, r.Err)
		}
		if p := r.Header.Get("X-Proto"); p != tc.want {
			t.Fatalf("HTTP2 %v: protocol %q, want %s", tc.http2, p, tc.want)
		}
	}
}

// TestCAFileErrors: a CA file that holds no certificate or does not exist
// fails NewTransport, and CheckCAFile gives the same verdict (it checks
// the file for the settings without loading the system's roots); a file
// with a certificate passes both.
func TestCAFileErrors(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	srv.Close()
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	key := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not checked")})
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path string
		ok         bool
	}{
		{"junk", file("junk.pem", []byte("not a certificate")), false},
		{"empty", file("empty.pem", nil), false},
		{"a key only", file("key.pem", key), false},
		{"missing", filepath.Join(dir, "missing.pem"), false},
		{"a directory", dir, false},
		{"a certificate", file("good.pem", cert), true},
		{"a key and a certificate", file("both.pem", append(key, cert...)), true},
	} {
		_, terr := NewTransport(Options{CAFile: tc.path})
		cerr := CheckCAFile(tc.path)
		if (terr == nil) != tc.ok || (cerr == nil) != tc.ok || !tc.ok && (!strings.Contains(terr.Error(), tc.path) || cerr.Error() != terr.Error()) {
			t.Errorf("%s: NewTransport %v, CheckCAFile %v; want both to %s, naming the file", tc.name, terr, cerr, map[bool]string{true: "pass", false: "fail"}[tc.ok])
		}
	}
}

func TestSharedTransport(t *testing.T) {
	s := newTestServer(t, 1<<10)
	tr, err := NewTransport(Options{AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	f1 := newFetcher(t, Options{Transport: tr})
	f2 := newFetcher(t, Options{Transport: tr})
	for i := 0; i < 3; i++ {
		for _, f := range []*Fetcher{f1, f2} {
			if r := fetch(t, f, s.URL+"/html"); r.Err != nil {
				t.Fatal(r.Err)
			}
		}
	}
	if n := s.conns.Load(); n != 1 {
		t.Fatalf("two fetchers on one transport used %d connections, want 1", n)
	}
	// The same transport serves a plain client, as robots.txt fetching does.
	resp, err := (&http.Client{Transport: tr}).Get(s.URL + "/html")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
