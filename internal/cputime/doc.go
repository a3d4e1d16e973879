// Package cputime reads the CPU time the process has used, for benchmarks
// that report CPU per operation beside wall time: on a machine shared with
// other work (two cores, a test web in the same process) wall time per op
// counts the waits for a core, CPU time does not.
package cputime
