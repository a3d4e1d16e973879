package seeds

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// perHost spreads o.K seeds over hosts in proportion to host importance and
// runs the selector once per host with that host's pages as the only
// candidates (Zheng et al. select seeds per site so that a large crawl keeps
// every important site seeded). Importance is the sum of the positive values
// of the host's candidate pages. Hosts are served in order of importance.
func (s *selector) perHost(ctx context.Context) ([]Seed, []HostQuota, string, error) {
	g := s.g
	nh := len(g.HostNames)
	imp := make([]float64, nh)
	count := make([]int, nh)
	for v, h := range g.Hosts {
		if s.o.Candidates != nil && !s.o.Candidates[v] {
			continue
		}
		count[h]++
		imp[h] += math.Max(s.val[v], 0)
	}
	quota := apportion(s.o.K, imp, count)
	order := make([]int, 0, nh)
	for h := range quota {
		if quota[h] > 0 {
			order = append(order, h)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(imp[b], imp[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var out []Seed
	var quotas []HostQuota
	var notes []string
	// Pages grouped by host, so each host's candidate mask is set and
	// cleared in time proportional to the host's size.
	off, members := groupBy(g.Hosts, nh)
	cands := make([]bool, g.N())
	for _, h := range order {
		mine := members[off[h]:off[h+1]]
		for _, v := range mine {
			cands[v] = s.o.Candidates == nil || s.o.Candidates[v]
		}
		picks, note, err := s.run(ctx, cands, quota[h])
		for _, v := range mine {
			cands[v] = false
		}
		if err != nil {
			return nil, nil, "", fmt.Errorf("host %q: %w", g.HostNames[h], err)
		}
		out = append(out, picks...)
		quotas = append(quotas, HostQuota{Host: g.HostNames[h], Importance: imp[h], Seeds: len(picks)})
		if note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", g.HostNames[h], note))
		}
	}
	note := ""
	if len(notes) > 0 {
		note = strings.Join(notes, "; ")
	}
	return out, quotas, note, nil
}

// apportion divides k seats in proportion to weights by the largest-remainder
// (Hamilton) method, never giving a host more seats than it has pages (cap);
// seats a capped host cannot take are divided again among the others.
// Zero-weight hosts get nothing. Ties go to the larger weight, then the lower
// index.
func apportion(k int, weight []float64, cap []int) []int {
	seats := make([]int, len(weight))
	active := make([]bool, len(weight))
	for h, w := range weight {
		active[h] = w > 0 && cap[h] > 0
	}
	left := k
	for left > 0 {
		var total float64
		var idx []int
		for h, a := range active {
			if a {
				total += weight[h]
				idx = append(idx, h)
			}
		}
		if len(idx) == 0 {
			break
		}
		share := make([]int, len(weight))
		rem := make([]float64, len(weight))
		given := 0
		for _, h := range idx {
			q := float64(left) * weight[h] / total
			share[h] = int(q)
			rem[h] = q - float64(share[h])
			given += share[h]
		}
		slices.SortFunc(idx, func(a, b int) int {
			if c := cmp.Compare(rem[b], rem[a]); c != 0 {
				return c
			}
			if c := cmp.Compare(weight[b], weight[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for i := 0; given < left && i < len(idx); i++ {
			share[idx[i]]++
			given++
		}
		// Hosts over their cap take the cap and leave; the rest is re-divided.
		overflow := false
		for _, h := range idx {
			if seats[h]+share[h] >= cap[h] {
				overflow = overflow || seats[h]+share[h] > cap[h]
				left -= cap[h] - seats[h]
				seats[h] = cap[h]
				active[h] = false
			}
		}
		if !overflow {
			for _, h := range idx {
				if active[h] {
					seats[h] += share[h]
					left -= share[h]
				}
			}
			break
		}
	}
	return seats
}
