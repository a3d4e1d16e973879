package recrawl

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/sitemap"
	"github.com/seedcrawl/seedcrawl/storage"
)

const (
	pa = "http://a.test/"
	pb = "http://a.test/b"
	pc = "http://a.test/c"
	pd = "http://a.test/d"
	pe = "http://a.test/e"
)

// firstCycle crawls a → b, c; b → d as cycle 1.
func firstCycle(t *testing.T) *rig {
	r := newRig(t)
	r.Web.Versioned(pa, "a1", "/b", "/c")
	r.Web.Versioned(pb, "b1", "/d")
	r.Web.Versioned(pc, "c1")
	r.Web.Versioned(pd, "d1")
	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 1, SeedAlgo: "given"}, Start: true, Seeds: []Pick{{URL: pa, Why: "given"}}})
	if got := r.Web.Fetched(); len(got) != 4 {
		t.Fatalf("cycle 1 fetched %v", got)
	}
	return r
}

func TestRecrawlCycleRefreshesAndDiscovers(t *testing.T) {
	r := firstCycle(t)
	// Epoch 2: b changed and links a new page e, c is gone, a and d are as
	// they were.
	r.Web.Versioned(pb, "b2", "/d", "/e")
	r.Web.Versioned(pe, "e1")
	r.Web.Status(pc, 404)
	r.reopen()
	before := r.Web.NReqs()
	s := r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 2, SeedAlgo: "given"}, Start: true,
		Seeds: []Pick{{URL: pa, Why: "kept"}}, Refresh: r.ids(pd, pc, pb)})
	all, cond := r.Web.RequestsSince(before)
	if want := []string{pa, pb, pc, pd, pe}; !reflect.DeepEqual(all, want) {
		t.Errorf("cycle 2 requested %v, want each of %v once", all, want)
	}
	if want := []string{pa, pb, pc, pd}; !reflect.DeepEqual(cond, want) {
		t.Errorf("conditional requests %v, want the known pages %v", cond, want)
	}
	f := r.fetchesOf(2)
	for u, want := range map[string]storage.Change{pa: storage.ChangeUnchanged, pb: storage.ChangeChanged,
		pc: storage.ChangeGone, pd: storage.ChangeUnchanged, pe: storage.ChangeNew} {
		if f[u].Change != want {
			t.Errorf("cycle 2 %s: change %v, want %v", u, f[u].Change, want)
		}
	}
	if p := r.Page(pc); p.Status != storage.StatusGone || p.Cycle != 2 {
		t.Errorf("removed page: %v cycle %d, want gone in cycle 2", p.Status, p.Cycle)
	}
	c := r.cycleRecord(2)
	if c.Start.IsZero() || len(c.Seeds) != 1 || c.Seeds[0].ID != r.Page(pa).ID || c.Seeds[0].Why != "kept" {
		t.Errorf("cycle record %+v", c)
	}
	st := c.Stats
	if st.Fetches != 5 || st.New != 1 || st.Changed != 1 || st.Unchanged != 2 || st.Gone != 1 || st.Found != 1 {
		t.Errorf("cycle 2 stats %+v", st)
	}
	if s.Refresh["fetched"] != 4 || s.Refresh["queued"] != 3 {
		t.Errorf("summary refresh %v", s.Refresh)
	}
	// The 304 of a handed its stored links on: b and c were downloaded as
	// its out-links, with a's priority flowing to them.
	if out := r.Fr.Results[r.Page(pa).ID]; len(out) != 1 || len(out[0].Links) != 2 {
		t.Errorf("outcome of the 304 seed: %+v, want its 2 stored links", out)
	}
	if n := r.FrontierLen(); n != 0 {
		t.Errorf("%d entries left in the stored frontier", n)
	}

	// Cycle 3 on an unchanged web: nothing changes, the gone page stays gone.
	r.reopen()
	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 3}, Start: true, Seeds: []Pick{{URL: pa}}, Refresh: r.ids(pb, pc, pd, pe)})
	st = r.cycleRecord(3).Stats
	if st.Unchanged != 4 || st.Gone != 0 || st.Errors != 0 || r.Page(pc).Status != storage.StatusGone {
		t.Errorf("cycle 3 stats %+v, /c %v", st, r.Page(pc).Status)
	}
}

