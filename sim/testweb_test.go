package sim

import (
	"bytes"
	"context"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// TestGeneratedWeb simulates every scheduler on a generated multi-host test
// web (Zipf-sized hosts, 5% of the links inter-host; uk-2007-05 has 3.7%)
// from the site's own seed URLs and from the 160 pages of highest PageRank,
// and checks the report invariants.
func TestGeneratedWeb(t *testing.T) {
	site, err := testweb.Generate(testweb.GenOptions{Seed: 1, Pages: 5000, Hosts: 30, Preset: testweb.Clean})
	if err != nil {
		t.Fatal(err)
	}
	truth, err := site.Truth(0)
	if err != nil {
		t.Fatal(err)
	}
	g := truth.Graph
	seeds := truth.SeedIDs()
	if len(seeds) == 0 {
		t.Fatalf("none of the %d seed URLs is a node", len(truth.Seeds))
	}
	top, err := ParseSeeds("top-pagerank:160", g, truth.PageRank())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		seeds []uint32
	}{{"site seeds", seeds}, {"top-pagerank:160", top}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, g, Options{Seeds: tc.seeds, Name: "testweb", PageRank: truth.PageRank()})
			if !s.HasHosts() {
				t.Fatal("generated web without hosts")
			}
			rep, err := s.Run(context.Background(), allSchedulers())
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, rep)
			var buf bytes.Buffer
			rep.WriteTable(&buf)
			t.Logf("%d seeds\n%s", len(tc.seeds), buf.String())
		})
	}
}
