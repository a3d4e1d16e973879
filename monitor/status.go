package monitor

import (
	"cmp"
	"slices"
	"time"
)

// Host states reported in Host.State and as the state label of
// seedcrawl_hosts. A Source may use its own words; these are what
// Host.Derive produces.
const (
	StateReady    = "ready"    // URLs queued and the politeness delay has passed
	StateBusy     = "busy"     // a request to it is in flight
	StateWaiting  = "waiting"  // URLs queued; its next request may start at ReadyAt
	StateDeferred = "deferred" // held back until ReadyAt for Reason (robots 5xx, Retry-After ...)
	StateIdle     = "idle"     // nothing queued, nothing in flight
	StateDropped  = "dropped"  // given up for Reason; its URLs were dropped
)

// Status is a snapshot of a running crawl: what /status serves as JSON and
// the page and the gauges of /metrics show.
type Status struct {
	// Command is the subcommand running: crawl, run or compare.
	Command string `json:"command"`
	// PID is the crawl's process id; the server fills it in. A client that
	// found the address in a lock record checks it against the record's pid.
	PID int `json:"pid"`
	// DB is the crawl database's file name, "" if none.
	DB string `json:"db,omitempty"`
	// Start is when the crawl started; Now is when the snapshot was taken
	// (filled in by the server when zero).
	Start time.Time `json:"start,omitzero"`
	Now   time.Time `json:"now"`
	// Cycle is the current recrawl cycle (1 for a single crawl).
	Cycle uint32 `json:"cycle"`
	// NextCycle and NextCycleAt are set while a recrawl waits between
	// cycles (seedcrawl run --interval): cycle NextCycle starts at
	// NextCycleAt. Zero when it does not wait.
	NextCycle   uint32    `json:"next_cycle,omitempty"`
	NextCycleAt time.Time `json:"next_cycle_at,omitzero"`
	// Frontier is the number of URLs queued, not counting those in flight.
	Frontier int `json:"frontier"`
	// InFlight is the number of requests handed out and not yet finished.
	InFlight int `json:"in_flight"`
	// Budget is the crawl's page budget, 0 when it has none; BudgetLeft is
	// how many more pages it may fetch (meaningless when Budget is 0).
	Budget     int64 `json:"budget"`
	BudgetLeft int64 `json:"budget_left"`
	// Fetches, Pages, Discovered and Bytes are the crawl's running totals.
	Fetches    uint64 `json:"fetches"`
	Pages      uint64 `json:"pages"`
	Discovered uint64 `json:"discovered"`
	Bytes      uint64 `json:"bytes"`
	// Counters are the crawl's own counters, keyed "group/name" as
	// `seedcrawl stats` prints them ("fetch/fetched", "reject/max-depth",
	// "error/timeout" ...).
	Counters map[string]uint64 `json:"counters"`
	// Recorded is what the Recorder counted: the numbers /metrics exports.
	// The server fills it in; a Source leaves it zero.
	Recorded Counters `json:"recorded"`
	// HostStates counts all hosts by state. When a Source leaves it nil the
	// server counts Hosts.
	HostStates map[string]int `json:"host_states"`
	// HostsTotal is the number of hosts the crawl knows; Hosts may list
	// fewer (a Source may cut the list, and /status?hosts=N does).
	HostsTotal int `json:"hosts_total"`
	// Hosts lists hosts, longest queue first (the server sorts them).
	Hosts []Host `json:"hosts"`
	// Warnings are recent warnings, oldest first.
	Warnings []Warning `json:"warnings"`
}

// Host is one host's politeness state.
type Host struct {
	Name     string `json:"host"`
	Queue    int    `json:"queue"`     // URLs queued for it
	InFlight int    `json:"in_flight"` // its requests in flight
	// ReadyAt is the earliest time its next request may start; zero when
	// it may start now.
	ReadyAt time.Time `json:"ready_at,omitzero"`
	State   string    `json:"state"`            // a State constant or the Source's own word
	Reason  string    `json:"reason,omitempty"` // why it waits or was dropped
	// Failures counts its consecutive transient failures (the frontier's
	// back-off), 0 when its last request did not fail.
	Failures int `json:"failures,omitempty"`
}