// duePolicy is a RevisitPolicy with fixed answers.
type duePolicy struct {
	due      map[string]bool // by URL; missing: due
	interval time.Duration
}

func (p duePolicy) Due(pg *storage.Page, _ time.Time) bool {
	d, ok := p.due[pg.URL]
	return !ok || d
}

func (p duePolicy) Interval(*storage.Page, *storage.Fetch) time.Duration { return p.interval }

func TestRecrawlTraversesPagesNotRefetched(t *testing.T) {
	for _, tc := range []struct {
		name       string
		policy     RevisitPolicy
		maxRefresh int64
		fetched    []string // requested in cycle 2
		counts     map[string]uint64
	}{
		{"everything due", duePolicy{}, 0, []string{pa, pb, pc, pd},
			map[string]uint64{"fetched": 4, "queued": 3}},
		// The seed a is refetched although not due: a cycle starts from
		// its links as they are now.
		{"nothing due", duePolicy{due: map[string]bool{pa: false, pb: false, pc: false, pd: false}}, 0, []string{pa},
			map[string]uint64{"fetched": 1, "not-due": 3, "queued": 3}},
		{"b not due", duePolicy{due: map[string]bool{pb: false}}, 0, []string{pa, pc, pd},
			map[string]uint64{"fetched": 3, "not-due": 1, "queued": 3}},
		{"refresh share of 2", nil, 2, []string{pa, pb},
			map[string]uint64{"fetched": 2, "over-share": 2, "queued": 3}},
		{"no refresh", nil, -1, nil,
			map[string]uint64{"over-share": 4, "queued": 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := firstCycle(t)
			r.reopen()
			// One worker: the order is the frontier's, seeds first, then
			// the refresh list in its order.
			r.opts.Fetchers = r.opts.Fetchers[:1]
			before := r.Web.NReqs()
			s := r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 2}, Start: true, Seeds: []Pick{{URL: pa}},
				Refresh: r.ids(pb, pc, pd), Policy: tc.policy, MaxRefresh: tc.maxRefresh})
			all, _ := r.Web.RequestsSince(before)
			if !reflect.DeepEqual(all, tc.fetched) {
				t.Errorf("requested %v, want %v", all, tc.fetched)
			}
			if !reflect.DeepEqual(s.Refresh, tc.counts) {
				t.Errorf("refresh counts %v, want %v", s.Refresh, tc.counts)
			}
			// Traversed or not, b handed its stored link to d on.
			if out := r.Fr.Results[r.Page(pb).ID]; len(out) != 1 || !out[0].Downloaded || len(out[0].Links) != 1 || out[0].Links[0].ID != r.Page(pd).ID {
				t.Errorf("outcome of b: %+v", out)
			}
			if st := r.cycleRecord(2).Stats; st.Fetches != uint64(len(tc.fetched)) {
				t.Errorf("cycle 2 stats %+v, want %d fetches", st, len(tc.fetched))
			}
		})
	}
}

func TestRecrawlStoresRevisitInterval(t *testing.T) {
	r := newRig(t)
	r.Web.Versioned(pa, "a1", "/b")
	r.Web.Versioned(pb, "b1")
	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 1}, Start: true, Seeds: []Pick{{URL: pa}}, Policy: duePolicy{interval: 90 * time.Minute}})
	for _, u := range []string{pa, pb} {
		if p := r.Page(u); p.Interval != 90*time.Minute {
			t.Errorf("%s interval %v, want 1h30m", u, p.Interval)
		}
	}
}

// fakeReplacer replaces every vanished seed with one page and notes the
// calls.
type fakeReplacer struct {
	mu    sync.Mutex
	with  string
	calls []string
	seeds []bool // isSeed(with) at each call
	id    uint64
}

func (f *fakeReplacer) Replace(_ context.Context, old uint64, reason string, isSeed func(uint64) bool) (Pick, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf("%d %s", old, reason))
	f.seeds = append(f.seeds, isSeed(old))
	return Pick{URL: f.with, Score: 0.5, Why: "nearest"}, true, nil
}

