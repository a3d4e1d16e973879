// Package grace gives a long-running job the two contexts of a graceful
// stop: one that tells it to take no new work (the caller's ctx ends, a
// time limit passes, or the job aborts) and one that abandons the work in
// flight, which ends a grace period after the first, so that work in hand
// mostly finishes while a hanging piece cannot hold the job past it.
package grace
