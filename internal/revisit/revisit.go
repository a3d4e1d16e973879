package revisit

import "github.com/seedcrawl/seedcrawl/internal/mix"

// Lasting reports whether an answer with HTTP status code is one that
// rarely changes and leaves no copy: the URL does not exist (404 Not
// Found, 410 Gone) or the server refuses it to this client (401
// Unauthorized, 403 Forbidden, 451 Unavailable For Legal Reasons). A
// crawler without credentials gets the same refusal on the next request,
// and a site that forbids a path usually does so for months. 429 and 5xx
// answers are not lasting: they say the server is busy or broken now.
func Lasting(code int) bool {
	switch code {
	case 401, 403, 404, 410, 451:
		return true
	}
	return false
}

// Due reports whether URL id, whose last answer left no copy (a redirect,
// a Lasting code, robots-denied) and which was fetched last in cycle
// last, is due in cycle n when such URLs are refetched every g ≥ 1
// cycles: at least g cycles after its last fetch, in a cycle of its phase
// (Phase). The first refetch comes g to 2g−1 cycles after the fetch that
// found the answer, every later one g cycles after the previous; of the
// URLs found in the same cycle about 1/g come due in each of g
// consecutive cycles (exactly, when their ids are dense). A URL not
// reached in its phase's cycle (a budget-limited cycle that did not get
// to it) is due in every cycle from 2g−1 cycles after its last fetch on.
func Due(id uint64, last, n, g uint32) bool {
	since := uint64(n) - uint64(min(last, n))
	switch {
	case since < uint64(g):
		return false
	case since >= 2*uint64(g)-1:
		return true
	}
	return (uint64(n)+uint64(Phase(id, g)))%uint64(g) == 0
}

// Phase returns the phase in 0..g−1 of URL id among the cycles of a
// period of g ≥ 1: the id plus a hash of the block of g ids it is in,
// modulo g. The ids of a block take g different phases, so URLs with
// dense ids spread exactly evenly; a hash of the block, not its number,
// so that URLs whose ids come at a stride that shares a factor with g (a
// page listing items of k links, one of them broken) spread over the g
// cycles too, about evenly, rather than all taking the same phase.
func Phase(id uint64, g uint32) uint32 {
	return uint32((id + mix.Finalize(id/uint64(g))) % uint64(g))
}
