//go:build unix

package frontier

import "syscall"

// processCPU returns the CPU time (user + system) the process has used, in
// nanoseconds. On a shared machine wall-clock ns/op include time spent
// waiting for a core; cpu-ns/op do not.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
