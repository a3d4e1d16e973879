package testweb

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"testing"
)

func webSite(t testing.TB, seed int64, pages, hosts int) *Site {
	t.Helper()
	return mustGenerate(t, GenOptions{Seed: seed, Pages: pages, Hosts: hosts, Preset: Clean,
		Evolution: Evolution{Model: EvolveWeb}})
}

// TestEvolveWebDeterminism checks that an EvolveWeb epoch is the same web
// however it is reached, and that a different seed gives another one.
func TestEvolveWebDeterminism(t *testing.T) {
	a := webSite(t, 21, 1500, 12)
	b := webSite(t, 21, 1500, 12)
	c := webSite(t, 22, 1500, 12)
	for e := 0; e <= 4; e++ {
		if _, err := a.Truth(e); err != nil {
			t.Fatal(err)
		}
	}
	ta, _ := a.Truth(4)
	tb, _ := b.Truth(4)
	tc, _ := c.Truth(4)
	if !sameTruth(ta, tb) {
		t.Fatal("epoch 4 differs between step-by-step and direct computation")
	}
	if sameTruth(ta, tc) {
		t.Fatal("seeds 21 and 22 give the same epoch 4")
	}
	// A host that appears at epoch 1 answers 404 before it.
	born := a.hosts[a.dormant[0]]
	root := born.Scheme + "://" + born.Name + "/"
	_, s0 := startWeb(t, a, testOptions())
	if status, _, _ := fetch(t, s0.Client(), root); status != 404 {
		t.Errorf("epoch 0: %s answers %d, want 404 before the host appears", root, status)
	}
	if id, ok := ta.ID(root); !ok || ta.Nodes[id].Born != 1 {
		t.Errorf("epoch 4: %s is not a node born at epoch 1 (%v)", root, ok)
	}
	o := testOptions()
	o.Epoch = 4
	_, sa := startWeb(t, a, o)
	_, sb := startWeb(t, b, o)
	ca, cb := sa.Client(), sb.Client()
	for _, v := range ta.New() {
		u := ta.URL(v)
		s1, _, b1 := fetch(t, ca, u)
		s2, _, b2 := fetch(t, cb, u)
		if s1 != 200 || s1 != s2 || string(b1) != string(b2) {
			t.Fatalf("new page %s: %d/%d, bodies equal %v", u, s1, s2, string(b1) == string(b2))
		}
	}
}

