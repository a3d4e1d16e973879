package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	body, err := os.ReadFile(filepath.Join("testdata", "pydocs", name))
	if err != nil {
		b.Fatal(err)
	}
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
			cpu := cpuTime()
			for b.Loop() {
				for i, u := range urls {
					if impl == "stream" {
						streamExtract(b, u, bodies[i], Options{}, false)
					} else {
						domExtract(b, u, bodies[i], Options{}, false)
					}
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N*len(urls)), "cpu-µs/page")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(urls)), "µs/page")
		})
	}
}

// BenchmarkLinksCorpus runs the Links API (every occurrence, the crawler's
// current call) over all 30 sample pages per op.
func BenchmarkLinksCorpus(b *testing.B) {
	urls, bodies := pydocs(b)
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		for i, u := range urls {
			if _, err := Links(u, bodies[i], Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N*len(urls)), "cpu-µs/page")
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
