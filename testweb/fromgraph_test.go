package testweb

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

func readDataset(base string) (*graph.CSR, error) { return graph.ReadDataset(base) }

// TestFromGraphClean checks that a clean site made from a real graph serves
// exactly the input: same node ids, same arcs, a .test URL per node.
func TestFromGraphClean(t *testing.T) {
	for _, name := range []string{"hollins", "epa"} {
		t.Run(name, func(t *testing.T) {
			g, err := readDataset(sharedData(t, name))
			if err != nil {
				t.Fatal(err)
			}
			site, err := FromGraph(g, GraphOptions{Seed: 1, Name: name, Preset: Clean})
			if err != nil {
				t.Fatal(err)
			}
			tr, _ := site.Truth(0)
			if tr.Graph.N() != g.N() || tr.Graph.M() != g.M() {
				t.Fatalf("truth %d nodes %d arcs, input %d %d", tr.Graph.N(), tr.Graph.M(), g.N(), g.M())
			}
			for v := 0; v < g.N(); v++ {
				if !slices.Equal(tr.Graph.Out(uint32(v)), g.Out(uint32(v))) {
					t.Fatalf("node %d arcs %v, input %v", v, tr.Graph.Out(uint32(v)), g.Out(uint32(v)))
				}
				if u := tr.Graph.URLs[v]; !strings.Contains(graph.HostOf(u), ".test") {
					t.Fatalf("node %d served at %s", v, u)
				}
				if c, err := Canonical(tr.Graph.URLs[v]); err != nil || c != tr.Graph.URLs[v] {
					t.Fatalf("node %d URL %s is not canonical (%s, %v)", v, tr.Graph.URLs[v], c, err)
				}
			}
			if len(site.Seeds()) != 3 {
				t.Errorf("seeds %v", site.Seeds())
			}
		})
	}
}

func TestFromGraphURLMapping(t *testing.T) {
	urls := []string{
		"http://www.epa.gov/",
		"http://WWW.EPA.GOV:8080/Air/index.html#top",
		"http:/listings.htm",
		"http://www.oznet.ksu.edu>",
		"https://secure.example.org/a%7eb/../c?x=1",
		"http://www.epa.gov", // same URL as node 0 once normalized
		"gopher://gopher.example.org:70/1/x",
		"http://www.epa.gov/robots.txt",
		"https://www.epa.gov/",         // the https twin of node 0's host
		"http://[2001:DB8::1]:8080/v6", // an IPv6 literal: its colons are not a port
		"http://[2001:db8::2]/v6",
	}
	want := []string{
		"http://www.epa.gov.test/",
		"http://www.epa.gov-p8080.test/Air/index.html",
		"http://nohost.test/listings.htm",
		"http://www.oznet.ksu.edu.test/",
		"https://secure.example.org.test/c?x=1",
		"http://www.epa.gov.test/_n/5.html",
		"http://gopher.example.org-p70.test/1/x",
		"http://www.epa.gov.test/_n/7.html",
		"https://www.epa.gov.test/",
		"http://2001-db8--1-p8080.test/v6",
		"http://2001-db8--2.test/v6",
	}
	b := graph.NewBuilder(len(urls), false)
	for v := range urls {
		b.Add(uint32(v), uint32((v+1)%len(urls)))
	}
	g := b.Build()
	g.SetURLs(urls)
	site, err := FromGraph(g, GraphOptions{Seed: 1, Preset: Clean})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := site.Truth(0)
	for v := range want {
		if tr.Graph.URLs[v] != want[v] {
			t.Errorf("node %d %q served at %s, want %s", v, urls[v], tr.Graph.URLs[v], want[v])
		}
		if id, ok := tr.ID(want[v]); !ok || int(id) != v {
			t.Errorf("ID(%s) = %d, %v", want[v], id, ok)
		}
	}
	_, srv := startWeb(t, site, testOptions())
	c := srv.Client()
	for v, u := range want {
		status, _, body := fetch(t, c, u)
		if status != 200 {
			t.Fatalf("GET %s: %d", u, status)
		}
		links := slices.Compact(extractLinks(t, mustURL(t, u), body)) // a link may be repeated
		if next := want[(v+1)%len(want)]; !slices.Equal(links, []string{next}) {
			t.Errorf("%s links to %v, want %s", u, links, next)
		}
	}
}

// TestFromGraphWithoutURLs checks the host ranges of a graph without URLs.
func TestFromGraphWithoutURLs(t *testing.T) {
	n := 2000
	b := graph.NewBuilder(n, false)
	for v := 0; v < n; v++ {
		b.Add(uint32(v), uint32((v*7+1)%n))
		b.Add(uint32(v), uint32((v*7+1)%n)) // parallel arcs count once
		b.Add(uint32(v), uint32(v))         // self-loops are kept
	}
	g := b.Build()
	site, err := FromGraph(g, GraphOptions{Seed: 1, Name: "CNR 2000", Hosts: 7, Preset: Clean})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := site.Truth(0)
	if len(site.Hosts()) != 7 || tr.Graph.URLs[0] != "http://h0.cnr-2000.test/" || tr.Graph.URLs[1] != "http://h0.cnr-2000.test/n/1.html" {
		t.Fatalf("hosts %v, URLs %s %s", site.Hosts(), tr.Graph.URLs[0], tr.Graph.URLs[1])
	}
	last := -1
	for v := 0; v < n; v++ {
		h := int(tr.Graph.Hosts[v])
		if h < last {
			t.Fatalf("node %d on host %d after host %d: ranges not contiguous", v, h, last)
		}
		last = h
		if out := tr.Graph.Out(uint32(v)); len(out) != 2 {
			t.Fatalf("node %d arcs %v", v, out)
		}
	}
	hostile, err := FromGraph(g, GraphOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ht, _ := hostile.Truth(0)
	if len(hostile.HostsWith(RoleTrap)) != 1 || ht.Graph.N() <= n {
		t.Errorf("hostile graph site: %d nodes, trap hosts %v", ht.Graph.N(), hostile.HostsWith(RoleTrap))
	}
	if len(hostile.Hosts()) != 4+int(RoleSitemap)-1 { // the zoo: every role but regular and the opt-in sitemap
		t.Errorf("hostile graph site has %d hosts", len(hostile.Hosts()))
	}
}

func TestFromGraphErrors(t *testing.T) {
	bad := &graph.CSR{Offsets: []uint64{0, 1}, Targets: []uint32{5}}
	cases := []struct {
		g *graph.CSR
		o GraphOptions
	}{
		{nil, GraphOptions{}},
		{&graph.CSR{}, GraphOptions{}},
		{bad, GraphOptions{}},
		{graph.NewBuilder(3, false).Build(), GraphOptions{Seeds: -1}},
		{graph.NewBuilder(3, false).Build(), GraphOptions{Preset: 9}},
		{graph.NewBuilder(3, false).Build(), GraphOptions{Evolution: Evolution{Move: math.NaN()}}},
	}
	for i, c := range cases {
		if _, err := FromGraph(c.g, c.o); err == nil {
			t.Errorf("case %d: FromGraph accepted", i)
		}
	}
	if _, err := FromGraph(nil, GraphOptions{}); !errors.Is(err, ErrOptions) {
		t.Errorf("nil graph: %v", err)
	}
}
