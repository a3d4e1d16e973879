package graph

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/internal/outfile"
)

// ReadDataset reads BASENAME.arcs.tsv.gz and, when it exists,
// BASENAME.urls.gz, in the format of ../shared/data/README.md. The node count
// comes from the header, so isolated nodes are kept; it is checked against
// the arcs (see ReadArcsText) before the URL list is read, and the URL list
// must have exactly that many lines. Errors name the file and line.
func ReadDataset(basename string) (*CSR, error) {
	arcs := basename + ".arcs.tsv.gz"
	f, err := os.Open(arcs)
	if err != nil {
		return nil, fmt.Errorf("graph: read dataset %s: %w", basename, err)
	}
	defer f.Close()
	g, err := ReadArcs(f, arcs)
	if err != nil {
		return nil, err
	}
	return withURLs(g, basename, "dataset")
}

// withURLs gives g the URLs of BASENAME.urls.gz when that file exists (a
// graph without it has no URLs); kind names the format in errors.
func withURLs(g *CSR, basename, kind string) (*CSR, error) {
	urlsPath := basename + ".urls.gz"
	uf, err := os.Open(urlsPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return g, nil
	case err != nil:
		return nil, fmt.Errorf("graph: read %s %s: %w", kind, basename, err)
	}
	defer uf.Close()
	urls, err := ReadURLs(uf, urlsPath, g.N())
	if err != nil {
		return nil, err
	}
	g.SetURLs(urls)
	return g, nil
}

// ReadArcs reads a gzip-compressed arcs file. name is used in error messages.
func ReadArcs(r io.Reader, name string) (*CSR, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not gzip: %w", ErrFormat, name, err)
	}
	defer zr.Close()
	return ReadArcsText(zr, name)
}

// ReadURLs reads a gzip-compressed URL list of exactly n lines. The list
// grows as lines arrive, so a wrong n costs no memory before the data
// contradicts it.
func ReadURLs(r io.Reader, name string, n int) ([]string, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not gzip: %w", ErrFormat, name, err)
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	urls := make([]string, 0, min(n, MaxPrealloc))
	for sc.Scan() {
		if len(urls) == n {
			return nil, fmt.Errorf("%w: %s:%d: more URL lines than the %d nodes", ErrFormat, name, n+1, n)
		}
		urls = append(urls, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %w", ErrFormat, name, len(urls)+1, err)
	}
	if len(urls) != n {
		return nil, fmt.Errorf("%w: %s: %d URL lines for %d nodes", ErrFormat, name, len(urls), n)
	}
	return urls, nil
}

// WriteDataset writes g as BASENAME.arcs.tsv.gz and, when g has URLs,
// BASENAME.urls.gz, in the ../shared/data format. Arcs are written sorted by
// source then target with duplicates removed, as the format requires; source
// names the "# source:" header value.
func WriteDataset(basename, source string, g *CSR) error {
	name := basename
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	n := g.N()
	// Sorted, de-duplicated copy of each adjacency list.
	var loops, m int
	lists := make([][]uint32, n)
	for v := 0; v < n; v++ {
		out := append([]uint32(nil), g.Out(uint32(v))...)
		sortU32(out)
		k := 0
		for i, t := range out {
			if i > 0 && t == out[i-1] {
				continue
			}
			out[k] = t
			k++
			if t == uint32(v) {
				loops++
			}
		}
		lists[v] = out[:k]
		m += k
	}
	err := writeGz(basename+".arcs.tsv.gz", func(w *bufio.Writer) error {
		fmt.Fprintf(w, "# name: %s\n# source: %s\n# nodes: %d arcs: %d\n# self-loops: %d\n", name, source, n, m, loops)
		buf := make([]byte, 0, 32)
		for v, out := range lists {
			for _, t := range out {
				buf = strconv.AppendUint(buf[:0], uint64(v), 10)
				buf = append(buf, '\t')
				buf = strconv.AppendUint(buf, uint64(t), 10)
				buf = append(buf, '\n')
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil || g.URLs == nil {
		return err
	}
	return writeGz(basename+".urls.gz", func(w *bufio.Writer) error {
		for _, u := range g.URLs {
			if strings.ContainsAny(u, " \t\r\n") {
				return fmt.Errorf("URL %q contains whitespace", u)
			}
			w.WriteString(u)
			w.WriteByte('\n')
		}
		return nil
	})
}

// writeGz writes path with body through gzip, or not at all.
func writeGz(path string, body func(*bufio.Writer) error) error {
	if err := outfile.WriteGzip(path, body); err != nil {
		return fmt.Errorf("graph: write %s: %w", path, err)
	}
	return nil
}

func sortU32(a []uint32) {
	// insertion sort for short lists, else standard sort
	if len(a) < 24 {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && a[j] < a[j-1]; j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		return
	}
	sortSlice(a)
}
