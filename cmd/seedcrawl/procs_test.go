package main

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestProcs: a crawl's windows of CPU use, in order, and the GOMAXPROCS
// changes they make: lowered to 1 after a window under procsLowerBusy of
// a core, the default given back after a window at 1 over procsRaiseBusy
// and at the end, nothing between the thresholds or within a window
// shorter than procsWindow, nothing at all when GOMAXPROCS is not the
// crawl's to change.
func TestProcs(t *testing.T) {
	type window struct {
		span time.Duration
		busy float64 // share of one core used over span
	}
	w := func(busy float64) window { return window{span: procsWindow, busy: busy} }
	for _, tc := range []struct {
		name    string
		off     bool
		windows []window
		want    []string // changes, in order, Done's included
	}{
		{name: "busy crawl", windows: []window{w(1.8), w(1.2), w(0.6)}, want: nil},
		{name: "polite crawl", windows: []window{w(0.9), w(0.05), w(0.04)}, want: []string{"1", "default"}},
		{name: "burst after idle", windows: []window{w(0.05), w(0.95), w(0.03)}, want: []string{"1", "default", "1", "default"}},
		{name: "between thresholds", windows: []window{w(0.1), w(0.4), w(0.3), w(0.49)}, want: []string{"1", "default"}},
		{name: "just above lower", windows: []window{w(0.3), w(0.26)}, want: nil},
		{name: "short windows add up", windows: []window{{span: procsWindow / 2, busy: 0.01}, {span: procsWindow / 2, busy: 0.01}},
			want: []string{"1", "default"}},
		{name: "short window alone", windows: []window{{span: procsWindow / 2, busy: 0.01}}, want: nil},
		{name: "GOMAXPROCS set by the user", off: true, windows: []window{w(0.01), w(0.01)}, want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cpu, wall time.Duration
			var got []string
			p := &procs{on: !tc.off,
				cpu:   func() time.Duration { return cpu },
				wall:  func() time.Duration { return wall },
				set:   func(n int) { got = append(got, strconv.Itoa(n)) },
				reset: func() { got = append(got, "default") },
			}
			for _, win := range tc.windows {
				wall += win.span
				cpu += time.Duration(win.busy * float64(win.span))
				p.Tick()
			}
			p.Done()
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes %v, want %v", got, tc.want)
			}
		})
	}
	var zero *procs
	zero.Tick()
	zero.Done()
}
