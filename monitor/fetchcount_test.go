package monitor

import (
	"reflect"
	"testing"
)

// TestFetchCount lists the counters one recorded fetch adds, from a plain
// page to a failed refetch with refused links.
func TestFetchCount(t *testing.T) {
	tests := []struct {
		name string
		f    Fetch
		want map[string]uint64
	}{
		{name: "fetched", f: Fetch{Status: "fetched"}, want: map[string]uint64{"fetch/fetched": 1}},
		{name: "links refused", f: Fetch{Status: "fetched", Truncated: true, Rejects: []string{"url-too-long", "url-too-long", "trap"},
			TooMany: 3, NoFollow: 2},
			want: map[string]uint64{"fetch/fetched": 1, "truncated": 1, "reject/url-too-long": 2, "reject/trap": 1,
				"reject/too-many-links": 3, "skip/nofollow": 2}},
		{name: "failed refetch", f: Fetch{Status: "http-error", Failure: FailureName("", 503), Refresh: true},
			want: map[string]uint64{"fetch/http-error": 1, "error/http-503": 1, "refresh/fetched": 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]uint64{}
			tc.f.Count(func(k string, n uint64) { got[k] += n })
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("counters %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFailureName: a reason names a failure, but noindex (a fetched page's
// reason) leaves it to the HTTP code.
func TestFailureName(t *testing.T) {
	for _, tc := range []struct {
		reason string
		code   int
		want   string
	}{{"timeout", 0, "timeout"}, {"", 404, "http-404"}, {"noindex", 500, "http-500"}} {
		if got := FailureName(tc.reason, tc.code); got != tc.want {
			t.Errorf("FailureName(%q, %d) = %q, want %q", tc.reason, tc.code, got, tc.want)
		}
	}
}
