package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// crawlKillWindow bounds how long before its death a killed crawl may have
// requested a URL that the next run fetches again: the longest a result
// waits to be committed (10 commit intervals, for a batch of fewer than 8
// results; a crawl's slow phases, its start and its end, get so few) plus
// the time a request takes and some scheduling slack on a loaded machine.
const (
	crawlKillCommit = 100 * time.Millisecond
	crawlKillWindow = 10*crawlKillCommit + 400*time.Millisecond
)

// stopPoint says when crawlStop stops a command: once the test web has
// logged requests entries in all or, when output is not "", once the
// command wrote output to stderr.
type stopPoint struct {
	requests int
	output   string
}

// crawlStartup stops a command run with withStatus during its start-up:
// it prints its status address once its db is open, before it starts
// crawling.
var crawlStartup = stopPoint{output: "status on http://"}

// withStatus returns a command line with --listen on a free loopback port
// added after the subcommand, for crawlStartup.
func withStatus(args []string) []string {
	return append([]string{args[0], "--listen", "127.0.0.1:0"}, args[1:]...)
}

// crawlKillArgs returns the command line of the crawls the kill tests
// stop: all of w from its seeds into db, with delay and workers.
func crawlKillArgs(w *crawlWeb, delay time.Duration, workers int) func(db string) []string {
	return func(db string) []string {
		return append(append([]string{"crawl"}, killFlags(w, db, delay, workers, "--json")...), w.site.Seeds()...)
	}
}

// runKillArgs returns the command line, without seeds, of the run cycles
// the kill tests stop: cycles of the given seeds in fpr order into db,
// with delay, workers and extra flags.
func runKillArgs(w *crawlWeb, db, cycles string, delay time.Duration, workers int, extra ...string) []string {
	return append([]string{"run"}, killFlags(w, db, delay, workers,
		append([]string{"--cycles", cycles, "--seed-algo", "given", "--scheduler", "fpr"}, extra...)...)...)
}

// killFlags are the flags of the commands the kill tests stop: w's, db,
// delay and workers, the short commit interval the kill window allows
// for, no progress lines, and extra.
func killFlags(w *crawlWeb, db string, delay time.Duration, workers int, extra ...string) []string {
	return w.flags(append([]string{"--db", db, "--delay", delay.String(), "--delay-factor", "0",
		"--workers", strconv.Itoa(workers), "--commit-interval", crawlKillCommit.String(), "--progress", "0"}, extra...)...)
}

// crawlReference runs the binary bin with args to the end, the crawl the
// interrupted ones are compared with, and returns its page requests
// (robots.txt left out); w's access log is emptied for the next run.
func crawlReference(t testing.TB, bin string, args []string, w *crawlWeb) int {
	t.Helper()
	binOK(t, "reference crawl", bin, args...)
	total := 0
	for _, e := range w.log.Entries() {
		if e.Target != "/robots.txt" {
			total++
		}
	}
	w.log.Reset()
	return total
}

// crawlStop starts cmd, sends it sig at the stop point, and waits for it to
// end and then for the test web to be idle: the log then holds every request
// cmd made, those in transit at a kill included. It fails t if cmd ends
// before the stop point, or survives SIGKILL. It returns cmd's stderr and
// exit error.
func crawlStop(t testing.TB, w *crawlWeb, cmd *exec.Cmd, at stopPoint, sig syscall.Signal) (string, error) {
	t.Helper()
	var stderr outBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	reached := make(chan error, 1)
	go func() {
		if at.output != "" {
			reached <- stderr.Wait(ctx, at.output)
			return
		}
		_, err := w.log.Wait(ctx, at.requests)
		reached <- err
	}()
	select {
	case err := <-reached:
		if err != nil {
			cmd.Process.Kill()
			<-exited
			t.Fatalf("%s never reached its stop point %+v: %v; stderr:\n%s", cmd.Args[1], at, err, stderr.String())
		}
	case err := <-exited:
		t.Fatalf("%s ended (%v) before its stop point %+v; stderr:\n%s", cmd.Args[1], err, at, stderr.String())
	}
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	err := <-exited
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); sig == syscall.SIGKILL && (!ok || !ws.Signaled()) {
		t.Fatalf("%s was not killed (%v): it ended first; stderr:\n%s", cmd.Args[1], err, stderr.String())
	}
	if err := w.srv.WaitIdle(ctx); err != nil {
		t.Fatalf("test web still busy after %s ended: %v", cmd.Args[1], err)
	}
	return stderr.String(), err
}

