package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRunRetriesDeferredHost runs two cycles against two hosts: a.test's
// page links 20 pages of b.test, whose robots.txt answers 503 in the first
// cycle, so the crawl defers b.test's URLs (robots.txt unreachable); in the
// second, with b.test back, every one of them is fetched, in a cycle
// without a budget and in one whose refresh share is capped (where they
// must not take the share of a.test's due pages either). Before, a URL
// deferred for its host was never asked for again by seedcrawl run, nor
// anything behind it.
func TestRunRetriesDeferredHost(t *testing.T) {
	for _, mode := range []struct {
		name  string
		flags []string
	}{
		{"every due page refetched", nil},
		{"a cycle budget with a capped refresh share", []string{"--pages-per-cycle", "100", "--refresh-share", "0.25", "--refresh-policy", "uniform"}},
	} {
		t.Run(mode.name, func(t *testing.T) { runRetriesDeferredHost(t, mode.flags) })
	}
}

func runRetriesDeferredHost(t *testing.T, flags []string) {
	const pages = 20
	var down atomic.Bool
	down.Store(true)
	var aAsked atomic.Int64
	var port string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		switch {
		case r.URL.Path == "/robots.txt" && host == "b.test" && down.Load():
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case host == "a.test":
			aAsked.Add(1)
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/a1">a1</a>`)
			if r.URL.Path == "/" {
				for i := range pages {
					fmt.Fprintf(w, `<a href="http://b.test:%s/p%d">p</a>`, port, i)
				}
			}
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<p>up</p>`)
		}
	}))
	_, port, _ = net.SplitHostPort(srv.Listener.Addr().String())
	srv.Start()
	t.Cleanup(srv.Close)
	seed := "http://a.test:" + port + "/"
	db := filepath.Join(t.TempDir(), "deferred.db")
	args := []string{"--db", db, "--progress", "0", "--sitemaps=false", "--seed-algo", "given", "--scope", "hosts:.test",
		"--resolve", "a.test=" + srv.Listener.Addr().String(), "--resolve", "b.test=" + srv.Listener.Addr().String(),
		"--delay", "0", "--delay-factor", "0", "--robots-backoff", "1ms", "--robots-ttl", "1ms"}
	args = append(args, flags...)
	runCmd(t, append(args, "--cycles", "1", seed))
	deferred := 0
	for u, p := range runReadDB(t, db).pages {
		if p.Status == storage.StatusDeferred && strings.Contains(u, "b.test") {
			deferred++
		}
	}
	if deferred != pages {
		t.Fatalf("cycle 1 deferred %d of b.test's %d URLs, want all: nothing to retry", deferred, pages)
	}
	down.Store(false)
	aBefore := aAsked.Load()
	runCmd(t, append(args, "--cycles", "2", seed))
	fetched := 0
	for u, p := range runReadDB(t, db).pages {
		switch {
		case !strings.Contains(u, "b.test") || strings.HasSuffix(u, "/robots.txt"):
		case p.Status == storage.StatusFetched:
			fetched++
		default:
			t.Errorf("after cycle 2, %s is %v (%s)", u, p.Status, p.Reason)
		}
	}
	if fetched != pages {
		t.Errorf("after cycle 2, %d of b.test's %d pages fetched", fetched, pages)
	}
	if n := aAsked.Load() - aBefore; n < 2 {
		t.Errorf("cycle 2 asked a.test for %d pages, want its 2 (the retried URLs took their refresh)", n)
	}
}
