package main

import (
	"os"
	"runtime"
	"time"
)

// A polite crawl waits most of the time: one request a second per host,
// the rest idle. Each page then wakes the process from idle, and with more
// than one P the Go scheduler wakes further threads at every goroutine
// hand-off of the page (the worker, the connection's write and read loops,
// the disposer), to look for work that is not there. Measured on a 43-page
// site at the default one request a second (perf stat, medians of 4
// alternating runs): 73 ms of CPU and 1,800 context switches with
// GOMAXPROCS 2, 64 ms and 1,400 with GOMAXPROCS 1. So while a crawl uses
// little CPU it runs on one P, and it gets the runtime's default back as
// soon as it needs more (procsRaiseBusy), and when it ends: between the
// crawls of a run, PageRank and planning use every core.
const (
	// procsWindow is the shortest stretch of a crawl that procs judges.
	procsWindow = 2 * time.Second
	// procsLowerBusy: a crawl that used less than this share of one core
	// over a window runs on one P.
	procsLowerBusy = 0.25
	// procsRaiseBusy: a crawl on one P that used more than this share of
	// its one core over a window gets the default back. Between the two
	// thresholds nothing changes, so a crawl near one of them does not
	// switch at every window.
	procsRaiseBusy = 0.5
)

// procs lowers GOMAXPROCS to 1 while a crawl is idle most of the time (see
// procsLowerBusy). Its zero value does nothing; newProcs makes one that
// acts. Not safe for concurrent use: the crawl's chore ticker calls Tick.
type procs struct {
	on  bool // GOMAXPROCS is the session's to change
	one bool // lowered to 1 by Tick
	// lastCPU and lastWall are the process CPU time and the time at the
	// start of the window being measured.
	lastCPU, lastWall time.Duration
	// cpu and wall read the process CPU time (user and system) and a
	// monotonic clock; set and reset change GOMAXPROCS (runtime.GOMAXPROCS,
	// runtime.SetDefaultGOMAXPROCS). Tests replace them.
	cpu, wall func() time.Duration
	set       func(n int)
	reset     func()
}

// newProcs returns the procs of a crawl: it acts unless the GOMAXPROCS
// environment variable is set (the user's choice wins), the runtime runs
// on one P already, or the system does not tell the process its CPU time.
func newProcs() *procs {
	start := time.Now()
	_, known := processCPU()
	p := &procs{
		on:    known && os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) > 1,
		cpu:   func() time.Duration { d, _ := processCPU(); return d },
		wall:  func() time.Duration { return time.Since(start) },
		set:   func(n int) { runtime.GOMAXPROCS(n) },
		reset: runtime.SetDefaultGOMAXPROCS,
	}
	p.lastCPU, p.lastWall = p.cpu(), p.wall()
	return p
}

// Tick judges the window since the last judgement once it is procsWindow
// long: it lowers GOMAXPROCS to 1 after a window that used less than
// procsLowerBusy of a core, and gives the default back after one at 1
// that used more than procsRaiseBusy.
func (p *procs) Tick() {
	if p == nil || !p.on {
		return
	}
	cpu, wall := p.cpu(), p.wall()
	span := wall - p.lastWall
	if span < procsWindow {
		return
	}
	busy := float64(cpu-p.lastCPU) / float64(span)
	p.lastCPU, p.lastWall = cpu, wall
	switch {
	case !p.one && busy < procsLowerBusy:
		p.set(1)
		p.one = true
	case p.one && busy > procsRaiseBusy:
		p.reset()
		p.one = false
	}
}

// Done gives the runtime's default GOMAXPROCS back if Tick lowered it.
func (p *procs) Done() {
	if p == nil || !p.one {
		return
	}
	p.reset()
	p.one = false
}
