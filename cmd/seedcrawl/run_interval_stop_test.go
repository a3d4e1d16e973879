package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
)

// cancelOn is a writer that cancels a context once what it was given
// holds a marker: here, the line run prints when a cycle is complete.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.marker) {
		c.cancel()
	}
	return len(p), nil
}

// TestRunStopWhileWaiting stops run (Ctrl-C, here its context) in the
// --interval wait after cycle 1 is complete: stderr must say it stopped
// between cycles, not that cycle 1 was interrupted and has to be resumed.
func TestRunStopWhileWaiting(t *testing.T) {
	w := cleanWeb(t, 3, 40, 2)
	db := filepath.Join(t.TempDir(), "r.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelOn{marker: "cycle 1 done", cancel: cancel}
	var stderr bytes.Buffer
	args := append([]string{"run"}, runArgs(t, w, db, "--cycles", "2", "--interval", "1h")...)
	args = append(args, w.site.Seeds()...)
	if code := run(ctx, args, out, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(out.buf.String(), "cycle 1 done") {
		t.Fatalf("cycle 1 never completed:\n%s\n%s", out.buf.String(), stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "interrupted in cycle") || !strings.Contains(s, "interrupted between cycles") {
		t.Errorf("stderr after a stop in the wait for cycle 2:\n%s", s)
	}
}

// runUntilWaiting runs `seedcrawl run args` until it says when the next
// cycle starts (then stops it, as Ctrl-C does) or ends on its own, and
// returns its stderr. The minute is a bound for a run that never says so
// and waits out the interval; the test fails then.
func runUntilWaiting(t *testing.T, args []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stderr := &cancelOn{marker: " starts at ", cancel: cancel}
	var stdout bytes.Buffer
	if code := run(ctx, append([]string{"run"}, args...), &stdout, stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.buf.String())
	}
	return stderr.buf.String()
}

// TestRunSaysWhenNextCycleStarts runs cycle 1 with --interval 1h, then
// reruns the same command in the wait: both must say on stderr when cycle
// 2 starts (the same minute, an hour after cycle 1 ended) before waiting,
// and, stopped there, that they stopped between cycles. A run that said
// nothing looked hung for the whole interval.
func TestRunSaysWhenNextCycleStarts(t *testing.T) {
	w := cleanWeb(t, 3, 40, 2)
	db := filepath.Join(t.TempDir(), "r.db")
	args := append(runArgs(t, w, db, "--cycles", "2", "--interval", "1h"), w.site.Seeds()...)
	line := regexp.MustCompile(`seedcrawl run: cycle 2 starts at (\d\d:\d\d UTC|\S+ \d\d:\d\d UTC), in \S+ \(--interval 1h after cycle 1 ended at ([^)]+)\); Ctrl-C stops`)
	var at []string
	for i, name := range []string{"first run", "rerun in the wait"} {
		stderr := runUntilWaiting(t, args)
		m := line.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("%s: no line saying when cycle 2 starts:\n%s", name, stderr)
		}
		at = append(at, m[1])
		if strings.Contains(stderr, "starting cycle 2") || (i > 0 && strings.Contains(stderr, "starting cycle")) {
			t.Errorf("%s: started a cycle it should wait for:\n%s", name, stderr)
		}
		if !strings.Contains(stderr, "interrupted between cycles, before cycle 2 starts at "+m[1]) ||
			strings.Contains(stderr, "interrupted in cycle") {
			t.Errorf("%s: stderr after a stop in the wait does not say it stopped between cycles:\n%s", name, stderr)
		}
	}
	if at[0] != at[1] {
		t.Errorf("the rerun says cycle 2 starts at %s, the first run %s", at[1], at[0])
	}
	cycles := readDB(t, db, (*storage.DB).Cycles)
	if len(cycles) != 1 || cycles[0].End.IsZero() {
		t.Fatalf("db holds cycles %+v, want cycle 1 complete and no other", cycles)
	}
	if want := cycles[0].End.Add(time.Hour).UTC().Format("15:04 UTC"); !strings.HasSuffix(at[0], want) {
		t.Errorf("cycle 2 starts at %s, want an hour after cycle 1 ended: %s", at[0], want)
	}
}

// TestRunIntervalAfterCrawl runs `run --cycles 2 --interval 1h` on a db
// whose cycle 1 was a complete `seedcrawl crawl`: the interval runs from
// the end of that crawl, as from a cycle of run, so cycle 2 must wait and
// say until when, not start at once.
func TestRunIntervalAfterCrawl(t *testing.T) {
	w := cleanWeb(t, 3, 40, 2)
	db := filepath.Join(t.TempDir(), "c.db")
	cmdOK(t, append(append([]string{"crawl"}, runArgs(t, w, db)...), w.site.Seeds()...)...)
	d := openDB(t, db)
	runs, err := d.Runs()
	d.Close()
	if err != nil || len(runs) != 1 || runs[0].End.IsZero() {
		t.Fatalf("runs of the crawl: %+v, %v: want one that ended", runs, err)
	}
	stderr := runUntilWaiting(t, runArgs(t, w, db, "--cycles", "2", "--interval", "1h"))
	if strings.Contains(stderr, "starting cycle 2") {
		t.Fatalf("cycle 2 started at once after the crawl, not an hour after it ended:\n%s", stderr)
	}
	ended := runs[0].End.UTC()
	want := fmt.Sprintf("cycle 2 starts at %s, in ", ended.Add(time.Hour).Format("15:04 UTC"))
	if ended.Add(time.Hour).YearDay() != time.Now().UTC().YearDay() {
		want = fmt.Sprintf("cycle 2 starts at %s, in ", ended.Add(time.Hour).Format("2006-01-02 15:04 UTC"))
	}
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "after cycle 1 ended at "+ended.Format("15:04 UTC")) {
		t.Errorf("stderr does not say cycle 2 starts an hour after the crawl ended (%s):\n%s", ended.Format(time.TimeOnly), stderr)
	}
}

