package frontier

import (
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/config"
)

// TestHostsAndStats follows two hosts through failure, deferral and the
// end of both, checking at each step what Stats counts and Hosts lists;
// the counts move without any Next call, as they do while every worker is
// busy fetching.
func TestHostsAndStats(t *testing.T) {
	r := newPoliteRig(t, config.Politeness{Backoff: time.Second, MaxBackoff: time.Second}, nil)
	type want struct {
		ready, deferred, failing int
		states                   map[string]int
		a, b                     string // states of a.test and b.test
	}
	check := func(step string, w want) {
		t.Helper()
		st := r.f.Stats()
		if st.Ready != w.ready || st.Deferred != w.deferred || st.Failing != w.failing || st.Hosts != 2 {
			t.Errorf("%s: Stats = %+v, want ready %d deferred %d failing %d", step, st, w.ready, w.deferred, w.failing)
		}
		hosts, states := r.f.Hosts(-1)
		if len(hosts) != 2 {
			t.Fatalf("%s: Hosts(-1) listed %d hosts, want 2", step, len(hosts))
		}
		got := map[string]string{}
		for _, h := range hosts {
			got[h.Name] = h.State
		}
		if got["a.test"] != w.a || got["b.test"] != w.b {
			t.Errorf("%s: states a.test %q b.test %q, want %q %q", step, got["a.test"], got["b.test"], w.a, w.b)
		}
		for k, n := range w.states {
			if states[k] != n {
				t.Errorf("%s: %d hosts %s, want %d (%v)", step, states[k], k, n, states)
			}
		}
	}
	check("start", want{ready: 2, a: HostReady, b: HostReady, states: map[string]int{HostReady: 2}})

	j, _ := r.nextOf("a.test")
	check("a.test in flight", want{ready: 1, a: HostBusy, b: HostReady, states: map[string]int{HostBusy: 1, HostReady: 1}})
	r.done(j, Result{Requested: true, Downloaded: true, Transient: true})
	check("a.test failed", want{ready: 1, failing: 1, a: HostFailing, b: HostReady})

	r.f.Defer("b.test", r.clk.Now().Add(time.Minute), "robots-deferred", nil)
	check("b.test deferred", want{failing: 1, deferred: 1, a: HostFailing, b: HostDeferred,
		states: map[string]int{HostFailing: 1, HostDeferred: 1}})
	hosts, _ := r.f.Hosts(-1)
	for _, h := range hosts {
		if h.Name == "b.test" && (h.Reason != "robots-deferred" || !h.ReadyAt.Equal(r.clk.Now().Add(time.Minute))) {
			t.Errorf("b.test: %+v, want reason robots-deferred ready in a minute", h)
		}
	}

	r.clk.Advance(2 * time.Minute)
	// Both ready again; a.test's last request still failed.
	check("time passed", want{ready: 2, failing: 1, a: HostReady, b: HostReady, states: map[string]int{HostReady: 2}})

	top, states := r.f.Hosts(1)
	if len(top) != 1 || top[0].Name != "b.test" || top[0].Queue != 4 || states[HostReady] != 2 {
		t.Errorf("Hosts(1) = %+v %v, want b.test (4 queued, a.test has 3) and both counted", top, states)
	}
	if none, states := r.f.Hosts(0); len(none) != 0 || len(states) == 0 {
		t.Errorf("Hosts(0) = %+v %v, want no host listed and the states counted", none, states)
	}
	j, _ = r.nextOf("a.test")
	r.done(j, Result{Requested: true, Downloaded: true})
	if st := r.f.Stats(); st.Failing != 0 {
		t.Errorf("after a success: %d hosts failing, want 0", st.Failing)
	}
}
