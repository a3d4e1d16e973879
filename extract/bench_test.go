package extract

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/internal/cputime"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
)

// synthPage builds a page of about size bytes with links a-tags spread
// through paragraphs of text, like an article or listing page.
func synthPage(links, size int) string {
	var sb strings.Builder
	sb.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Synthetic page</title>
<link rel="stylesheet" href="/s.css"><link rel="canonical" href="/canon"></head><body><nav>`)
	for i := 0; i < links; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&sb, `<a href="/section/page-%d.html">Page %d</a> `, i, i)
		case 1:
			fmt.Fprintf(&sb, `<a href="../other/%d?x=%d&amp;y=z" class="c">Other</a> `, i, i)
		case 2:
			fmt.Fprintf(&sb, `<a href="https://ext%d.example.org/path/%d" rel="nofollow">Ext</a> `, i%7, i)
		default:
			fmt.Fprintf(&sb, `<p>Some text with a <a href="rel-%d.html#frag">relative link</a>.</p>`, i)
		}
	}
	sb.WriteString("</nav><main>")
	para := "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n"
	for sb.Len() < size {
		sb.WriteString(para)
	}
	sb.WriteString("</main></body></html>")
	return sb.String()
}

// BenchmarkLinks measures extraction throughput (pages/s and MB/s) at
// several page sizes and link counts.
func BenchmarkLinks(b *testing.B) {
	for _, c := range []struct{ links, size int }{{10, 2 << 10}, {50, 16 << 10}, {100, 64 << 10}, {300, 256 << 10}} {
		page := []byte(synthPage(c.links, c.size))
		b.Run(fmt.Sprintf("links=%d/size=%dKiB", c.links, len(page)>>10), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := Links("http://www.example.com/section/index.html", page, Options{})
				if err != nil || len(p.Links) != c.links+1 {
					b.Fatalf("links %d, err %v", len(p.Links), err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// benchPages are real documentation pages of several sizes from
// testdata/pydocs: small, median, large and a link-dense index.
var benchPages = []string{"library_getopt.html", "library_json.html", "library_io.html", "library_os.html", "genindex-P.html"}

func benchPage(b *testing.B, name string) (string, []byte) {
	body := crawltest.ReadGzip(b, filepath.Join("testdata", "pydocs", name+".gz"))
	return "https://docs.python.org/3.11/" + strings.Replace(name, "_", "/", 1), body
}

// BenchmarkExtractReal compares the streaming extractor with the goquery
// tree walker on real documentation pages of several sizes (links/op is
// the distinct links found).
func BenchmarkExtractReal(b *testing.B) {
	for _, name := range benchPages {
		u, body := benchPage(b, name)
		for _, impl := range []string{"stream", "goquery"} {
			b.Run(fmt.Sprintf("page=%s/size=%dKiB/impl=%s", strings.TrimSuffix(name, ".html"), len(body)>>10, impl), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				var links int
				for b.Loop() {
					var p Page
					if impl == "stream" {
						p = streamExtract(b, u, body, Options{}, false)
					} else {
						p = domExtract(b, u, body, Options{}, false)
					}
					links = len(p.Links)
				}
				b.ReportMetric(float64(links), "links/op")
			})
		}
	}
}

// BenchmarkExtractCorpus extracts all 30 sample pages per op; divide by 30
// for the cost of an average documentation page.
func BenchmarkExtractCorpus(b *testing.B) {
	urls, bodies := pydocs(b)
	size := 0
	for _, body := range bodies {
		size += len(body)
	}
	for _, impl := range []string{"stream", "goquery"} {
		b.Run("impl="+impl, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			cpu := cputime.Process()
			for b.Loop() {
				for i, u := range urls {
					if impl == "stream" {
						streamExtract(b, u, bodies[i], Options{}, false)
					} else {
						domExtract(b, u, bodies[i], Options{}, false)
					}
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(b.N*len(urls)), "cpu-µs/page")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(urls)), "µs/page")
		})
	}
}

// navSite returns n pages of a documentation-like site: each page is
// in one of 5 directories, carries a navigation block of 60 links spelt
// the same on every page (relative, root-relative and absolute), 10 links
// of its own and text up to about 30 KB.
func navSite(n int) (urls []string, bodies [][]byte) {
	dirs := []string{"guide", "library", "howto", "reference", "faq"}
	var nav strings.Builder
	nav.WriteString(`<nav class="sidebar"><ul>`)
	for i := range 60 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&nav, `<li><a href="../%s/topic-%d.html">Topic %d</a></li>`, dirs[i%5], i, i)
		case 1:
			fmt.Fprintf(&nav, `<li><a href="/%s/topic-%d.html">Topic %d</a></li>`, dirs[i%5], i, i)
		case 2:
			fmt.Fprintf(&nav, `<li><a href="https://docs.example.test/%s/topic-%d.html">Topic %d</a></li>`, dirs[i%5], i, i)
		default:
			fmt.Fprintf(&nav, `<li><a href="topic-%d.html">Topic %d</a></li>`, i, i)
		}
	}
	nav.WriteString("</ul></nav>")
	para := "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n"
	for i := range n {
		dir := dirs[i%5]
		urls = append(urls, fmt.Sprintf("https://docs.example.test/%s/page-%d.html", dir, i))
		var sb strings.Builder
		fmt.Fprintf(&sb, `<!doctype html><html><head><meta charset="utf-8"><title>Page %d</title><link rel="stylesheet" href="../static/site.css"></head><body>`, i)
		sb.WriteString(nav.String())
		sb.WriteString("<main>")
		for j := range 10 {
			fmt.Fprintf(&sb, `<p>See <a href="page-%d-%d.html#s%d">section %d</a>.</p>`, i, j, j, j)
			for range 27 {
				sb.WriteString(para)
			}
		}
		sb.WriteString("</main></body></html>")
		bodies = append(bodies, []byte(sb.String()))
	}
	return urls, bodies
}

// BenchmarkExtractSite extracts the pages of one site in turn with one
// Extractor, as a crawler does, with the memo of resolved links (memo=on)
// and without (memo=off): 30 real Python documentation pages (whose
// sidebars differ from page to page), and 100 or 1,000 pages of navSite
// (the same navigation on every page). Each op is a fresh Extractor over
// all the pages, so the memo only helps with links repeated across them.
func BenchmarkExtractSite(b *testing.B) {
	type site struct {
		name   string
		urls   []string
		bodies [][]byte
	}
	pu, pb := pydocs(b)
	sites := []site{{name: "pydocs-30", urls: pu, bodies: pb}}
	for _, n := range []int{100, 1000} {
		u, body := navSite(n)
		sites = append(sites, site{fmt.Sprintf("nav-%d", n), u, body})
	}
	for _, st := range sites {
		for _, memo := range []bool{true, false} {
			name := "site=" + st.name + "/memo=on"
			if !memo {
				name = "site=" + st.name + "/memo=off"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				cpu := cputime.Process()
				links := 0
				for b.Loop() {
					e := mustNew(b, Options{})
					if !memo {
						e.memo = nil
					}
					for i, u := range st.urls {
						p, err := e.Extract(u, st.bodies[i], "")
						if err != nil {
							b.Fatal(err)
						}
						links += len(p.Links)
					}
				}
				pages := b.N * len(st.urls)
				b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(pages), "cpu-µs/page")
				b.ReportMetric(float64(links)/float64(pages), "links/page")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkLinksCorpus runs the Links API (every occurrence, the crawler's
// current call) over all 30 sample pages per op.
func BenchmarkLinksCorpus(b *testing.B) {
	urls, bodies := pydocs(b)
	b.ReportAllocs()
	cpu := cputime.Process()
	for b.Loop() {
		for i, u := range urls {
			if _, err := Links(u, bodies[i], Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(b.N*len(urls)), "cpu-µs/page")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(urls)), "µs/page")
}

// BenchmarkLinksPage runs the Links API on single real pages of several
// sizes (31 KiB to 737 KiB, and a link-dense index).
func BenchmarkLinksPage(b *testing.B) {
	for _, name := range benchPages {
		u, body := benchPage(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Links(u, body, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
