package sitemap

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestSitesMissingSpread replays the cycles after a crawl (cycle 1) that
// met 40 sites without a /sitemap.xml (each answered 404), in a real bbolt
// file where each site's home page and sitemap were interned together, as
// a crawl interns them. Each later cycle asks Want for every site's
// /sitemap.xml and reads (and stores another 404 for) the ones it wants.
// With gone 4 none is read in cycles 2..4; from cycle 5 on each cycle
// reads some and at most half of them, not all 40 in cycle 5 (a burst of
// one request per site every 4th cycle); each is read first in cycles
// 5..8 and then every 4th cycle; Resting agrees with Want.
func TestSitesMissingSpread(t *testing.T) {
	const sites, cycles, g = 40, 16, 4
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	origins := make([]string, sites)
	ids := make([]uint64, sites)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var b storage.Batch
	b.PutCycle(storage.Cycle{N: 1, Start: at})
	for i := range origins {
		origins[i] = fmt.Sprintf("http://s%d.test", i)
		in, err := db.Intern([]string{origins[i] + "/", origins[i] + "/sitemap.xml"}, storage.NoPage, 0)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = in[1].ID
		b.MarkSitemap(ids[i], storage.SitemapFile{Origin: origins[i]})
		b.AddFetch(storage.Fetch{ID: ids[i], Status: storage.StatusHTTPError, Code: 404, FetchedAt: at}, nil)
	}
	if err := db.Commit(&b); err != nil {
		t.Fatal(err)
	}
	read := make([][]uint32, sites) // per site, the cycles its sitemap was read in
	for n := uint32(2); n <= cycles; n++ {
		s := NewSites(Limits{}, n)
		s.gone = g
		if err := s.Load(db); err != nil {
			t.Fatal(err)
		}
		var b storage.Batch
		b.PutCycle(storage.Cycle{N: n, Start: at})
		count := 0
		for i, o := range origins {
			plan := s.Plan(o, nil)
			if len(plan) != 1 || plan[0] != o+"/sitemap.xml" {
				t.Fatalf("cycle %d: Plan(%s) = %v", n, o, plan)
			}
			p, err := db.Page(ids[i])
			if err != nil {
				t.Fatal(err)
			}
			ok, skip, err := s.Want(o, ids[i], Known{Page: func() (storage.Page, error) { return p, nil }}, false)
			switch {
			case err != nil:
				t.Fatal(err)
			case ok == s.Resting(&p):
				t.Errorf("cycle %d, %s: Want %v but Resting %v", n, o, ok, s.Resting(&p))
			case !ok && skip != "gone":
				t.Errorf("cycle %d, %s: Want refused it as %q, want \"gone\"", n, o, skip)
			case ok:
				count++
				read[i] = append(read[i], n)
				b.AddFetch(storage.Fetch{ID: ids[i], Status: storage.StatusHTTPError, Code: 404, FetchedAt: at}, nil)
			}
		}
		if err := db.Commit(&b); err != nil {
			t.Fatal(err)
		}
		switch {
		case n <= g && count != 0:
			t.Errorf("cycle %d read %d missing sitemaps, want none before cycle %d", n, count, 1+g)
		case n > g && (count == 0 || count > sites/2):
			t.Errorf("cycle %d read %d of the %d missing sitemaps, want some and at most half", n, count, sites)
		}
		t.Logf("cycle %d: %d missing sitemaps read", n, count)
	}
	for i, cs := range read {
		if len(cs) == 0 || cs[0] < 1+g || cs[0] > 2*g {
			t.Errorf("%s: read in cycles %v, want first in cycles %d..%d", origins[i], cs, 1+g, 2*g)
			continue
		}
		for j := 1; j < len(cs); j++ {
			if cs[j] != cs[j-1]+g {
				t.Errorf("%s: read in cycles %v, want every %d", origins[i], cs, g)
				break
			}
		}
	}
}