func TestRecrawlReplacesVanishedSeeds(t *testing.T) {
	r := firstCycle(t)
	r.Web.Versioned("http://a.test/x", "x1", "/c")
	r.Web.Versioned("http://a.test/y", "y1")
	r.reopen()
	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 2}, Start: true, Seeds: []Pick{{URL: pa}, {URL: "http://a.test/x"}, {URL: "http://a.test/y"}},
		Refresh: r.ids(pb, pc, pd)})
	// Epoch 3: x is gone, y moved to z.
	r.Web.Status("http://a.test/x", 410)
	r.Web.Redirect("http://a.test/y", "http://a.test/z")
	r.Web.Versioned("http://a.test/z", "z1")
	r.reopen()
	rep := &fakeReplacer{with: pd}
	x, y := r.Page("http://a.test/x").ID, r.Page("http://a.test/y").ID
	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 3}, Start: true, Seeds: []Pick{{URL: pa}, {URL: "http://a.test/x"}, {URL: "http://a.test/y"}},
		Refresh: r.ids(pb, pc, pd), Replacer: rep})
	if want := []string{fmt.Sprint(x, " 410")}; !reflect.DeepEqual(rep.calls, want) || !rep.seeds[0] {
		t.Errorf("replacer calls %v (old was a seed: %v), want %v", rep.calls, rep.seeds, want)
	}
	c := r.cycleRecord(3)
	z := r.Page("http://a.test/z").ID
	got := map[uint64]storage.Replacement{}
	for _, rp := range c.Replaced {
		got[rp.Old] = rp
	}
	if got[x] != (storage.Replacement{Old: x, New: r.Page(pd).ID, Reason: "410"}) || got[y] != (storage.Replacement{Old: y, New: z, Reason: "redirect"}) || len(got) != 2 {
		t.Errorf("replaced %+v", c.Replaced)
	}
	why := map[uint64]string{}
	for _, s := range c.Seeds {
		why[s.ID] = s.Why
	}
	if why[r.Page(pd).ID] != "nearest" || !strings.Contains(why[z], "redirect target") || len(c.Seeds) != 5 {
		t.Errorf("cycle 3 seeds %+v", c.Seeds)
	}
	if p := r.Page("http://a.test/z"); p.Status != storage.StatusFetched || r.Web.Requests("http://a.test/z") != 1 {
		t.Errorf("redirect target: %v, requested %d times", p.Status, r.Web.Requests("http://a.test/z"))
	}
	// d was refetched once in cycle 3 (as a refresh) and, injected as a
	// replacement, traversed rather than fetched again.
	if n := r.Web.Requests(pd); n != 3 {
		t.Errorf("d requested %d times over three cycles, want 3", n)
	}
}

// A seed the server starts to refuse (401, 403, 451) is as useless as a
// gone one: it is replaced, with its code as the reason, and the refusal
// rests like a 404 in the next plan's seed choice.
func TestRecrawlReplacesRefusedSeeds(t *testing.T) {
	for _, code := range []int{401, 403, 451} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			r := firstCycle(t)
			r.Web.Versioned("http://a.test/w", "w1", "/c")
			r.reopen()
			seeds := []Pick{{URL: pa}, {URL: "http://a.test/w"}}
			r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 2}, Start: true, Seeds: seeds, Refresh: r.ids(pb, pc, pd)})
			r.Web.Status("http://a.test/w", code)
			r.reopen()
			rep := &fakeReplacer{with: pd}
			w := r.Page("http://a.test/w").ID
			r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 3}, Start: true, Seeds: seeds, Refresh: r.ids(pb, pc, pd), Replacer: rep})
			if want := []string{fmt.Sprint(w, " ", code)}; !reflect.DeepEqual(rep.calls, want) {
				t.Errorf("replacer calls %v, want %v", rep.calls, want)
			}
			c := r.cycleRecord(3)
			if want := (storage.Replacement{Old: w, New: r.Page(pd).ID, Reason: fmt.Sprint(code)}); len(c.Replaced) != 1 || c.Replaced[0] != want {
				t.Errorf("replaced %+v, want %+v", c.Replaced, want)
			}
			p := r.Page("http://a.test/w")
			if got := vanishReason(&p); got != fmt.Sprint(code) {
				t.Errorf("vanishReason of the refused seed = %q, want %q", got, fmt.Sprint(code))
			}
		})
	}
}

