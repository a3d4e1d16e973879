package crawler

import (
	"fmt"
	"testing"
	"time"
)

// TestTrickleCommits: a crawl bound by politeness, one page per delay on
// one host, gets fewer results per commit interval than a batch gathers
// before its interval counts (trickleCommit), so it commits once per
// trickleCommit results or per lingerCommit intervals, not after every
// page; every page is still stored by the end.
func TestTrickleCommits(t *testing.T) {
	const pages = 24
	r := newRig(t)
	links := make([]string, pages-1)
	for i := range links {
		links[i] = fmt.Sprintf("/p%d", i)
		r.Web.HTML("http://a.test" + links[i])
	}
	r.Web.HTML("http://a.test/", links...)
	r.opts.Settings.CommitPages = 256
	r.opts.Settings.CommitInterval = 20 * time.Millisecond
	r.opts.Settings.Delay = 30 * time.Millisecond // more than the interval: a trickle
	t0 := time.Now()
	s := r.mustRun("http://a.test/")
	wall := time.Since(t0)
	if s.Pages != pages {
		t.Fatalf("%d pages stored, want %d", s.Pages, pages)
	}
	// Each commit but the last held trickleCommit results or came
	// lingerCommit intervals after the one before, whatever the machine's
	// speed; committing per interval would take about one per page.
	linger := time.Duration(lingerCommit) * r.opts.Settings.CommitInterval
	most := pages/trickleCommit + int(wall/linger) + 2
	if int(s.Commits) > most {
		t.Fatalf("%d commits for %d pages in %v, want at most %d", s.Commits, pages, wall.Round(time.Millisecond), most)
	}
	t.Logf("%d commits for %d pages in %v", s.Commits, pages, wall.Round(time.Millisecond))
}
