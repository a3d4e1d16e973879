package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/testweb"
)

// BenchmarkRecrawlSeeds is the seed-reselection experiment: on a generated test web
// with epochs, cycle 1 crawls epoch 0 from the site's seeds; cycle 2 crawls
// epoch 1 with the same budget from seeds reselected on the stored graph
// (maxweight, hits-core, pagerank; random for reference) or from cycle 1's
// original seeds (given). The score is the cumulative true PageRank
// (testweb's Truth(1).PageRank(), the served graph of epoch 1, sum 1) of the
// URLs cycle 2 fetched, in the order the server saw them, after 5%, 10% and
// 20% of the budget, beside the best possible (the largest PageRank values).
// One worker and no delays, so the fetch order is the scheduler's (fpr).
//
//	go test -run '^$' -bench RecrawlSeeds -benchtime 1x ./cmd/seedcrawl/
//
// cycle1 = 0 lets cycle 1 crawl all it reaches; a positive cycle1 stops it
// there, so cycle 2 starts from a partial graph with an unfetched frontier
// (Zheng et al.'s setting, where page value counts uncrawled out-links).
func BenchmarkRecrawlSeeds(b *testing.B) {
	for _, size := range []struct{ pages, hosts, cycle1, budget int }{{3000, 40, 0, 1000}, {3000, 40, 1000, 1000}} {
		name := fmt.Sprintf("pages=%d/hosts=%d/cycle1=%d/budget=%d", size.pages, size.hosts, size.cycle1, size.budget)
		b.Run(name, func(b *testing.B) {
			for range b.N {
				table := recrawlSeedsExperiment(b, size.pages, size.hosts, size.cycle1, size.budget)
				b.Log("\n" + table)
			}
		})
	}
}

// recrawlSeedsExperiment runs the experiment and returns its table.
func recrawlSeedsExperiment(b *testing.B, pages, hosts, cycle1, budget int) string {
	b.Helper()
	w := cleanWeb(b, 3, pages, hosts)
	dir := b.TempDir()
	given := w.site.Seeds()
	k := len(given)
	base := filepath.Join(dir, "cycle1.db")
	common := func(db string) []string {
		return runArgs(b, w, db, "--scheduler", "fpr", "--workers", "1", "--commit-interval", "200ms")
	}
	runCmd(b, append(append(common(base), "--cycles", "1", "--seed-algo", "given", "--pages-per-cycle", strconv.Itoa(cycle1)), given...))
	w.toEpoch(b, 1)
	t1, err := w.site.Truth(1)
	if err != nil {
		b.Fatal(err)
	}
	pr := t1.PageRank()
	sorted := slices.Clone(pr)
	slices.SortFunc(sorted, func(x, y float64) int { return cmp.Compare(y, x) })
	fractions := []float64{0.05, 0.10, 0.20}
	var out strings.Builder
	fmt.Fprintf(&out, "cycle 2 at epoch 1, budget %d fetches (cycle 1 fetched %d URLs of epoch 0 from %d seeds), k = %d, scheduler fpr\n",
		budget, len(runReadDB(b, base).fetch[1]), k, k)
	fmt.Fprintf(&out, "mean of %d rounds (min-max), change against the given seeds\n", recrawlRounds)
	fmt.Fprintf(&out, "%-10s %-29s %-29s %-29s  %s\n", "seeds", "PR@5%", "PR@10%", "PR@20%", "fetched  seeds of cycle 2 (last round)")
	upper := make([]float64, len(fractions))
	var ref []float64
	for i := range fractions {
		n := int(fractions[i] * float64(budget))
		for _, x := range sorted[:n] {
			upper[i] += x
		}
	}
	for _, algo := range []string{"given", "maxweight", "hits-core", "pagerank", "random"} {
		// The fetch order of one worker still depends on goroutine timing
		// (a host is busy until its result is disposed of): average rounds.
		vals := make([]float64, len(fractions))
		lo, hi := make([]float64, len(fractions)), make([]float64, len(fractions))
		fetched := 0
		var seedList string
		for round := range recrawlRounds {
			db := filepath.Join(dir, fmt.Sprintf("%s-%d.db", algo, round))
			runCopyFile(b, base, db)
			w.log.Reset()
			runCmd(b, append(common(db), "--cycles", "2", "--seed-algo", algo, "--k", strconv.Itoa(k),
				"--pages-per-cycle", strconv.Itoa(budget)))
			cum := recrawlCumulative(w, t1, pr)
			fetched = len(cum)
			seedList = recrawlSeedList(b, db)
			for i, f := range fractions {
				v := 0.0
				if n := int(f * float64(budget)); n > 0 && n <= len(cum) {
					v = cum[n-1]
				}
				vals[i] += v / recrawlRounds
				if round == 0 || v < lo[i] {
					lo[i] = v
				}
				hi[i] = max(hi[i], v)
			}
		}
		if algo == "given" {
			ref = vals
		}
		fmt.Fprintf(&out, "%-10s", algo)
		for i, v := range vals {
			fmt.Fprintf(&out, " %.4f (%.4f-%.4f)", v, lo[i], hi[i])
			if algo != "given" && ref[i] > 0 {
				fmt.Fprintf(&out, " %+4.0f%%", 100*(v-ref[i])/ref[i])
			} else {
				out.WriteString("      ")
			}
		}
		fmt.Fprintf(&out, "   %d  %s\n", fetched, seedList)
	}
	fmt.Fprintf(&out, "%-10s", "best")
	for _, u := range upper {
		fmt.Fprintf(&out, " %.4f %21s", u, "")
	}
	out.WriteString("   (sum of the largest PageRank values)\n")
	return out.String()
}

// recrawlRounds is how many times each cycle 2 is crawled.
const recrawlRounds = 3

// recrawlCumulative returns the cumulative true PageRank after each request
// the server logged (a URL counts once).
func recrawlCumulative(w *crawlWeb, t1 *testweb.Truth, pr []float64) []float64 {
	seen := map[uint32]bool{}
	var cum []float64
	sum := 0.0
	for _, e := range w.log.Entries() {
		if e.Target == "/robots.txt" {
			continue
		}
		v, ok := t1.ID(e.URL())
		if ok && !seen[v] {
			seen[v] = true
			sum += pr[v]
		}
		cum = append(cum, sum)
	}
	return cum
}

// recrawlSeedList names the seeds cycle 2 started from, shortly.
func recrawlSeedList(b *testing.B, db string) string {
	st := runReadDB(b, db)
	var out []string
	for _, s := range st.cycles[1].Seeds {
		out = append(out, strings.TrimPrefix(st.byID[s.ID], "http://"))
	}
	return strings.Join(out, " ")
}
