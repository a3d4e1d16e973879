package compare

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

var (
	truthPages = flag.Int("compare.truthpages", 3000, "pages of the generated test web TestUnionScoreTruth measures on")
	truthSeed  = flag.Int64("compare.truthseed", 1, "seed of the generated test web TestUnionScoreTruth measures on")
	truthWebs  = flag.String("compare.truthwebs", "", "`SEED:PAGES:HOSTS,...`: generated test webs TestUnionScoreTruth measures on, instead of -compare.truthseed and -compare.truthpages")
)

// truthWeb is a generated test web TestUnionScoreTruth measures on.
type truthWeb struct {
	seed         int64
	pages, hosts int
}

// truthScorer is one way of scoring sequences, by the value of each
// downloaded URL, with the requests it needs beyond the union.
type truthScorer struct {
	name  string
	val   func(url string) float64
	extra int
}

// TestUnionScoreTruth measures how well scores computed without ground
// truth rank the schedulers, against their true PageRank on the test web,
// at 5, 10 and 20% of a budget of half the pages (W = 1, whose sequences
// are sim's on the ground-truth graph). Scorers:
//
//   - default: Score with its defaults (UnfetchedHost) and the frontier
//     sample a comparison fetches by default (DefaultFrontierShare of the
//     union, chosen by FrontierSample);
//   - host, no sample: UnfetchedHost without frontier pages;
//   - old default: UnfetchedDangling without frontier pages (discovered-only
//     URLs dangling, the score before the host estimate);
//   - full frontier, crawl graph: every frontier URL fetched, ranked on the
//     fetched pages alone (--score-frontier --score-graph crawl);
//   - in-degree: distinct in-links from downloaded pages (Cho et al. 1998
//     order by backlink count).
//
// It logs the rankings side by side and how often each scorer agrees with
// the truth, strictly and up to true scores within 0.5 and 1% of each
// other (pairs the truth itself barely orders). It asserts what the
// measurement rests on (Score ranks as the scorer measured here; the
// sample stays within the share) and that the default never misorders two
// schedulers whose true scores differ by more than 1%.
//
//	go test -run UnionScoreTruth -v ./compare -args -compare.truthpages=20000
//	go test -run UnionScoreTruth -v ./compare -args -compare.truthwebs=1:20000:30,2:20000:30,...
func TestUnionScoreTruth(t *testing.T) {
	webs := []truthWeb{{*truthSeed, *truthPages, 30}}
	if *truthWebs != "" {
		webs = nil
		for _, w := range strings.Split(*truthWebs, ",") {
			var e truthWeb
			if _, err := fmt.Sscanf(w, "%d:%d:%d", &e.seed, &e.pages, &e.hosts); err != nil {
				t.Fatalf("-compare.truthwebs %q: want SEED:PAGES:HOSTS: %v", w, err)
			}
			webs = append(webs, e)
		}
	}
	fracs := []float64{0.05, 0.10, 0.20}
	agree := map[string]int{}
	var names []string
	for _, w := range webs {
		scorers, seqs, budget := truthScorers(t, w)
		var sb strings.Builder
		orders := map[string][]string{}
		var truthScore []map[string]float64
		for _, sc := range scorers {
			if !slices.Contains(names, sc.name) {
				names = append(names, sc.name)
			}
			fmt.Fprintf(&sb, "%-26s +%4.1f%% |", sc.name, 100*float64(sc.extra)/float64(len(unionOfSeqs(seqs))))
			all := true
			for i, f := range fracs {
				k := int(math.Ceil(f * float64(budget)))
				score := map[string]float64{}
				for _, s := range seqs {
					for _, x := range s.URLs[:min(k, len(s.URLs))] {
						score[s.Name] += sc.val(x)
					}
				}
				nm := make([]string, len(seqs))
				for j, s := range seqs {
					nm[j] = s.Name
				}
				slices.SortStableFunc(nm, func(a, b string) int { return cmpDesc(score[a], score[b]) })
				orders[fmt.Sprintf("%s@%g", sc.name, f)] = nm
				if sc.name == "truth" {
					truthScore = append(truthScore, score)
					fmt.Fprintf(&sb, " %g%%: %s |", 100*f, strings.Join(nm, " > "))
					continue
				}
				want := orders[fmt.Sprintf("truth@%g", f)]
				same := slices.Equal(nm, want)
				all = all && same
				if same {
					agree[fmt.Sprintf("%s@%g", sc.name, f)]++
				}
				worst := worstMisorder(nm, truthScore[i])
				for _, tol := range []float64{0.005, 0.01} {
					if worst <= tol {
						agree[fmt.Sprintf("%s@%g~%g", sc.name, f, tol)]++
					}
				}
				if sc.name == "default" && worst > 0.01 {
					t.Errorf("web %v at %g%%: the default score ranks %v, the truth %v: a pair %.1f%% apart by true PageRank is misordered",
						w, 100*f, nm, want, 100*worst)
				}
				mark := "≠"
				if same {
					mark = "="
				}
				fmt.Fprintf(&sb, " %g%% %s tau %.2f: %s |", 100*f, mark, kendall(nm, want), strings.Join(nm, " > "))
			}
			if sc.name != "truth" && all {
				agree[sc.name]++
			}
			fmt.Fprintln(&sb)
		}
		t.Logf("web seed %d, %d pages, %d hosts; budget %d, union %d\n%s", w.seed, w.pages, w.hosts, budget, len(unionOfSeqs(seqs)), sb.String())
	}
	var sb strings.Builder
	for _, n := range names[1:] {
		fmt.Fprintf(&sb, "%-26s same order at 5, 10 and 20%% on %d of %d webs (5%%: %d, 10%%: %d, 20%%: %d); "+
			"up to true ties within 0.5%%: %d %d %d, within 1%%: %d %d %d\n", n, agree[n], len(webs),
			agree[n+"@0.05"], agree[n+"@0.1"], agree[n+"@0.2"],
			agree[n+"@0.05~0.005"], agree[n+"@0.1~0.005"], agree[n+"@0.2~0.005"],
			agree[n+"@0.05~0.01"], agree[n+"@0.1~0.01"], agree[n+"@0.2~0.01"])
	}
	t.Log("\n" + sb.String())
}

