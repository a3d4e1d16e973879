package crawler

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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
