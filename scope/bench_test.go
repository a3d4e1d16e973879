package scope

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/extract"
	"github.com/seedcrawl/seedcrawl/storage"
)

// storeCrawl is a crawl over a real store: links interned in it, nothing
// remote, requeued or counted.
type storeCrawl struct{ db *storage.DB }

func (c storeCrawl) Intern(urls []string, from uint64, depth uint32) ([]storage.Interned, error) {
	return c.db.Intern(urls, from, depth)
}
func (storeCrawl) Remote(string) bool             { return false }
func (storeCrawl) Requeue(uint64) (bool, error)   { return false, nil }
func (storeCrawl) Queue(uint64, *Link)            {}
func (storeCrawl) Refused(storage.Status, string) {}

// BenchmarkPageLinks measures what Rules.Extracted and Admission.Targets
// cost per link on the pages of a documentation site, crawled one after
// the other into a real store (bbolt, committed every 20 pages off the
// clock): each page carries nav navigation links (the same on every page)
// and 9 of its own. The 200 pages are extracted before the clock starts
// and taken in turn. notes=on is the crawl's path, the extractor memo's
// Notes carrying a navigation link's vetting and id from page to page;
// notes=off drops the Notes, so every link is vetted and interned by its
// URL. Extraction and commits are the extract and storage packages'
// benchmarks.
func BenchmarkPageLinks(b *testing.B) {
	const own, pages, perCommit = 9, 200, 20
	for _, nav := range []int{10, 66, 500} {
		for _, notes := range []bool{true, false} {
			name := fmt.Sprintf("nav=%d/notes=on", nav)
			if !notes {
				name = fmt.Sprintf("nav=%d/notes=off", nav)
			}
			b.Run(name, func(b *testing.B) {
				r, ex := siteRules(b, false, config.Default())
				db, err := storage.Open(filepath.Join(b.TempDir(), "crawl.db"), &storage.Options{NoSync: true})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { db.Close() })
				cr, a := storeCrawl{db}, r.Admission()
				seed, err := db.Intern([]string{"http://a.test/"}, storage.NoPage, 0)
				if err != nil {
					b.Fatal(err)
				}
				var navs strings.Builder
				for i := range nav {
					fmt.Fprintf(&navs, `<li><a href="/docs/section-%d.html">Section %d</a></li>`, i, i)
				}
				extracted := make([][]extract.Link, pages)
				links := 0
				for p := range extracted {
					var body strings.Builder
					body.WriteString(navs.String())
					for i := range own {
						fmt.Fprintf(&body, `<p><a href="p%d-%d.html">more</a></p>`, p, i)
					}
					f, err := ex.Follow(fmt.Sprintf("http://a.test/docs/p%d.html", p), []byte(body.String()), "", "")
					if err != nil {
						b.Fatal(err)
					}
					if !notes {
						for i := range f.Links {
							f.Links[i].Note = nil
						}
					}
					extracted[p] = f.Links
					links += len(f.Links)
				}
				b.ResetTimer()
				for i := range b.N {
					cands, _ := r.Extracted(extracted[i%pages], nil)
					if _, err := a.Targets(cr, &Page{ID: seed[0].ID, Links: cands}); err != nil {
						b.Fatal(err)
					}
					if (i+1)%perCommit == 0 {
						b.StopTimer()
						if err := db.Commit(nil); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*pages/float64(links), "ns/link")
			})
		}
	}
}