// worstMisorder returns the largest relative gap (b−a)/a of true scores
// over the pairs that order ranks a before b while the truth puts b higher.
func worstMisorder(order []string, truth map[string]float64) float64 {
	var worst float64
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			a, b := truth[order[i]], truth[order[j]]
			if b > a {
				worst = max(worst, (b-a)/a)
			}
		}
	}
	return worst
}

func unionOfSeqs(seqs []Sequence) []string {
	urls := make([][]string, len(seqs))
	for i, s := range seqs {
		urls[i] = s.URLs
	}
	return unionOf(urls, -1)
}

// truthScorers crawls web w with sim's orders of measureSchedulers (a
// budget of half the pages) and returns the scorers TestUnionScoreTruth
// compares, truth first.
func truthScorers(t *testing.T, w truthWeb) ([]truthScorer, []Sequence, int) {
	t.Helper()
	cw := newCleanWeb(t, w.seed, w.pages, w.hosts)
	truth, g, fail, seeds, seedURLs, sg, truePR := cw.truth, cw.g, cw.fail, cw.seeds, cw.seedURLs, cw.sg, cw.pr
	budget := w.pages / 2
	web := newFakeWeb(g, fail)

	var seqs []Sequence
	var pages []Page
	have := map[string]bool{}
	fetch := func(u string) {
		if !have[u] {
			have[u] = true
			pages = append(pages, web.page(u))
		}
	}
	for _, name := range measureSchedulers {
		order := simOrder(t, sg, seeds, name)
		s := Sequence{Name: name, Done: true}
		for _, v := range order[:min(budget, len(order))] {
			u := g.URLs[v]
			s.URLs = append(s.URLs, u)
			fetch(u)
		}
		seqs = append(seqs, s)
	}
	union := len(pages)
	downloaded := slices.Clone(pages)

	// The frontier: every URL a downloaded page links to that none
	// downloaded, and the sample a comparison fetches of it by default.
	var frontier []string
	for _, p := range downloaded {
		if !p.Failed() {
			for _, l := range p.OutLinks {
				if !have[l] && !slices.Contains(frontier, l) {
					frontier = append(frontier, l)
				}
			}
		}
	}
	share := int(DefaultFrontierShare * float64(union))
	sample, err := FrontierSample(downloaded, seedURLs, seqs, 0, share)
	if err != nil {
		t.Fatal(err)
	}
	if len(sample) != min(share, len(frontier)) {
		t.Errorf("frontier sample of %d URLs, want %d of %d", len(sample), min(share, len(frontier)), len(frontier))
	}
	withSample := slices.Clone(downloaded)
	for _, u := range sample {
		if !slices.Contains(frontier, u) {
			t.Errorf("frontier sample holds %s, not in the frontier", u)
		}
		withSample = append(withSample, web.page(u))
	}
	withAll := slices.Clone(downloaded)
	for _, u := range frontier {
		withAll = append(withAll, web.page(u))
	}

	// Each Score-based scorer reads the value of a URL off the union
	// graph Score ranked on; Score's own ranking is checked against it.
	scored := func(name string, pages []Page, o ScoreOptions, extra int) truthScorer {
		o.Budget = budget
		r, err := Score(pages, seedURLs, seqs, o)
		if err != nil {
			t.Fatal(err)
		}
		c := newCorpus(pages, seedURLs)
		ids := make([][]uint32, len(seqs))
		downloaded := make([]bool, len(c.urls))
		for i, s := range seqs {
			for _, x := range s.URLs {
				ids[i] = append(ids[i], c.ids[x])
				downloaded[c.ids[x]] = true
			}
		}
		var sid []uint32
		for _, s := range seedURLs {
			sid = append(sid, c.ids[s])
		}
		if o.Damping == 0 {
			o.Damping = 0.85
		}
		u := c.build(sid, unionOf(ids, -1), downloaded, o)
		if r.FrontierPages != u.pages-union {
			t.Errorf("%s: Score reports %d frontier pages, the graph holds %d", name, r.FrontierPages, u.pages-union)
		}
		var sum float64
		for _, x := range u.pr {
			sum += x
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Errorf("%s: PageRank sums to %v", name, sum)
		}
		sc := truthScorer{name: name, val: func(x string) float64 { return u.rank(c.ids[x]) }, extra: extra}
		for _, f := range Checkpoints() {
			k := int(math.Ceil(f*float64(budget) - 1e-9))
			score := map[string]float64{}
			for _, s := range seqs {
				for _, x := range s.URLs[:min(k, len(s.URLs))] {
					score[s.Name] += sc.val(x)
				}
			}
			for _, cv := range r.Curves {
				i := slices.Index(r.Pages, k)
				if math.Abs(cv.Cumulative[i]-score[cv.Scheduler]) > 1e-9 {
					t.Errorf("%s: Score's S(%d) of %s is %v, the graph's %v", name, k, cv.Scheduler, cv.Cumulative[i], score[cv.Scheduler])
				}
			}
		}
		return sc
	}
	indeg := map[string]float64{}
	for _, p := range downloaded {
		if !p.Failed() {
			for _, l := range p.OutLinks {
				indeg[l]++
			}
		}
	}
	return []truthScorer{
		{name: "truth", val: func(x string) float64 { v, _ := truth.ID(x); return truePR[v] }},
		scored("default", withSample, ScoreOptions{Frontier: true}, len(sample)),
		scored("host, no sample", downloaded, ScoreOptions{}, 0),
		scored("old default (dangling)", downloaded, ScoreOptions{Unfetched: UnfetchedDangling}, 0),
		scored("full frontier, crawl graph", withAll, ScoreOptions{Frontier: true, Crawl: true}, len(frontier)),
		{name: "in-degree", val: func(x string) float64 { return indeg[x] }},
	}, seqs, budget
}

// kendall is Kendall's tau between two orders of the same names.
func kendall(a, b []string) float64 {
	pos := map[string]int{}
	for i, x := range b {
		pos[x] = i
	}
	var c, d int
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if pos[a[i]] < pos[a[j]] {
				c++
			} else {
				d++
			}
		}
	}
	if c+d == 0 {
		return 1
	}
	return float64(c-d) / float64(c+d)
}
