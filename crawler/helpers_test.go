package crawler

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/frontier"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/robots"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// fakeRobots answers from a function of the URL; nil allows everything.
// The frontier asks it through a robots.Gate.
type fakeRobots struct {
	decide func(u *url.URL) robots.Decision
}

func (r *fakeRobots) Check(ctx context.Context, u *url.URL) (robots.Decision, error) {
	if r.decide == nil {
		return robots.Decision{Allowed: true}, nil
	}
	return r.decide(u), nil
}

// spyFrontier is a real frontier that records, per URL, the results it is
// given and how long the URL's host then waits (its ready time minus the
// time of the call): in waits when the job ended, in requeues when the
// frontier retried it.
type spyFrontier struct {
	*frontier.Frontier
	mu       sync.Mutex
	results  map[uint64][]frontier.Result
	waits    map[uint64][]time.Duration
	requeues map[uint64][]time.Duration
	// onDone, when set, is called after each Done (on the disposer).
	onDone func(job frontier.Job)
}

func newSpyFrontier(fr *frontier.Frontier) *spyFrontier {
	return &spyFrontier{Frontier: fr, results: map[uint64][]frontier.Result{},
		waits: map[uint64][]time.Duration{}, requeues: map[uint64][]time.Duration{}}
}

func (s *spyFrontier) Done(job frontier.Job, r frontier.Result, ch *frontier.Changes) (bool, error) {
	start := time.Now()
	retried, err := s.Frontier.Done(job, r, ch)
	h, _ := s.Frontier.Host(job.Host)
	wait := h.ReadyAt.Sub(start)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[job.ID] = append(s.results[job.ID], r)
	if retried {
		s.requeues[job.ID] = append(s.requeues[job.ID], wait)
	} else {
		s.waits[job.ID] = append(s.waits[job.ID], wait)
	}
	if s.onDone != nil {
		s.onDone(job)
	}
	return retried, err
}

// rig is a crawler wired to fakes at the seams and a real bbolt file.
type rig struct {
	t      *testing.T
	web    *fakeweb.Web
	robots *fakeRobots
	db     *storage.DB
	path   string
	fr     *spyFrontier
	sched  scheduler.Scheduler
	opts   Options
}

func newRig(t *testing.T) *rig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	r := &rig{t: t, web: fakeweb.New(), robots: &fakeRobots{}, path: path}
	r.open()
	return r
}

// open opens the db and a fresh frontier (a new process, as after a crash).
func (r *rig) open() {
	r.t.Helper()
	db, err := storage.Open(r.path, &storage.Options{NoSync: true})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { db.Close() })
	r.db = db
	sched, err := scheduler.ByName("bfs", scheduler.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	r.fr = nil // built by run, from the settings the test chose
	r.sched = sched
	r.opts = Options{
		Store:    db,
		Fetchers: []Fetcher{r.web, r.web, r.web},
		Settings: config.Config{
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
		},
	}
}

// reopen closes the db and opens it again with a fresh frontier.
func (r *rig) reopen() {
	r.t.Helper()
	if err := r.db.Close(); err != nil {
		r.t.Fatal(err)
	}
	r.open()
}

func (r *rig) run(ctx context.Context, seeds ...string) (monitor.Summary, error) {
	r.t.Helper()
	o := r.opts
	if o.Scope.Kind() == "" {
		sc, err := urlnorm.ParseScopeSpec("seeds-hosts", seeds)
		if err != nil {
			r.t.Fatal(err)
		}
		o.Scope = sc
	}
	c, err := New(r.withFrontier(o))
	if err != nil {
		r.t.Fatal(err)
	}
	return c.Run(ctx, seeds)
}

// withFrontier returns o with the rig's frontier, built on first use after
// open from the politeness settings the test chose, with r.robots behind a
// robots.Gate.
func (r *rig) withFrontier(o Options) Options {
	r.t.Helper()
	if o.Frontier != nil {
		return o
	}
	if r.fr == nil {
		fr, err := frontier.New(frontier.Options{Scheduler: r.sched, Politeness: o.Settings.Politeness, HostMaxPages: o.Settings.HostMaxPages,
			Robots: robots.Gate{Robots: r.robots, URLs: r.db}, DropFor: o.Settings.RobotsTTL})
		if err != nil {
			r.t.Fatal(err)
		}
		r.fr = newSpyFrontier(fr)
	}
	o.Frontier = r.fr
	return o
}

func (r *rig) mustRun(seeds ...string) monitor.Summary {
	r.t.Helper()
	s, err := r.run(context.Background(), seeds...)
	if err != nil {
		r.t.Fatalf("Run: %v", err)
	}
	return s
}

// page returns the stored record of URL u.
func (r *rig) page(u string) storage.Page {
	r.t.Helper()
	p, err := r.db.PageByURL(u)
	if err != nil {
		r.t.Fatalf("page %s: %v", u, err)
	}
	return p
}

// links returns the stored out-links of u as "kind URL" strings.
func (r *rig) links(u string) []string {
	r.t.Helper()
	ls, err := r.db.Links(r.page(u).ID)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, l := range ls {
		p, err := r.db.Page(l.To)
		if err != nil {
			r.t.Fatal(err)
		}
		out = append(out, l.Kind.String()+" "+p.URL)
	}
	return out
}

func (r *rig) frontierLen() int {
	r.t.Helper()
	n := 0
	if err := r.db.LoadFrontier(func(storage.Entry) error { n++; return nil }); err != nil {
		r.t.Fatal(err)
	}
	return n
}

// failingStore fails every Commit after the first n.
type failingStore struct {
	*storage.DB
	mu sync.Mutex
	n  int
}

var errDiskFull = errors.New("disk full")

func (s *failingStore) Commit(b *storage.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n <= 0 {
		return errDiskFull
	}
	s.n--
	return s.DB.Commit(b)
}
