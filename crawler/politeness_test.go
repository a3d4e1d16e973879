package crawler

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestHostKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://a.test/x", "a.test"},
		{"https://a.test:8443/x?y#z", "a.test:8443"},
		{"http://user@A.Test/", "a.test"},
		{"http://[::1]:8080/", "[::1]:8080"},
		{"http://a.test", "a.test"},
		{"nonsense", ""},
	} {
		if got := HostKey(tc.in); got != tc.want {
			t.Errorf("HostKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHostLogSeesRequests(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	log := NewHostLog()
	client := &http.Client{Transport: log.Wrap(http.DefaultTransport)}
	start := time.Now()
	resp, err := client.Get(srv.URL + "/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	host := srv.Listener.Addr().String()
	at, ok := log.Since(host, start)
	if !ok || at.Before(start) {
		t.Fatalf("Since(%s) = %v, %v; want the request", host, at, ok)
	}
	if _, ok := log.Since(host, time.Now().Add(time.Second)); ok {
		t.Error("Since a later time reported the earlier request")
	}
	if n := log.drain(); len(n) != 1 || n[0].host != host {
		t.Errorf("drain = %+v, want the one request", n)
	}
	if n := log.drain(); len(n) != 0 {
		t.Errorf("second drain = %+v, want nothing", n)
	}
	var nilLog *HostLog
	if _, ok := nilLog.Since(host, start); ok || nilLog.drain() != nil {
		t.Error("a nil HostLog must report nothing")
	}
}

func TestRequestHostKeyDropsDefaultPorts(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://A.test:80/robots.txt", "a.test"},
		{"https://a.test:443/robots.txt", "a.test"},
		{"http://a.test:443/robots.txt", "a.test:443"},
		{"https://a.test:8443/robots.txt", "a.test:8443"},
	} {
		req, err := http.NewRequest("GET", tc.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := requestHostKey(req); got != tc.want {
			t.Errorf("requestHostKey(%s) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
