package testweb

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
	"github.com/seedcrawl/seedcrawl/internal/crawltest"
)

func TestTruthDumpRoundTrip(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 9, Pages: 300, Hosts: 6})
	tr, err := site.Truth(1)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "web")
	if err := tr.WriteDataset(base, "seedcrawl"); err != nil {
		t.Fatal(err)
	}
	g, err := graph.ReadDataset(base)
	if err != nil {
		t.Fatalf("read the dump back: %v", err)
	}
	if g.N() != tr.Graph.N() || !slices.Equal(g.URLs, tr.Graph.URLs) || !slices.Equal(g.HostNames, tr.Graph.HostNames) {
		t.Fatalf("dump: %d nodes, URLs equal %v; truth %d nodes", g.N(), slices.Equal(g.URLs, tr.Graph.URLs), tr.Graph.N())
	}
	for v := 0; v < g.N(); v++ {
		want := slices.Clone(tr.Graph.Out(uint32(v)))
		slices.Sort(want)
		if got := g.Out(uint32(v)); !slices.Equal(got, want) {
			t.Fatalf("node %d: dump arcs %v, truth %v", v, got, want)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(crawltest.ReadGzip(t, base+".nodes.tsv.gz")))
	rows, forbidden := 0, 0
	var prSum float64
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 6 {
			t.Fatalf("nodes line %q", sc.Text())
		}
		if fs[3] == "forbidden" {
			forbidden++
		}
		pr, err := strconv.ParseFloat(fs[5], 64)
		if err != nil {
			t.Fatal(err)
		}
		prSum += pr
		rows++
	}
	if rows != tr.Graph.N() || forbidden != len(tr.Forbidden("seedcrawl")) || math.Abs(prSum-1) > 1e-6 {
		t.Errorf("nodes file: %d rows, %d forbidden, PageRank sum %g; want %d, %d, 1", rows, forbidden, prSum, tr.Graph.N(), len(tr.Forbidden("seedcrawl")))
	}
	seeds, err := os.ReadFile(base + ".seeds.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(seeds), site.Seeds()[0]+"\n") {
		t.Errorf("seeds file %q lacks %s", seeds, site.Seeds()[0])
	}
}

// TestReachableSemantics checks the documented meaning of Reachable on the
// hostile zoo.
func TestReachableSemantics(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 3, Pages: 300, Hosts: 6})
	tr, _ := site.Truth(0)
	r, err := tr.Reachable(site.Seeds(), "seedcrawl")
	if err != nil {
		t.Fatal(err)
	}
	id := func(u string) uint32 {
		v, ok := tr.ID(u)
		if !ok {
			t.Fatalf("%s is not in the truth", u)
		}
		return v
	}
	cases := []struct {
		url                 string
		discovered, fetched bool
	}{
		{"http://robots503.test/", true, false},
		{"http://robots503.test/x.html", false, false}, // its only in-link is on a page never fetched
		{"http://rules.test/private/secret.html", true, false},
		{"http://rules.test/private/open/page.html", true, true},
		{"http://robotsredirect.test/hidden/page.html", true, false},
		{"http://robotsredirect.test/shown.html", true, true},
		{"http://redirects.test/loop/b", true, true},
		{"http://redirects.test/target/chain.html", true, true},
		{"http://redirects.test/removed.html", true, true},
		{"http://secure.test/", true, true},
		{"https://secure.test/", true, true},
		{"http://trap.test/calendar/2025/01/", true, true},
		{"http://big.test/bomb.html", true, true},
		{"http://drop.test/2.html", true, true},
		{"http://norobots.test/b.html", true, true},
	}
	for _, c := range cases {
		v := id(c.url)
		if r.Discovered(v) != c.discovered || r.Fetched(v) != c.fetched {
			t.Errorf("%s: discovered %v fetched %v, want %v %v", c.url, r.Discovered(v), r.Fetched(v), c.discovered, c.fetched)
		}
	}
	if tr.Graph.OutDegree(id("http://trap.test/calendar/2025/01/")) != 0 {
		t.Error("trap entry has arcs in the truth")
	}
	if out := tr.Graph.Out(id("http://redirects.test/chain/1")); len(out) != 1 || tr.URL(out[0]) != "http://redirects.test/chain/2" {
		t.Errorf("redirect arcs of /chain/1: %v", out)
	}
	// Nofollow links are never arcs, and at least one nofollow target is
	// reachable only through them or not at all.
	if len(tr.Nofollow) == 0 {
		t.Fatal("no nofollow links in the hostile web")
	}
	for _, a := range tr.Nofollow {
		if a.From != a.To && slices.Contains(tr.Graph.Out(a.From), a.To) {
			t.Errorf("nofollow link %s -> %s is also an arc", tr.URL(a.From), tr.URL(a.To))
		}
	}
	// Tendrils and islands are unreachable from the core.
	unreached := 0
	for v := range tr.Graph.URLs {
		if tr.Nodes[v].Kind == KindPage && !r.Discovered(uint32(v)) {
			unreached++
		}
	}
	if unreached < 10 {
		t.Errorf("only %d pages unreachable from the seeds", unreached)
	}
	if _, err := tr.Reachable([]string{"http://nowhere.test/"}, "seedcrawl"); !errors.Is(err, ErrUnknownURL) {
		t.Errorf("unknown seed: %v, want ErrUnknownURL", err)
	}
	// Any spelling of a seed works.
	r2, err := tr.Reachable([]string{"HTTP://WWW.ALPHA.TEST:80/#top"}, "seedcrawl")
	if err != nil || len(r2.Order) != len(r.Order) {
		t.Errorf("mixed-case seed: %v, %d URLs, want %d", err, len(r2.Order), len(r.Order))
	}
}