// TestRunStatusWhileWaiting runs with --listen and reads /status in the
// --interval wait after cycle 1: it must say which cycle it waits for and
// when that starts, the time the stderr line gives.
func TestRunStatusWhileWaiting(t *testing.T) {
	w := cleanWeb(t, 3, 40, 2)
	db := filepath.Join(t.TempDir(), "s.db")
	st, errs := statusInWait(t, w, db, 2)
	at := regexp.MustCompile(`cycle 2 starts at (\d\d:\d\d UTC|\S+ \d\d:\d\d UTC),`).FindStringSubmatch(errs)
	if at == nil {
		t.Fatalf("stderr names no start of cycle 2:\n%s", errs)
	}
	if st.NextCycle != 2 || st.Cycle != 1 || runClock(st.NextCycleAt, time.Now()) != at[1] {
		t.Errorf("/status in the wait: cycle %d, next cycle %d at %v, want cycle 1, next 2 at %s", st.Cycle, st.NextCycle, st.NextCycleAt, at[1])
	}
	// A rerun in the wait, after two cycles, has crawled nothing itself:
	// its /status still says the last cycle done.
	cmdOK(t, append([]string{"run"}, append(runArgs(t, w, db, "--cycles", "2"), w.site.Seeds()...)...)...)
	if st, _ = statusInWait(t, w, db, 3); st.NextCycle != 3 || st.Cycle != 2 {
		t.Errorf("/status of a rerun waiting for cycle 3: cycle %d, next cycle %d; want 2 and 3", st.Cycle, st.NextCycle)
	}
}

// statusInWait runs `run --cycles cycles --interval 1h --listen` on db
// until it says when the next cycle starts, then reads its /status, stops
// it and checks it exits 0. It returns the status and the run's stderr.
func statusInWait(t *testing.T, w *crawlWeb, db string, cycles int) (monitor.Status, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	waiting := make(chan struct{})
	stderr := &cancelOn{marker: " starts at ", cancel: sync.OnceFunc(func() { close(waiting) })}
	args := append(runArgs(t, w, db, "--cycles", strconv.Itoa(cycles), "--interval", "1h", "--listen", "127.0.0.1:0"), w.site.Seeds()...)
	exit := make(chan int, 1)
	go func() { exit <- run(ctx, append([]string{"run"}, args...), io.Discard, stderr) }()
	select {
	case <-waiting:
	case code := <-exit:
		t.Fatalf("run ended (exit %d) without waiting for cycle %d:\n%s", code, cycles, stderr.buf.String())
	}
	stderr.mu.Lock()
	errs := stderr.buf.String()
	stderr.mu.Unlock()
	addr := regexp.MustCompile(`status on (http://\S+/)`).FindStringSubmatch(errs)
	if addr == nil {
		cancel()
		t.Fatalf("stderr names no status address:\n%s", errs)
	}
	var st monitor.Status
	if err := json.Unmarshal([]byte(httpGet(t, addr[1]+"status")), &st); err != nil {
		t.Fatal(err)
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d after a stop in the wait", code)
	}
	return st, errs
}
