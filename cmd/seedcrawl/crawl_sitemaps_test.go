package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/version"
	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestCrawlSitemaps crawls a test web with sitemap.test (GenOptions.Sitemaps)
// with sitemaps on, the default: the pages only sitemaps lead to are
// crawled, robots.txt still rules the listed URLs, the huge, deep and bomb
// sitemaps are cut with their reason stored, every sitemap request keeps
// the per-host gap, and the listed lastmod values are stored.
func TestCrawlSitemaps(t *testing.T) {
	w := crawlStartWeb(t, testweb.GenOptions{Seed: 3, Pages: 60, Hosts: 3, Preset: testweb.Clean, Sitemaps: true}, testweb.Options{})
	path := filepath.Join(t.TempDir(), "sitemaps.db")
	const delay = 25 * time.Millisecond
	cfg := demoConfig(path, w.site.Seeds(), w.srv, delay, 4)
	cfg.DelayFactor = 0
	if !cfg.Sitemaps {
		t.Fatal("sitemaps are off by default; want on")
	}
	sum := crawlRun(t, cfg, crawlExtras{})
	truth := w.web.Truth()
	seeds := w.site.Seeds()
	pages := crawlPages(t, path)
	entries := w.log.Entries()
	requested := map[string]int{}
	for _, e := range entries {
		requested[e.URL()]++
	}

	t.Run("sitemap-only pages crawled", func(t *testing.T) {
		only, err := truth.SitemapOnly(seeds, version.Token, testweb.SitemapLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if len(only) < 8 {
			t.Fatalf("only %d sitemap-only pages in the test web; the test needs the sitemap host", len(only))
		}
		for _, id := range only {
			u := truth.Graph.URLs[id]
			p, ok := pages[u]
			switch {
			case !ok:
				t.Errorf("%s: not discovered", u)
			case !truth.Allowed(u, version.Token):
				if p.Status != storage.StatusRobotsDenied {
					t.Errorf("%s: %v, want robots-denied", u, p.Status)
				}
			case p.Status != storage.StatusFetched:
				t.Errorf("%s: %v %q, want fetched", u, p.Status, p.Reason)
			}
		}
	})

	t.Run("ground truth with sitemaps", func(t *testing.T) {
		if d := sitemapTruthDiff(t, path, truth, seeds); !d.Empty() {
			t.Fatalf("crawl differs from the ground truth with sitemaps: %s", d)
		}
	})

	t.Run("robots.txt rules listed URLs", func(t *testing.T) {
		const forbidden = "http://sitemap.test/private/listed.html"
		if requested[forbidden] != 0 {
			t.Errorf("%s requested %d times; robots.txt forbids it", forbidden, requested[forbidden])
		}
		if p := pages[forbidden]; p.Status != storage.StatusRobotsDenied {
			t.Errorf("%s: %v, want robots-denied", forbidden, p.Status)
		}
	})

	t.Run("bounds cut with a reason", func(t *testing.T) {
		for _, c := range []struct {
			url, reason string
		}{
			{"http://sitemap.test/huge.xml", "sitemap-cut: urls"},
			{"http://sitemap.test/bomb.xml.gz", "sitemap-cut: gzip-ratio"},
			{"http://sitemap.test/maps/deep-2.xml", "sitemap-skipped: depth"},
		} {
			p, ok := pages[c.url]
			if !ok {
				t.Errorf("%s: not stored", c.url)
				continue
			}
			if p.Status != storage.StatusFetched || !strings.HasPrefix(p.Reason, c.reason) {
				t.Errorf("%s: %v %q, want fetched with reason %q…", c.url, p.Status, p.Reason, c.reason)
			}
		}
		for _, u := range []string{
			"http://sitemap.test/maps/deep-3.xml",       // beyond the index depth
			"http://sitemap.test/maps/deep-4.xml",       //
			"http://sitemap.test/only/deep-beyond.html", // listed beyond the depth
			"http://sitemap.test/only/huge-beyond.html", // listed beyond 50,000 entries
		} {
			if requested[u] != 0 {
				t.Errorf("%s requested; it is beyond the sitemap bounds", u)
			}
			if _, ok := pages[u]; ok {
				t.Errorf("%s stored; it is beyond the sitemap bounds", u)
			}
		}
		for _, k := range []string{"cut/urls", "cut/gzip-ratio", "skip/depth"} {
			if sum.Sitemaps[k] != 1 {
				t.Errorf("summary sitemaps %s = %d, want 1 (all: %v)", k, sum.Sitemaps[k], sum.Sitemaps)
			}
		}
	})

	t.Run("each sitemap fetched once", func(t *testing.T) {
		for _, u := range []string{
			"http://sitemap.test/sitemap-index.xml", "http://sitemap.test/maps/pages-1.xml",
			"http://sitemap.test/maps/pages-2.xml.gz", "http://sitemap.test/maps/deep-1.xml",
			"http://sitemap.test/maps/deep-ok.xml", "http://sitemap.test/maps/deep-2.xml",
			"http://sitemap.test/urls.txt", "http://sitemap.test/huge.xml",
			"http://sitemap.test/bomb.xml.gz", "http://sitemap.test/sitemap.xml",
		} {
			if requested[u] != 1 {
				t.Errorf("%s requested %d times, want 1", u, requested[u])
			}
		}
	})

	t.Run("per-host gaps", func(t *testing.T) {
		// The sitemap requests are frontier jobs: the server sees every
		// host's requests at least --delay apart, sitemaps included.
		last := map[string]time.Duration{}
		checked, sitemaps := 0, 0
		for _, e := range entries {
			if prev, ok := last[e.Host]; ok {
				checked++
				if gap := e.Time - prev; gap < delay {
					t.Errorf("%s: %v before %s, want ≥ %v", e.Host, gap, e.Target, delay)
				}
				if e.Host == "sitemap.test" && (strings.HasSuffix(e.Target, ".xml") || strings.HasSuffix(e.Target, ".gz") || e.Target == "/urls.txt") {
					sitemaps++
				}
			}
			last[e.Host] = e.Time
		}
		if checked < 50 || sitemaps < 10 {
			t.Errorf("only %d gaps checked, %d after sitemap requests", checked, sitemaps)
		}
	})

	t.Run("lastmod stored", func(t *testing.T) {
		db := openDB(t, path)
		defer db.Close()
		checked := 0
		for _, e := range truth.SitemapEntries() {
			if e.LastMod.IsZero() || e.Depth > 2 || e.Position >= 50_000 || strings.HasSuffix(e.Sitemap, "/huge.xml") {
				continue
			}
			p, ok := pages[e.URL]
			if !ok {
				t.Errorf("%s listed by %s: not stored", e.URL, e.Sitemap)
				continue
			}
			got, ok, err := db.LastMod(p.ID)
			if err != nil || !ok || !got.Equal(e.LastMod) {
				t.Errorf("%s: lastmod %v, %v, %v; want %v", e.URL, got, ok, err, e.LastMod)
			}
			checked++
		}
		if checked < 5 {
			t.Errorf("only %d lastmod values checked", checked)
		}
		// The listed URLs are links of kind sitemap of the sitemap's page.
		sm := pages["http://sitemap.test/maps/pages-1.xml"]
		links, err := db.Links(sm.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != 6 {
			t.Errorf("pages-1.xml has %d links, want its 6 entries", len(links))
		}
		for _, l := range links {
			if l.Kind != storage.LinkSitemap {
				t.Errorf("pages-1.xml link to %d of kind %v, want sitemap", l.To, l.Kind)
			}
		}
	})

	t.Run("export shows the kind", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"export", "--db", path, "--what", "links", "--format", "tsv"}, &stdout, &stderr); code != 0 {
			t.Fatalf("export exit %d: %s", code, stderr.String())
		}
		want := fmt.Sprintf("%d\t%d\tsitemap\n", pages["http://sitemap.test/maps/pages-2.xml.gz"].ID, pages["http://sitemap.test/only/gz.html"].ID)
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("export of links has no line %q", want)
		}
	})
}

