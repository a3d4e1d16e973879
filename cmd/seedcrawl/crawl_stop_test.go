package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestCrawlStopDuringFetchPending stops a crawl (as Ctrl-C does) while
// its only fetch hangs in the body: the URL stays in the stored frontier
// for the next run, and the summary counts it as pending, as stats does,
// where it said 0 pending and the crawl looked finished; stderr says how
// to go on.
func TestCrawlStopDuringFetchPending(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>start"))
		w.(http.Flusher).Flush()
		close(arrived)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	db := filepath.Join(t.TempDir(), "stop.db")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"crawl", "--db", db, "--allow-private", "--progress", "0", "--json", srv.URL + "/"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var sum struct {
		Stopped string `json:"stopped"`
		Pending int    `json:"pending"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("summary %q: %v", stdout.String(), err)
	}
	st := readDB(t, db, (*storage.DB).Stats)
	if sum.Pending != 1 || st.Frontier != 1 {
		t.Errorf("stopped %q: summary says %d pending, the db holds %d; want 1 and 1", sum.Stopped, sum.Pending, st.Frontier)
	}
	checkContains(t, "stderr", stderr.String(), "seedcrawl crawl: stopped (interrupted) with 1 URLs pending in "+db+"; rerun the same command to go on")
}
