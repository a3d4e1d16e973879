//go:build !linux || race

package cluster

// StopProcessSampler does nothing here. Off Linux, nats-server's process
// sampler either samples on demand or (on macOS) reschedules itself
// unconditionally, so there is nothing it can stop; sampler_linux.go says
// what the sampler is. In builds with the race detector it is left
// running: stopping it writes a variable the sampler's timer goroutine
// reads unsynchronized, which the detector rightly reports.
func StopProcessSampler() {}
