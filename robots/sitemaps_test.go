package robots

import (
	"slices"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/internal/testclock"
)

// TestSitemapsOf: the Sitemap: lines of a known robots.txt come from memory
// or the Store, never from a request; an unknown origin is not known.
func TestSitemapsOf(t *testing.T) {
	clk := testclock.New()
	s := newRobotsServer(t, serve(200, "User-agent: *\nDisallow: /no\nSitemap: http://a.test/s1.xml\nSitemap: /relative.xml\nSitemap: http://a.test/s2.xml.gz\n"))
	missing := newRobotsServer(t, serve(404, ""))
	store := &MemStore{}
	c := newCache(t, Options{Store: store, Now: clk.Now, TTL: time.Hour})

	if got, ok, err := c.SitemapsOf(s.URL); ok || err != nil || got != nil {
		t.Fatalf("before any check: %v, %v, %v; want not known", got, ok, err)
	}
	s.wantHits(t, 0, "SitemapsOf before any check")
	check(t, c, s.URL+"/x")
	check(t, c, missing.URL+"/x")
	want := []string{"http://a.test/s1.xml", "http://a.test/s2.xml.gz"}
	for _, cc := range []struct {
		name string
		c    *Cache
	}{
		{"memory", c},
		{"store", newCache(t, Options{Store: store, Now: clk.Now, TTL: time.Hour})},
	} {
		t.Run(cc.name, func(t *testing.T) {
			got, ok, err := cc.c.SitemapsOf(s.URL)
			if err != nil || !ok || !slices.Equal(got, want) {
				t.Errorf("SitemapsOf = %v, %v, %v; want %v", got, ok, err, want)
			}
			got, ok, err = cc.c.SitemapsOf(missing.URL)
			if err != nil || !ok || len(got) != 0 {
				t.Errorf("404 robots.txt: %v, %v, %v; want known, none", got, ok, err)
			}
		})
	}
	s.wantHits(t, 1, "after every SitemapsOf")
}
