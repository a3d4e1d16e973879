//go:build !unix

package main

import "time"

// processCPU does not know the process's CPU time here, so procs never
// lowers GOMAXPROCS.
func processCPU() (time.Duration, bool) { return 0, false }
