package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestDemoRerunOnCompleteDB reruns `seedcrawl demo --db FILE` on the db
// of a complete demo, as text and as JSON: it must say that the db holds
// a complete crawl and how to get a new one, crawl nothing, and still
// check that stored crawl against the ground truth, naming it as such
// rather than printing a summary of an empty crawl beside a match that
// reads as if it had just crawled.
func TestDemoRerunOnCompleteDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	args := []string{"demo", "--db", db, "--pages", "80", "--hosts", "4", "--preset", "clean", "--delay", "0s", "--progress", "0"}
	demo := func(extra ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), append(append([]string{}, args...), extra...), &stdout, &stderr); code != 0 {
			t.Fatalf("demo %v: exit %d: %s", extra, code, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	out, errs := demo()
	if !strings.Contains(out, "ground truth: the crawl found exactly") || strings.Contains(errs, "already holds") {
		t.Fatalf("first demo on a new db:\nstdout:\n%s\nstderr:\n%s", out, errs)
	}
	// requestsAfterFirst counts the requests of the runs after the first.
	requestsAfterFirst := func() int {
		rs := readDB(t, db, (*storage.DB).Runs)
		fetched := 0
		for _, r := range rs[1:] {
			fetched += int(r.Counters["fetches"])
		}
		return fetched
	}

	out, errs = demo()
	checkContains(t, "stderr of a rerun", errs, db+" already holds a complete crawl", "nothing is crawled", "give a new --db or delete")
	checkContains(t, "stdout of a rerun", out, "complete already, nothing crawled now", "ground truth: the stored crawl found exactly")
	if strings.Contains(out, "stopped (exhausted) after") || strings.Contains(errs, "crawling from") {
		t.Errorf("a rerun prints a crawl it did not make:\nstdout:\n%s\nstderr:\n%s", out, errs)
	}

	out, _ = demo("--json")
	var got struct {
		Match           bool `json:"match"`
		AlreadyComplete bool `json:"already_complete"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.AlreadyComplete || !got.Match {
		t.Errorf("--json rerun: %+v, %v; want already_complete and match:\n%s", got, err, out)
	}
	if n := requestsAfterFirst(); n != 0 {
		t.Errorf("the reruns sent %d requests, want none", n)
	}
}
