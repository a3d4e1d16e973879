package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

const exportUsage = `usage: seedcrawl export [--db FILE] --what pages|links|graph|fetches [--format tsv|jsonl|edgelist|graphml|pajek] [--out FILE]

  --what pages   one record per URL: id, url, status, code, content type, length,
                 truncated, hash, ETag, Last-Modified, fetched at, response time,
                 depth, found on (page id), reason
  --what links   one record per link: source id, target id, kind (a, redirect, ...)
  --what graph   --out BASENAME writes BASENAME.arcs.tsv.gz and BASENAME.urls.gz in
                 the ../shared/data format (--cycle N: the graph as of cycle N);
                 --format edgelist|graphml|pajek writes one file that networkx and
                 igraph read instead: BASENAME.edgelist ("src<TAB>dst" page ids, no
                 header; isolated pages are lost), BASENAME.graphml (with a url
                 attribute) or BASENAME.net (Pajek, URLs as names); --out - or no
                 --out writes it to stdout
  --what fetches one record per page and cycle (seedcrawl run's history): cycle, id,
                 url, status, code, change (new, changed, unchanged, gone, none), hash,
                 length, fetched at, response time (--cycle N: that cycle only)

Pages, links and fetches go to stdout unless --out names a file.
`

// runExport implements `seedcrawl export`.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", stderr)
	dbPath := fs.String("db", "seedcrawl.db", "crawl database `FILE`")
	what := fs.String("what", "", "what to export: pages, links, graph or fetches")
	format := fs.String("format", "tsv", "record format: tsv or jsonl (pages, links, fetches); for graph, tsv (the dataset files), edgelist, graphml or pajek")
	out := fs.String("out", "", "output `FILE` (pages, links; default stdout) or BASENAME (graph)")
	cycle := fs.Uint("cycle", 0, "export the graph as of cycle `N`, or the fetches of cycle N (seedcrawl run); 0: the current graph, every cycle's fetches")
	if err := parseFlagsOnly(fs, args, exportUsage); err != nil {
		return err
	}
	switch *what {
	case "pages", "links", "graph", "fetches":
	default:
		return fmt.Errorf("%w: --what %q: want pages, links, graph or fetches", errUsage, *what)
	}
	graphFile := *what == "graph" && (*format == "edgelist" || *format == "graphml" || *format == "pajek")
	switch {
	case *what == "graph" && !graphFile && *format != "tsv":
		return fmt.Errorf("%w: --format %q: --what graph wants tsv (the dataset files), edgelist, graphml or pajek", errUsage, *format)
	case *what != "graph" && *format != "tsv" && *format != "jsonl":
		return fmt.Errorf("%w: --format %q: want tsv or jsonl", errUsage, *format)
	}
	if *what == "graph" && !graphFile && *out == "" {
		return fmt.Errorf("%w: --what graph writes two files: give --out BASENAME", errUsage)
	}
	if *cycle != 0 && *what != "graph" && *what != "fetches" {
		return fmt.Errorf("%w: --cycle applies to --what graph and --what fetches", errUsage)
	}
	db, err := openDBReadOnly(*dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if graphFile {
		return exportGraphFile(db, *format, *out, uint32(*cycle), stdout, stderr)
	}
	if *what == "graph" {
		return exportGraph(db, *out, uint32(*cycle), stderr)
	}

	w := stdout
	var f *os.File
	if *out != "" && *out != "-" {
		if err := refuseDatabase("--out", *out); err != nil {
			return err
		}
		if f, err = os.Create(*out); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	switch *what {
	case "pages":
		err = exportPageList(db, bw, *format)
	case "links":
		err = exportLinkList(db, bw, *format)
	default:
		err = exportFetchList(db, bw, *format, uint32(*cycle))
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("export %s: %w", *what, err)
	}
	return nil
}

// exportPageRecord is one exported page (the JSON form; TSV has the same columns).
type exportPageRecord struct {
	ID           uint64 `json:"id"`
	URL          string `json:"url"`
	Status       string `json:"status"`
	Code         int    `json:"code"`
	ContentType  string `json:"content_type"`
	Length       int64  `json:"length"`
	Truncated    bool   `json:"truncated"`
	Hash         string `json:"hash"`
	ETag         string `json:"etag"`
	LastModified string `json:"last_modified"`
	FetchedAt    string `json:"fetched_at"`
	DurationMS   int64  `json:"duration_ms"`
	Depth        uint32 `json:"depth"`
	From         *int64 `json:"from"` // null for seeds
	Reason       string `json:"reason"`
}

var exportPageColumns = []string{"id", "url", "status", "code", "content_type", "length", "truncated", "hash",
	"etag", "last_modified", "fetched_at", "duration_ms", "depth", "from", "reason"}

func exportPageList(db *storage.DB, w *bufio.Writer, format string) error {
	enc := json.NewEncoder(w)
	if format == "tsv" {
		w.WriteString(strings.Join(exportPageColumns, "\t") + "\n")
	}
	return db.EachPage(func(p *storage.Page) error {
		r := exportPageRecord{
			ID: p.ID, URL: p.URL, Status: p.Status.String(), Code: p.Code, ContentType: p.ContentType,
			Length: p.Length, Truncated: p.Truncated, Hash: p.Hash.String(), ETag: p.ETag,
			LastModified: p.LastModified, DurationMS: p.Duration.Milliseconds(), Depth: p.Depth, Reason: p.Reason,
		}
		if !p.FetchedAt.IsZero() {
			r.FetchedAt = p.FetchedAt.UTC().Format(time.RFC3339Nano)
		}
		if p.From != storage.NoPage {
			from := int64(p.From)
			r.From = &from
		}
		if format == "jsonl" {
			return enc.Encode(r)
		}
		from := ""
		if r.From != nil {
			from = strconv.FormatInt(*r.From, 10)
		}
		cols := []string{strconv.FormatUint(r.ID, 10), r.URL, r.Status, strconv.Itoa(r.Code), exportTSVField(r.ContentType),
			strconv.FormatInt(r.Length, 10), strconv.FormatBool(r.Truncated), r.Hash, exportTSVField(r.ETag),
			exportTSVField(r.LastModified), r.FetchedAt, strconv.FormatInt(r.DurationMS, 10),
			strconv.FormatUint(uint64(r.Depth), 10), from, exportTSVField(r.Reason)}
		_, err := w.WriteString(strings.Join(cols, "\t") + "\n")
		return err
	})
}

// exportTSVField replaces the characters that would break a TSV line.
func exportTSVField(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(s)
}

func exportLinkList(db *storage.DB, w *bufio.Writer, format string) error {
	if format == "tsv" {
		w.WriteString("src\tdst\tkind\n")
	}
	buf := make([]byte, 0, 64)
	return db.EachLink(func(src uint64, links []storage.Link) error {
		for _, l := range links {
			buf = buf[:0]
			if format == "jsonl" {
				buf = append(buf, `{"src":`...)
				buf = strconv.AppendUint(buf, src, 10)
				buf = append(buf, `,"dst":`...)
				buf = strconv.AppendUint(buf, l.To, 10)
				buf = append(buf, `,"kind":"`...)
				buf = append(buf, l.Kind.String()...)
				buf = append(buf, "\"}\n"...)
			} else {
				buf = strconv.AppendUint(buf, src, 10)
				buf = append(buf, '\t')
				buf = strconv.AppendUint(buf, l.To, 10)
				buf = append(buf, '\t')
				buf = append(buf, l.Kind.String()...)
				buf = append(buf, '\n')
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	})
}

// exportLoadGraph loads the stored link graph, or the graph as of a cycle.
func exportLoadGraph(db *storage.DB, cycle uint32) (*graph.CSR, error) {
	var view *storage.View
	var err error
	if cycle == 0 {
		view, err = db.Graph()
	} else {
		view, err = db.AsOf(cycle)
	}
	if err != nil {
		return nil, fmt.Errorf("export graph: %w", err)
	}
	g, err := graph.Load(view)
	if err != nil {
		return nil, fmt.Errorf("export graph of %s: %w", db.Path(), err)
	}
	return g, nil
}

// exportGraph writes the stored link graph (or the graph as of a cycle) in
// the ../shared/data format.
func exportGraph(db *storage.DB, base string, cycle uint32, stderr io.Writer) error {
	g, err := exportLoadGraph(db, cycle)
	if err != nil {
		return err
	}
	source := "seedcrawl crawl db " + db.Path()
	if cycle != 0 {
		source += " cycle " + strconv.Itoa(int(cycle))
	}
	if err := graph.WriteDataset(base, source, g); err != nil {
		return fmt.Errorf("export graph: %w", err)
	}
	fmt.Fprintf(stderr, "wrote %s.arcs.tsv.gz and %s.urls.gz: %d nodes, %d arcs\n", base, base, g.N(), g.M())
	return nil
}

// exportFetchRecord is one exported fetch record (JSON; TSV has the same
// columns).
type exportFetchRecord struct {
	Cycle      uint32 `json:"cycle"`
	ID         uint64 `json:"id"`
	URL        string `json:"url"`
	Status     string `json:"status"`
	Code       int    `json:"code"`
	Change     string `json:"change"`
	Hash       string `json:"hash"`
	Length     int64  `json:"length"`
	FetchedAt  string `json:"fetched_at"`
	DurationMS int64  `json:"duration_ms"`
}

var exportFetchColumns = []string{"cycle", "id", "url", "status", "code", "change", "hash", "length", "fetched_at", "duration_ms"}

// exportFetchList writes the per-cycle fetch records of cycle (0: all).
func exportFetchList(db *storage.DB, w *bufio.Writer, format string, cycle uint32) error {
	var urls []string
	if err := db.EachPage(func(p *storage.Page) error {
		for uint64(len(urls)) < p.ID {
			urls = append(urls, "")
		}
		urls = append(urls, p.URL)
		return nil
	}); err != nil {
		return err
	}
	var cycles []uint32
	if cycle != 0 {
		cycles = []uint32{cycle}
	} else {
		cs, err := db.Cycles()
		if err != nil {
			return err
		}
		for _, c := range cs {
			cycles = append(cycles, c.N)
		}
	}
	if format == "tsv" {
		w.WriteString(strings.Join(exportFetchColumns, "\t") + "\n")
	}
	enc := json.NewEncoder(w)
	for _, n := range cycles {
		err := db.EachFetch(n, func(f storage.FetchRecord) error {
			r := exportFetchRecord{Cycle: f.Cycle, ID: f.ID, Status: f.Status.String(), Code: f.Code, Change: f.Change.String(),
				Hash: f.Hash.String(), Length: f.Length, DurationMS: f.Duration.Milliseconds()}
			if f.ID < uint64(len(urls)) {
				r.URL = urls[f.ID]
			}
			if !f.FetchedAt.IsZero() {
				r.FetchedAt = f.FetchedAt.UTC().Format(time.RFC3339Nano)
			}
			if format == "jsonl" {
				return enc.Encode(r)
			}
			_, err := w.WriteString(strings.Join([]string{strconv.FormatUint(uint64(r.Cycle), 10), strconv.FormatUint(r.ID, 10),
				r.URL, r.Status, strconv.Itoa(r.Code), r.Change, r.Hash, strconv.FormatInt(r.Length, 10), r.FetchedAt,
				strconv.FormatInt(r.DurationMS, 10)}, "\t") + "\n")
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// exportGraphFile writes the graph in one of the formats networkx and
// igraph read, to BASENAME plus the format's extension (BASENAME as given
// when it already ends in it), or to stdout for "" and "-". A file that
// fails half-way is removed rather than left truncated.
func exportGraphFile(db *storage.DB, format, base string, cycle uint32, stdout, stderr io.Writer) error {
	g, err := exportLoadGraph(db, cycle)
	if err != nil {
		return err
	}
	write, ext := graph.WriteEdgeList, ".edgelist"
	switch format {
	case "graphml":
		write, ext = graph.WriteGraphML, ".graphml"
	case "pajek":
		write, ext = graph.WritePajek, ".net"
	}
	if base == "" || base == "-" {
		return write(stdout, g)
	}
	path := base
	if !strings.HasSuffix(path, ext) {
		path += ext
	}
	if err := refuseDatabase("--out", path); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("export graph: %w", err)
	}
	err = write(f, g)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("export graph to %s: %w", path, err)
	}
	fmt.Fprintf(stderr, "wrote %s (%s): %d nodes, %d arcs\n", path, format, g.N(), g.M())
	return nil
}
