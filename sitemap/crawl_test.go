package sitemap_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/crawler"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
	"github.com/seedcrawl/seedcrawl/sitemap"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// TestCrawlMovedSitemap crawls a site whose /sitemap.xml redirects: a
// target that passes the crawl's guards is read as a sitemap (the page it
// lists is crawled, found by a link of kind sitemap), a refused one is
// counted as a rejection and not requested.
func TestCrawlMovedSitemap(t *testing.T) {
	const home, sm, moved, only = "http://a.test/", "http://a.test/sitemap.xml", "http://a.test/new.xml", "http://a.test/only"
	tests := []struct {
		name      string
		target    string
		fetched   []string
		smLinks   []string // the stored links of /sitemap.xml
		rejection bool     // a "reject/" counter is set
	}{
		{name: "moved in scope", target: moved, fetched: []string{home, sm, moved, only},
			smLinks: []string{"redirect " + moved}},
		{name: "moved to a refused URL", target: "http://a.test/" + strings.Repeat("x", 5000),
			fetched: []string{home, sm}, rejection: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := crawltest.NewRig(t)
			r.Web.HTML(home)
			r.Web.Redirect(sm, tc.target)
			r.Web.XMLSitemap(moved, time.Time{}, only)
			r.Web.HTML(only)
			sc, err := urlnorm.ParseScopeSpec("hosts:a.test", nil)
			if err != nil {
				t.Fatal(err)
			}
			s := crawltest.Settings()
			s.Sitemaps = true
			c, err := crawler.New(crawler.Options{Store: r.DB, Fetchers: []crawler.Fetcher{r.Web}, Settings: s,
				Scope: sc, Frontier: r.Frontier(s), Sitemaps: sitemap.NewCrawl(nil)})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Run(context.Background(), []string{home}); err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(slices.Values(r.Web.Fetched()))
			if want := slices.Sorted(slices.Values(tc.fetched)); !reflect.DeepEqual(got, want) {
				t.Errorf("fetched %v, want %v", got, want)
			}
			if got := r.Links(sm); !reflect.DeepEqual(got, tc.smLinks) {
				t.Errorf("links of %s: %v, want %v", sm, got, tc.smLinks)
			}
			if tc.smLinks != nil {
				if got, want := r.Links(moved), []string{"sitemap " + only}; !reflect.DeepEqual(got, want) {
					t.Errorf("links of %s: %v, want %v", moved, got, want)
				}
			}
			rejected := false
			for k, n := range c.Counters() {
				rejected = rejected || strings.HasPrefix(k, "reject/") && n > 0
			}
			if rejected != tc.rejection {
				t.Errorf("a reject/ counter set: %v, want %v (%v)", rejected, tc.rejection, c.Counters())
			}
		})
	}
}