// TestCrawlBinaryResume runs the seedcrawl binary against a test web served
// by this process and stops it mid-crawl: with SIGKILL at several points,
// and with SIGINT. Rerunning the same command must give what an
// uninterrupted crawl gives (same pages, same links); after kill -9 no URL
// is fetched twice except those in flight (requested, result not committed)
// at a kill, after SIGINT none at all, audited from the server's access log.
func TestCrawlBinaryResume(t *testing.T) {
	dir := t.TempDir()
	bin := seedcrawlBinary(t)
	w := cleanWeb(t, 5, 700, 6)
	args := crawlKillArgs(w, 12*time.Millisecond, 4)

	// The reference: one uninterrupted run of the binary.
	ref := filepath.Join(dir, "ref.db")
	total := crawlReference(t, bin, args(ref), w)
	t.Run("kill -9", func(t *testing.T) { crawlKillRuns(t, bin, args, w, ref, total, []float64{0.15, 0.3, 0, 0.2}) })
	w.log.Reset()
	t.Run("SIGINT", func(t *testing.T) { crawlInterruptRuns(t, bin, args, w, ref, total) })
}

// crawlKillRuns kills the crawl once per share (after that share of the
// reference's requests; 0: during start-up, see crawlStartup), then lets
// it finish, and
// returns the URLs fetched again after a kill.
func crawlKillRuns(t testing.TB, bin string, args func(string) []string, w *crawlWeb, ref string, total int, shares []float64) int {
	dir := t.TempDir()
	// The killed crawl: SIGKILL after further shares of the reference's requests,
	// then once right at the start, then run to the end.
	db := filepath.Join(dir, "kill.db")
	start := len(w.log.Entries())
	var ends []int                // log length, from start, when each killed run died
	committed := map[string]int{} // URL -> the killed run after which its fetch was stored
	var kills []time.Duration     // arrival time of each killed run's last request
	for i, share := range shares {
		before := len(w.log.Entries())
		a, at := args(db), stopPoint{requests: before + int(share*float64(total))}
		if share == 0 {
			a, at = withStatus(a), crawlStartup
		}
		crawlStop(t, w, exec.Command(bin, a...), at, syscall.SIGKILL)
		es := w.log.Entries()
		ends = append(ends, len(es)-start)
		kills = append(kills, lastRequest(es[before:]))
		stored := 0
		for u, p := range crawlPages(t, db) {
			if _, ok := committed[u]; !ok && p.Fetches > 0 {
				committed[u] = i
				stored++
			}
		}
		t.Logf("killed after %d requests; %d fetches were committed", len(es)-before, stored)
	}
	out, err := exec.Command(bin, args(db)...).Output()
	if err != nil {
		t.Fatalf("final run: %v", err)
	}
	if !strings.Contains(string(out), `"stopped": "exhausted"`) {
		t.Errorf("final run summary:\n%s", out)
	}

	// Same pages (with their status) and same links as the reference.
	refPages, gotPages := crawlPages(t, ref), crawlPages(t, db)
	if len(refPages) != len(gotPages) {
		t.Errorf("%d pages after the kills, %d in the reference", len(gotPages), len(refPages))
	}
	for u, p := range refPages {
		if q, ok := gotPages[u]; !ok || q.Status != p.Status || q.Hash != p.Hash {
			t.Errorf("%s: reference %v, after kills %v (present %v)", u, p.Status, q.Status, ok)
		}
	}
	if a, b := crawlArcSet(crawlGraph(t, ref)), crawlArcSet(crawlGraph(t, db)); !crawlEqualSets(a, b) {
		t.Errorf("link sets differ: %d arcs in the reference, %d after kills; missing: %s; extra: %s",
			len(a), len(b), crawlDiffSample(a, b, 5), crawlDiffSample(b, a, 5))
	}

	urls, dups := auditKillRepeats(t, w.log.Entries()[start:], ends, kills, committed)
	t.Logf("%d URLs, %d fetched again after a kill", urls, dups)
	if urls < total*9/10 {
		t.Errorf("%d distinct URLs requested, the reference requested %d", urls, total)
	}
	return dups
}

