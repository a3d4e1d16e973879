package scope

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/extract"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// countingCrawl is a crawl that counts the URLs it is asked to intern.
type countingCrawl struct {
	*crawl
	asked int
}

func (c *countingCrawl) Intern(urls []string, from uint64, depth uint32) ([]storage.Interned, error) {
	c.asked += len(urls)
	return c.crawl.Intern(urls, from, depth)
}

// TestNotedLinks runs the pages of a site through the extractor, Extracted
// and Targets, page after page as a crawl does, twice over: with the
// Notes of the extractor's memo (noted) and with every Note dropped
// (plain, the answers without them). Both must say the same of every
// link (ids in order, New, skips, rejects, scope) while the noted crawl
// interns a navigation link only until its Note holds its id, and a
// second Admission, another crawl, trusts no id the first one noted.
func TestNotedLinks(t *testing.T) {
	s := config.Default()
	s.MaxDepth = 2
	r, ex := siteRules(t, true, s)
	const nav = `<a href="/a">a</a> <a href="b">b</a> <a href="/x/x/x/x/x">trap</a> <a href="http://b.test:8080/o">other</a>`
	noted := &countingCrawl{crawl: &crawl{ids: map[string]uint64{}, again: map[uint64]bool{}}}
	plain := &countingCrawl{crawl: &crawl{ids: map[string]uint64{}, again: map[uint64]bool{}}}
	an, ap := r.Admission(), r.Admission()
	tests := []struct {
		name     string
		page     string
		redirect bool // a seed's redirect to b.test:8080 first
		second   bool // a second crawl (a new Admission and store) from here on
		asked    int  // URLs the noted crawl is asked to intern
	}{
		{name: "first page: no notes", page: "p1", asked: 4},
		{name: "second page: notes made", page: "p2", asked: 4},
		{name: "third page: navigation known", page: "p3", asked: 1},
		{name: "a seed redirect brings the other host in", page: "p4", redirect: true, asked: 1},
		{name: "another crawl interns everything", page: "p5", second: true, asked: 4},
		{name: "and then notes its own ids", page: "p6", asked: 1},
	}
	for i, tt := range tests {
		if tt.redirect {
			l, _, _ := r.Vet("http://b.test:8080/", 0)
			if !r.Redirect(&l, 0) {
				t.Fatalf("%s: the redirect did not widen the scope", tt.name)
			}
		}
		if tt.second {
			noted = &countingCrawl{crawl: &crawl{ids: map[string]uint64{}, again: map[uint64]bool{}}}
			plain = &countingCrawl{crawl: &crawl{ids: map[string]uint64{}, again: map[uint64]bool{}}}
			an, ap = r.Admission(), r.Admission()
		}
		body := fmt.Sprintf(`%s <a href="own-%d">own</a>`, nav, i)
		f, err := ex.Follow("http://a.test/d/"+tt.page, []byte(body), "", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range f.Links {
			if l.Kept != r.InScope(l.URL) {
				t.Errorf("%s: %s kept %v, in scope %v", tt.name, l.URL, l.Kept, r.InScope(l.URL))
			}
		}
		bare := slices.Clone(f.Links)
		for j := range bare {
			bare[j].Note = nil
		}
		asked := noted.asked
		nl, nrej := r.Extracted(f.Links, nil)
		pl, prej := r.Extracted(bare, nil)
		nt, err := an.Targets(noted, &Page{ID: uint64(100 + i), Links: nl})
		if err != nil {
			t.Fatal(err)
		}
		pt, err := ap.Targets(plain, &Page{ID: uint64(100 + i), Links: pl})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := linkStrings(nl), linkStrings(pl); !slices.Equal(got, want) || !slices.Equal(nrej, prej) {
			t.Errorf("%s: Extracted %v %v, without notes %v %v", tt.name, got, nrej, want, prej)
		}
		if fmt.Sprint(nt.Targets, nt.Links, nt.Skips, nt.Discovered) != fmt.Sprint(pt.Targets, pt.Links, pt.Skips, pt.Discovered) ||
			fmt.Sprint(noted.queued, noted.refused) != fmt.Sprint(plain.queued, plain.refused) {
			t.Errorf("%s: targets %+v, without notes %+v", tt.name, nt, pt)
		}
		if got := noted.asked - asked; got != tt.asked {
			t.Errorf("%s: %d URLs interned, want %d", tt.name, got, tt.asked)
		}
	}
}

// linkStrings shows links without their notes.
func linkStrings(links []Link) []string {
	var s []string
	for _, l := range links {
		s = append(s, fmt.Sprint(l.URL, " ", l.Host, " ", l.Kind, " ", l.InScope))
	}
	return s
}

// Workers vetting the links of pages at once (sharing the extractor's
// Notes) while one goroutine admits them, as a crawl does: every link
// gets the id its URL was interned with, new exactly once. Run with -race.
func TestNotedConcurrent(t *testing.T) {
	r, ex := siteRules(t, false, config.Default())
	const workers, pages = 4, 60
	pagesOut := make(chan []Link)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range pages {
				body := fmt.Sprintf(`<a href="/">home</a> <a href="/s/%d">nav</a> <a href="/s/%d">nav</a> <a href="own-%d-%d">own</a>`, p%7, p%5+7, w, p)
				f, err := ex.Follow(fmt.Sprintf("http://a.test/d/%d-%d", w, p), []byte(body), "", "")
				if err != nil {
					t.Error(err)
					return
				}
				links, _ := r.Extracted(f.Links, nil)
				pagesOut <- links
			}
		}()
	}
	go func() {
		wg.Wait()
		close(pagesOut)
	}()
	cr := &countingCrawl{crawl: &crawl{ids: map[string]uint64{}, again: map[uint64]bool{}}}
	a := r.Admission()
	news := map[string]int{}
	total := 0
	for links := range pagesOut {
		total += len(links)
		got, err := a.Targets(cr, &Page{ID: 1, Links: links})
		if err != nil {
			t.Fatal(err)
		}
		for i, tg := range got.Targets {
			if want := cr.ids[links[i].URL]; tg.ID != want {
				t.Fatalf("%s: id %d, interned as %d", links[i].URL, tg.ID, want)
			}
			if tg.New {
				news[links[i].URL]++
			}
		}
	}
	for u, n := range news {
		if n != 1 {
			t.Errorf("%s new %d times", u, n)
		}
	}
	if len(news) != len(cr.ids) {
		t.Errorf("%d URLs new, %d interned", len(news), len(cr.ids))
	}
	// Each page's own link is interned; its navigation mostly is not.
	if cr.asked >= total/2 {
		t.Errorf("%d of %d links interned: the Notes' ids went unused", cr.asked, total)
	}
}

// siteRules returns the Rules of a crawl of the host a.test with settings
// s, and their extractor. Host names, not addresses: the extractor's memo
// remembers what urlnorm's fast path resolves, which leaves IP addresses
// to the WHATWG parser.
func siteRules(t testing.TB, seedRedirects bool, s config.Config) (*Rules, *extract.Extractor) {
	t.Helper()
	sc, err := urlnorm.ParseScope(urlnorm.ScopeSeedHosts, []string{"http://a.test/"}, "")
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Scope: sc, SeedRedirects: seedRedirects, Settings: s, Hosts: hosts{}})
	ex, err := r.Extractor()
	if err != nil {
		t.Fatal(err)
	}
	return r, ex
}
