package scope

import (
	"fmt"
	"slices"
	"testing"

	"github.com/seedcrawl/seedcrawl/extract"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// TestExtracted checks that extracted links keep the extractor's scope
// answer, get storage's kind of their name, and are guard-checked.
func TestExtracted(t *testing.T) {
	r := newRules(t, false)
	links := []extract.Link{
		{URL: "http://127.0.0.1:8080/a", Kind: extract.KindA, Kept: true},
		{URL: "http://127.0.0.1:8080/x/x/x/x/x", Kind: extract.KindA, Kept: true},
		{URL: "http://127.0.0.9:8080/c", Kind: extract.KindCanonical},
	}
	got, rejects := r.Extracted(links, []string{"bad-url"})
	want := []Link{
		{URL: links[0].URL, Host: "127.0.0.1:8080", Kind: storage.LinkA, InScope: true},
		{URL: links[2].URL, Host: "127.0.0.9:8080", Kind: storage.LinkCanonical},
	}
	if !slices.Equal(got, want) || !slices.Equal(rejects, []string{"bad-url", urlnorm.ReasonRepeatedSegments}) {
		t.Errorf("Extracted = %+v %v, want %+v and the repeated segments", got, rejects, want)
	}
}

// TestStored checks that stored links keep their kind and that a link a
// guard now refuses is left out.
func TestStored(t *testing.T) {
	r := newRules(t, false)
	got, err := r.Stored(outLinks{
		{URL: "http://127.0.0.1:8080/a", Kind: storage.LinkRedirect},
		{URL: "http://127.0.0.1:8080/x/x/x/x/x", Kind: storage.LinkA},
		{URL: "http://127.0.0.9:8080/b", Kind: storage.LinkSitemap},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Link{
		{URL: "http://127.0.0.1:8080/a", Host: "127.0.0.1:8080", Kind: storage.LinkRedirect, InScope: true},
		{URL: "http://127.0.0.9:8080/b", Host: "127.0.0.9:8080", Kind: storage.LinkSitemap},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Stored = %+v, want %+v", got, want)
	}
}

// outLinks are the stored out-links of every page.
type outLinks []storage.OutLink

func (o outLinks) OutLinks(uint64) ([]storage.OutLink, error) { return o, nil }

// TestExtractor checks that the extractor's cap counts the links in scope
// and the links out of scope apart.
func TestExtractor(t *testing.T) {
	r := newRules(t, false)
	r.opts.Settings.MaxOutLinks = 1
	ex, err := r.Extractor()
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`<a href="/a">a</a> <a href="/b">b</a> <a href="http://127.0.0.9:8080/c">c</a> <a href="http://127.0.0.9:8080/d">d</a>`)
	f, err := ex.Follow("http://127.0.0.1:8080/", body, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range f.Links {
		got = append(got, fmt.Sprint(l.URL, " ", l.Kept))
	}
	want := []string{"http://127.0.0.1:8080/a true", "http://127.0.0.9:8080/c false"}
	if !slices.Equal(got, want) || f.Dropped != 2 {
		t.Errorf("links %q, dropped %d; want %q, dropped 2", got, f.Dropped, want)
	}
}
