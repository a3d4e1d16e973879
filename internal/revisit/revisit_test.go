package revisit

import (
	"fmt"
	"testing"
)

// TestLasting: the answers that say the URL is missing or refused last;
// a redirect, a 400, 429 and 5xx do not.
func TestLasting(t *testing.T) {
	lasting := map[int]bool{401: true, 403: true, 404: true, 410: true, 451: true,
		0: false, 200: false, 301: false, 400: false, 429: false, 500: false, 503: false}
	for code, want := range lasting {
		if got := Lasting(code); got != want {
			t.Errorf("Lasting(%d) = %v, want %v", code, got, want)
		}
	}
}

// TestDue follows one URL per phase, fetched in cycle 3, through the
// cycles after: none is due before cycle 3+g, each is due in exactly one
// of cycles 3+g..3+2g−1 (its phase's), and every one is due from cycle
// 3+2g−1 on; the g URLs of a block of ids take the g phases.
func TestDue(t *testing.T) {
	const last = 3
	for _, g := range []uint32{1, 2, 4, 7} {
		t.Run(fmt.Sprintf("every %d cycles", g), func(t *testing.T) {
			first := map[uint32]int{} // cycle of the first due → URLs
			for id := uint64(5 * g); id < uint64(6*g); id++ {
				var due []uint32
				for n := uint32(last); n < last+2*g; n++ {
					if Due(id, last, n, g) {
						due = append(due, n)
					}
				}
				switch {
				case len(due) == 0:
					t.Errorf("URL %d (phase %d) not due in cycles %d..%d", id, Phase(id, g), last, last+2*g-1)
				case due[0] < last+g:
					t.Errorf("URL %d due in cycle %d, fewer than %d cycles after its fetch", id, due[0], g)
				case due[0] < last+2*g-1 && len(due) != 2:
					t.Errorf("URL %d due in cycles %v before cycle %d, want once in its phase and then always", id, due, last+2*g-1)
				default:
					first[due[0]]++
				}
				if !Due(id, last, last+5*g, g) {
					t.Errorf("URL %d not due %d cycles after its fetch", id, 5*g)
				}
			}
			for n := last + g; n < last+2*g; n++ {
				if first[n] != 1 {
					t.Errorf("%d URLs of a block first due in cycle %d, want 1: %v", first[n], n, first)
				}
			}
		})
	}
}
