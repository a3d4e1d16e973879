package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/storage"
)

// exportTestDB stores a small crawl: six URLs (one with characters XML and
// Pajek must escape, one never linked to or from: isolated), five fetched
// pages and their links, and returns the db path and the graph it holds.
func exportTestDB(t *testing.T) (string, *graph.CSR) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := storage.Open(path, &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	urls := []string{"http://a.test/", "http://a.test/q?x=1&y=<2>", "http://b.test/\"quoted\"", "http://b.test/c", "http://c.test/", "http://lonely.test/"}
	ints, err := db.Intern(urls, storage.NoPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	arcs := [][2]int{{0, 1}, {0, 2}, {1, 0}, {1, 3}, {2, 2}, {3, 4}, {4, 0}, {4, 1}}
	var b storage.Batch
	for src := 0; src < 5; src++ {
		var links []storage.Link
		for _, a := range arcs {
			if a[0] == src {
				links = append(links, storage.Link{To: ints[a[1]].ID, Kind: storage.LinkA})
			}
		}
		b.AddFetch(storage.Fetch{ID: ints[src].ID, Status: storage.StatusFetched, Code: 200, ContentType: "text/html",
			FetchedAt: time.Unix(1_700_000_000, 0), Hash: storage.HashOf([]byte(urls[src]))}, links)
	}
	if err := db.Commit(&b); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	gb := graph.NewBuilder(len(urls), false)
	for _, a := range arcs {
		gb.Add(uint32(a[0]), uint32(a[1]))
	}
	g := gb.Build()
	g.SetURLs(urls)
	return path, g
}

func sameArcs(t *testing.T, what string, got, want *graph.CSR) {
	t.Helper()
	if got.N() != want.N() || !slices.Equal(got.Offsets, want.Offsets) || !slices.Equal(got.Targets, want.Targets) {
		t.Fatalf("%s: got %v %v, want %v %v", what, got.Offsets, got.Targets, want.Offsets, want.Targets)
	}
}

// TestExportGraphFormats exports the stored graph as an edge list, GraphML
// and Pajek and reads each back with an independent parser: the edge list
// with ReadSNAP (a round trip), GraphML with encoding/xml, Pajek with a
// line parser. The default export is unchanged: the dataset files.
func TestExportGraphFormats(t *testing.T) {
	db, want := exportTestDB(t)
	dir := t.TempDir()

	cmdOK(t, "export", "--db", db, "--what", "graph", "--out", filepath.Join(dir, "ds"))
	ds, err := graph.ReadDataset(filepath.Join(dir, "ds"))
	if err != nil {
		t.Fatal(err)
	}
	sameArcs(t, "dataset", ds, want)

	checkExit(t, []string{"export", "--db", db, "--what", "graph", "--format", "edgelist", "--out", filepath.Join(dir, "g")}, 0, "g.edgelist (edgelist): 6 nodes, 8 arcs")
	el, err := graph.ReadSNAPFile(filepath.Join(dir, "g.edgelist"))
	if err != nil {
		t.Fatal(err)
	}
	// The isolated page has no line; the others keep their ids as labels.
	for v := 0; v < el.N(); v++ {
		for _, w := range el.Out(uint32(v)) {
			if !slices.Contains(want.Out(uint32(el.Labels[v])), uint32(el.Labels[w])) {
				t.Fatalf("edge list arc %d->%d is not in the db", el.Labels[v], el.Labels[w])
			}
		}
	}
	if el.N() != 5 || el.M() != want.M() {
		t.Fatalf("edge list: %d nodes, %d arcs", el.N(), el.M())
	}

	out := cmdOK(t, "export", "--db", db, "--what", "graph", "--format", "graphml")
	var doc struct {
		Graph struct {
			EdgeDefault string `xml:"edgedefault,attr"`
			Nodes       []struct {
				ID  string `xml:"id,attr"`
				URL string `xml:"data"`
			} `xml:"node"`
			Edges []struct {
				Source string `xml:"source,attr"`
				Target string `xml:"target,attr"`
			} `xml:"edge"`
		} `xml:"graph"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("GraphML does not parse: %v", err)
	}
	gb := graph.NewBuilder(len(doc.Graph.Nodes), false)
	ids := map[string]uint32{}
	for i, n := range doc.Graph.Nodes {
		ids[n.ID] = uint32(i)
		if n.URL != want.URLs[i] {
			t.Errorf("GraphML node %d url %q, want %q", i, n.URL, want.URLs[i])
		}
	}
	for _, e := range doc.Graph.Edges {
		gb.Add(ids[e.Source], ids[e.Target])
	}
	sameArcs(t, "graphml", gb.Build(), want)

	cmdOK(t, "export", "--db", db, "--what", "graph", "--format", "pajek", "--out", filepath.Join(dir, "p.net"))
	f, err := os.Open(filepath.Join(dir, "p.net"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	if sc.Text() != "*Vertices 6" {
		t.Fatalf("Pajek first line %q", sc.Text())
	}
	for v := 1; v <= 6; v++ {
		sc.Scan()
		if id, name, _ := strings.Cut(sc.Text(), " "); id != strconv.Itoa(v) || !strings.HasPrefix(name, `"http://`) || strings.Count(name, `"`) != 2 {
			t.Fatalf("Pajek vertex line %q", sc.Text())
		}
	}
	sc.Scan()
	pb := graph.NewBuilder(6, false)
	for sc.Scan() {
		var u, w uint32
		if _, err := fmt.Sscan(sc.Text(), &u, &w); err != nil || u < 1 || w < 1 || u > 6 || w > 6 {
			t.Fatalf("Pajek arc line %q", sc.Text())
		}
		pb.Add(u-1, w-1)
	}
	sameArcs(t, "pajek", pb.Build(), want)

	for _, args := range [][]string{
		{"--what", "graph", "--format", "jsonl", "--out", filepath.Join(dir, "x")},
		{"--what", "pages", "--format", "graphml"},
	} {
		checkExit(t, append([]string{"export", "--db", db}, args...), 2, "--format")
	}
}
