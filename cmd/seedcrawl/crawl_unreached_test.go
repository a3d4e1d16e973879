package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCrawlUntrustedSeedSaysWhy crawls an https server whose certificate
// the crawler does not trust: robots.txt cannot be fetched and will not be
// (asking again does not make a certificate trusted), so the crawl ends at
// once, and says that nothing was requested and that --ca-file is the
// remedy, not only in a warning line.
func TestCrawlUntrustedSeedSaysWhy(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>x"))
	}))
	t.Cleanup(srv.Close)
	start := time.Now()
	_, stdout, stderr := crawlServer(t, srv)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %v; an untrusted certificate is given up at once, not retried", took)
	}
	if !strings.Contains(stderr, "no page could be requested") || !strings.Contains(stderr, "--ca-file") {
		t.Errorf("stderr does not say nothing was requested and why:\n%s", stderr)
	}
	if !strings.Contains(stdout, "robots-unreachable: tls 1") {
		t.Errorf("summary does not count the URL as unreachable for TLS:\n%s", stdout)
	}
}
