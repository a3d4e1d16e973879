package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestRunFinishesInterruptedCrawl runs `run --cycles 2` on a db whose
// `seedcrawl crawl` stopped with URLs pending (--max-pages here, as a
// Ctrl-C leaves it): run must finish that crawl as cycle 1 from its stored
// frontier, say so on stderr, and only then start cycle 2.
func TestRunFinishesInterruptedCrawl(t *testing.T) {
	const chain = 8
	var mu sync.Mutex
	hits := map[string]int{}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		var i int
		fmt.Sscanf(r.URL.Path, "/p%d", &i)
		w.Header().Set("Content-Type", "text/html")
		if i+1 < chain {
			fmt.Fprintf(w, `<html><body><a href="/p%d">next</a></body></html>`, i+1)
			return
		}
		io.WriteString(w, `<html><body>end</body></html>`)
	})
	db := filepath.Join(t.TempDir(), "run.db")
	common := []string{"--db", db, "--allow-private", "--delay", "0", "--delay-factor", "0", "--progress", "0"}
	var stdout, stderr bytes.Buffer
	if err := runCrawl(context.Background(), append(append([]string{}, common...), "--max-pages", "3", srv.URL+"/p0"), &stdout, &stderr); err != nil {
		t.Fatalf("crawl: %v\nstderr:\n%s", err, stderr.String())
	}
	mu.Lock()
	if hits["/p3"] != 0 {
		t.Fatalf("crawl --max-pages 3 reached /p3 (hits %v): the test needs it unfetched", hits)
	}
	mu.Unlock()
	stdout.Reset()
	stderr.Reset()
	if err := runCycles(context.Background(), append(append([]string{}, common...), "--cycles", "2"), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\nstderr:\n%s", err, stderr.String())
	}
	errs := stderr.String()
	r1, s2 := strings.Index(errs, "resuming cycle 1"), strings.Index(errs, "starting cycle 2")
	if r1 < 0 || s2 < r1 {
		t.Errorf("stderr does not resume cycle 1 before starting cycle 2:\n%s", errs)
	}
	mu.Lock()
	for i := range chain {
		if hits[fmt.Sprintf("/p%d", i)] == 0 {
			t.Errorf("/p%d never fetched: the crawl's frontier was not finished (hits %v)", i, hits)
		}
	}
	mu.Unlock()
	cycles := readDB(t, db, (*storage.DB).Cycles)
	if len(cycles) != 2 || cycles[0].N != 1 || cycles[0].End.IsZero() || cycles[1].End.IsZero() {
		t.Fatalf("db holds cycles %+v, want 1 and 2 complete", cycles)
	}
	if f := cycles[0].Stats.Fetches; f < chain {
		t.Errorf("cycle 1 counts %d fetches, want the crawl's and the rest of the chain: %d or more", f, chain)
	}
}
