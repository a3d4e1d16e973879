package sitemap

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// marks is a Marks over a map.
type marks map[uint64]storage.SitemapFile

func (m marks) EachSitemap(fn func(uint64, storage.SitemapFile) error) error {
	for id, f := range m {
		if err := fn(id, f); err != nil {
			return err
		}
	}
	return nil
}

// TestSitesPlan checks that a site's sitemaps are planned once per run,
// robots.txt's first, normalized and distinct, and that robots.txt is
// asked only the first time.
func TestSitesPlan(t *testing.T) {
	s := NewSites(Limits{}, 1)
	asked := 0
	robots := func() []string {
		asked++
		return []string{"http://A.test/s1.xml", "http://a.test/s1.xml", "not a url", "http://a.test/sitemap.xml"}
	}
	got := s.Plan("http://a.test", robots)
	want := []string{"http://a.test/s1.xml", "http://a.test/sitemap.xml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("first Plan = %q, want %q", got, want)
	}
	if got := s.Plan("http://a.test", robots); got != nil || asked != 1 {
		t.Errorf("second Plan = %q (robots asked %d times), want nothing and one question", got, asked)
	}
	if got := s.Plan("http://b.test", nil); !reflect.DeepEqual(got, []string{"http://b.test/sitemap.xml"}) {
		t.Errorf("Plan without robots.txt lines = %q", got)
	}
}

// TestSitesWantTake follows the events of queueing sitemaps: earlier
// runs' marks loaded, new and known URLs considered, the MaxSitemaps bound
// reached.
func TestSitesWantTake(t *testing.T) {
	const cycle = 3
	pages := map[uint64]storage.Page{
		10: {ID: 10, Fetches: 1, Cycle: 2},     // fetched as a page
		11: {ID: 11, Fetches: 1, Cycle: 2},     // a sitemap read in an earlier cycle
		12: {ID: 12, Fetches: 1, Cycle: cycle}, // a sitemap read in this cycle by an interrupted run
		13: {ID: 13},                           // known, never fetched
	}
	lookup := func(id uint64) func() (storage.Page, error) {
		return func() (storage.Page, error) {
			if p, ok := pages[id]; ok {
				return p, nil
			}
			if id == 99 {
				return storage.Page{}, errors.New("disk on fire")
			}
			return storage.Page{}, storage.ErrNotFound
		}
	}
	s := NewSites(Limits{MaxSitemaps: 3}, cycle)
	file := storage.SitemapFile{Origin: "http://a.test"}
	if err := s.Load(marks{11: file, 12: file}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		id       uint64
		new      bool
		redirect bool
		want     bool
		skip     string
		take     bool // Take after a want
		err      bool
	}{
		{name: "new URL", id: 1, new: true, want: true, take: true},
		{name: "queued already in this run", id: 1, new: false, want: false},
		{name: "known page is not a sitemap", id: 10, want: false, skip: "known-page"},
		{name: "sitemap of an earlier cycle", id: 11, want: true, take: true},
		{name: "sitemap read in this cycle", id: 12, want: false},
		{name: "known URL never fetched", id: 13, want: true, take: true},
		{name: "redirect to a known URL", id: 14, redirect: true, want: false, skip: "known-page"},
		{name: "bound reached", id: 2, new: true, want: true, take: false},
		{name: "lookup failure", id: 99, err: true},
	}
	for _, st := range steps {
		ok, skip, err := s.Want("http://a.test", st.id, Known{New: st.new, Page: lookup(st.id)}, st.redirect)
		if (err != nil) != st.err {
			t.Fatalf("%s: Want error %v, want error %v", st.name, err, st.err)
		}
		if ok != st.want || skip != st.skip {
			t.Errorf("%s: Want = %v, %q; want %v, %q", st.name, ok, skip, st.want, st.skip)
		}
		if ok {
			if got := s.Take("http://a.test", st.id, file); got != st.take {
				t.Errorf("%s: Take = %v, want %v", st.name, got, st.take)
			}
			if _, marked := s.File(st.id); marked != st.take {
				t.Errorf("%s: File marked = %v, want %v", st.name, marked, st.take)
			}
		}
	}
}