// Derive returns the host's state from its other fields at time now:
// busy, idle, deferred (a future ReadyAt with a Reason), waiting or ready.
// Dropped hosts cannot be told from the fields, so a Source sets that
// state itself.
func (h Host) Derive(now time.Time) string {
	switch {
	case h.InFlight > 0:
		return StateBusy
	case h.Queue == 0:
		return StateIdle
	case h.ReadyAt.After(now) && h.Reason != "":
		return StateDeferred
	case h.ReadyAt.After(now):
		return StateWaiting
	}
	return StateReady
}

// Counters is what a Recorder counted since it was made.
type Counters struct {
	Fetches uint64            `json:"fetches"` // ObserveFetch calls
	Bytes   uint64            `json:"bytes"`   // bytes passed to ObserveFetch
	Codes   map[string]uint64 `json:"codes"`   // fetches by HTTP code ("0": no response)
	Pages   map[string]uint64 `json:"pages"`   // Page calls by status
	Rejects map[string]uint64 `json:"rejects"` // Reject calls by reason
	Errors  map[string]uint64 `json:"errors"`  // Error calls by reason
}

// Warning is one recent warning.
type Warning struct {
	Time    time.Time `json:"time"`
	Level   string    `json:"level"`
	Message string    `json:"message"`
}

// normalize fills in what the server owns and orders the hosts: Now, PID,
// each host's State when empty, HostStates when nil, HostsTotal when
// smaller than the list, hosts longest queue first (then by name), at most
// limit hosts (limit < 0: all).
func (s *Status) normalize(now time.Time, pid, limit int) {
	s.PID = pid
	s.fillStates(now)
	if s.HostsTotal < len(s.Hosts) {
		s.HostsTotal = len(s.Hosts)
	}
	s.Hosts = topHosts(s.Hosts, limit)
	if s.Counters == nil {
		s.Counters = map[string]uint64{}
	}
	if s.Hosts == nil {
		s.Hosts = []Host{}
	}
	if s.Warnings == nil {
		s.Warnings = []Warning{}
	}
}

// cmpHosts orders hosts longest queue first, then by name.
func cmpHosts(a, b Host) int {
	if c := cmp.Compare(b.Queue, a.Queue); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// topHosts returns the first k hosts in cmpHosts order (all when k < 0),
// reordering hs in place. A crawl may know a million hosts and a page
// shows a hundred, so for small k it keeps the best k in a heap whose root
// is the worst of them: O(n log k) instead of a full sort.
func topHosts(hs []Host, k int) []Host {
	if k < 0 || k >= len(hs)/4 {
		slices.SortFunc(hs, cmpHosts)
		if k >= 0 && k < len(hs) {
			hs = hs[:k]
		}
		return hs
	}
	if k == 0 {
		return hs[:0]
	}
	h := hs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	for i := k; i < len(hs); i++ {
		if cmpHosts(hs[i], h[0]) < 0 {
			h[0] = hs[i]
			siftDown(h, 0)
		}
	}
	slices.SortFunc(h, cmpHosts)
	return h
}

// siftDown restores the heap property (each parent orders after its
// children) below i.
func siftDown(h []Host, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && cmpHosts(h[c+1], h[c]) > 0 {
			c++
		}
		if cmpHosts(h[c], h[i]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// fillStates sets Now when zero, each host's State when empty and
// HostStates when nil.
func (s *Status) fillStates(now time.Time) {
	if s.Now.IsZero() {
		s.Now = now
	}
	for i := range s.Hosts {
		if s.Hosts[i].State == "" {
			s.Hosts[i].State = s.Hosts[i].Derive(s.Now)
		}
	}
	if s.HostStates == nil {
		s.HostStates = map[string]int{}
		for _, h := range s.Hosts {
			s.HostStates[h.State]++
		}
	}
}
