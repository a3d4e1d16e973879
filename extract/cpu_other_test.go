//go:build !unix

package extract

import "time"

// cpuTime is not measured here; benchmarks then report 0 CPU per page.
func cpuTime() time.Duration { return 0 }
