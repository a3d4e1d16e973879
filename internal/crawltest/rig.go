package crawltest

import (
	"path/filepath"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/internal/fakeweb"
	"github.com/seedcrawl/seedcrawl/scheduler"
	"github.com/seedcrawl/seedcrawl/storage"
)

// Rig is the part of a crawl test's rig that does not need the crawler: a
// fake web, a robots.txt source (allowing everything until the test sets
// Robots.Decide), a real bbolt file, a bfs scheduler and the frontier
// built over them. Each test package embeds it in its own rig, next to the
// crawler.Options it runs with.
type Rig struct {
	Web    *fakeweb.Web
	Robots *Robots
	DB     *storage.DB
	Path   string
	Fr     *Spy // built by Frontier on first use after Open
	Sched  scheduler.Scheduler

	t testing.TB
}

// NewRig returns a Rig over a new bbolt file in a temporary directory,
// opened.
func NewRig(t testing.TB) *Rig {
	t.Helper()
	r := &Rig{t: t, Web: fakeweb.New(), Robots: &Robots{}, Path: filepath.Join(t.TempDir(), "crawl.db")}
	r.Open()
	return r
}

// Open opens the db with a fresh scheduler and no frontier yet (a new
// process, as after a crash).
func (r *Rig) Open() {
	r.t.Helper()
	r.DB = OpenDB(r.t, r.Path)
	r.Fr = nil
	r.Sched = Scheduler(r.t, "bfs")
}

// Reopen closes the db and opens it again as Open does.
func (r *Rig) Reopen() {
	r.t.Helper()
	if err := r.DB.Close(); err != nil {
		r.t.Fatal(err)
	}
	r.Open()
}

// Frontier returns the rig's frontier, built on first use after Open from
// the politeness settings of s, with Robots behind a robots.Gate.
func (r *Rig) Frontier(s config.Config) *Spy {
	r.t.Helper()
	if r.Fr == nil {
		r.Fr = NewFrontier(r.t, r.DB, r.Sched, s, r.Robots)
	}
	return r.Fr
}

// Page returns the stored record of URL u.
func (r *Rig) Page(u string) storage.Page {
	r.t.Helper()
	return Page(r.t, r.DB, u)
}

// Links returns the stored out-links of u as "kind URL" strings.
func (r *Rig) Links(u string) []string {
	r.t.Helper()
	return Links(r.t, r.DB, u)
}

// FrontierLen returns the number of entries of the stored frontier.
func (r *Rig) FrontierLen() int {
	r.t.Helper()
	return FrontierLen(r.t, r.DB)
}

// WantRejected fails the test, going on, unless the stored record of u is
// rejected for reason.
func (r *Rig) WantRejected(u, reason string) {
	r.t.Helper()
	if p := r.Page(u); p.Status != storage.StatusRejected || p.Reason != reason {
		r.t.Errorf("%s: %v %q, want rejected for %s", u, p.Status, p.Reason, reason)
	}
}
