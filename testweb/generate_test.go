package testweb

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/graph"
)

// TestGeneratedShape checks the generated graph has the shape the options
// ask for: heavy-tailed host sizes and degrees, the inter-host fraction,
// dangling pages, one giant strongly connected core, and pages the core
// cannot reach.
func TestGeneratedShape(t *testing.T) {
	for _, c := range []struct {
		name  string
		opts  GenOptions
		inter [2]float64
	}{
		{"default", GenOptions{Seed: 1, Preset: Clean}, [2]float64{0.035, 0.08}},
		{"more inter-host", GenOptions{Seed: 2, Pages: 3000, Hosts: 40, InterHostFraction: 0.3, Preset: Clean}, [2]float64{0.25, 0.35}},
	} {
		t.Run(c.name, func(t *testing.T) {
			site := mustGenerate(t, c.opts)
			tr, _ := site.Truth(0)
			g := tr.Graph
			pages := 0
			var inter, arcs, dangling int
			for v := 0; v < g.N(); v++ {
				if tr.Nodes[v].Kind != KindPage {
					continue
				}
				pages++
				if g.OutDegree(uint32(v)) == 0 {
					dangling++
				}
				for _, w := range g.Out(uint32(v)) {
					if tr.Nodes[w].Kind != KindPage {
						continue
					}
					arcs++
					if g.Hosts[v] != g.Hosts[w] {
						inter++
					}
				}
			}
			want := c.opts.Pages
			if want == 0 {
				want = 1000
			}
			if pages != want {
				t.Errorf("%d pages, want %d", pages, want)
			}
			if f := float64(inter) / float64(arcs); f < c.inter[0] || f > c.inter[1] {
				t.Errorf("inter-host fraction %.3f, want %v", f, c.inter)
			}
			if f := float64(dangling) / float64(pages); f < 0.05 || f > 0.2 {
				t.Errorf("dangling fraction %.3f", f)
			}
			comp, count := graph.SCC(g)
			sizes := graph.ComponentSizes(comp, count)
			if big := slices.Max(sizes); float64(big) < 0.6*float64(pages) {
				t.Errorf("largest SCC %d of %d pages", big, pages)
			}
			in := g.InDegrees()
			maxIn, maxOut := slices.Max(in), 0
			for v := 0; v < g.N(); v++ {
				maxOut = max(maxOut, g.OutDegree(uint32(v)))
			}
			mean := float64(g.M()) / float64(g.N())
			if float64(maxIn) < 8*mean || float64(maxOut) < 4*mean {
				t.Errorf("max in-degree %d, out-degree %d, mean %.1f: tails too light", maxIn, maxOut, mean)
			}
			hostPages := map[uint32]int{}
			for v := 0; v < g.N(); v++ {
				hostPages[g.Hosts[v]]++
			}
			largest := 0
			for _, n := range hostPages {
				largest = max(largest, n)
			}
			if float64(largest) < 3*float64(g.N())/float64(len(hostPages)) {
				t.Errorf("largest host %d pages of %d on %d hosts: sizes not skewed", largest, g.N(), len(hostPages))
			}
			r, _ := tr.Reachable(site.Seeds(), "seedcrawl")
			if n := len(r.Order); n >= g.N() || n < pages/2 {
				t.Errorf("%d of %d URLs reachable from the seeds", n, g.N())
			}
		})
	}
}

func TestPresetsAndRoles(t *testing.T) {
	hostile := mustGenerate(t, GenOptions{Seed: 1, Pages: 200, Hosts: 10})
	for r := RoleRegular; r < RoleSitemap; r++ { // RoleSitemap is opt-in
		if len(hostile.HostsWith(r)) == 0 {
			t.Errorf("hostile web has no %v host", r)
		}
	}
	clean := mustGenerate(t, GenOptions{Seed: 1, Pages: 200, Hosts: 10, Preset: Clean})
	if n := len(clean.HostsWith(RoleRegular)); n != len(clean.Hosts()) || n != 10 {
		t.Errorf("clean web: %d regular of %d hosts", n, len(clean.Hosts()))
	}
	ct, _ := clean.Truth(0)
	if len(ct.Nofollow) != 0 {
		t.Errorf("clean web has %d nofollow links", len(ct.Nofollow))
	}
	for v, info := range ct.Nodes {
		if info.Kind != KindPage && info.Kind != KindResource || info.Status != 200 || info.MetaNofollow {
			t.Fatalf("clean web serves %s as %+v", ct.URL(uint32(v)), info)
		}
	}
	https := 0
	for _, h := range clean.Hosts() {
		if h.Scheme == "https" {
			https++
		}
	}
	if https == 0 {
		t.Error("no https host")
	}
	noTLS := mustGenerate(t, GenOptions{Seed: 1, Pages: 200, Hosts: 10, Preset: Clean, NoHTTPS: true})
	for _, h := range noTLS.Hosts() {
		if h.Scheme != "http" {
			t.Errorf("NoHTTPS web serves %s over %s", h.Name, h.Scheme)
		}
	}
	allTLS := mustGenerate(t, GenOptions{Seed: 1, Pages: 200, Hosts: 10, Preset: Clean, AllHTTPS: true})
	for _, h := range allTLS.Hosts() {
		if h.Role == RoleRegular && h.Scheme != "https" {
			t.Errorf("AllHTTPS web serves regular host %s over %s", h.Name, h.Scheme)
		}
	}
	for _, s := range allTLS.Seeds() {
		if !strings.HasPrefix(s, "https://") {
			t.Errorf("AllHTTPS web has seed %s", s)
		}
	}
}

