package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// cpuProfileEnv names the environment variable that, when set to a file
// path, makes any command write a CPU profile of its whole run there (pprof
// format). It is how the build's profile, cmd/seedcrawl/default.pgo, is
// made: a crawl is often over before a --listen profile could be taken.
const cpuProfileEnv = "SEEDCRAWL_CPUPROFILE"

// startCPUProfile starts a CPU profile into the file $SEEDCRAWL_CPUPROFILE
// names, if any, and returns the function that ends it. A profile that
// cannot be started is reported on stderr and the command runs without it.
func startCPUProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv(cpuProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "seedcrawl: %s: %v\n", cpuProfileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "seedcrawl: %s: start profile: %v\n", cpuProfileEnv, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "seedcrawl: %s: write profile: %v\n", cpuProfileEnv, err)
		}
	}
}
