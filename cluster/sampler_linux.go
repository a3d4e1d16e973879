//go:build linux && !race

package cluster

import (
	"os"
	"strconv"
	_ "unsafe" // for go:linkname

	_ "github.com/nats-io/nats-server/v2/server/pse" // the sampler's package
)

// pseStatFile is the path nats-server's process sampler reads: its package
// init reads /proc/PID/stat once and then again every second, for as long
// as the process lives, in every binary that links the server, to keep the
// CPU and memory figures of the server's monitoring pages (varz, statsz).
// The sampler reschedules itself only after a successful read. The name
// and type were checked against the nats-server version that
// TestNATSServerVersion names; that test fails when go.mod moves on.
//
//go:linkname pseStatFile github.com/nats-io/nats-server/v2/server/pse.procStatFile
var pseStatFile string

// StopProcessSampler stops nats-server's once-a-second process sampler,
// which every seedcrawl process runs from start-up because the binary links
// the embedded server. seedcrawl serves no NATS monitoring, so the figures
// the sampler keeps are never read; a polite crawl, which mostly waits,
// spent about 14% of its CPU on it. The sampler's next read fails and
// it does not reschedule. It leaves a path it does not recognise alone.
//
// The sampler reads the path without synchronization, so the write is a
// data race in the memory model's terms, made harmless only by timing:
// call StopProcessSampler once, first thing in main, milliseconds after
// package init, when the sampler's first tick is a second away. Builds
// with the race detector keep the sampler (see sampler_other.go).
func StopProcessSampler() {
	if pseStatFile == "/proc/"+strconv.Itoa(os.Getpid())+"/stat" {
		pseStatFile = ""
	}
}
