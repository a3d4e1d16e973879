package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestCrawlGivesUpFailingHost crawls a host whose pages all answer 500: the
// crawl gives the host up after 2 × (max-retries+1) failed requests in a
// row and records its other URLs with the reason, where it made every
// URL's four attempts, with a back-off that grows to --max-backoff (10
// minutes) between them: hours for a dead host of a few dozen URLs, and
// said nothing of it on stderr.
func TestCrawlGivesUpFailingHost(t *testing.T) {
	const pages = 20
	var failed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			for i := range pages {
				fmt.Fprintf(w, `<a href="/p%d">p</a>`, i)
			}
		case "/robots.txt":
			http.NotFound(w, r)
		default:
			failed.Add(1)
			http.Error(w, "down", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "fail.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stdout, stderr outBuffer
	code := run(ctx, []string{"crawl", "--db", db, "--allow-private", "--progress", "0", "--sitemaps=false",
		"--delay", "0", "--delay-factor", "0", "--backoff", "1ms", "--max-backoff", "4ms", srv.URL + "/"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	const limit = 2 * (3 + 1) // 2 × (default max-retries + 1)
	if n := failed.Load(); n != limit {
		t.Errorf("%d requests answered 500, want %d: the host given up after them", n, limit)
	}
	d := openDB(t, db)
	defer d.Close()
	st, err := d.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if n := st.Reasons["deferred/host-failing: 8 requests in a row failed"]; n != pages-limit/4 {
		t.Errorf("URLs recorded as given up with the host: %d, want %d; reasons %v", n, pages-limit/4, st.Reasons)
	}
	if st.Frontier != 0 {
		t.Errorf("frontier holds %d URLs, want 0", st.Frontier)
	}
	checkContains(t, "summary", stdout.String(), "host-failing "+fmt.Sprint(pages-limit/4), " 0 pending")
	// The moment the host is given up is one stderr line with its cause.
	checkContains(t, "stderr", stderr.String(), `msg="host given up"`, `cause="host-failing: 8 requests in a row failed"`)
}
