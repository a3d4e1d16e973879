package urlnorm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkNormalize measures Normalize on URLs of several lengths, for the
// fast path (plain ASCII) and the WHATWG path (non-ASCII, IDN).
func BenchmarkNormalize(b *testing.B) {
	cases := []struct{ name, url string }{
		{"fast/short", "http://www.example.com/"},
		{"fast/medium", "http://www.example.com/news/2024/05/some-article-title.html?id=42&ref=home"},
		{"fast/long", "https://www.example.com/" + strings.Repeat("segment/", 30) + "?q=" + strings.Repeat("x", 200)},
		{"whatwg/idn", "http://bücher.example/straße?q=ä"},
		{"whatwg/dots", "http://www.example.com/a/./b/../c/%7Euser"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Normalize(c.url); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResolve measures resolving typical page links against a parsed
// Base, the per-link cost of extraction.
func BenchmarkResolve(b *testing.B) {
	base, err := NewBase("http://www.example.com/section/page.html")
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, ref string }{
		{"fast/sibling", "other.html"},
		{"fast/parent", "../up/there.html?x=1"},
		{"fast/absolute", "https://cdn.example.net/a/b"},
		{"whatwg/non-ascii", "köln.html"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := base.Resolve(c.ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGuard measures a trap-guard check at several path depths.
func BenchmarkGuard(b *testing.B) {
	for _, depth := range []int{2, 10, 30} {
		u := "http://example.com/" + strings.Repeat("seg/", depth)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			var g Guard
			for b.Loop() {
				g.Check(u)
			}
		})
	}
}

// realLinks loads testdata/links.tsv: the distinct hrefs of 30 pages of
// the Python documentation (extract/testdata/pydocs), one "page URL, tab,
// href" per line.
func realLinks(b *testing.B) (bases []*Base, refs []string) {
	data, err := os.ReadFile(filepath.Join("testdata", "links.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	byPage := map[string]*Base{}
	for line := range strings.Lines(string(data)) {
		page, ref, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if !ok {
			continue
		}
		base := byPage[page]
		if base == nil {
			if base, err = NewBase(page); err != nil {
				b.Fatal(err)
			}
			byPage[page] = base
		}
		bases = append(bases, base)
		refs = append(refs, ref)
	}
	return bases, refs
}

// BenchmarkResolveReal resolves the links of real documentation pages
// against their page; ns/link is the per-link cost of normalization in
// extraction.
func BenchmarkResolveReal(b *testing.B) {
	bases, refs := realLinks(b)
	b.ReportAllocs()
	for b.Loop() {
		for i, ref := range refs {
			bases[i].Resolve(ref)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(refs)), "ns/link")
	b.ReportMetric(0, "ns/op")
}
