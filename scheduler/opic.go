package scheduler

import (
	"encoding/binary"
	"fmt"
	"math"
)

// opic is On-line Page Importance Computation (Abiteboul, Preda and Cobena,
// WWW 2003) with the greedy policy: crawl the page with the most cash.
//
// Cash rule (the paper's Algorithm 1, OPIC): initially the seeds share a
// cash of 1; when page i is read, H[i] += C[i], each child j of i gets
// C[i]/out(i), G += C[i], C[i] = 0. A crawl here reads each page once, so the
// cash a downloaded page receives later cannot be spent by reading it again:
// it goes to the paper's virtual page, as does the whole cash of a page
// without out-links. Priority = cash of the URL.
type opic struct {
	name string
	// virtual is the cash held by the virtual page: shares sent to downloaded
	// (or in-flight) targets and the cash of dangling pages.
	virtual float64
	// history is G, the total cash spent by downloads.
	history float64
	// injected is the total cash put in by Seed (1 per call with at least
	// one seed).
	injected float64
}

func (s *opic) Name() string { return s.name }

func (s *opic) Seed(seeds []Link) {
	if len(seeds) == 0 {
		return
	}
	c := 1 / float64(len(seeds))
	for i := range seeds {
		if seeds[i].State == Done {
			s.virtual += c
		} else {
			seeds[i].Prio += c
		}
	}
	s.injected++
}

func (s *opic) Downloaded(page Link, out []Link) {
	c := page.Prio
	s.history += c
	if len(out) == 0 {
		s.virtual += c
		return
	}
	w := c / float64(len(out))
	for i := range out {
		if out[i].State == Done {
			s.virtual += w
		} else {
			out[i].Prio += w
		}
	}
}

const opicStateVersion = 1

// MarshalState saves the virtual page's cash and the running totals.
func (s *opic) MarshalState() ([]byte, error) {
	return putFloats([]byte{opicStateVersion}, s.virtual, s.history, s.injected), nil
}

// UnmarshalState restores what MarshalState saved.
func (s *opic) UnmarshalState(b []byte) error {
	if len(b) != 25 || b[0] != opicStateVersion {
		return fmt.Errorf("%w: opic: want 25 bytes of version %d, got %d bytes", ErrState, opicStateVersion, len(b))
	}
	f := func(i int) float64 { return math.Float64frombits(binary.BigEndian.Uint64(b[1+8*i:])) }
	s.virtual, s.history, s.injected = f(0), f(1), f(2)
	return nil
}
