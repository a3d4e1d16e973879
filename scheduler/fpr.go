package scheduler

// fpr is Fractional PageRank (Alam, Ha and Lee 2009); see the package doc.
// It ignores Link.Intra. fprM with M = 1 gives the same shares bit for bit;
// the two are kept separate so that the test of FPR@1 ≡ FPR compares two
// code paths.
type fpr struct {
	name string
	d    float64
}

func (s *fpr) Name() string { return s.name }

func (s *fpr) Seed(seeds []Link) { seedFPR(seeds, s.d) }

func (s *fpr) Downloaded(page Link, out []Link) {
	if len(out) == 0 || page.Prio == 0 {
		return // dangling: p's mass is dropped
	}
	// N_p counts every distinct target, downloaded ones and p itself
	// included; their shares are dropped.
	w := s.d * page.Prio / float64(len(out))
	for i := range out {
		if out[i].State != Done {
			out[i].Prio += w
		}
	}
}

// fprM is FPR@M (Alam, Ha, Sim and Lee): inter-host targets get M times the
// share of intra-host ones.
type fprM struct {
	name string
	d, m float64
}

func (s *fprM) Name() string { return s.name }

func (s *fprM) Seed(seeds []Link) { seedFPR(seeds, s.d) }

func (s *fprM) Downloaded(page Link, out []Link) {
	if len(out) == 0 || page.Prio == 0 {
		return
	}
	inter := 0
	for i := range out {
		if !out[i].Intra {
			inter++
		}
	}
	// D_p = N_intra + M·N_inter; intra share d·f/D_p, inter M·d·f/D_p.
	w := s.d * page.Prio / (float64(len(out)-inter) + s.m*float64(inter))
	wi := s.m * w
	for i := range out {
		l := &out[i]
		if l.State == Done {
			continue
		}
		if l.Intra {
			l.Prio += w
		} else {
			l.Prio += wi
		}
	}
}

// seedFPR gives each seed (1−d)·t_i with t_i = 1/|S|; a seed already
// downloaded keeps nothing.
func seedFPR(seeds []Link, d float64) {
	if len(seeds) == 0 {
		return
	}
	v := (1 - d) / float64(len(seeds))
	for i := range seeds {
		if seeds[i].State != Done {
			seeds[i].Prio += v
		}
	}
}
