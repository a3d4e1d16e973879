package recrawl

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/crawltest"

	"github.com/seedcrawl/seedcrawl/seeds"
	"github.com/seedcrawl/seedcrawl/storage"
)

// pg describes one page of a test database: its URL, how its last fetch
// went (status 0: interned, never fetched) and its out-links.
type pg struct {
	url    string
	status storage.Status
	code   int
	ct     string
	links  []string
	kinds  []storage.LinkKind // per link; nil: all <a>
	reason string             // for a status that is not a fetch (rejected ...)
}

func html(u string, links ...string) pg {
	return pg{url: u, status: storage.StatusFetched, code: 200, ct: "text/html; charset=utf-8", links: links}
}

func unfetched(u string) pg { return pg{url: u} }

func rejected(u, reason string) pg { return pg{url: u, status: storage.StatusRejected, reason: reason} }

func gone(u string) pg { return pg{url: u, status: storage.StatusGone, code: 404, ct: "text/html"} }

func redirect(u, to string) pg {
	return pg{url: u, status: storage.StatusRedirect, code: 301, links: []string{to}, kinds: []storage.LinkKind{storage.LinkRedirect}}
}

// testDB builds a database holding pages, as a plain crawl (implicit cycle
// 1) would leave it. URLs are interned in the order given (ids 0, 1, ...);
// links to URLs not listed are an error.
func testDB(t testing.TB, pages ...pg) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "r.DB"), &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	urls := make([]string, len(pages))
	for i, p := range pages {
		urls[i] = p.url
	}
	ints, err := db.Intern(urls, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	id := map[string]uint64{}
	for i, u := range urls {
		id[u] = ints[i].ID
	}
	var b storage.Batch
	at := time.Unix(1_700_000_000, 0)
	for i, p := range pages {
		if p.status == 0 {
			continue
		}
		if p.status == storage.StatusRejected {
			b.SetStatus(ints[i].ID, p.status, p.reason)
			continue
		}
		var links []storage.Link
		for j, l := range p.links {
			to, ok := id[l]
			if !ok {
				t.Fatalf("test db: link to unlisted %s", l)
			}
			k := storage.LinkA
			if p.kinds != nil {
				k = p.kinds[j]
			}
			links = append(links, storage.Link{To: to, Kind: k})
		}
		f := storage.Fetch{ID: ints[i].ID, Status: p.status, Code: p.code, ContentType: p.ct, FetchedAt: at}
		if p.status == storage.StatusFetched {
			f.Hash = storage.HashOf([]byte(p.url))
		}
		b.AddFetch(f, links)
	}
	crawltest.Commit(t, db, &b)
	return db
}

// fakeCrawl stands in for the crawler: it stores the cycle record the way
// the crawl's first commit does, notes the plans it gets, and can fail or
// cancel.
type fakeCrawl struct {
	t     testing.TB
	db    *storage.DB
	plans []*Plan
	// during, if set, runs inside the crawl after the cycle is stored.
	during func(ctx context.Context, p *Plan) error
}

func (f *fakeCrawl) crawl(ctx context.Context, p *Plan) error {
	f.plans = append(f.plans, p)
	if p.Start {
		var b storage.Batch
		c := p.Cycle
		ints, err := f.db.Intern(seedURLs(p.Seeds), storage.NoPage, 0)
		if err != nil {
			return err
		}
		c.Seeds = nil
		for i, s := range p.Seeds {
			c.Seeds = append(c.Seeds, storage.Seed{ID: ints[i].ID, Score: s.Score, Why: s.Why})
		}
		b.PutCycle(c)
		if err := f.db.Commit(&b); err != nil {
			return err
		}
	}
	if f.during != nil {
		return f.during(ctx, p)
	}
	return nil
}

func seedURLs(ps []Pick) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.URL
	}
	return out
}

// stopThenResume runs r with store as its crawl, which commits what a
// stopped run had stored; the run is then stopped as by Ctrl-C. It runs r
// again with no crawl of its own and returns the plan of that second Run,
// failing t unless it resumed the stopped cycle.
func stopThenResume(t *testing.T, r *Runner, fc *fakeCrawl, store func(p *Plan) error) *Plan {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fc.during = func(_ context.Context, p *Plan) error {
		defer cancel()
		return store(p)
	}
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	fc.during = nil
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(fc.plans) != 2 || fc.plans[1].Start {
		t.Fatalf("%d plans, want a cycle planned then resumed", len(fc.plans))
	}
	return fc.plans[1]
}

// newTestRunner returns a Runner on db with a fake crawl and o's settings
// (Store, Crawl and a default K filled in).
func newTestRunner(t testing.TB, db *storage.DB, o Options) (*Runner, *fakeCrawl) {
	t.Helper()
	fc := &fakeCrawl{t: t, db: db}
	o.Store, o.Crawl = db, fc.crawl
	if o.Select.K == 0 {
		o.Select = seeds.Options{K: 2}
	}
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r, fc
}

// urlsOf returns the URLs of picks.
func urlsOf(ps []Pick) []string { return seedURLs(ps) }