// TestSitesWantAcrossOrigins follows a site served over http and https:
// https://a.test/sitemap.xml is queued for the https site, then
// http://a.test/sitemap.xml answers with a redirect to it before its fetch
// is committed. The target is the same file, so it is not queued again:
// a sitemap is read once per run, whichever site found it.
func TestSitesWantAcrossOrigins(t *testing.T) {
	const id = 5
	s := NewSites(Limits{}, 1)
	uncommitted := Known{Page: func() (storage.Page, error) { return storage.Page{ID: id}, nil }}
	if ok, _, err := s.Want("https://a.test", id, Known{New: true}, false); err != nil || !ok {
		t.Fatalf("first Want = %v, %v; want true", ok, err)
	}
	if !s.Take("https://a.test", id, storage.SitemapFile{Origin: "https://a.test"}) {
		t.Fatal("Take refused the first sitemap")
	}
	if ok, skip, err := s.Want("http://a.test", id, uncommitted, true); err != nil || ok {
		t.Errorf("redirect from the http site to the queued file: Want = %v, %q, %v; want false", ok, skip, err)
	}
	r := &FileRead{File: storage.SitemapFile{Origin: "https://a.test"}}
	s.Deliver(id, r)
	if ok, skip, err := s.Want("http://b.test", id, uncommitted, false); err != nil || ok {
		t.Errorf("file read for another site: Want = %v, %q, %v; want false", ok, skip, err)
	}
}

// TestSitesReadDeliver reads files as a crawl gets them: entries
// deduplicated and normalized, children beyond MaxDepth skipped, the
// fetcher's truncation kept as a cut, the walk's entry bound applied over
// the files of one site.
func TestSitesReadDeliver(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	s := NewSites(Limits{MaxDepth: 1, MaxWalkURLs: 3}, 0)
	root := storage.SitemapFile{Origin: "http://a.test"}

	r := s.Read(ctx, []byte(urlset(`<url><loc>http://a.test/1</loc><lastmod>2026-03-01</lastmod></url>
<url><loc>http://A.test/1</loc></url><url><loc>http://a.test/2</loc></url>`)), "http://a.test/sitemap.xml", root, false)
	if want := []Listed{{URL: "http://a.test/1", LastMod: day}, {URL: "http://a.test/2"}}; !reflect.DeepEqual(r.URLs, want) {
		t.Errorf("URLs = %+v, want %+v", r.URLs, want)
	}
	r.Keep(func(u string) bool { return u != "http://a.test/2" }, func(string) bool { return true })
	if n := s.Deliver(1, r); n != 1 || r.Reason() != "" {
		t.Errorf("Deliver = %d, reason %q; want 1 and none", n, r.Reason())
	}

	idx := s.Read(ctx, []byte(index("http://a.test/c1.xml", "http://a.test/c2.xml")), "http://a.test/i.xml", root, false)
	if want := []string{"http://a.test/c1.xml", "http://a.test/c2.xml"}; !reflect.DeepEqual(idx.Children, want) {
		t.Errorf("Children = %q, want %q", idx.Children, want)
	}
	if got := idx.ChildFile(); got.Depth != 1 || got.Origin != root.Origin {
		t.Errorf("ChildFile = %+v, want depth 1 of %s", got, root.Origin)
	}
	deep := s.Read(ctx, []byte(index("http://a.test/c3.xml")), "http://a.test/c1.xml", idx.ChildFile(), false)
	if len(deep.Children) != 0 || !strings.HasPrefix(deep.Reason(), "sitemap-skipped: depth:") {
		t.Errorf("depth 2 index: children %q, reason %q; want none, skipped for depth", deep.Children, deep.Reason())
	}

	cut := s.Read(ctx, []byte(urlset(`<url><loc>http://a.test/3</loc></url><url><loc>http://a.test/4</loc></url><url><loc>http://a.test/5</loc></url><url><lo`)),
		"http://a.test/big.xml", root, true)
	if !strings.HasPrefix(cut.Reason(), "sitemap-cut: max-body:") || cut.Err != nil {
		t.Errorf("truncated file: reason %q, err %v; want a max-body cut and no error", cut.Reason(), cut.Err)
	}
	if n := s.Deliver(2, cut); n != 2 {
		t.Errorf("Deliver past the walk bound = %d, want 2 (3 per site, 1 delivered before)", n)
	}
	counts := map[string]uint64{}
	cut.Counts(true, func(k string, n uint64) { counts[k] += n })
	if want := map[string]uint64{"files": 1, "urls": 2, "cut/max-body": 1}; !reflect.DeepEqual(counts, want) {
		t.Errorf("Counts = %v, want %v", counts, want)
	}

	bad := s.Read(ctx, []byte("<html><body>not found</body></html>"), "http://a.test/s.xml", root, false)
	if !errors.Is(bad.Err, ErrNotSitemap) || !strings.HasPrefix(bad.Reason(), "sitemap-invalid:") {
		t.Errorf("HTML body: err %v, reason %q; want ErrNotSitemap, sitemap-invalid", bad.Err, bad.Reason())
	}
	moved := Moved(root, "http://a.test/new.xml")
	if f := moved.ChildFile(); f.Depth != 0 || !moved.Redirect {
		t.Errorf("Moved: child file %+v, redirect %v; want the same depth", f, moved.Redirect)
	}
}

