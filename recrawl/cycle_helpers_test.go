package recrawl

import (
	"context"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// The crawl of a cycle, tested through a real crawler.Crawler with fakes
// at its seams (a fake fetcher, a fake robots.txt source) and a real bbolt
// file.

// rig is a crawler wired to fakes at the seams and a real bbolt file
// (crawltest.Rig), run with opts.
type rig struct {
	*crawltest.Rig
	t    *testing.T
	opts crawler.Options
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
	r.opts = crawler.Options{Store: r.DB, Fetchers: []crawler.Fetcher{r.Web, r.Web, r.Web}, Settings: crawltest.Settings()}
}

// reopen closes the db and opens it again with a fresh frontier (a new
// process, as after a crash) and fresh options.
func (r *rig) reopen() {
	r.t.Helper()
	r.Reopen()
	r.resetOpts()
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
	o.Frontier = r.Frontier(o.Settings)
	c, err := crawler.New(o)
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

// ids returns the page ids of urls.
func (r *rig) ids(urls ...string) []uint64 {
	r.t.Helper()
	out := make([]uint64, len(urls))
	for i, u := range urls {
		out[i] = r.Page(u).ID
	}
	return out
}

// cycleRecord returns the stored record of cycle n.
func (r *rig) cycleRecord(n uint32) storage.Cycle {
	r.t.Helper()
	cs, err := r.DB.Cycles()
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
	if err := r.DB.EachFetch(n, func(f storage.FetchRecord) error {
		p, err := r.DB.Page(f.ID)
		out[p.URL] = f
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return out
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