// TestEvolveWebModel checks the properties the EvolveWeb model promises,
// epoch by epoch:
//   - the share of evolving pages that change is near Change, and pages
//     change in proportion to their rates (high-rate pages change more
//     often than low-rate ones, over the epochs);
//   - change rates are heavy-tailed across pages and differ across hosts;
//   - Truth.New lists exactly the URLs born at the epoch, every one served
//     and, except moved pages, linked from a page of the epoch; new pages
//     attach to pages of higher in-degree than the average page, or to
//     pages changed at the epoch;
//   - Truth.Changed lists the old URLs whose ETag or status changed;
//   - a host appears each epoch, reachable from the seeds.
func TestEvolveWebModel(t *testing.T) {
	const epochs = 6
	site := webSite(t, 7, 6000, 30)
	var rates []float64
	t0, _ := site.Truth(0)
	for v := range t0.Nodes {
		if r := t0.Nodes[v].ChangeRate; r > 0 {
			rates = append(rates, r)
		}
	}
	sort.Float64s(rates)
	var total, top float64
	for i, r := range rates {
		total += r
		if i >= len(rates)*9/10 {
			top += r
		}
	}
	// Pareto(1.5)·Pareto(2.5): the top tenth of pages carries well over a
	// third of all change events (a uniform rate would give a tenth).
	if share := top / total; share < 0.35 {
		t.Errorf("top 10%% of pages hold %.2f of the change rate, want a heavy tail (>= 0.35)", share)
	}
	if med := rates[len(rates)/2]; rates[len(rates)-1] < 20*med {
		t.Errorf("max rate %.3g < 20 × median %.3g: no heavy tail", rates[len(rates)-1], med)
	}
	hostMean := map[string][2]float64{}
	for v := range t0.Nodes {
		if r := t0.Nodes[v].ChangeRate; r > 0 {
			h := t0.Graph.HostNames[t0.Graph.Hosts[v]]
			m := hostMean[h]
			hostMean[h] = [2]float64{m[0] + r, m[1] + 1}
		}
	}
	lo, hi := math.Inf(1), 0.0
	for _, m := range hostMean {
		if m[1] >= 30 {
			lo, hi = min(lo, m[0]/m[1]), max(hi, m[0]/m[1])
		}
	}
	if hi < 2*lo {
		t.Errorf("host mean rates %.3g..%.3g: hosts do not differ", lo, hi)
	}

	changes := make([]int, t0.Graph.N()) // content changes of epoch-0 pages over the epochs
	prev := t0
	for e := 1; e < epochs; e++ {
		cur, err := site.Truth(e)
		if err != nil {
			t.Fatal(err)
		}
		newIDs := cur.New()
		if len(newIDs) == 0 || int(newIDs[0]) != prev.Graph.N() || len(newIDs) != cur.Graph.N()-prev.Graph.N() {
			t.Fatalf("epoch %d: New() = %d ids from %v, want the %d appended nodes", e, len(newIDs), newIDs[:min(1, len(newIDs))], cur.Graph.N()-prev.Graph.N())
		}
		changed := cur.Changed()
		isChanged := map[uint32]bool{}
		for _, v := range changed {
			isChanged[v] = true
		}
		in := cur.Graph.Transpose()
		prevIn := prev.Graph.Transpose()
		var avgIn float64
		pages := 0
		for v := range prev.Nodes {
			if prev.Nodes[v].Kind == KindPage {
				avgIn += float64(len(prevIn.Out(uint32(v))))
				pages++
			}
		}
		avgIn /= float64(pages)
		var parentIn float64
		parents, nearChanged := 0, 0
		for _, v := range newIDs {
			for _, p := range in.Out(v) {
				if int(p) >= prev.Graph.N() {
					continue
				}
				parents++
				parentIn += float64(len(prevIn.Out(p)))
				if isChanged[p] {
					nearChanged++
				}
			}
		}
		if parents == 0 || parentIn/float64(parents) < 2*avgIn {
			t.Errorf("epoch %d: new pages are linked from pages of mean in-degree %.1f, the web's mean is %.1f: no preferential attachment",
				e, parentIn/float64(max(parents, 1)), avgIn)
		}
		if nearChanged != parents {
			t.Errorf("epoch %d: %d of %d old pages linking to new ones did not change", e, parents-nearChanged, parents)
		}
		evolving, contentChanged := 0, 0
		for v := range prev.Nodes {
			p, c := prev.Nodes[v], cur.Nodes[v]
			differs := p.ETag != c.ETag || p.Status != c.Status || p.Kind != c.Kind
			if differs != isChanged[uint32(v)] {
				t.Fatalf("epoch %d: node %d %s: differs %v, in Changed %v", e, v, cur.URL(uint32(v)), differs, isChanged[uint32(v)])
			}
			if p.Kind == KindPage && p.ChangeRate > 0 {
				evolving++
				if c.Kind == KindPage && c.ETag != p.ETag {
					contentChanged++
					if v < len(changes) {
						changes[v]++
					}
				}
			}
		}
		// Change = 0.10 of the evolving pages by their rates, plus the
		// pages that gain a link to a new page.
		if share := float64(contentChanged) / float64(evolving); share < 0.07 || share > 0.25 {
			t.Errorf("epoch %d: %.3f of the evolving pages changed, want about 0.10 plus parents of new pages", e, share)
		}
		hosts := map[uint32]bool{}
		reach, err := cur.Reachable(cur.Seeds, "seedcrawl")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range reach.Order {
			if cur.Nodes[v].Born == e {
				hosts[cur.Graph.Hosts[v]] = true
			}
		}
		bornHost := false
		for h := range hosts {
			first := true
			for v := 0; v < prev.Graph.N(); v++ {
				if cur.Graph.Hosts[v] == h {
					first = false
					break
				}
			}
			bornHost = bornHost || first
		}
		if e <= len(site.dormant) && !bornHost {
			t.Errorf("epoch %d: no host appeared reachable from the seeds", e)
		}
		prev = cur
	}
	// Pages change in proportion to their rates: the fastest tenth of the
	// pages changes several times as often as the slowest half.
	var ids []int
	for v := range t0.Nodes {
		if t0.Nodes[v].ChangeRate > 0 {
			ids = append(ids, v)
		}
	}
	slices.SortFunc(ids, func(a, b int) int { return cmp.Compare(t0.Nodes[a].ChangeRate, t0.Nodes[b].ChangeRate) })
	mean := func(vs []int) float64 {
		var s float64
		for _, v := range vs {
			s += float64(changes[v])
		}
		return s / float64(len(vs))
	}
	slow, fast := mean(ids[:len(ids)/2]), mean(ids[len(ids)*9/10:])
	if fast < 3*slow {
		t.Errorf("fastest tenth changed %.2f times, slowest half %.2f: changes do not follow the rates", fast, slow)
	}
}

// TestEvolveUniformUnchanged pins the default model: an Evolution without
// Model evolves exactly as EvolveUniform, with no dormant hosts and a
// uniform change rate.
func TestEvolveUniformUnchanged(t *testing.T) {
	a := mustGenerate(t, GenOptions{Seed: 3, Pages: 400, Hosts: 5, Preset: Clean})
	b := mustGenerate(t, GenOptions{Seed: 3, Pages: 400, Hosts: 5, Preset: Clean, Evolution: Evolution{Model: EvolveUniform}})
	ta, _ := a.Truth(2)
	tb, _ := b.Truth(2)
	if !sameTruth(ta, tb) || len(a.Hosts()) != 5 || len(a.dormant) != 0 {
		t.Fatalf("default evolution differs from EvolveUniform (%d hosts, %d dormant)", len(a.Hosts()), len(a.dormant))
	}
	want := -math.Log1p(-0.10)
	for v, nd := range ta.Nodes {
		if nd.Kind == KindPage && nd.ChangeRate != 0 && math.Abs(nd.ChangeRate-want) > 1e-15 {
			t.Fatalf("node %d: rate %v, want %v", v, nd.ChangeRate, want)
		}
	}
	if _, err := Generate(GenOptions{Seed: 1, Evolution: Evolution{Model: 9}}); err == nil {
		t.Error("Generate with evolution model 9: no error")
	}
}
