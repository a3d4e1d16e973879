package crawler

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// rig is a crawler wired to fakes at the seams and a real bbolt file
// (crawltest.Rig), run with opts.
type rig struct {
	*crawltest.Rig
	t    *testing.T
	opts Options
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{Rig: crawltest.NewRig(t), t: t}
	r.resetOpts()
	return r
}

// resetOpts sets the crawler options a test starts from: the rig's db,
// three fetchers on its web, the loop tests' settings.
func (r *rig) resetOpts() {
	r.opts = Options{Store: r.DB, Fetchers: []Fetcher{r.Web, r.Web, r.Web}, Settings: crawltest.Settings()}
}

// reopen closes the db and opens it again with a fresh frontier (a new
// process, as after a crash) and fresh options.
func (r *rig) reopen() {
	r.t.Helper()
	r.Reopen()
	r.resetOpts()
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

// withFrontier returns o with the rig's frontier (unless o has one),
// built on first use after open from the politeness settings the test
// chose, with r.Robots behind a robots.Gate.
func (r *rig) withFrontier(o Options) Options {
	r.t.Helper()
	if o.Frontier == nil {
		o.Frontier = r.Frontier(o.Settings)
	}
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