func TestRecrawlResumesCycle(t *testing.T) {
	r := firstCycle(t)
	r.Web.Versioned(pb, "b2", "/d", "/e")
	r.Web.Versioned(pe, "e1")
	r.reopen()
	// The cycle stops after 2 fetches (a budget), then is resumed by a new
	// process without Start.
	r.opts.Settings.MaxPages = 2
	r.opts.Fetchers = r.opts.Fetchers[:1]
	s := r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 2, SeedAlgo: "given"}, Start: true, Seeds: []Pick{{URL: pa, Why: "kept"}},
		Refresh: r.ids(pb, pc, pd)})
	if s.Stopped != monitor.StopMaxPages {
		t.Fatalf("stopped %q", s.Stopped)
	}
	rec := r.cycleRecord(2)
	r.reopen()
	r.opts.Settings.MaxPages = 0
	before := r.Web.NReqs()
	r.mustCycle(CycleOptions{Cycle: rec})
	all, _ := r.Web.RequestsSince(before)
	if len(all) != 3 {
		t.Errorf("resumed cycle requested %v, want the 3 pages left", all)
	}
	c := r.cycleRecord(2)
	if st := c.Stats; st.Fetches != 5 || st.New != 1 || st.Unchanged != 3 || st.Changed != 1 {
		t.Errorf("cycle 2 after the resume: %+v", st)
	}
	if len(c.Seeds) != 1 || c.Seeds[0].Why != "kept" {
		t.Errorf("seeds after the resume %+v", c.Seeds)
	}
	for _, u := range []string{pa, pb, pc, pd, pe} {
		if n := r.Web.Requests(u); (u == pe && n != 1) || (u != pe && n != 2) {
			t.Errorf("%s requested %d times over two cycles", u, n)
		}
	}
}

// fakeReseeder returns the same picks every time and counts the calls.
type fakeReseeder struct {
	mu    sync.Mutex
	picks []Pick
	at    []uint64
	seeds []int // number of seeds passed at each call
}

func (f *fakeReseeder) Reseed(_ context.Context, fetched uint64, seeds []uint64) ([]Pick, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at = append(f.at, fetched)
	f.seeds = append(f.seeds, len(seeds))
	return f.picks, nil
}

func TestRecrawlReseedsInsideACycle(t *testing.T) {
	r := newRig(t)
	// A chain a → p1 → p2 → ... → p9 and a side page s linked from p1.
	r.Web.Versioned(pa, "a", "/p1")
	for i := 1; i < 10; i++ {
		r.Web.Versioned(fmt.Sprintf("http://a.test/p%d", i), "p", fmt.Sprintf("/p%d", i+1), "/s")
	}
	r.Web.Versioned("http://a.test/p10", "p")
	r.Web.Versioned("http://a.test/s", "s")
	r.opts.Fetchers = r.opts.Fetchers[:1]
	rs := &fakeReseeder{picks: []Pick{{URL: "http://a.test/s", Score: 2, Why: "reseed: best"}, {URL: pa, Why: "again"}}}
	s := r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 1}, Start: true, Seeds: []Pick{{URL: pa, Why: "given"}},
		ReseedEvery: 3, Reseeder: rs})
	rs.mu.Lock()
	calls := len(rs.at)
	if calls > 1 && rs.seeds[1] != 2 {
		t.Errorf("seeds passed to the reseeder: %v, want 1 then 2 (the injected one)", rs.seeds)
	}
	rs.mu.Unlock()
	if calls == 0 || s.Seeds["injected"] == 0 || s.Seeds["reseeds"] == 0 {
		t.Fatalf("reseeder called %d times, summary seeds %v", calls, s.Seeds)
	}
	c := r.cycleRecord(1)
	var whys []string
	for _, sd := range c.Seeds {
		whys = append(whys, sd.Why)
	}
	if !reflect.DeepEqual(whys, []string{"given", "reseed: best"}) {
		t.Errorf("cycle seeds %q: want the given seed, then the injected one once", whys)
	}
	for _, u := range []string{pa, "http://a.test/s", "http://a.test/p10"} {
		if n := r.Web.Requests(u); n != 1 {
			t.Errorf("%s requested %d times, want 1 (an injected seed already fetched is traversed)", u, n)
		}
	}
	if s.Refresh["seen"] == 0 {
		t.Errorf("refresh counts %v: want the re-injected seed traversed from storage", s.Refresh)
	}
}