// TestSitesMissingSitemap walks a sitemap (id 11, phase 1 of 4) that
// answered 404 in cycle 2 through later cycles: with gone cycles it rests
// (no sitemap job, not queued, counted "gone") until that many cycles
// have passed and then until a cycle of its phase; with none, until the
// interval stored with its fetch has passed on the crawler's clock. A
// 410, a gone page and a refusal (401, 403, 451) rest alike; a sitemap
// that exists or answered 503 never rests.
func TestSitesMissingSitemap(t *testing.T) {
	fetched := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	miss := storage.Page{ID: 11, Status: storage.StatusHTTPError, Code: 404, Fetches: 1, Cycle: 2, FetchedAt: fetched}
	withInterval := miss
	withInterval.Interval = 48 * time.Hour
	gone := miss
	gone.Status, gone.Code = storage.StatusGone, 404
	exists := miss
	exists.Status, exists.Code = storage.StatusFetched, 200
	code := func(c int) storage.Page { p := miss; p.Code = c; return p }
	for _, tc := range []struct {
		name  string
		p     storage.Page
		gone  uint32
		cycle uint32
		now   time.Time
		rest  bool
	}{
		{"404, next cycle", miss, 4, 3, fetched, true},
		{"404, three cycles on", miss, 4, 5, fetched, true},
		{"404, four cycles on, not its phase", miss, 4, 6, fetched, true},
		{"404, five cycles on, its phase", miss, 4, 7, fetched, false},
		{"404, seven cycles on", miss, 4, 9, fetched, false},
		{"404 read in this cycle", miss, 4, 2, fetched, false}, // Want refuses it: read once per cycle
		{"410", code(410), 2, 3, fetched, true},
		{"gone", gone, 2, 3, fetched, true},
		{"403, next cycle", code(403), 4, 3, fetched, true},
		{"403, four cycles on, not its phase", code(403), 4, 6, fetched, true},
		{"403, five cycles on, its phase", code(403), 4, 7, fetched, false},
		{"401", code(401), 4, 3, fetched, true},
		{"451", code(451), 4, 3, fetched, true},
		{"503", code(503), 4, 3, fetched, false},
		{"exists", exists, 4, 3, fetched, false},
		{"interval not passed", withInterval, 0, 3, fetched.Add(47 * time.Hour), true},
		{"interval passed", withInterval, 0, 3, fetched.Add(48 * time.Hour), false},
		{"no interval stored", miss, 0, 3, fetched, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSites(Limits{}, tc.cycle)
			s.gone, s.now = tc.gone, func() time.Time { return tc.now }
			file := storage.SitemapFile{Origin: "http://a.test"}
			if err := s.Load(marks{11: file}); err != nil {
				t.Fatal(err)
			}
			if got := s.Resting(&tc.p); got != tc.rest {
				t.Errorf("Resting = %v, want %v", got, tc.rest)
			}
			ok, skip, err := s.Want("http://a.test", 11, Known{Page: func() (storage.Page, error) { return tc.p, nil }}, false)
			if err != nil {
				t.Fatal(err)
			}
			if tc.rest && (ok || skip != "gone") {
				t.Errorf("Want = %v, %q for a resting sitemap; want false, \"gone\"", ok, skip)
			}
			if !tc.rest && tc.p.Cycle != tc.cycle && !ok {
				t.Errorf("Want = %v, %q; want it read", ok, skip)
			}
		})
	}
}

