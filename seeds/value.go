package seeds

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/seedcrawl/seedcrawl/graph"
)

// Values returns the value of every page, after Zheng, Dmitriev & Giles:
//
//	w(p) = 1 + n_uncrawled(p) · P_uniq(host(p))
//
// n_uncrawled(p) is the number of p's out-arcs to pages not fetched (a page
// not fetched has no known out-links, so its value is 1). P_uniq(h) is the
// share of host h's fetched pages that were novel; a host without fetched
// pages, or a graph without hosts, uses the share over the whole graph.
// in.Weights then replaces the value of the pages it names.
func Values(in Input) ([]float64, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	g := in.G
	n := g.N()
	fetched := func(v uint32) bool { return in.Fetched == nil || in.Fetched[v] }
	novel := func(v uint32) bool { return in.Novel == nil || in.Novel[v] }

	// P_uniq per host (one pseudo-host when the graph has none).
	nh := 1
	if g.HasHosts() {
		nh = len(g.HostNames)
	}
	hostOf := func(v uint32) uint32 {
		if nh == 1 || !g.HasHosts() {
			return 0
		}
		return g.Hosts[v]
	}
	fetchedN := make([]int, nh)
	novelN := make([]int, nh)
	var allF, allN int
	for v := uint32(0); int(v) < n; v++ {
		if !fetched(v) {
			continue
		}
		h := hostOf(v)
		fetchedN[h]++
		allF++
		if novel(v) {
			novelN[h]++
			allN++
		}
	}
	global := 1.0
	if allF > 0 {
		global = float64(allN) / float64(allF)
	}
	puniq := make([]float64, nh)
	for h := range puniq {
		puniq[h] = global
		if fetchedN[h] > 0 {
			puniq[h] = float64(novelN[h]) / float64(fetchedN[h])
		}
	}

	w := make([]float64, n)
	for v := uint32(0); int(v) < n; v++ {
		unc := 0
		if fetched(v) {
			for _, t := range g.Out(v) {
				if !fetched(t) {
					unc++
				}
			}
		}
		w[v] = 1 + float64(unc)*puniq[hostOf(v)]
	}
	for v, x := range in.Weights {
		w[v] = x
	}
	return w, nil
}

// FetchedByOutDegree returns the fetched flags this package assumes for a
// graph that carries no crawl state (a ../shared/data dataset): a page with
// out-arcs was fetched, a page without is uncrawled frontier. See the package
// documentation for why this matches Zheng et al.'s incremental model.
func FetchedByOutDegree(g *graph.CSR) []bool {
	f := make([]bool, g.N())
	for v := range f {
		f[v] = g.OutDegree(uint32(v)) > 0
	}
	return f
}

// ReadWeights parses a user weights file. Each line is "KEY VALUE" separated
// by white space, where KEY is a page URL as the graph stores it or a decimal
// node id, and VALUE replaces the page's computed value (for example -10 for
// spam, 10 for pages users visit). Blank lines and lines starting with '#' are
// ignored. VALUE must be a finite number. Keys that name no page of g are returned in unknown rather than
// failing, since a weights file usually outlives one crawl. name is used in
// error messages.
func ReadWeights(r io.Reader, name string, g *graph.CSR) (w map[uint32]float64, unknown []string, err error) {
	var byURL map[string]uint32
	if g.URLs != nil {
		byURL = make(map[string]uint32, len(g.URLs))
		for v, u := range g.URLs {
			if _, dup := byURL[u]; !dup {
				byURL[u] = uint32(v)
			}
		}
	}
	w = make(map[uint32]float64)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		if len(f) != 2 {
			return nil, nil, fmt.Errorf("%w: %s:%d: want \"URL-or-node VALUE\", got %q", ErrWeights, name, line, t)
		}
		val, perr := strconv.ParseFloat(f[1], 64)
		if perr != nil || math.IsNaN(val) || math.IsInf(val, 0) {
			// ParseFloat accepts "NaN" and "Inf"; either would turn the
			// greedy selectors' sums into NaN and their ranking into noise.
			return nil, nil, fmt.Errorf("%w: %s:%d: value %q is not a finite number (use e.g. -10 for spam, 10 for clicked pages)", ErrWeights, name, line, f[1])
		}
		if v, ok := byURL[f[0]]; ok {
			w[v] = val
			continue
		}
		if id, perr := strconv.ParseUint(f[0], 10, 32); perr == nil {
			if int(id) < g.N() {
				w[uint32(id)] = val
				continue
			}
		}
		unknown = append(unknown, f[0])
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("seeds: read weights %s: %w", name, err)
	}
	return w, unknown, nil
}
