package recrawl

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The crawl of a cycle, tested through a real crawler.Crawler with fakes
// at its seams (a fake fetcher, a fake robots.txt source) and a real bbolt
// file.

// rig is a crawler wired to fakes at the seams and a real bbolt file.
type rig struct {
	t     *testing.T
	web   *fakeweb.Web
	db    *storage.DB
	path  string
	fr    *crawltest.Spy
	sched scheduler.Scheduler
	opts  crawler.Options
}

func newRig(t *testing.T) *rig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	r := &rig{t: t, web: fakeweb.New(), path: path}
	r.open()
	return r
}

// open opens the db and a fresh frontier (a new process, as after a crash).
func (r *rig) open() {
	r.t.Helper()
	r.db = crawltest.OpenDB(r.t, r.path)
	r.fr = nil // built by cycle, from the settings the test chose
	r.sched = crawltest.Scheduler(r.t, "bfs")
	r.opts = crawler.Options{Store: r.db, Fetchers: []crawler.Fetcher{r.web, r.web, r.web}, Settings: crawltest.Settings()}
}

// reopen closes the db and opens it again with a fresh frontier.
func (r *rig) reopen() {
	r.t.Helper()
	if err := r.db.Close(); err != nil {
		r.t.Fatal(err)
	}
	r.open()
}

// withFrontier returns o with the rig's frontier, built on first use after
// open from the politeness settings the test chose.
func (r *rig) withFrontier(o crawler.Options) crawler.Options {
	r.t.Helper()
	if r.fr == nil {
		r.fr = crawltest.NewFrontier(r.t, r.db, r.sched, o.Settings, nil)
	}
	o.Frontier = r.fr
	return o
}

// cycle runs one recrawl cycle with rc over a.test.
func (r *rig) cycle(ctx context.Context, rc CycleOptions) (monitor.Summary, error) {
	r.t.Helper()
	o := r.opts
	sc, err := urlnorm.ParseScopeSpec("hosts:a.test", nil)
	if err != nil {
		r.t.Fatal(err)
	}
	o.Scope = sc
	cy, err := NewCycle(&rc)
	if err != nil {
		r.t.Fatal(err)
	}
	o.Cycle = cy
	c, err := crawler.New(r.withFrontier(o))
	if err != nil {
		r.t.Fatal(err)
	}
	return c.Run(ctx, nil)
}

func (r *rig) mustCycle(rc CycleOptions) monitor.Summary {
	r.t.Helper()
	s, err := r.cycle(context.Background(), rc)
	if err != nil {
		r.t.Fatalf("cycle %d: %v", rc.Cycle.N, err)
	}
	return s
}

// page returns the stored record of URL u.
func (r *rig) page(u string) storage.Page {
	r.t.Helper()
	return crawltest.Page(r.t, r.db, u)
}

// ids returns the page ids of urls.
func (r *rig) ids(urls ...string) []uint64 {
	r.t.Helper()
	out := make([]uint64, len(urls))
	for i, u := range urls {
		out[i] = r.page(u).ID
	}
	return out
}

// cycleRecord returns the stored record of cycle n.
func (r *rig) cycleRecord(n uint32) storage.Cycle {
	r.t.Helper()
	cs, err := r.db.Cycles()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, c := range cs {
		if c.N == n {
			return c
		}
	}
	r.t.Fatalf("no cycle %d in %+v", n, cs)
	return storage.Cycle{}
}

// fetchesOf returns the fetch records of cycle n by URL.
func (r *rig) fetchesOf(n uint32) map[string]storage.FetchRecord {
	r.t.Helper()
	out := map[string]storage.FetchRecord{}
	if err := r.db.EachFetch(n, func(f storage.FetchRecord) error {
		p, err := r.db.Page(f.ID)
		out[p.URL] = f
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return out
}

func (r *rig) frontierLen() int {
	r.t.Helper()
	return crawltest.FrontierLen(r.t, r.db)
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