// TestClampLastMod holds listed lastmod values to the server's clock: a
// value after it by more than the Date header's second is dropped and
// flagged, one within the second becomes the server's time, one before
// 1990 is dropped too (the year 1000 would be stored as 2169), earlier
// ones and missing ones stay. The server's time is its Date, else the
// fetch (also when the Date lies more than 30 days from it).
func TestClampLastMod(t *testing.T) {
	fetched := time.Date(2026, 5, 1, 12, 0, 0, 500, time.UTC)
	for _, tc := range []struct {
		name, date string
		want       time.Time
	}{
		{"Date", "Fri, 01 May 2026 18:00:00 GMT", time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)},
		{"no Date", "", fetched},
		{"malformed Date", "tomorrow", fetched},
		{"Date 29 days ahead", "Sat, 30 May 2026 12:00:00 GMT", time.Date(2026, 5, 30, 12, 0, 0, 0, time.UTC)},
		{"Date 31 days behind", "Tue, 31 Mar 2026 12:00:00 GMT", fetched},
		{"Date in the year 9000", "Mon, 01 Jan 9000 00:00:00 GMT", fetched},
	} {
		if got := ServerTime(tc.date, fetched); !got.Equal(tc.want) {
			t.Errorf("ServerTime(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	now := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	r := &FileRead{URLs: []Listed{
		{URL: "http://a.test/past", LastMod: now.Add(-time.Hour)},
		{URL: "http://a.test/none"},
		{URL: "http://a.test/now", LastMod: now},
		{URL: "http://a.test/same-second", LastMod: now.Add(300 * time.Millisecond)},
		{URL: "http://a.test/next-day", LastMod: now.Add(24 * time.Hour)},
		{URL: "http://a.test/2999", LastMod: time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)},
		{URL: "http://a.test/1990", LastMod: time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)},
		{URL: "http://a.test/1989", LastMod: time.Date(1989, 12, 31, 0, 0, 0, 0, time.UTC)},
		{URL: "http://a.test/year-1000", LastMod: time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)},
	}}
	if n := r.ClampLastMod(now); n != 4 {
		t.Errorf("ClampLastMod dropped %d, want 4", n)
	}
	want := []Listed{
		{URL: "http://a.test/past", LastMod: now.Add(-time.Hour)},
		{URL: "http://a.test/none"},
		{URL: "http://a.test/now", LastMod: now},
		{URL: "http://a.test/same-second", LastMod: now},
		{URL: "http://a.test/next-day", DroppedLastMod: true},
		{URL: "http://a.test/2999", DroppedLastMod: true},
		{URL: "http://a.test/1990", LastMod: time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)},
		{URL: "http://a.test/1989", DroppedLastMod: true},
		{URL: "http://a.test/year-1000", DroppedLastMod: true},
	}
	if !reflect.DeepEqual(r.URLs, want) {
		t.Errorf("URLs = %+v, want %+v", r.URLs, want)
	}
	counts := map[string]uint64{}
	r.Counts(false, func(k string, n uint64) { counts[k] += n })
	if counts["lastmod-future"] != 2 || counts["lastmod-past"] != 2 {
		t.Errorf("Counts = %v, want lastmod-future 2, lastmod-past 2", counts)
	}
}
