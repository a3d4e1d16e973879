package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// countsOf returns the numbers re's groups match in out, failing t when
// re does not match.
func countsOf(t *testing.T, what, out string, re *regexp.Regexp) []int {
	t.Helper()
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("%s lacks %s:\n%s", what, re, out)
	}
	n := make([]int, len(m)-1)
	for i, s := range m[1:] {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s: %q in %q: %v", what, s, m[0], err)
		}
		n[i] = v
	}
	return n
}

// TestCountsAgree crawls a loopback web, then runs one more cycle on the
// same db, and checks that the counts each output shows use README's
// words for the same thing and agree: the summary's requests are the
// requests the web saw (robots.txt aside) and split into URLs requested
// and retries; its URLs done and requests are the stats run line's pages
// and fetches; its URLs requested are the fetches of the stats --cycles
// table and of run's cycle line, which say so; stats' pages are the URLs
// known. Every progress line names its host groups, and ready and waiting
// (hosts in one of the frontier's two heaps each) are at most the hosts,
// as deferred, failing and dropped, said to be among them, are. Busy or
// idle is not checked: the line computes it as the hosts neither ready
// nor waiting, so it sums to the hosts by construction.
func TestCountsAgree(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 4, Pages: 60, Hosts: 3, Preset: testweb.Clean}, testweb.Options{})
	db := filepath.Join(t.TempDir(), "c.db")
	args := append([]string{"crawl"}, w.flags("--db", db, "--delay", "10ms", "--delay-factor", "0", "--progress", "10ms")...)
	code, stdout, stderr := cmdRun(append(args, w.site.Seeds()...)...)
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s", code, stderr)
	}
	robots := 0
	for _, e := range w.log.Entries() {
		if e.Target == "/robots.txt" {
			robots++
		}
	}
	requests := len(w.log.Entries()) - robots

	hostsLine := regexp.MustCompile(`hosts (\d+) \((\d+) ready, (\d+) waiting, (\d+) busy or idle; among them (\d+) deferred, (\d+) failing, (\d+) dropped\)`)
	lines := hostsLine.FindAllStringSubmatch(stderr, -1)
	if len(lines) == 0 {
		t.Fatalf("no progress line with the host groups:\n%s", stderr)
	}
	for _, m := range lines {
		n := make([]int, 7)
		for i := range n {
			n[i], _ = strconv.Atoi(m[i+1])
		}
		hosts, ready, waiting, deferred, failing, dropped := n[0], n[1], n[2], n[4], n[5], n[6]
		if ready+waiting > hosts || deferred > hosts || failing > hosts || dropped > hosts {
			t.Errorf("progress: a host group larger than the hosts: %s", m[0])
		}
	}

	sum := countsOf(t, "summary", stdout, regexp.MustCompile(
		`: (\d+) URLs done \((\d+) fetched\), [\d.]+/s, (\d+) requests \((\d+) URLs requested, (\d+) retries\)`))
	done, fetched, reqs, requested, retries := sum[0], sum[1], sum[2], sum[3], sum[4]
	if reqs != requests {
		t.Errorf("summary: %d requests, the web saw %d (robots.txt aside)", reqs, requests)
	}
	if requested+retries != reqs || requested > done || fetched > requested {
		t.Errorf("summary: %d requests for %d URLs requested and %d retries; %d URLs done, %d fetched", reqs, requested, retries, done, fetched)
	}

	st := cmdOK(t, "stats", "--db", db, "--cycles")
	known := countsOf(t, "stats", st, regexp.MustCompile(`(?m)^pages +(\d+) URLs known \((\d+) fetched,`))
	if known[1] != fetched || known[0] < done {
		t.Errorf("stats: %d URLs known, %d fetched; the crawl did %d URLs, fetched %d", known[0], known[1], done, fetched)
	}
	runLine := countsOf(t, "stats", st, regexp.MustCompile(`fetches (\d+) \(requests\), pages (\d+) \(URLs done\)`))
	if runLine[0] != reqs || runLine[1] != done {
		t.Errorf("stats runs: fetches %d, pages %d; the summary said %d requests, %d URLs done", runLine[0], runLine[1], reqs, done)
	}
	row := regexp.MustCompile(`(?m)^cycles: \(fetches: URLs requested, retries not counted; found: URLs first seen[;)].*\n.*\n +1 +(\d+) `)
	if c := countsOf(t, "stats --cycles", st, row); c[0] != requested {
		t.Errorf("stats --cycles: cycle 1 fetches %d, the summary said %d URLs requested", c[0], requested)
	}

	out := cmdOK(t, append([]string{"run"}, runArgs(t, w, db, "--cycles", "2", "--revisit-initial", "0")...)...)
	c2 := countsOf(t, "run", out, regexp.MustCompile(`cycle 2 done in [\d.]+s: .*; (\d+) fetches \(URLs requested\): `))
	st = cmdOK(t, "stats", "--db", db, "--cycles")
	if row := countsOf(t, "stats --cycles", st, regexp.MustCompile(`(?m)^ +2 +(\d+) `)); row[0] != c2[0] {
		t.Errorf("run's cycle 2 line says %d fetches, stats --cycles %d", c2[0], row[0])
	}
}