// TestCompareDetects checks that Compare reports each kind of difference.
func TestCompareDetects(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 3, Pages: 200, Hosts: 4})
	tr, _ := site.Truth(0)
	r, _ := tr.Reachable(site.Seeds(), "seedcrawl")
	g := r.Graph()
	if d := r.Compare(g); !d.Empty() || d.TrapURLs != 0 {
		t.Fatalf("Reach.Graph differs from itself: %s", d)
	}
	// Drop one arc, add one URL and an arc to it, add trap URLs, spell one
	// URL differently.
	b := graph.NewBuilder(g.N()+3, false)
	dropped := false
	for v := 0; v < g.N(); v++ {
		for _, w := range g.Out(uint32(v)) {
			if !dropped && v > 0 {
				dropped = true
				continue
			}
			b.Add(uint32(v), w)
		}
	}
	n := uint32(g.N())
	b.Add(0, n)
	b.Add(0, n+1)
	b.Add(n+1, n+2)
	g2 := b.Build()
	urls := append(slices.Clone(g.URLs), "http://www.alpha.test/extra.html",
		"http://trap.test/calendar/2031/07/", "http://trap.test/calendar/2031/08/")
	g2.SetURLs(urls)
	d := r.Compare(g2)
	if len(d.MissingArcs) != 1 || len(d.ExtraURLs) != 1 || len(d.ExtraArcs) != 2 || d.TrapURLs != 2 || len(d.MissingURLs) != 0 {
		t.Fatalf("Compare found %s", d)
	}
	urls[0] = strings.ToUpper(urls[0])
	g2.SetURLs(urls)
	if d := r.Compare(g2); len(d.MissingURLs) != 1 || !strings.Contains(d.String(), "missing URL: "+g.URLs[0]) {
		t.Errorf("a non-canonical URL is not reported: %s", d)
	}
}

func TestTruthPageRank(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 3, Pages: 200, Hosts: 4, Preset: Clean})
	tr, _ := site.Truth(0)
	pr := tr.PageRank()
	var sum float64
	best := 0
	for v, x := range pr {
		sum += x
		if x > pr[best] {
			best = v
		}
	}
	if len(pr) != tr.Graph.N() || math.Abs(sum-1) > 1e-9 {
		t.Fatalf("PageRank: %d values summing to %g", len(pr), sum)
	}
	if k := tr.Nodes[best].Kind; k != KindPage {
		t.Errorf("highest PageRank on a %v", k)
	}
}

func TestTruthSeedIDs(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 3, Pages: 200, Hosts: 4, Preset: Clean})
	tr, err := site.Truth(0)
	if err != nil {
		t.Fatal(err)
	}
	tr.Seeds = append(tr.Seeds, tr.Seeds[0], "http://nowhere.test/")
	ids := tr.SeedIDs()
	if len(ids) != len(tr.Seeds)-2 {
		t.Fatalf("%d ids for %d seeds, one repeated and one not a node", len(ids), len(tr.Seeds))
	}
	for i, id := range ids {
		if want, _ := Canonical(tr.Seeds[i]); tr.Graph.URLs[id] != want {
			t.Errorf("seed %d: id %d is %s, want %s", i, id, tr.Graph.URLs[id], want)
		}
	}
}
