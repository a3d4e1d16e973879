package testweb

import (
	"fmt"
	"sort"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
)

// Reach is the part of a Truth a polite crawler discovers from some seeds
// (see Truth.Reachable).
type Reach struct {
	// Order lists the discovered node ids in breadth-first order from the
	// seeds.
	Order []uint32

	t                   *Truth
	token               string
	discovered, fetched []bool
}

func (r *Reach) discover(v uint32) {
	if !r.discovered[v] {
		r.discovered[v] = true
		r.Order = append(r.Order, v)
	}
}

// Discovered reports whether node id is discovered.
func (r *Reach) Discovered(id uint32) bool { return r.discovered[id] }

// Fetched reports whether node id is discovered and fetched.
func (r *Reach) Fetched(id uint32) bool { return r.fetched[id] }

// URLs returns the discovered URLs, sorted.
func (r *Reach) URLs() []string {
	out := make([]string, len(r.Order))
	for i, v := range r.Order {
		out[i] = r.t.Graph.URLs[v]
	}
	sort.Strings(out)
	return out
}

// Arcs returns the arcs a crawl records: those of fetched nodes.
func (r *Reach) Arcs() []Arc {
	var out []Arc
	for _, v := range r.Order {
		if r.fetched[v] {
			for _, w := range r.t.Graph.Out(v) {
				out = append(out, Arc{v, w})
			}
		}
	}
	return out
}

// Graph returns the discovered subgraph with node i = Order[i]: URLs of
// the discovered nodes, arcs of the fetched ones.
func (r *Reach) Graph() *graph.CSR {
	local := make(map[uint32]uint32, len(r.Order))
	for i, v := range r.Order {
		local[v] = uint32(i)
	}
	b := graph.NewBuilder(len(r.Order), false)
	urls := make([]string, len(r.Order))
	for i, v := range r.Order {
		urls[i] = r.t.Graph.URLs[v]
		if r.fetched[v] {
			for _, w := range r.t.Graph.Out(v) {
				b.Add(uint32(i), local[w])
			}
		}
	}
	g := b.Build()
	g.SetURLs(urls)
	return g
}

// Diff is the difference between a crawl and a Reach. URLs are compared as
// the crawl wrote them, so a crawl that normalizes differently shows up.
type Diff struct {
	MissingURLs []string    // discovered per the truth, absent from the crawl
	ExtraURLs   []string    // in the crawl, not discovered per the truth
	MissingArcs [][2]string // arcs of fetched nodes absent from the crawl
	ExtraArcs   [][2]string // arcs in the crawl the truth does not have
	// TrapURLs counts crawled URLs inside a spider trap beyond its entry;
	// they and the arcs of trap pages are not compared.
	TrapURLs int
}

// Empty reports whether the crawl matched the truth exactly.
func (d Diff) Empty() bool {
	return len(d.MissingURLs)+len(d.ExtraURLs)+len(d.MissingArcs)+len(d.ExtraArcs) == 0
}

// String summarises d, listing at most ten items of each kind.
func (d Diff) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d missing URLs, %d extra URLs, %d missing arcs, %d extra arcs, %d trap URLs",
		len(d.MissingURLs), len(d.ExtraURLs), len(d.MissingArcs), len(d.ExtraArcs), d.TrapURLs)
	list := func(name string, items []string) {
		for i, s := range items {
			if i == 10 {
				fmt.Fprintf(&sb, "\n  %s: ... (%d more)", name, len(items)-10)
				break
			}
			fmt.Fprintf(&sb, "\n  %s: %s", name, s)
		}
	}
	arcs := func(a [][2]string) []string {
		out := make([]string, len(a))
		for i, x := range a {
			out[i] = x[0] + " -> " + x[1]
		}
		return out
	}
	list("missing URL", d.MissingURLs)
	list("extra URL", d.ExtraURLs)
	list("missing arc", arcs(d.MissingArcs))
	list("extra arc", arcs(d.ExtraArcs))
	return sb.String()
}

// Compare compares a crawled graph (its URLs as stored, its arcs as
// recorded) with r. Self-loops and parallel arcs in the crawl count once.
func (r *Reach) Compare(crawled *graph.CSR) Diff {
	var d Diff
	t := r.t
	inCrawl := make(map[string]bool, crawled.N())
	skip := make([]bool, crawled.N())
	for v, u := range crawled.URLs {
		id, known := t.ID(u)
		truthURL := known && t.Graph.URLs[id] == u && r.discovered[id]
		if t.IsTrap(u) {
			skip[v] = true
			if !truthURL {
				d.TrapURLs++
				continue
			}
		}
		inCrawl[u] = true
		if !truthURL {
			d.ExtraURLs = append(d.ExtraURLs, u)
		}
	}
	for _, v := range r.Order {
		if u := t.Graph.URLs[v]; !inCrawl[u] {
			d.MissingURLs = append(d.MissingURLs, u)
		}
	}
	want := make(map[[2]string]bool)
	for _, a := range r.Arcs() {
		if !t.IsTrap(t.Graph.URLs[a.From]) {
			want[[2]string{t.Graph.URLs[a.From], t.Graph.URLs[a.To]}] = true
		}
	}
	got := make(map[[2]string]bool)
	for v := 0; v < crawled.N(); v++ {
		if skip[v] {
			continue
		}
		for _, w := range crawled.Out(uint32(v)) {
			a := [2]string{crawled.URLs[v], crawled.URLs[w]}
			if got[a] {
				continue
			}
			got[a] = true
			if !want[a] {
				d.ExtraArcs = append(d.ExtraArcs, a)
			}
		}
	}
	for a := range want {
		if !got[a] {
			d.MissingArcs = append(d.MissingArcs, a)
		}
	}
	sortArcs(d.MissingArcs)
	sortArcs(d.ExtraArcs)
	sort.Strings(d.MissingURLs)
	sort.Strings(d.ExtraURLs)
	return d
}

func sortArcs(a [][2]string) {
	sort.Slice(a, func(i, j int) bool {
		if a[i][0] != a[j][0] {
			return a[i][0] < a[j][0]
		}
		return a[i][1] < a[j][1]
	})
}
