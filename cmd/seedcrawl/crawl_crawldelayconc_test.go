package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// TestCrawlDelayWithHostConcurrency crawls a site whose robots.txt asks
// for a Crawl-delay with --host-concurrency 2, in two runs (the second
// resumes with robots.txt cached in the db, so the delay is not known
// before its first jobs are taken): the site asked for that long between
// any two requests, so requests never go two at a time, and each starts
// the Crawl-delay after the one before it.
func TestCrawlDelayWithHostConcurrency(t *testing.T) {
	const crawlDelay = 300 * time.Millisecond
	s := newLinkSite(t, 6, map[string]http.HandlerFunc{"/robots.txt": func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nCrawl-delay: %g\n", crawlDelay.Seconds())
	}})
	db := filepath.Join(t.TempDir(), "crawldelay.db")
	args := []string{"crawl", "--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--workers", "4",
		"--host-concurrency", "2", "--sitemaps=false", "--progress", "0", "--commit-interval", "50ms"}
	cmdOK(t, append(args, "--max-pages", "2", s.srv.URL+"/")...)
	cmdOK(t, append(args, s.srv.URL+"/")...)
	paths, arrived := s.requests()
	if len(paths) != 8 {
		t.Fatalf("requests %v; want robots.txt, / and six pages", paths)
	}
	// Arrival times at the server: the client waits from the end of each
	// answer, which is later than its arrival; a little slack for the
	// scheduling of the server's goroutines.
	const slack = 20 * time.Millisecond
	for i := 1; i < len(arrived); i++ {
		if gap := arrived[i].Sub(arrived[i-1]); gap < crawlDelay-slack {
			t.Errorf("%s came %v after %s; Crawl-delay is %v", paths[i], gap, paths[i-1], crawlDelay)
		}
	}
}
