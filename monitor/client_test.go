package monitor

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

func TestFetchStatusFromServer(t *testing.T) {
	c := newFakeCrawl()
	hosts := make([]Host, 1500) // more than the server lists by default
	for i := range hosts {
		hosts[i] = Host{Name: "h" + strings.Repeat("x", i%7) + ".test", Queue: i}
	}
	c.set(func(st *Status) { st.Hosts, st.Frontier, st.DB = hosts, 99, "crawl.db" })
	c.fetch(200, 10, time.Millisecond, "fetched")
	s := start(t, Options{Source: c, Recorder: c.rec})

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	st, err := FetchStatus(ctx, s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if st.PID != os.Getpid() || st.Frontier != 99 || st.DB != "crawl.db" || st.Counters["fetch/fetched"] != 1 {
		t.Errorf("got pid %d frontier %d db %q counters %v", st.PID, st.Frontier, st.DB, st.Counters)
	}
	if len(st.Hosts) != defaultHosts || st.HostsTotal != len(hosts) || st.Hosts[0].Queue != len(hosts)-1 {
		t.Errorf("got %d hosts of %d (first queue %d), want the %d longest queues of %d", len(st.Hosts), st.HostsTotal,
			st.Hosts[0].Queue, defaultHosts, len(hosts))
	}
}

// TestFetchStatusBadAnswers points FetchStatus at servers that are not a
// seedcrawl monitor, or not there.
func TestFetchStatusBadAnswers(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		bad     bool // want ErrBadStatus
		want    string
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}, true, "500"},
		{"html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>some other service</html>"))
		}, true, "text/html"},
		{"broken json", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"pid": 12, "hosts": [`))
		}, true, "unexpected end"},
		{"json without pid", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"command": "crawl"}`))
		}, true, "no pid"},
		{"huge body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(`{"pid":1,"db":"` + strings.Repeat("a", 1<<20))
			for range 17 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, true, "body over"},
		{"redirect elsewhere", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://127.0.0.1:1/status", http.StatusFound)
		}, true, "302"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			_, err := FetchStatus(t.Context(), strings.TrimPrefix(srv.URL, "http://"))
			if err == nil || errors.Is(err, ErrBadStatus) != tc.bad || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrBadStatus=%v mentioning %q", err, tc.bad, tc.want)
			}
		})
	}
}

func TestFetchStatusNobodyThere(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a stale lock record's address: the port is free now
	for _, a := range []string{addr, "no-port"} {
		_, err := FetchStatus(t.Context(), a)
		if err == nil || errors.Is(err, ErrBadStatus) || !strings.Contains(err.Error(), "monitor: fetch status from") {
			t.Errorf("FetchStatus(%q) = %v, want a fetch error", a, err)
		}
	}
}

// TestFetchStatusGivesUp checks that a server that never answers does not
// hold the caller past its deadline.
func TestFetchStatusGivesUp(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := FetchStatus(ctx, strings.TrimPrefix(srv.URL, "http://"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}