// TestCrawlSitemapsResume stops crawls of the sitemap web after a few
// pages, with sitemaps still queued (or already read but not all), and
// resumes them: the sitemaps left in the stored frontier are read as
// sitemaps (their mark is stored), none is fetched twice, and the result
// equals the ground truth with sitemaps.
func TestCrawlSitemapsResume(t *testing.T) {
	for _, stopAfter := range []int64{6, 12, 20, 30} {
		t.Run(fmt.Sprintf("stop after %d pages", stopAfter), func(t *testing.T) {
			w := crawlStartWeb(t, testweb.GenOptions{Seed: 5, Pages: 40, Hosts: 2, Preset: testweb.Clean, Sitemaps: true}, testweb.Options{})
			path := filepath.Join(t.TempDir(), "resume.db")
			cfg := demoConfig(path, w.site.Seeds(), w.srv, 0, 2)
			cfg.DelayFactor = 0
			cfg.MaxPages = stopAfter
			first := crawlRun(t, cfg, crawlExtras{})
			if first.Stopped != monitor.StopMaxPages || first.Sitemaps["queued"] == 0 || first.Pending == 0 {
				t.Fatalf("first run: stopped %q, sitemaps %v, %d pending; want max-pages with sitemaps queued", first.Stopped, first.Sitemaps, first.Pending)
			}
			cfg.MaxPages = 0
			second := crawlRun(t, cfg, crawlExtras{})
			if second.Stopped != monitor.StopExhausted || second.Sitemaps["files"] == 0 {
				t.Fatalf("second run: stopped %q, sitemaps %v", second.Stopped, second.Sitemaps)
			}
			count := map[string]int{}
			for _, e := range w.log.Entries() {
				count[e.URL()]++
			}
			for u, n := range count {
				if n > 1 && !strings.HasSuffix(u, "/robots.txt") {
					t.Errorf("%s requested %d times across the resume", u, n)
				}
			}
			if d := sitemapTruthDiff(t, path, w.web.Truth(), w.site.Seeds()); !d.Empty() {
				t.Fatalf("resumed crawl differs from the ground truth with sitemaps: %s", d)
			}
		})
	}
}

// sitemapTruthDiff compares the crawl stored at path with what truth says
// is reachable from seeds with sitemaps, the sitemap files left out.
func sitemapTruthDiff(t testing.TB, path string, truth *testweb.Truth, seeds []string) testweb.Diff {
	t.Helper()
	reach, err := truth.ReachableWithSitemaps(seeds, version.Token, testweb.SitemapLimits{})
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path)
	defer db.Close()
	g, err := graph.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	d, err := truthWithoutSitemapFiles(db, reach.Compare(g))
	if err != nil {
		t.Fatal(err)
	}
	return d
}