func TestRecrawlOptionsValidated(t *testing.T) {
	for _, rc := range []CycleOptions{
		{Cycle: storage.Cycle{N: 0}, Start: true},
		{Cycle: storage.Cycle{N: 1}, Seeds: []Pick{{URL: pa}}},
		{Cycle: storage.Cycle{N: 1}, Start: true, ReseedEvery: 5},
	} {
		if _, err := NewCycle(&rc); err == nil {
			t.Errorf("NewCycle accepted %+v", rc)
		}
	}
}

// TestSitemapsRecrawl: with Settings.Sitemaps, /sitemap.xml of the seed's
// site is read once per cycle through the frontier, the page it alone
// lists is crawled as a link of kind sitemap with its lastmod stored, and
// in the next cycle a page whose lastmod is later than its fetch is
// refetched although the revisit policy says it is not due.
func TestSitemapsRecrawl(t *testing.T) {
	const sm, only = "http://a.test/sitemap.xml", "http://a.test/only"
	changed := time.Now().Add(time.Hour).UTC().Truncate(time.Second) // "changed" after the first fetch
	r := newRig(t)
	r.opts.Settings.Sitemaps = true
	r.opts.Sitemaps = sitemap.NewCrawl(nil)
	r.opts.Fetchers = r.opts.Fetchers[:1]
	r.Web.Versioned(pa, "a1", "/b")
	r.Web.Versioned(pb, "b1")
	r.Web.Versioned(only, "o1")
	r.Web.XMLSitemap(sm, changed, only, pb)
	// The site's clock is an hour ahead of the crawler's (a lastmod later
	// than the sitemap's Date would be dropped); its pages send no Date,
	// so their fetches are compared on the crawler's clock.
	serve := r.Web.Pages[sm]
	r.Web.Pages[sm] = func(q fetch.Request, n int) fetch.Response {
		resp := serve(q, n)
		resp.Header.Set("Date", changed.Format(http.TimeFormat))
		return resp
	}

	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 1, SeedAlgo: "given"}, Start: true, Seeds: []Pick{{URL: pa, Why: "given"}}})
	if got, want := r.Web.Fetched(), []string{pa, pb, sm, only}; !reflect.DeepEqual(sortedCopy(got), sortedCopy(want)) {
		t.Fatalf("cycle 1 fetched %v, want %v", got, want)
	}
	links, err := r.DB.Links(r.Page(sm).ID)
	if err != nil || len(links) != 2 || links[0].Kind != storage.LinkSitemap || links[1].Kind != storage.LinkSitemap {
		t.Fatalf("links of the sitemap: %+v, %v; want 2 of kind sitemap", links, err)
	}
	if lm, ok, err := r.DB.LastMod(r.Page(only).ID); err != nil || !ok || !lm.Equal(changed) {
		t.Fatalf("lastmod of %s: %v, %v, %v; want %v", only, lm, ok, err, changed)
	}
	if s, ok, err := r.DB.Sitemap(r.Page(sm).ID); err != nil || !ok || s.Origin != "http://a.test" || s.Depth != 0 {
		t.Fatalf("sitemap mark: %+v, %v, %v", s, ok, err)
	}

	// Cycle 2: nothing is due by the policy, but the sitemap says both
	// listed pages changed after their fetch; the seed is refetched as
	// every seed is.
	r.reopen()
	r.opts.Settings.Sitemaps = true
	r.opts.Sitemaps = sitemap.NewCrawl(nil)
	r.opts.Fetchers = r.opts.Fetchers[:1]
	before := r.Web.NReqs()
	notDue := duePolicy{due: map[string]bool{pa: false, pb: false, only: false}}
	r.mustCycle(CycleOptions{Cycle: storage.Cycle{N: 2}, Start: true, Seeds: []Pick{{URL: pa}}, Refresh: r.ids(pb, only), Policy: notDue,
		Changed: sitemap.Lastmods{Store: r.DB}.Changed})
	all, _ := r.Web.RequestsSince(before)
	if got, want := sortedCopy(all), sortedCopy([]string{pa, pb, sm, only}); !reflect.DeepEqual(got, want) {
		t.Errorf("cycle 2 requested %v, want %v (the seed, the sitemap once, the pages it says changed)", got, want)
	}
}
