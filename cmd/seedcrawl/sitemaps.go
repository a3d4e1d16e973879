package main

import (
	"fmt"
	"slices"

	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/testweb"
)

// truthWithoutSitemapFiles removes the sitemap files a crawl read from a
// comparison with the test web's ground truth: like robots.txt they are
// not nodes of the truth, but the crawl stores them as pages (with the
// URLs they list as links of kind sitemap).
func truthWithoutSitemapFiles(db *storage.DB, d testweb.Diff) (testweb.Diff, error) {
	files := map[string]bool{}
	err := db.EachSitemap(func(id uint64, _ storage.SitemapFile) error {
		u, err := db.URL(id)
		if err != nil {
			return fmt.Errorf("url of sitemap %d: %w", id, err)
		}
		files[u] = true
		return nil
	})
	if err != nil {
		return d, fmt.Errorf("ground truth: sitemap files: %w", err)
	}
	if len(files) == 0 {
		return d, nil
	}
	d.ExtraURLs = slices.DeleteFunc(d.ExtraURLs, func(u string) bool { return files[u] })
	d.ExtraArcs = slices.DeleteFunc(d.ExtraArcs, func(a [2]string) bool { return files[a[0]] })
	return d, nil
}