// TestPageFeatures checks that the served HTML exercises every link
// spelling and page feature the package documents, and that the clean
// preset keeps only the harmless ones.
func TestPageFeatures(t *testing.T) {
	features := map[string]string{
		"nofollow link":      `rel="nofollow"`,
		"meta robots":        `<meta name="robots" content="nofollow,noindex">`,
		"canonical":          `<link rel="canonical"`,
		"base href":          `<base href=`,
		"malformed":          `<A HREF=`,
		"fake comment link":  `<!-- <a href=`,
		"mailto":             `href="mailto:`,
		"fragment":           `.html#`,
		"default port":       `:80/`,
		"upper-case scheme":  `href="HTTP://`,
		"protocol-relative":  `href="//`,
		"relative parent":    `href="../`,
		"dot segment":        `href="/x/../`,
		"escaped letter":     `%6`,
		"lower-case escape":  `%c3%a9`,
		"html-escaped query": `&amp;sort=`,
	}
	harmless := []string{"base href", "fragment", "default port", "upper-case scheme", "protocol-relative",
		"relative parent", "dot segment", "escaped letter", "lower-case escape", "html-escaped query"}
	for _, preset := range []Preset{Hostile, Clean} {
		t.Run(preset.String(), func(t *testing.T) {
			site := mustGenerate(t, GenOptions{Seed: 8, Pages: 400, Hosts: 6, Preset: preset})
			_, srv := startWeb(t, site, testOptions())
			tr, _ := site.Truth(0)
			c := srv.Client()
			found := map[string]int{}
			for v, u := range tr.Graph.URLs {
				if tr.Nodes[v].Kind != KindPage {
					continue
				}
				_, _, body := fetch(t, c, u)
				for name, s := range features {
					if strings.Contains(string(body), s) {
						found[name]++
					}
				}
			}
			for name := range features {
				want := preset == Hostile || slices.Contains(harmless, name)
				if (found[name] > 0) != want {
					t.Errorf("%s: %d pages, want present %v", name, found[name], want)
				}
			}
		})
	}
}

func TestGenerateOptionErrors(t *testing.T) {
	for _, o := range []GenOptions{
		{Pages: 5, Hosts: 10},
		{Hosts: -1},
		{Pages: maxPages + 1},
		{InterHostFraction: 1.5},
		{MeanOutDegree: 0.5},
		{DanglingFraction: 0.5, InFraction: 0.3, IslandFraction: 0.3},
		{Preset: 7},
		// NaN compares false with everything: each must be refused, not
		// read as "none" or slip past the range checks.
		{InterHostFraction: math.NaN()},
		{MeanOutDegree: math.NaN()},
		{DanglingFraction: math.NaN()},
		{IslandFraction: math.NaN()},
		{Evolution: Evolution{Change: math.NaN()}},
		{Evolution: Evolution{Gone: 1.5}},
		{Evolution: Evolution{New: math.Inf(1)}},
	} {
		if _, err := Generate(o); !errors.Is(err, ErrOptions) {
			t.Errorf("Generate(%+v) = %v, want ErrOptions", o, err)
		}
	}
	if _, err := ParsePreset("evil"); !errors.Is(err, ErrOptions) {
		t.Errorf("ParsePreset(evil) = %v", err)
	}
	site := mustGenerate(t, GenOptions{Seed: 1, Pages: 20, Hosts: 2})
	for _, o := range []Options{{Epoch: -1}, {FlakyBurst: 5, FlakyPeriod: 2}, {HugeSize: 10}, {SlowLatency: -1}} {
		if _, err := New(site, o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
	if _, err := New(nil, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("New(nil) = %v", err)
	}
}
