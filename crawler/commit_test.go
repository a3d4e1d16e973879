package crawler

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/storage"
)

// TestTrickleCommits: a crawl bound by politeness, one page per delay on
// one host, gets fewer results per commit interval than a batch gathers
// before its interval counts (trickleCommit), so it commits once per
// trickleCommit results or per lingerCommit intervals, not after every
// page; every page is still stored by the end. Each page also links to 10
// URLs out of scope, stored with their status in the same batch: they are
// not results.
func TestTrickleCommits(t *testing.T) {
	const pages = 24
	r := newRig(t)
	links := make([]string, pages-1)
	for i := range links {
		links[i] = fmt.Sprintf("/p%d", i)
		var off []string
		for j := range 10 {
			off = append(off, fmt.Sprintf("http://other%d.test/from%d", j, i))
		}
		r.Web.HTML("http://a.test"+links[i], off...)
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

// committed is a store that says when a commit holds at least n records.
type committed struct {
	*storage.DB
	n    int
	once sync.Once
	done chan struct{}
}

func (s *committed) Commit(b *storage.Batch) error {
	n := b.Pages()
	err := s.DB.Commit(b)
	if n >= s.n {
		s.once.Do(func() { close(s.done) })
	}
	return err
}

// TestBurstCommitsAtInterval: a batch that reaches trickleCommit results
// is committed at the interval, not at the longer wait the disposer's
// timer was set for when the batch held one result. Nine pages come at
// once and a tenth hangs until they are committed (or until a guard
// shorter than that wait): they must be committed while it hangs.
func TestBurstCommitsAtInterval(t *testing.T) {
	r := newRig(t)
	var seeds []string
	for i := range 9 {
		u := fmt.Sprintf("http://h%d.test/", i)
		r.Web.HTML(u)
		seeds = append(seeds, u)
	}
	r.opts.Settings.CommitPages = 256
	r.opts.Settings.CommitInterval = 100 * time.Millisecond
	st := &committed{DB: r.DB, n: 9, done: make(chan struct{})}
	r.opts.Store = st
	var early bool
	r.Web.Pages["http://slow.test/"] = func(fetch.Request, int) fetch.Response {
		select {
		case <-st.done:
			early = true
		case <-time.After(8 * r.opts.Settings.CommitInterval): // the linger is 10 intervals
		}
		return fetch.Response{Code: 200, ContentType: "text/html", Body: []byte("<p>slow")}
	}
	seeds = append(seeds, "http://slow.test/")
	r.opts.Fetchers = nil
	for range 10 {
		r.opts.Fetchers = append(r.opts.Fetchers, r.Web)
	}
	r.mustRun(seeds...)
	if !early {
		t.Fatal("the nine fast pages were not committed while the tenth hung: their batch waited for the trickle's linger")
	}
}
