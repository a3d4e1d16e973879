package scheduler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Options configures ByName. The zero value is valid for every scheduler except
// omniscient, which needs Truth.
type Options struct {
	// Damping is d for fpr, fpr@M and rankmass-window; 0 means 0.85. It must
	// lie in (0, 1).
	Damping float64
	// Seed seeds random when Rand is nil and the name carries no @SEED.
	Seed uint64
	// Rand, when non-nil and the name carries no @SEED, supplies random's seed:
	// ByName draws one Uint64 from it.
	Rand *rand.Rand
	// Truth returns the true importance of a URL id (omniscient only).
	Truth func(id uint64) float64
	// Nodes, when positive, promises that every id is below Nodes, so
	// schedulers with per-id state (rankmass-window) use arrays, not maps.
	// The simulator sets it to the graph's node count.
	Nodes int
	// History is the prior importance of a URL id for history and
	// history@M: its PageRank on the graph stored by the previous cycle (or
	// any score on the same scale). A value that is not a positive finite
	// number (0, NaN, ±Inf, negative) means the history does not know the
	// id. nil means no history at all: history orders exactly as fpr, and
	// history@M as fpr@M.
	History func(id uint64) float64
	// HistoryMass is the total of History over the pages it knows (1 for a
	// normalised PageRank); 0 means 1. Seeds the history does not know get
	// FPR's (1−d)·HistoryMass/|S|, so that seed mass and prior are on the
	// same scale.
	HistoryMass float64
}

// DefaultDamping is the damping factor used when Options.Damping is 0.
const DefaultDamping = 0.85

// Names lists the scheduler names ByName accepts, with their parameters as
// placeholders.
func Names() []string {
	return []string{"bfs", "fpr", "fpr@M", "opic", "backlink", "random", "random@SEED", "rankmass-window@P", "omniscient", "history", "history@M"}
}

// ByName returns the scheduler selected by name (case-insensitive):
//
//	bfs, fpr, fpr@M (M ≥ 1, e.g. fpr@100), opic, backlink, random,
//	random@SEED, rankmass-window@P (0 < P ≤ 100, e.g. rankmass-window@5),
//	omniscient, history, history@M (M ≥ 1, e.g. history@100)
//
// See the package documentation for what each one does. (The constructor is
// not called New: New is the State of a newly discovered link.)
func ByName(name string, o Options) (Scheduler, error) {
	canon := strings.ToLower(strings.TrimSpace(name))
	d := o.Damping
	if d == 0 {
		d = DefaultDamping
	}
	if !(d > 0 && d < 1) {
		return nil, fmt.Errorf("%w: %s: damping %v must lie in (0, 1)", ErrBadParam, canon, o.Damping)
	}
	base, param, hasParam := strings.Cut(canon, "@")
	if hasParam && param == "" {
		return nil, fmt.Errorf("%w: %q: empty parameter after @", ErrBadParam, name)
	}
	noParam := func() error {
		if hasParam {
			return fmt.Errorf("%w: %q: %s takes no @ parameter", ErrBadParam, name, base)
		}
		return nil
	}
	switch base {
	case "bfs":
		if err := noParam(); err != nil {
			return nil, err
		}
		return bfs{}, nil
	case "fpr":
		if !hasParam {
			return &fpr{name: canon, d: d}, nil
		}
		m, err := strconv.ParseFloat(param, 64)
		if err != nil || math.IsNaN(m) || math.IsInf(m, 0) || m < 1 {
			return nil, fmt.Errorf("%w: %q: M must be a number ≥ 1, as in fpr@2 or fpr@100", ErrBadParam, name)
		}
		return &fprM{name: canon, d: d, m: m}, nil
	case "history":
		if o.HistoryMass < 0 || o.HistoryMass != o.HistoryMass || o.HistoryMass > maxPrior {
			return nil, fmt.Errorf("%w: %s: history mass %v must be a positive number (0 means 1)", ErrBadParam, canon, o.HistoryMass)
		}
		if !hasParam {
			return newHistory(canon, d, 1, o), nil
		}
		m, err := strconv.ParseFloat(param, 64)
		if err != nil || math.IsNaN(m) || math.IsInf(m, 0) || m < 1 {
			return nil, fmt.Errorf("%w: %q: M must be a number ≥ 1, as in history@2 or history@100", ErrBadParam, name)
		}
		return newHistory(canon, d, m, o), nil
	case "opic":
		if err := noParam(); err != nil {
			return nil, err
		}
		return &opic{name: canon}, nil
	case "backlink":
		if err := noParam(); err != nil {
			return nil, err
		}
		return backlink{}, nil
	case "random":
		seed := o.Seed
		switch {
		case hasParam:
			s, err := strconv.ParseUint(param, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: %q: SEED must be an unsigned integer, as in random@42", ErrBadParam, name)
			}
			seed = s
		case o.Rand != nil:
			seed = o.Rand.Uint64()
		}
		return &random{name: canon, seed: seed}, nil
	case "rankmass-window":
		if !hasParam {
			return nil, fmt.Errorf("%w: %q needs a window: rankmass-window@P with 0 < P ≤ 100 (%% of the frontier), e.g. rankmass-window@5", ErrBadParam, name)
		}
		p, err := strconv.ParseFloat(param, 64)
		if err != nil || !(p > 0 && p <= 100) {
			return nil, fmt.Errorf("%w: %q: P must be a percentage in (0, 100], as in rankmass-window@5", ErrBadParam, name)
		}
		return newRankMass(canon, d, p, o.Nodes), nil
	case "omniscient":
		if err := noParam(); err != nil {
			return nil, err
		}
		if o.Truth == nil {
			return nil, ErrNoTruth
		}
		return &omniscient{truth: o.Truth}, nil
	}
	return nil, fmt.Errorf("%w: %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}
