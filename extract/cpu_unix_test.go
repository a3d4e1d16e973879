//go:build unix

package extract

import (
	"syscall"
	"time"
)

// cpuTime is the process's user plus system CPU time, so benchmarks can
// report CPU per page on a machine shared with other work, where wall
// time per op overstates it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
