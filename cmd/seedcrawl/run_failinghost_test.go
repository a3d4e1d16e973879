package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRunRetriesGivenUpHost runs two cycles against a host whose pages all
// answer 500 in the first: the crawl gives the host up, recording its
// other URLs as deferred, and the second cycle, with the host back, fetches
// every one of them. Before, a URL deferred for its host was never asked
// for again by seedcrawl run, and neither was anything behind it.
func TestRunRetriesGivenUpHost(t *testing.T) {
	for _, mode := range []struct {
		name  string
		flags []string
	}{
		{"every due page refetched", nil},
		{"a cycle budget (lazy refresh)", []string{"--pages-per-cycle", "100"}},
	} {
		t.Run(mode.name, func(t *testing.T) { runRetriesGivenUpHost(t, mode.flags) })
	}
}

func runRetriesGivenUpHost(t *testing.T, flags []string) {
	const pages = 20
	var down atomic.Bool
	down.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
			for i := range pages {
				fmt.Fprintf(w, `<a href="/p%d">p</a>`, i)
			}
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case down.Load():
			http.Error(w, "down", http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<p>up</p>`)
		}
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "fail.db")
	args := []string{"--db", db, "--allow-private", "--progress", "0", "--sitemaps=false", "--seed-algo", "given",
		"--delay", "0", "--delay-factor", "0", "--backoff", "1ms", "--max-backoff", "4ms"}
	args = append(args, flags...)
	runCmd(t, append(args, "--cycles", "1", srv.URL+"/"))
	deferred := 0
	eachPage(t, db, func(p *storage.Page) {
		if p.Status == storage.StatusDeferred {
			deferred++
		}
	})
	if deferred == 0 {
		t.Fatal("cycle 1 gave no URL up with its host: nothing to retry")
	}
	down.Store(false)
	// The host is given up for --max-backoff; cycle 2 starts once that
	// has passed (the wait is the behaviour under test: a host given up
	// comes back when its time is over).
	d := openDB(t, db)
	var until time.Time
	if err := d.EachHost(func(h storage.Host) error { until = h.ReadyAt; return nil }); err != nil {
		t.Fatal(err)
	}
	d.Close()
	time.Sleep(time.Until(until))
	runCmd(t, append(args, "--cycles", "2", srv.URL+"/"))
	fetched := 0
	eachPage(t, db, func(p *storage.Page) {
		if p.Status == storage.StatusFetched && p.URL != srv.URL+"/" {
			fetched++
		} else if p.URL != srv.URL+"/" && p.URL != srv.URL+"/robots.txt" {
			t.Errorf("after cycle 2, %s is %v (%s)", p.URL, p.Status, p.Reason)
		}
	})
	if fetched != pages {
		t.Errorf("after cycle 2, %d of the %d pages fetched (%d were given up with their host in cycle 1)", fetched, pages, deferred)
	}
}

// eachPage calls fn with every page record of the db at path.
func eachPage(t *testing.T, path string, fn func(p *storage.Page)) {
	t.Helper()
	d := openDB(t, path)
	defer d.Close()
	if err := d.EachPage(func(p *storage.Page) error { fn(p); return nil }); err != nil {
		t.Fatal(err)
	}
}
