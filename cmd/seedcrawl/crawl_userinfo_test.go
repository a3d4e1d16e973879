package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestCrawlDropsLinkCredentials crawls a page that links to its own host
// with a user and password in the URL: the crawler fetches the page
// without sending them (no Authorization header) and stores the URL
// without them, once, as the same URL as the plain link.
func TestCrawlDropsLinkCredentials(t *testing.T) {
	var mu sync.Mutex
	auth := map[string]string{} // path → Authorization header seen
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth[r.URL.Path] += r.Header.Get("Authorization")
		mu.Unlock()
		switch r.URL.Path {
		case "/":
			host := strings.TrimPrefix(srv.URL, "http://")
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<a href="http://admin:s3cret@` + host + `/private">p</a><a href="/private">same</a>`))
		case "/private":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<p>private`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	db, _, _ := crawlServer(t, srv)
	mu.Lock()
	got, asked := auth["/private"]
	mu.Unlock()
	if !asked || got != "" {
		t.Fatalf("/private asked %v with Authorization %q, want asked without credentials", asked, got)
	}
	d := openDB(t, db)
	defer d.Close()
	var urls []string
	if err := d.EachPage(func(p *storage.Page) error {
		u, err := d.URL(p.ID)
		urls = append(urls, u)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(urls) != 2 || strings.Contains(strings.Join(urls, " "), "s3cret") {
		t.Fatalf("stored URLs %q, want the seed and /private, without credentials", urls)
	}
}

// TestSeedCredentialsRefused: crawl and run refuse a seed with a user and
// password, which they would otherwise crawl without (Normalize drops
// them), before any request, without printing the password.
func TestSeedCredentialsRefused(t *testing.T) {
	var mu sync.Mutex
	asked := 0
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>x"))
	})
	seed := "http://admin:s3cret@" + strings.TrimPrefix(srv.URL, "http://") + "/"
	for _, cmd := range [][]string{{"crawl"}, {"run", "--cycles", "1"}} {
		db := filepath.Join(t.TempDir(), "r.db")
		code, _, stderr := cmdRun(append(cmd, "--db", db, "--allow-private", "--progress", "0", "--sitemaps=false",
			"--delay", "0", "--delay-factor", "0", seed)...)
		mu.Lock()
		n := asked
		mu.Unlock()
		if code == 0 || n > 0 || !strings.Contains(stderr, "credentials") || strings.Contains(stderr, "s3cret") {
			t.Fatalf("%s with a credentials seed: exit %d, %d requests sent, stderr %q; want it refused without the password", cmd, code, n, stderr)
		}
	}
}
