package testweb

import (
	"bytes"
	"slices"
	"testing"
)

// pageStats renders every HTML page of the regular hosts at epoch 0 and
// returns their sizes and <a href> counts.
func pageStats(t testing.TB, site *Site) (sizes, links []int) {
	t.Helper()
	st := site.base()
	for id := range st.nodes {
		n := &st.nodes[id]
		if n.kind != KindPage || site.hosts[n.host].Role != RoleRegular {
			continue
		}
		b := site.renderPage(nil, st, uint32(id))
		sizes = append(sizes, len(b))
		links = append(links, bytes.Count(bytes.ToLower(b), []byte("<a href")))
	}
	slices.Sort(sizes)
	slices.Sort(links)
	return sizes, links
}

func quantile(sorted []int, q float64) int { return sorted[int(q*float64(len(sorted)-1))] }

func TestDocsProfileShape(t *testing.T) {
	for _, preset := range []Preset{Clean, Hostile} {
		t.Run(preset.String(), func(t *testing.T) {
			site := mustGenerate(t, GenOptions{Seed: 11, Pages: 4000, Hosts: 20, Preset: preset, Profile: ProfileDocs})
			sizes, links := pageStats(t, site)
			over := 0
			for _, s := range sizes {
				if s > 100_000 {
					over++
				}
			}
			frac := float64(over) / float64(len(sizes))
			t.Logf("%d pages: size median %d p90 %d max %d, %.1f%% over 100 KB; links median %d p90 %d max %d",
				len(sizes), quantile(sizes, 0.5), quantile(sizes, 0.9), sizes[len(sizes)-1], 100*frac,
				quantile(links, 0.5), quantile(links, 0.9), links[len(links)-1])
			checks := []struct {
				what     string
				got      float64
				min, max float64
			}{
				{"median size", float64(quantile(sizes, 0.5)), 26_000, 36_000},
				{"p90 size", float64(quantile(sizes, 0.9)), 85_000, 125_000},
				{"fraction over 100 KB", frac, 0.07, 0.14},
				{"max size", float64(sizes[len(sizes)-1]), 200_000, docsMaxSize + 64<<10},
				{"median links", float64(quantile(links, 0.5)), 60, 90},
				{"max links", float64(links[len(links)-1]), 1500, docsIndexLinks + 200},
			}
			for _, c := range checks {
				if c.got < c.min || c.got > c.max {
					t.Errorf("%s = %g, want %g..%g", c.what, c.got, c.min, c.max)
				}
			}
		})
	}
}

// TestDocsNavigationRepeats checks the boilerplate is boilerplate: on the
// largest host, every page that links at all shares the same navigation
// targets, which are most of its links.
func TestDocsNavigationRepeats(t *testing.T) {
	site := mustGenerate(t, GenOptions{Seed: 12, Pages: 1500, Hosts: 10, Preset: Clean, Profile: ProfileDocs})
	tr, _ := site.Truth(0)
	host := site.Hosts()[0].Name
	common := map[uint32]int{}
	pages, arcs := 0, 0
	for v, u := range tr.Graph.URLs {
		if tr.Nodes[v].Kind != KindPage {
			continue
		}
		if h, _ := tr.Host(u); h.Name != host {
			continue
		}
		pages++
		out := tr.Graph.Out(uint32(v))
		arcs += len(out)
		for _, w := range out {
			common[w]++
		}
	}
	shared := 0
	for _, c := range common {
		if c == pages {
			shared++
		}
	}
	if shared != docsNavSame+docsNavOther || float64(shared) < 0.7*float64(arcs)/float64(pages) {
		t.Errorf("%s: %d targets on all %d pages (mean out-degree %.1f), want %d, most of the links",
			host, shared, pages, float64(arcs)/float64(pages), docsNavSame+docsNavOther)
	}
}

func TestDocsProfileDeterminism(t *testing.T) {
	opts := GenOptions{Seed: 13, Pages: 500, Hosts: 5, Profile: ProfileDocs}
	a, b := mustGenerate(t, opts), mustGenerate(t, opts)
	opts.Seed = 14
	c := mustGenerate(t, opts)
	sa, sb, sc := a.base(), b.base(), c.base()
	differ := 0
	for id := range sa.nodes {
		if sa.nodes[id].kind != KindPage {
			continue
		}
		pa, pb := a.renderPage(nil, sa, uint32(id)), b.renderPage(nil, sb, uint32(id))
		if !bytes.Equal(pa, pb) {
			t.Fatalf("node %d differs between two sites with the same seed", id)
		}
		if id < len(sc.nodes) && !bytes.Equal(pa, c.renderPage(nil, sc, uint32(id))) {
			differ++
		}
	}
	if differ < len(sa.nodes)/2 {
		t.Errorf("only %d pages differ with another seed", differ)
	}
	// The default profile is untouched by the option's existence: the same
	// seed without a profile has the same nodes and shorter pages.
	opts = GenOptions{Seed: 13, Pages: 500, Hosts: 5}
	d := mustGenerate(t, opts)
	if sd := d.base(); len(sd.nodes) != len(sa.nodes) {
		t.Errorf("default profile: %d nodes, docs: %d", len(sd.nodes), len(sa.nodes))
	}
	if _, err := ParseProfile("docs"); err != nil {
		t.Error(err)
	}
	if _, err := ParseProfile("huge"); err == nil {
		t.Error("ParseProfile accepted huge")
	}
	if _, err := Generate(GenOptions{Profile: 9}); err == nil {
		t.Error("Generate accepted profile 9")
	}
}
