package crawler

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// rig is a crawler wired to fakes at the seams and a real bbolt file.
type rig struct {
	t      *testing.T
	web    *fakeweb.Web
	robots *crawltest.Robots
	db     *storage.DB
	path   string
	fr     *crawltest.Spy
	sched  scheduler.Scheduler
	opts   Options
}

func newRig(t *testing.T) *rig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	r := &rig{t: t, web: fakeweb.New(), robots: &crawltest.Robots{}, path: path}
	r.open()
	return r
}

// open opens the db and a fresh frontier (a new process, as after a crash).
func (r *rig) open() {
	r.t.Helper()
	r.db = crawltest.OpenDB(r.t, r.path)
	r.fr = nil // built by run, from the settings the test chose
	r.sched = crawltest.Scheduler(r.t, "bfs")
	r.opts = Options{Store: r.db, Fetchers: []Fetcher{r.web, r.web, r.web}, Settings: crawltest.Settings()}
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
		r.fr = crawltest.NewFrontier(r.t, r.db, r.sched, o.Settings, r.robots)
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
	return crawltest.Page(r.t, r.db, u)
}

// links returns the stored out-links of u as "kind URL" strings.
func (r *rig) links(u string) []string {
	r.t.Helper()
	return crawltest.Links(r.t, r.db, u)
}

func (r *rig) frontierLen() int {
	r.t.Helper()
	return crawltest.FrontierLen(r.t, r.db)
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
