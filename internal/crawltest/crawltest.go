package crawltest

import (
	"compress/gzip"
	"context"
	"io"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Settings returns the crawl settings of the loop's tests: unlimited
// depth, robots meta tags honoured, commits every 4 pages or 20 ms so that
// a short crawl commits several times, and retries with millisecond
// back-off so that retry tests run fast.
func Settings() config.Config {
	return config.Config{
		MaxDepth:        -1,
		MaxRedirects:    3,
		RespectNofollow: true,
		RespectNoindex:  true,
		CommitInterval:  20 * time.Millisecond,
		CommitPages:     4,
		Politeness: config.Politeness{
			MaxRetries: 2,
			Backoff:    time.Millisecond,
			MaxBackoff: 5 * time.Millisecond,
		},
	}
}

// OpenDB opens the bbolt file at path without fsync (a test's file need
// not survive a power cut) and closes it when the test ends.
func OpenDB(t testing.TB, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Scheduler returns the scheduler named name (see scheduler.ByName).
func Scheduler(t testing.TB, name string) scheduler.Scheduler {
	t.Helper()
	s, err := scheduler.ByName(name, scheduler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Robots is a robots.txt source that answers from Decide; with Decide nil
// it allows everything.
type Robots struct {
	Decide func(u *url.URL) robots.Decision
}

// Check answers u from Decide.
func (r *Robots) Check(_ context.Context, u *url.URL) (robots.Decision, error) {
	if r == nil || r.Decide == nil {
		return robots.Decision{Allowed: true}, nil
	}
	return r.Decide(u), nil
}

// Spy is a real frontier that records, per page id, the results it is
// given and how long the page's host then waits (its ready time minus the
// time of the call): in Waits when the job ended, in Requeues when the
// frontier retried it. Read the maps after the crawl, or under Mu.
type Spy struct {
	*frontier.Frontier
	Mu       sync.Mutex
	Results  map[uint64][]frontier.Result
	Waits    map[uint64][]time.Duration
	Requeues map[uint64][]time.Duration
	// OnDone, when set before the crawl, is called after each Done (on
	// the crawler's disposer).
	OnDone func(job frontier.Job)
}

// NewFrontier returns a Spy over a new frontier that ranks with sched and
// keeps the politeness, per-host budget and robots drop time of s, asking
// rob (nil: allow all) through a robots.Gate over db.
func NewFrontier(t testing.TB, db *storage.DB, sched scheduler.Scheduler, s config.Config, rob robots.Checker) *Spy {
	t.Helper()
	if rob == nil {
		rob = (*Robots)(nil)
	}
	fr, err := frontier.New(frontier.Options{Scheduler: sched, Politeness: s.Politeness, HostMaxPages: s.HostMaxPages,
		Robots: robots.Gate{Robots: rob, URLs: db}, DropFor: s.RobotsTTL})
	if err != nil {
		t.Fatal(err)
	}
	return &Spy{Frontier: fr, Results: map[uint64][]frontier.Result{},
		Waits: map[uint64][]time.Duration{}, Requeues: map[uint64][]time.Duration{}}
}

// Done reports to the frontier, then records the result and the host's
// wait.
func (s *Spy) Done(job frontier.Job, r frontier.Result, ch *frontier.Changes) (bool, error) {
	start := time.Now()
	retried, err := s.Frontier.Done(job, r, ch)
	h, _ := s.Frontier.Host(job.Host)
	wait := h.ReadyAt.Sub(start)
	s.Mu.Lock()
	s.Results[job.ID] = append(s.Results[job.ID], r)
	if retried {
		s.Requeues[job.ID] = append(s.Requeues[job.ID], wait)
	} else {
		s.Waits[job.ID] = append(s.Waits[job.ID], wait)
	}
	s.Mu.Unlock()
	if s.OnDone != nil {
		s.OnDone(job)
	}
	return retried, err
}

// Page returns the stored record of URL u.
func Page(t testing.TB, db *storage.DB, u string) storage.Page {
	t.Helper()
	p, err := db.PageByURL(u)
	if err != nil {
		t.Fatalf("page %s: %v", u, err)
	}
	return p
}

// Links returns the stored out-links of u as "kind URL" strings.
func Links(t testing.TB, db *storage.DB, u string) []string {
	t.Helper()
	ls, err := db.Links(Page(t, db, u).ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range ls {
		p, err := db.Page(l.To)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l.Kind.String()+" "+p.URL)
	}
	return out
}

// FrontierLen returns the number of entries of the stored frontier.
func FrontierLen(t testing.TB, db *storage.DB) int {
	t.Helper()
	n := 0
	if err := db.LoadFrontier(func(storage.Entry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// ReadGzip returns the decompressed content of the gzip file at path, all
// its members in order (a .warc.gz is one member per record).
func ReadGzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// Commit commits b to db, failing t if it cannot.
func Commit(t testing.TB, db *storage.DB, b *storage.Batch) {
	t.Helper()
	if err := db.Commit(b); err != nil {
		t.Fatalf("commit: %v", err)
	}
}
