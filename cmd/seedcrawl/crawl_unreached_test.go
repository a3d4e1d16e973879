package main

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
	srv := untrustedSite(t)
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

// TestCrawlCAFileAfterUntrusted follows the hint of a crawl that met an
// untrusted certificate: the same command with --ca-file and --refetch on
// the same db crawls the site; the first run's give-up, stored with the
// robots.txt entry for the robots TTL, does not outlive the process whose
// trusted roots it was judged with.
func TestCrawlCAFileAfterUntrusted(t *testing.T) {
	srv := untrustedSite(t)
	db, _, stderr := crawlServer(t, srv)
	checkContains(t, "stderr", stderr, "--refetch")
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cmdRun("crawl", "--db", db, "--allow-private", "--progress", "0", "--sitemaps=false",
		"--delay", "0", "--delay-factor", "0", "--ca-file", ca, "--refetch", srv.URL+"/")
	if code != 0 || !strings.Contains(stdout, "(1 fetched)") || strings.Contains(stderr, "no page could be requested") {
		t.Errorf("with --ca-file and --refetch: exit %d, stdout:\n%s\nstderr:\n%s\nwant the page fetched", code, stdout, stderr)
	}
}

// untrustedSite serves one page over https, with a certificate of a CA
// the crawler does not trust unless given it.
func untrustedSite(t *testing.T) *httptest.Server {
	return serveTLS(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>x"))
	})
}
