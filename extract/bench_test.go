package extract

import (
	"fmt"
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
