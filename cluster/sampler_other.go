//go:build !linux || race

package cluster

// StopProcessSampler does nothing here. Off Linux, nats-server's process
// sampler either samples on demand or (on macOS) reschedules itself
// unconditionally, so there is nothing it can stop; sampler_linux.go says
// what the sampler is.
// In builds with the race detector it is left running: the sampler reads
// its path on a timer's goroutine, unordered with main as far as the
// detector can see, so stopping it would be reported as a race.
func StopProcessSampler() {}
