package graph

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testGraphs are the graphs every writer is checked on: with URLs (hostile
// characters included), with labels, and bare with an isolated node.
func testGraphs() map[string]*CSR {
	withURLs := fromArcs(4, [][2]uint32{{0, 1}, {0, 3}, {0, 1}, {1, 1}, {3, 2}})
	withURLs.SetURLs([]string{`http://a.example/?q="x"&y=<z>`, "http://a.example/%20b c", "", "http://b.example/\u00e9\x01"})
	labelled := fromArcs(3, [][2]uint32{{2, 0}, {0, 1}})
	labelled.Labels = []uint64{18446744073709551615, 5, 900000000000}
	return map[string]*CSR{
		"urls":     withURLs,
		"labels":   labelled,
		"isolated": fromArcs(5, [][2]uint32{{0, 4}, {4, 0}}),
	}
}

// graphML is an independent reading of the GraphML subset WriteGraphML
// produces, with encoding/xml.
type graphML struct {
	Keys  []struct{ ID, For, Name, Type string } `xml:"key"`
	Graph struct {
		EdgeDefault string `xml:"edgedefault,attr"`
		Nodes       []struct {
			ID   string `xml:"id,attr"`
			Data []struct {
				Key   string `xml:"key,attr"`
				Value string `xml:",chardata"`
			} `xml:"data"`
		} `xml:"node"`
		Edges []struct {
			Source string `xml:"source,attr"`
			Target string `xml:"target,attr"`
		} `xml:"edge"`
	} `xml:"graph"`
}

func TestWriteGraphMLParses(t *testing.T) {
	for name, g := range testGraphs() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteGraphML(&b, g); err != nil {
				t.Fatal(err)
			}
			var doc graphML
			if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("not well-formed: %v\n%s", err, b.String())
			}
			if doc.Graph.EdgeDefault != "directed" || len(doc.Graph.Nodes) != g.N() || len(doc.Graph.Edges) != g.M() {
				t.Fatalf("edgedefault %q, %d nodes, %d edges; want directed, %d, %d", doc.Graph.EdgeDefault, len(doc.Graph.Nodes), len(doc.Graph.Edges), g.N(), g.M())
			}
			index := make(map[string]uint32)
			for v, n := range doc.Graph.Nodes {
				index[n.ID] = uint32(v)
				for _, d := range n.Data {
					switch {
					case d.Key == "url" && g.URLs != nil:
						want := strings.Map(func(r rune) rune {
							if r < 0x20 {
								return '\uFFFD'
							}
							return r
						}, g.URLs[v])
						if d.Value != want {
							t.Errorf("node %d url %q, want %q", v, d.Value, want)
						}
					case d.Key == "label" && g.Labels != nil:
						if d.Value != strconv.FormatUint(g.Labels[v], 10) {
							t.Errorf("node %d label %q, want %d", v, d.Value, g.Labels[v])
						}
					default:
						t.Errorf("node %d: unexpected data %q", v, d.Key)
					}
				}
			}
			b2 := NewBuilder(g.N(), false)
			for _, e := range doc.Graph.Edges {
				s, ok1 := index[e.Source]
				d, ok2 := index[e.Target]
				if !ok1 || !ok2 {
					t.Fatalf("edge %s->%s names an unknown node", e.Source, e.Target)
				}
				b2.Add(s, d)
			}
			sameGraph(t, b2.Build(), g)
		})
	}
}

// parsePajek is an independent reader of the Pajek subset WritePajek
// produces: "*Vertices N", N lines `k "name"`, "*Arcs", arc lines "u w".
func parsePajek(t *testing.T, text string) (names []string, g *CSR) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Scan()
	f := strings.Fields(sc.Text())
	if len(f) != 2 || !strings.EqualFold(f[0], "*vertices") {
		t.Fatalf("first line %q", sc.Text())
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= n; k++ {
		sc.Scan()
		l := sc.Text()
		id, rest, ok := strings.Cut(l, " ")
		if !ok || id != strconv.Itoa(k) || len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' || strings.ContainsAny(rest[1:len(rest)-1], "\" \t") {
			t.Fatalf("vertex line %q", l)
		}
		names = append(names, rest[1:len(rest)-1])
	}
	sc.Scan()
	if !strings.EqualFold(sc.Text(), "*arcs") {
		t.Fatalf("want *Arcs, got %q", sc.Text())
	}
	b := NewBuilder(n, false)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		u, err1 := strconv.Atoi(f[0])
		w, err2 := strconv.Atoi(f[1])
		if len(f) != 2 || err1 != nil || err2 != nil || u < 1 || u > n || w < 1 || w > n {
			t.Fatalf("arc line %q", sc.Text())
		}
		b.Add(uint32(u-1), uint32(w-1))
	}
	return names, b.Build()
}

func TestWritePajekParses(t *testing.T) {
	for name, g := range testGraphs() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WritePajek(&b, g); err != nil {
				t.Fatal(err)
			}
			names, got := parsePajek(t, b.String())
			sameGraph(t, got, g)
			seen := make(map[string]bool)
			for _, s := range names {
				if seen[s] {
					t.Fatalf("name %q twice: networkx would merge the nodes", s)
				}
				seen[s] = true
			}
			switch name {
			case "urls":
				want := []string{`http://a.example/?q=%22x%22&y=<z>`, "http://a.example/%2520b%20c", "%_2", "http://b.example/\u00e9\x01"}
				if !slices.Equal(names, want) {
					t.Fatalf("names %q, want %q", names, want)
				}
			case "labels":
				if !slices.Equal(names, []string{"18446744073709551615", "5", "900000000000"}) {
					t.Fatalf("names %q", names)
				}
			}
		})
	}
}
