package scheduler

// history is the history-aware ordering: a known page is ranked by its
// PageRank on the previous cycle's stored graph, a URL the history does not
// know by the FPR mass downloaded pages send it, on the same scale. With
// m = 1 the shares are FPR's, with m > 1 FPR@M's (inter-host targets get m
// times an intra-host target's share). See the package documentation for
// the exact semantics.
type history struct {
	name  string
	d, m  float64
	prior func(id uint64) float64 // nil: no history, ordering is FPR's / FPR@M's
	mass  float64                 // total mass of the prior; 1 when none is given
}

func newHistory(name string, d, m float64, o Options) *history {
	mass := o.HistoryMass
	if mass == 0 {
		mass = 1
	}
	return &history{name: name, d: d, m: m, prior: o.History, mass: mass}
}

func (s *history) Name() string { return s.name }

// known returns the prior of id and whether the history holds it. A prior
// that is not a positive finite number means "not in the history": PageRank
// with teleportation is positive on every page of the graph it ranks, so 0
// is never a real value.
func (s *history) known(id uint64) (float64, bool) {
	if s.prior == nil {
		return 0, false
	}
	p := s.prior(id)
	if !(p > 0) || p > maxPrior {
		return 0, false
	}
	return p, true
}

// maxPrior rejects +Inf (and absurd values) from a broken history source.
const maxPrior = 1e300

// Seed gives a seed the history knows max(Prio, prior) and any other seed
// FPR's (1−d)·mass/|S| on top of what it has.
func (s *history) Seed(seeds []Link) {
	if len(seeds) == 0 {
		return
	}
	v := (1 - s.d) * s.mass / float64(len(seeds))
	s.spread(seeds, v, v)
}

// Downloaded sends page p's value f = page.Prio (its prior if the history
// knows p, else the FPR mass it gathered) to its out-links with FPR@M's
// shares. A target the history knows gets max(Prio, prior) and no share: its prior already counts the links
// of the previous graph (max keeps a queued priority from dropping if the
// queue was filled under another policy). Any other target accumulates its
// share.
func (s *history) Downloaded(page Link, out []Link) {
	var w, wi float64
	if len(out) > 0 && page.Prio > 0 {
		inter := 0
		if s.m != 1 {
			for i := range out {
				if !out[i].Intra {
					inter++
				}
			}
		}
		// D_p = N_intra + M·N_inter, with every distinct target counted
		// (Done ones and p itself included; their shares are dropped).
		w = s.d * page.Prio / (float64(len(out)-inter) + s.m*float64(inter))
		wi = s.m * w
		if s.m == 1 {
			wi = w
		}
	}
	s.spread(out, w, wi)
}

// spread gives each link that is not Done and that the history knows
// max(Prio, prior), and any other link that is not Done its share on top of
// its Prio: intra if it is intra-host, inter if not.
func (s *history) spread(links []Link, intra, inter float64) {
	for i := range links {
		l := &links[i]
		if l.State == Done {
			continue
		}
		if p, ok := s.known(l.ID); ok {
			l.Prio = max(l.Prio, p)
			continue
		}
		if l.Intra {
			l.Prio += intra
		} else {
			l.Prio += inter
		}
	}
}
