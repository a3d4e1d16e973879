package crawler

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/fetch"
	"github.com/seedcrawl/seedcrawl/storage"
)

// xmlSitemap serves a urlset listing each URL with lastmod.
func (w *fakeWeb) xmlSitemap(u string, lastmod time.Time, urls ...string) {
	body := `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	for _, l := range urls {
		body += fmt.Sprintf("<url><loc>%s</loc><lastmod>%s</lastmod></url>", l, lastmod.Format(time.RFC3339))
	}
	body += "</urlset>"
	w.pages[u] = func(fetch.Request, int) fetch.Response {
		return fetch.Response{Code: 200, ContentType: "application/xml", Body: []byte(body), Length: int64(len(body)),
			Header: http.Header{"Content-Type": {"application/xml"}}}
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
	r.opts.Fetchers = r.opts.Fetchers[:1]
	r.web.versioned(pa, "a1", "/b")
	r.web.versioned(pb, "b1")
	r.web.versioned(only, "o1")
	r.web.xmlSitemap(sm, changed, only, pb)

	r.mustCycle(Recrawl{Cycle: storage.Cycle{N: 1, SeedAlgo: "given"}, Start: true, Seeds: []Pick{{URL: pa, Why: "given"}}})
	if got, want := r.web.fetched(), []string{pa, pb, sm, only}; !reflect.DeepEqual(sortedCopy(got), sortedCopy(want)) {
		t.Fatalf("cycle 1 fetched %v, want %v", got, want)
	}
	links, err := r.db.Links(r.page(sm).ID)
	if err != nil || len(links) != 2 || links[0].Kind != storage.LinkSitemap || links[1].Kind != storage.LinkSitemap {
		t.Fatalf("links of the sitemap: %+v, %v; want 2 of kind sitemap", links, err)
	}
	if lm, ok, err := r.db.LastMod(r.page(only).ID); err != nil || !ok || !lm.Equal(changed) {
		t.Fatalf("lastmod of %s: %v, %v, %v; want %v", only, lm, ok, err, changed)
	}
	if s, ok, err := r.db.Sitemap(r.page(sm).ID); err != nil || !ok || s.Origin != "http://a.test" || s.Depth != 0 {
		t.Fatalf("sitemap mark: %+v, %v, %v", s, ok, err)
	}

	// Cycle 2: nothing is due by the policy, but the sitemap says both
	// listed pages changed after their fetch.
	r.reopen()
	r.opts.Settings.Sitemaps = true
	r.opts.Fetchers = r.opts.Fetchers[:1]
	before := r.web.nreqs()
	notDue := duePolicy{due: map[string]bool{pa: false, pb: false, only: false}}
	r.mustCycle(Recrawl{Cycle: storage.Cycle{N: 2}, Start: true, Seeds: []Pick{{URL: pa}}, Refresh: r.ids(pb, only), Policy: notDue})
	all, _ := r.web.requestsSince(before)
	if got, want := sortedCopy(all), sortedCopy([]string{pb, sm, only}); !reflect.DeepEqual(got, want) {
		t.Errorf("cycle 2 requested %v, want %v (the sitemap once, the pages it says changed)", got, want)
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