// auditKillRepeats audits the access log es of a crawl killed (SIGKILL)
// several times and then run to the end: ends[i] is the length of es when
// killed run i died, kills[i] the time of its last request, committed[u]
// the killed run after which u's fetch was stored. No URL whose fetch was
// committed before a kill is requested again, and a URL requested twice
// was first requested by a killed run within crawlKillWindow of its death
// (in flight, or waiting for a commit). robots.txt is left out. It returns
// the distinct URLs requested and the repeated requests.
func auditKillRepeats(t testing.TB, es []testweb.Entry, ends []int, kills []time.Duration, committed map[string]int) (urls, dups int) {
	t.Helper()
	type first struct {
		run int
		at  time.Duration
	}
	seen := map[string]first{}
	for i, e := range es {
		if e.Target == "/robots.txt" {
			continue
		}
		u := e.URL()
		run := sort.SearchInts(ends, i+1) // the run that made request i; len(ends) is the final run
		if k, ok := committed[u]; ok && run > k {
			t.Errorf("%s requested by run %d although its fetch was committed before kill %d", u, run+1, k+1)
		}
		f, ok := seen[u]
		if !ok {
			seen[u] = first{run, e.Time}
			continue
		}
		dups++
		switch {
		case f.run >= len(kills):
			t.Errorf("%s requested twice by the final run", u)
		case kills[f.run]-f.at > crawlKillWindow:
			t.Errorf("%s requested again although run %d requested it %v before its kill (more than %v: committed)",
				u, f.run+1, kills[f.run]-f.at, crawlKillWindow)
		}
	}
	return len(seen), dups
}

// BenchmarkCrawlKill20 kills the crawl of a 5,000-page test web with
// SIGKILL at 20 random points (including start-up), then lets it finish:
// the db must equal an uninterrupted run's (pages, statuses, hashes,
// links), and it reports the URLs fetched again per kill. A benchmark
// rather than a test because it runs the binary 22 times.
//
//	go test -run '^$' -bench CrawlKill20 -benchtime 1x ./cmd/seedcrawl
func BenchmarkCrawlKill20(b *testing.B) {
	bin := seedcrawlBinary(b)
	w := cleanWeb(b, 11, 5000, 20)
	args := crawlKillArgs(w, 2*time.Millisecond, 8)
	for range b.N {
		ref := filepath.Join(b.TempDir(), "ref.db")
		w.log.Reset()
		total := crawlReference(b, bin, args(ref), w)
		rng := rand.New(rand.NewPCG(uint64(b.N), 20))
		shares := make([]float64, 20)
		for i := range shares {
			if i%7 != 3 { // every seventh kill lands during start-up
				shares[i] = 0.01 + 0.03*rng.Float64()
			}
		}
		dups := crawlKillRuns(b, bin, args, w, ref, total, shares)
		b.ReportMetric(float64(total), "requests")
		b.ReportMetric(float64(dups)/float64(len(shares)), "refetches/kill")
	}
}

// crawlInterruptRuns stops the crawl with SIGINT, checks the graceful
// stop, then lets it finish: nothing may be fetched twice.
func crawlInterruptRuns(t *testing.T, bin string, args func(string) []string, w *crawlWeb, ref string, total int) {
	db := filepath.Join(t.TempDir(), "int.db")
	cmd := exec.Command(bin, args(db)...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if stderr, err := crawlStop(t, w, cmd, stopPoint{requests: total / 3}, syscall.SIGINT); err != nil {
		t.Fatalf("after SIGINT: %v (want exit 0); stderr:\n%s", err, stderr)
	}
	if !strings.Contains(stdout.String(), `"stopped": "interrupted"`) {
		t.Errorf("summary after SIGINT:\n%s", stdout.String())
	}
	first := len(w.log.Entries())
	out, err := exec.Command(bin, args(db)...).Output()
	if err != nil || !strings.Contains(string(out), `"stopped": "exhausted"`) {
		t.Fatalf("rerun after SIGINT: %v\n%s", err, out)
	}
	count := map[string]int{}
	for _, e := range w.log.Entries() {
		if e.Target != "/robots.txt" {
			count[e.Scheme+"://"+e.Host+e.Target]++
		}
	}
	for u, n := range count {
		if n > 1 {
			t.Errorf("%s fetched %d times across a SIGINT", u, n)
		}
	}
	if a, b := crawlArcSet(crawlGraph(t, ref)), crawlArcSet(crawlGraph(t, db)); !crawlEqualSets(a, b) {
		t.Errorf("link sets differ: missing %s; extra %s", crawlDiffSample(a, b, 5), crawlDiffSample(b, a, 5))
	}
	t.Logf("SIGINT after %d requests; %d URLs in all", first, len(count))
}

// crawlArcSet returns a graph's arcs as "src\tdst" URL pairs.
func crawlArcSet(g *graph.CSR) map[string]bool {
	out := map[string]bool{}
	for v := 0; v < g.N(); v++ {
		for _, w := range g.Out(uint32(v)) {
			out[g.URLs[v]+"\t"+g.URLs[w]] = true
		}
	}
	return out
}

func crawlEqualSets(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// crawlDiffSample lists up to n keys of a that b lacks, for messages.
func crawlDiffSample(a, b map[string]bool, n int) string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	if len(out) > n {
		out = append(out[:n], fmt.Sprintf("... %d more", len(out)-n))
	}
	return strings.Join(out, "; ")
}
