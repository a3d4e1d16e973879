//go:build linux && !race

package cluster

import (
	_ "unsafe" // for go:linkname

	_ "github.com/nats-io/nats-server/v2/server/pse" // the sampler's package
)

// pseStatFile is the path nats-server's process sampler reads: its package
// init reads /proc/PID/stat once and then again every second, for as long
// as the process lives, in every binary that links the server, to keep a
// CPU figure for the server's monitoring pages. The sampler reschedules
// itself only after a successful read.
//
//go:linkname pseStatFile github.com/nats-io/nats-server/v2/server/pse.procStatFile
var pseStatFile string

// StopProcessSampler stops nats-server's once-a-second process sampler,
// which every seedcrawl process runs from start-up because the binary links
// the embedded server. seedcrawl serves no NATS monitoring, so the figure
// the sampler keeps is never read; a polite crawl, which mostly waits, spent
// about a sixth of its CPU on it. The sampler's next read fails and it does
// not reschedule.
//
// Call it once, first thing in main, well within a second of start-up: the
// sampler's first tick is one second after package init, and it reads the
// path without synchronization. Builds with the race detector keep the
// sampler (see sampler_other.go): the detector cannot see that the tick
// comes a second after the write.
func StopProcessSampler() { pseStatFile = "" }
