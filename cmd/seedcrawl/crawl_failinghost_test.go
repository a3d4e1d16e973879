package main

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestCrawlHostMaxFailures crawls a host whose pages all answer 500 with
// --host-max-failures 2: after two URLs failed all their attempts the host
// is given up, its other URLs recorded with the reason and one stderr line
// says so. Without the flag each URL is tried 1 + --max-retries times.
func TestCrawlHostMaxFailures(t *testing.T) {
	const pages = 20
	var failed atomic.Int64
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
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
	})
	db, stdout, stderr := crawlServer(t, srv, "--backoff", "1ms", "--max-backoff", "4ms", "--host-max-failures", "2")
	const tries = 1 + 3 // default --max-retries
	if n := failed.Load(); n != 2*tries {
		t.Errorf("%d requests answered 500, want %d: two URLs' attempts, then the host given up", n, 2*tries)
	}
	st := readDB(t, db, (*storage.DB).Stats)
	if n := st.Reasons["deferred/host-failing: 2 URLs in a row failed"]; n != pages-2 {
		t.Errorf("URLs recorded as given up with the host: %d, want %d; reasons %v", n, pages-2, st.Reasons)
	}
	checkContains(t, "summary", stdout, "host-failing "+fmt.Sprint(pages-2), " 0 pending")
	checkContains(t, "stderr", stderr, `msg="host given up"`, `cause="host-failing: 2 URLs in a row failed"`)
}
