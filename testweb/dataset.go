package testweb

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/outfile"
)

// WriteDataset writes the truth in the ../shared/data format, so it reads
// back with graph.ReadDataset:
//
//   - BASENAME.arcs.tsv.gz and BASENAME.urls.gz: Graph (arcs sorted and
//     deduplicated as the format requires);
//   - BASENAME.nodes.tsv.gz: after "# " header lines, one line per node:
//     id, kind, status, "allowed" or "forbidden" for token under robots.txt,
//     the epoch of its last change and its PageRank;
//   - BASENAME.seeds.txt: the seed URLs, one per line after a "#" comment,
//     the format of seedcrawl crawl --seeds.
func (t *Truth) WriteDataset(basename, token string) error {
	source := fmt.Sprintf("%s epoch=%d", t.site.name, t.Epoch)
	if err := graph.WriteDataset(basename, source, t.Graph); err != nil {
		return fmt.Errorf("testweb: dump truth: %w", err)
	}
	pr := t.PageRank()
	path := basename + ".nodes.tsv.gz"
	err := outfile.WriteGzip(path, func(bw *bufio.Writer) error {
		fmt.Fprintf(bw, "# name: %s\n# source: %s\n# robots token: %s\n# columns: id kind status robots modified_epoch pagerank\n",
			baseName(basename), source, token)
		var line []byte
		for v, info := range t.Nodes {
			line = strconv.AppendInt(line[:0], int64(v), 10)
			line = append(line, '\t')
			line = append(line, info.Kind.String()...)
			line = append(line, '\t')
			line = strconv.AppendInt(line, int64(info.Status), 10)
			if t.Allowed(t.Graph.URLs[v], token) {
				line = append(line, "\tallowed\t"...)
			} else {
				line = append(line, "\tforbidden\t"...)
			}
			line = strconv.AppendInt(line, int64(info.Modified), 10)
			line = append(line, '\t')
			line = strconv.AppendFloat(line, pr[v], 'g', 10, 64)
			line = append(line, '\n')
			bw.Write(line)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("testweb: write %s: %w", path, err)
	}
	path = basename + ".seeds.txt"
	err = outfile.Write(path, func(w *bufio.Writer) error {
		fmt.Fprintf(w, "# seeds of %s epoch=%d\n", t.site.name, t.Epoch)
		for _, s := range t.Seeds {
			w.WriteString(s)
			w.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("testweb: write %s: %w", path, err)
	}
	return nil
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
